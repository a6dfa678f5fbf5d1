"""SVC dump study: striping, device and channel of a z/OS dump data set.

Rebuilds *z/OS Performance: SVC Dump* (IBM zSeries performance team) as a Ciw
network: dump capture on a busy processor (with page-ins from page data sets),
a dump data set striped over volumes (3390-3 or ESS), and shared channel paths
(ESCON or FICON); IPCS initialization reads the same data set back.

Modules, lowest layer first: ``params`` (names, seed, hardware constants, the
configuration record), ``analytic`` (bottleneck arithmetic), ``mechanism``
(what a chunk costs at each node, and the striping route), ``metrics`` (records
-> elapsed time, data rate, utilizations), ``network`` (the Ciw networks and
``model``), ``calibration`` (three costs from three statements), ``comparison``
(every statement beside the model), ``explore`` (widget re-run and sweeps),
``figures`` (the chapter's tables and charts), ``facts`` (every number the
chapter quotes).
"""

from perfstudies.models.svcdump import figures
from perfstudies.models.svcdump.analytic import bottleneck, bound_elapsed_s, bound_ipcs_s, knee_stripes
from perfstudies.models.svcdump.calibration import calibrate, calibrated_params
from perfstudies.models.svcdump.comparison import (cells, channel_path_sensitivity, configurations, experiments,
                                                   paged_fraction_margin)
from perfstudies.models.svcdump.facts import facts
from perfstudies.models.svcdump.explore import (PANEL, PANEL_FIELDS, PANEL_RANGES, SWEEPS, WIDGET_REPLICATIONS,
                                                escon_slice, ipcs_sweep, stripe_sweep, sweep_points, widget_params,
                                                widget_run)
from perfstudies.models.svcdump.network import dump_model, ipcs_model, model
from perfstudies.models.svcdump.params import CHANNELS, DEVICES, DOCUMENT, KEY, SEED, DumpParams
from perfstudies.study import Study

STUDY = Study(key=KEY, document=DOCUMENT, seed=SEED, params=DumpParams, model=model, calibrate=calibrate,
              cells=cells, experiments=experiments, widget_run=widget_run, sweeps=SWEEPS, panel=PANEL,
              facts=facts)
comparison = STUDY.comparison

__all__ = ["STUDY", "KEY", "DOCUMENT", "SEED", "model", "calibrate", "comparison", "cells", "experiments", "configurations",
           "widget_run", "sweep_points", "PANEL", "SWEEPS", "facts",
           "DumpParams", "DEVICES", "CHANNELS", "calibrated_params", "dump_model", "ipcs_model",
           "bound_elapsed_s", "bound_ipcs_s", "bottleneck", "knee_stripes", "stripe_sweep", "ipcs_sweep",
           "escon_slice", "PANEL_FIELDS", "PANEL_RANGES", "WIDGET_REPLICATIONS", "widget_params", "figures",
           "channel_path_sensitivity", "paged_fraction_margin"]
