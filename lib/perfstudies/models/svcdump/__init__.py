"""SVC dump study: striping, device and channel of a z/OS dump data set.

Rebuilds *z/OS Performance: SVC Dump* (IBM zSeries performance team) as a Ciw
network: dump capture on a busy processor (with page-ins from page data sets),
a dump data set striped over volumes (3390-3 or ESS), and shared channel paths
(ESCON or FICON); IPCS initialization reads the same data set back.

Modules: ``params`` (configuration record, hardware constants), ``analytic``
(bottleneck arithmetic), ``network`` (the Ciw networks and ``model``),
``calibration`` (calibration and ``comparison()``), ``explore`` (widget run and
sweep points), ``figures`` (the chapter's tables and charts).
"""

from perfstudies.models.svcdump.analytic import bottleneck, bound_elapsed_s, bound_ipcs_s, knee_stripes
from perfstudies.models.svcdump.calibration import (DOCUMENT, STUDY, Calibration, calibrate, calibrated_params,
                                                    comparison)
from perfstudies.models.svcdump.network import dump_model, ipcs_model, model
from perfstudies.models.svcdump.params import CHANNELS, DEVICES, DumpParams
from perfstudies.models.svcdump.explore import simulate, widget_run

__all__ = ["STUDY", "DOCUMENT", "comparison", "widget_run", "simulate", "model", "dump_model", "ipcs_model",
           "DumpParams", "DEVICES", "CHANNELS", "Calibration", "calibrate", "calibrated_params", "bound_elapsed_s",
           "bound_ipcs_s", "bottleneck", "knee_stripes"]
