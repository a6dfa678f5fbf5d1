"""Extended Diagnose X'44' Fast Path (z/VM 5.2.0): when a yield can skip the scheduler.

The study's skeleton (:mod:`perfstudies.studies`): :mod:`.params` (STUDY,
DOCUMENT, SEED and the parameter record), :mod:`.analytic` (the binomial
theory), :mod:`.mechanism` (the Ciw classes), :mod:`.metrics` (records to the
report's rows), :mod:`.network` (the network and the one-replication model),
:mod:`.calibration`, :mod:`.comparison`, :mod:`.explore` (live panel, sweep,
theory tables) and :mod:`.figures` (the chapter's charts).
"""

from . import figures
from .analytic import no_sibling_queued, percent_fast, queued_share
from .calibration import CALIBRATED_FIELDS, calibrate, calibrated_constants
from .comparison import comparison
from .explore import (LIVE_CONTROLS, WIDGET_DEFAULTS, fast_path_runs, live_view, sibling_table, sweep_points,
                      theory_table, vp_sweep, widget_run)
from .network import build_network, model
from .params import DOCUMENT, SEED, STUDY, DiagParams

__all__ = ["STUDY", "DOCUMENT", "SEED", "DiagParams", "model", "build_network", "calibrate", "CALIBRATED_FIELDS",
           "calibrated_constants",
           "comparison", "widget_run", "sweep_points", "WIDGET_DEFAULTS", "LIVE_CONTROLS", "live_view", "vp_sweep",
           "theory_table", "fast_path_runs", "sibling_table", "no_sibling_queued", "queued_share", "percent_fast",
           "figures"]
