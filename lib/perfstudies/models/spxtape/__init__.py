"""SPXTAPE versus SPTAPE: dumping and loading 34,000 spool files to and from tape.

Rebuilds *SPXTAPE Performance* (VM/ESA Release 2.2 Performance Report,
GC24-5673-01) as a Ciw model: SPTAPE does one file at a time, SPXTAPE reads
its spool volumes in parallel into a memory buffer that feeds one or more tape
drives, each of which changes cartridge when its tape is full.

Modules: :mod:`.params` (parameter records), :mod:`.workload` (the spool files),
:mod:`.network` (the Ciw networks), :mod:`.metrics` (a run's Table 1
quantities and ``model``), :mod:`.concurrent` (the Table 2 run with CMS users),
:mod:`.analytic` (closed forms), :mod:`.calibration` (calibration and
``comparison``), :mod:`.explore` (widget re-run and sweep points), :mod:`.views`
(the chapter's charts).
"""

from perfstudies.models.spxtape.calibration import (CONFIGURATIONS, DOCUMENT, STUDY, calibrate,
                                                    calibrate_concurrent, comparison, table2_model)
from perfstudies.models.spxtape.concurrent import volume_model
from perfstudies.models.spxtape.explore import WidgetResult, sweep_points, trace, widget_defaults, widget_run
from perfstudies.models.spxtape.metrics import model
from perfstudies.models.spxtape.params import ConcurrentParams, SpxtapeParams

__all__ = ["CONFIGURATIONS", "DOCUMENT", "STUDY", "ConcurrentParams", "SpxtapeParams", "WidgetResult",
           "calibrate", "calibrate_concurrent", "comparison", "model", "sweep_points", "table2_model", "trace",
           "volume_model", "widget_defaults", "widget_run"]
