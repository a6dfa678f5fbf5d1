"""Extended Diagnose X'44' Fast Path (z/VM 5.2.0): when a yield can skip the scheduler.

The study's skeleton (:mod:`perfstudies.studies`): :mod:`.params` (KEY,
DOCUMENT, SEED and the parameter record), :mod:`.analytic` (the fast path's
closed form, the scheduler lock, MVA), :mod:`.mechanism` (the Ciw classes), :mod:`.metrics` (records to the
report's rows), :mod:`.network` (the network and the one-replication model),
:mod:`.calibration`, :mod:`.comparison` (the declared cells and experiments), :mod:`.explore` (live panel, sweep,
theory tables), :mod:`.figures` (the chapter's charts) and :mod:`.facts` (every number the chapter quotes).
"""

from perfstudies.study import Study

from . import figures
from .analytic import (fast_path_percent, lock_from_spin_rows, mm1_wait, mva_solution, no_sibling_queued,
                       percent_fast, queued_share)
from .calibration import CALIBRATED_FIELDS, calibrate, calibrate_machines, calibrated_constants
from .comparison import CAP, CAPS, cells, experiments
from .explore import (LIVE_CONTROLS, PANEL, SWEEPS, WIDGET_DEFAULTS, expected_results, fast_path_runs, mva_table,
                      panel_by_processors, run_summaries, scoreboard_table, sibling_table, sweep_points,
                      theory_table, vp_sweep, widget_run, worst_table)
from .facts import facts
from .network import build_network, model
from .params import DOCUMENT, FIVE_WAY, KEY, SEED, DiagParams

__all__ = ["STUDY", "KEY", "DOCUMENT", "SEED", "DiagParams", "FIVE_WAY", "model", "build_network", "calibrate",
           "calibrate_machines", "CALIBRATED_FIELDS", "calibrated_constants",
           "comparison", "cells", "experiments", "CAP", "CAPS", "widget_run", "sweep_points", "WIDGET_DEFAULTS",
           "LIVE_CONTROLS", "PANEL", "SWEEPS", "vp_sweep",
           "theory_table", "fast_path_runs", "run_summaries", "sibling_table", "mva_table", "expected_results",
           "scoreboard_table", "worst_table", "panel_by_processors", "facts",
           "no_sibling_queued", "queued_share", "percent_fast", "fast_path_percent", "mm1_wait",
           "lock_from_spin_rows", "mva_solution", "figures"]

STUDY = Study(key=KEY, document=DOCUMENT, seed=SEED, params=DiagParams, model=model, calibrate=calibrate,
              cells=cells, experiments=experiments, widget_run=widget_run, sweeps=SWEEPS, panel=PANEL,
              facts=facts)
comparison = STUDY.comparison
