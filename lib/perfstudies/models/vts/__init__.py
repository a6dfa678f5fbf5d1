"""IBM Magstar 3494 Virtual Tape Server: throughput, cache and recall (study ``vts``).

The skeleton of :mod:`perfstudies.studies`: :mod:`.params` (the record, Table 3,
the document's three machines, its statements, ``SEED``), :mod:`.analytic`
(bottleneck bound, exact MVA of the closed network, equations 1-3, the recall
and copy-out closed forms), :mod:`.mechanism` (the service-time distributions),
:mod:`.metrics` (records -> host MB/s, utilisations, mount response),
:mod:`.network` (the throughput ``model`` and ``recall_model``),
:mod:`.calibration` (service times from named cells), :mod:`.comparison`
(every compared cell declared with its role, and the experiments they
name), :mod:`.explore` (live panel, sweeps, the chapter's tables),
:mod:`.figures` (every chart) and :mod:`.facts` (every number the chapter
quotes).  ``STUDY`` is the study's record on the core contract
(:class:`perfstudies.study.Study`).
"""

from perfstudies.models.vts.analytic import (
    bottleneck, bound, capacities, copy_ceiling, copy_service_s, equation3, import_export_minutes, mva_solution,
    recall_service_s, sustained_crossover_cf,
)
from perfstudies.models.vts.calibration import TABLE4, calibrate, calibration_table
from perfstudies.models.vts.comparison import (BEST_CASE, FLAT, analytic_part, cells, experiments, printed, recall_bounds,
                                             statements)
from perfstudies.models.vts.explore import (
    PANEL, SWEEPS, WIDGET_FIELDS, WIDGET_RANGES, cache_arm_candidates, cache_arm_check, cache_choices,
    calibrated_constants, contention_tasks,
    equation3_table, example_run, flattening_candidates, headline_bounds, paf_against_bound, recall_sweep,
    scoreboard_counts,
    theory_beside_simulation, widget_run, widget_theory, worst_predictions, write_sweep,
)
from perfstudies.models.vts.facts import facts
from perfstudies.models.vts.figures import (
    capacity_chart, hours_at_peak_chart, recall_slider, table4_chart, throughput_scatter, vts_diagram, widget_view,
    write_slider,
)
from perfstudies.models.vts.network import model, recall_model
from perfstudies.models.vts.params import (
    DOCUMENT, KEY, SEED, VTSParams, base, cache_configurations, ehpo, paf, statement, text_value,
)
from perfstudies.study import Study

STUDY = Study(key=KEY, document=DOCUMENT, seed=SEED, params=VTSParams, model=model, calibrate=calibrate,
              cells=cells, experiments=experiments, widget_run=widget_run, sweeps=SWEEPS, panel=PANEL,
              facts=facts)
comparison = STUDY.comparison

__all__ = ["STUDY", "KEY", "DOCUMENT", "SEED", "model", "recall_model", "calibrate", "cells", "experiments",
           "BEST_CASE", "FLAT", "TABLE4", "recall_bounds", "comparison", "widget_run", "SWEEPS", "PANEL", "facts",
           "widget_theory", "widget_view", "VTSParams", "paf", "base", "ehpo",
           "cache_configurations", "statement", "text_value", "bound", "bottleneck", "capacities", "copy_ceiling",
           "copy_service_s", "equation3", "import_export_minutes", "mva_solution", "recall_service_s",
           "sustained_crossover_cf", "calibration_table", "analytic_part", "printed", "statements", "WIDGET_FIELDS",
           "WIDGET_RANGES",
           "cache_arm_candidates", "cache_arm_check", "cache_choices", "calibrated_constants", "contention_tasks",
           "equation3_table", "example_run",
           "flattening_candidates", "headline_bounds", "paf_against_bound", "recall_sweep", "scoreboard_counts", "theory_beside_simulation", "worst_predictions",
           "write_sweep", "capacity_chart", "hours_at_peak_chart", "recall_slider", "table4_chart",
           "throughput_scatter", "vts_diagram", "write_slider"]
