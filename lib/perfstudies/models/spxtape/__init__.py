"""SPXTAPE versus SPTAPE: dumping and loading 34,000 spool files to and from tape.

Rebuilds *SPXTAPE Performance* (VM/ESA Release 2.2 Performance Report,
GC24-5673-01) as a Ciw model: SPTAPE does one file at a time, SPXTAPE reads
its spool volumes in parallel into a memory buffer that feeds one or more tape
drives, each of which changes cartridge when its tape is full.  The package
follows the skeleton of :mod:`perfstudies.studies`: :mod:`.params`,
:mod:`.workload` (the spool files), :mod:`.analytic`, :mod:`.mechanism` (the
Ciw subclasses), :mod:`.metrics`, :mod:`.network`, :mod:`.calibration`,
:mod:`.comparison`, :mod:`.explore`, :mod:`.figures`, :mod:`.facts`.
"""

from perfstudies.models.spxtape.analytic import busiest_volume_pages, envelope
from perfstudies.models.spxtape.calibration import (CONFIGURATIONS, TABLE1_COLUMN_OF, TABLE1_ROWS, calibrate,
                                                    calibrate_concurrent, calibration_table, envelope_table,
                                                    table2_model)
from perfstudies.models.spxtape.comparison import cells, experiments
from perfstudies.models.spxtape.explore import (PANEL, SWEEPS, WIDGET_CONTROLS, WIDGET_RANGES, drives_sweep,
                                                one_drive_trace, sweep_points, trace, widget_defaults, widget_run)
from perfstudies.models.spxtape.facts import facts
from perfstudies.models.spxtape.figures import (calibration_view, elapsed_chart, network_chart, run_chart, sweep_chart,
                                                widget_view)
from perfstudies.models.spxtape.network import build_network, model, volume_model
from perfstudies.models.spxtape.params import DOCUMENT, KEY, SEED, ConcurrentParams, SpxtapeParams
from perfstudies.study import Study

__all__ = ["CONFIGURATIONS", "DOCUMENT", "KEY", "PANEL", "SEED", "STUDY", "SWEEPS", "TABLE1_COLUMN_OF", "TABLE1_ROWS",
           "WIDGET_CONTROLS",
           "WIDGET_RANGES", "ConcurrentParams", "SpxtapeParams", "build_network",
           "busiest_volume_pages", "calibrate", "calibrate_concurrent", "calibration_table", "calibration_view", "cells",
           "comparison",
           "elapsed_chart", "envelope", "envelope_table", "experiments", "facts", "model", "network_chart", "one_drive_trace",
           "run_chart", "drives_sweep", "sweep_chart",
           "sweep_points", "table2_model", "trace", "volume_model", "widget_defaults", "widget_run",
           "widget_view"]

#: The study, declared on the core contract (:mod:`perfstudies.study`).
STUDY = Study(key=KEY, document=DOCUMENT, seed=SEED, params=SpxtapeParams, model=model, calibrate=calibrate,
              cells=cells, experiments=experiments, widget_run=widget_run, sweeps=SWEEPS, panel=PANEL,
              facts=facts)
comparison = STUDY.comparison
