"""The study's comparison table: every published cell, its role, its tolerance and its no-change baseline.

Each of the report's three comparisons is a **pair of runs** simulated with
common random numbers (replication *i* of both runs has seed
``replication_seeds(SEED, n)[i]``): the 9-way with the fast path off and on,
the 5-way off and on, and the 9-way fast-path run with 3 and with 6 client
virtual processors.  A table's cells come from its pair, and the percentage
changes the text states are computed per replication from the pair, so their
intervals are the intervals of the change.  Replications are added pair by
pair (:func:`perfstudies.sweep.sweep_until`) until every predicted number of
the pair has a 95% half-width at most a quarter of its tolerance, or the cap
is reached; cells still imprecise at the cap say so in their note.

Roles (see :mod:`perfstudies.compare`): the cells :mod:`.calibration` fits are
``calibration``; a cell the model's definitions make a sum, share or product
of other cells of the same run, or a change between two calibrated cells, is
``derived`` (:data:`DERIVED` says how each follows); every other cell is a
``prediction``, set beside the no-change baseline of :func:`no_change_baseline`.
"""

import dataclasses
import math

import numpy as np
import pandas as pd

from perfstudies import data
from perfstudies.cache import memoized
from perfstudies.compare import (DEFAULT, PRECISION_FRACTION, Cell, Published, Tolerance, comparison_table,
                                 imprecise_note, resolution)
from perfstudies.params import Params
from perfstudies.runner import DEFAULT_CAP, summarize
from perfstudies.sweep import sweep_until

from .calibration import BASE_RUN, CALIBRATION_CELLS, FAST_RUN, SMALL_RUN, measurements, run_config
from .network import model
from .params import DOCUMENT, SEED, STUDY, DiagParams

FAST_5WAY, SIX_VPS = "EXPTD442", "EXPTD441"
#: Each of the report's tables compares two runs: (before, after), simulated as one pair.
PAIRS = {"9-way fast path": (BASE_RUN, FAST_RUN), "5-way fast path": (SMALL_RUN, FAST_5WAY),
         "9-way virtual processors": (FAST_RUN, SIX_VPS)}
#: Largest number of replications of a pair, and the number every pair starts with.
CAP = DEFAULT_CAP
INITIAL_REPLICATIONS = 5
#: Worker processes of the comparison (the machine is shared: one worker).
MAX_WORKERS = 1

#: The reference run of each run: the published configuration a capacity planner
#: would carry over unchanged (see :func:`no_change_baseline`).
REFERENCE_RUNS = {FAST_RUN: BASE_RUN, SMALL_RUN: BASE_RUN, FAST_5WAY: SMALL_RUN, SIX_VPS: FAST_RUN}
#: Rows the reference run does not print: the other column of the table that does.
REFERENCE_FALLBACK = {(FAST_RUN, "spin_rate"): SIX_VPS, (FAST_RUN, "pct_spin"): SIX_VPS}

_ZERO_FAST = "with the fast path off the model has no fast-path yield, so 0 by construction"
_SUM = "CP + Emul µsec/Tx by definition"
_UTIL = ("identically Tx rate x Total µsec/Tx x accounting ratio / processors: the model's accounting "
         "(the ratio is calibrated on EXPT5200); scored in the Tx rate row")
_SYSTEM = ("identically (Sched Pct Spin Time + DIAG 44/sec - Normal x the calibrated system time of a normal-path "
           "DIAG 44 / processors): arithmetic on this run's spin and normal-path rows, scored there")
_PERCENT = "100 x Fast Path / Total by definition: scored in the DIAG 44 rate rows"
#: (run, metric) -> how the cell follows without a mechanism of its own.
DERIVED = {
    (BASE_RUN, "diag_fast"): _ZERO_FAST, (BASE_RUN, "pct_fast"): _ZERO_FAST,
    (SMALL_RUN, "diag_fast"): _ZERO_FAST, (SMALL_RUN, "pct_fast"): _ZERO_FAST,
    (BASE_RUN, "diag_total"): "identically the calibrated Normal rate: Total = Normal + Fast Path by definition "
                              "and Fast Path is 0 with the fast path off",
    (SMALL_RUN, "diag_total"): "identically the calibrated Normal rate: Total = Normal + Fast Path by definition "
                               "and Fast Path is 0 with the fast path off",
    (SMALL_RUN, "tx_rate"): "identically Total Util/Proc x processors / (accounting ratio x Total µsec/Tx): "
                            "three calibrated cells (the utilization sets the off-processor time)",
    (FAST_RUN, "diag_fast"): "by construction the calibrated Total minus the predicted Normal rate "
                             "(fast_diags_per_yield is set so that Normal + Fast Path matches this run's Total)",
    (FAST_5WAY, "diag_total"): "Normal + Fast Path by definition: both predicted, scored there",
    (SIX_VPS, "diag_total"): "Normal + Fast Path by definition: both predicted, scored there",
    (FAST_RUN, "pct_fast"): _PERCENT, (FAST_5WAY, "pct_fast"): _PERCENT, (SIX_VPS, "pct_fast"): _PERCENT,
    (FAST_RUN, "total_us_per_tx"): f"{_SUM}: sum of two calibrated cells",
    (SMALL_RUN, "total_us_per_tx"): f"{_SUM}: sum of two calibrated cells",
    (FAST_5WAY, "total_us_per_tx"): f"{_SUM}: both predicted, scored there",
    (SIX_VPS, "total_us_per_tx"): f"{_SUM}: both predicted, scored there",
    (FAST_RUN, "total_util"): _UTIL, (FAST_5WAY, "total_util"): _UTIL, (SIX_VPS, "total_util"): _UTIL,
    (FAST_RUN, "system_util"): _SYSTEM, (SIX_VPS, "system_util"): _SYSTEM,
}
#: (before, after, metric) of the text's changes -> how the change follows from calibrated cells.
DERIVED_CHANGES = {
    (BASE_RUN, FAST_RUN, "diag_total"): "ratio of two calibrated cells: EXPTD440's Total and EXPT5200's "
                                        "Normal rate (identically its Total)",
    (BASE_RUN, FAST_RUN, "cp_us_per_tx"): "ratio of two calibrated cells (CP µsec/Tx of both runs)",
    (BASE_RUN, FAST_RUN, "emul_us_per_tx"): "ratio of two calibrated cells (Emul µsec/Tx of both runs)",
}

_CHANGE = "change"


def no_change_baseline(published: pd.DataFrame, run_id: str, metric: str) -> float:
    """The no-change baseline of a predicted cell: the answer a capacity planner gives without the model.

    The reference configuration of each run is the report's own "before"
    column (:data:`REFERENCE_RUNS`): the fast-path-off run of the same machine
    for a fast-path run (EXPT5200 for the 9-way EXPTD440, EXPT5209 for the
    5-way EXPTD442), the 3-VP run EXPTD440 for the 6-VP run EXPTD441, and the
    calibrated 9-way base run EXPT5200 for the 5-way base run EXPT5209.  A
    planner asked what the fast path, four fewer processors or three more
    virtual processors per client will do, and given no model, carries the
    measured figures of the configuration in hand over unchanged: that is the
    forecaster's persistence forecast, and the model earns credit only where it
    does better.  The baseline of a cell is the published value of the same
    row in the reference run.  The two scheduler spin rows of EXPTD440 are
    printed only in the 3-vs-6 table, so their baseline is that table's other
    column (no change between 3 and 6 virtual processors,
    :data:`REFERENCE_FALLBACK`).  For a percentage change the text states, the
    no-change baseline is 0%.
    """
    reference = REFERENCE_FALLBACK.get((run_id, metric), REFERENCE_RUNS.get(run_id))
    if reference is None:
        raise ValueError(f"run_id = {run_id!r} has no reference run: allowed one of {sorted(REFERENCE_RUNS)}")
    rows = published[(published["run_id"] == reference) & (published["metric"] == metric)]
    if rows.empty:
        raise ValueError(f"metric = {metric!r} is not published for the reference run {reference} of {run_id}")
    return float(rows["value"].iloc[0])


def tolerance(cell: Published, unit: str) -> Tolerance:
    """The policy's 10% relative tolerance, or a resolution tolerance for a published zero.

    The report prints DIAG 44 rates as whole numbers per second and percent
    fast path as a whole percentage, so a published 0 means less than one.
    """
    if cell.value != 0:
        return DEFAULT
    return resolution(1.0, f"a published 0 has no relative error; the report prints {unit} as whole numbers, "
                           "so 0 means less than 1")


@dataclasses.dataclass(frozen=True)
class RunPair(Params):
    """Two runs of one comparison of the report, simulated with the same seeds (one sweep point).

    ``before`` and ``after`` are validated records already; the pair checks
    only that they are records and that the run names are published runs.
    """

    before_run: str
    after_run: str
    before: DiagParams
    after: DiagParams

    def __post_init__(self):
        super().__post_init__()
        for name in ("before_run", "after_run"):
            if getattr(self, name) not in REFERENCE_RUNS and getattr(self, name) != BASE_RUN:
                raise ValueError(f"RunPair.{name} = {getattr(self, name)!r} is not allowed: allowed one of "
                                 f"{sorted({BASE_RUN, *REFERENCE_RUNS})}")
        for name in ("before", "after"):
            if not isinstance(getattr(self, name), DiagParams):
                raise ValueError(f"RunPair.{name} = {getattr(self, name)!r} has the wrong type: allowed DiagParams")

    def as_dict(self) -> dict:
        """The run names only (the sweep's table gets one column per field)."""
        return {"before_run": self.before_run, "after_run": self.after_run}


def paired_model(pair: RunPair, seed: int) -> dict[str, float]:
    """One replication of both runs of ``pair`` with one seed: ``run:metric`` and ``change:metric`` values.

    A change is the percentage change from ``before`` to ``after`` in this
    replication (NaN where ``before`` is 0: no change can be computed).
    """
    before, after = model(pair.before, seed), model(pair.after, seed)
    values = {f"{pair.before_run}:{name}": value for name, value in before.items()}
    values.update({f"{pair.after_run}:{name}": value for name, value in after.items()})
    values.update({f"{_CHANGE}:{name}": 100 * (after[name] / before[name] - 1) if before[name] else math.nan
                   for name in before})
    return values


def _published_cells() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The table cells compared (each run's row once, in its first table) and the text's changes."""
    table = measurements()
    first = table.drop_duplicates(["run_id", "metric"], keep="first")
    return first, data.load(STUDY, "text_changes")


def _cell_spec(row) -> tuple[Published, str]:
    """A measurement row as a Published cell and its role."""
    cell = Published(row.table, row.row, f"{row.column} ({row.run_id})", float(row.value))
    if (row.run_id, row.metric) in CALIBRATION_CELLS:
        return cell, "calibration"
    return cell, "derived" if (row.run_id, row.metric) in DERIVED else "prediction"


def _change_spec(row) -> tuple[Published, str]:
    cell = Published(f"text: {row.comparison}", row.statement, f"{row.from_run} -> {row.to_run} (%)",
                     float(row.percent_change))
    return cell, "derived" if (row.from_run, row.to_run, row.metric) in DERIVED_CHANGES else "prediction"


def precision_targets() -> list[dict[str, float]]:
    """Per pair of :data:`PAIRS`: ``{metric: largest 95% half-width}`` of its predicted numbers.

    A quarter of the tolerance of each predicted cell
    (:data:`perfstudies.compare.PRECISION_FRACTION`).
    """
    table, changes = _published_cells()
    targets = {name: {} for name in PAIRS}
    for row in table.itertuples():
        cell, role = _cell_spec(row)
        if role == "prediction":
            targets[row.table][f"{row.run_id}:{row.metric}"] = \
                PRECISION_FRACTION * tolerance(cell, row.row).allowed_error(cell.value)
    for row in changes.itertuples():
        cell, role = _change_spec(row)
        if role == "prediction":
            targets[row.comparison][f"{_CHANGE}:{row.metric}"] = \
                PRECISION_FRACTION * DEFAULT.allowed_error(cell.value)
    return [targets[name] for name in PAIRS]


def simulate_pairs(cap: int = CAP) -> tuple[pd.DataFrame, list[tuple[int, str]]]:
    """The replications of every pair (tidy rows of :func:`perfstudies.sweep.sweep_until`) and the missed targets.

    The runs use the pinned calibrated constants (the defaults of
    :class:`~.params.DiagParams` and :data:`~.params.FIVE_WAY`, which
    ``tests/diag44/test_calibration.py`` checks are what :func:`.calibration.calibrate` returns).
    """
    published = measurements()
    params = DiagParams()
    pairs = [RunPair(before, after, params.replace(**run_config(published, before)),
                     params.replace(**run_config(published, after))) for before, after in PAIRS.values()]
    return sweep_until(paired_model, pairs, precision_targets(), seed=SEED, initial=INITIAL_REPLICATIONS, cap=cap,
                       max_workers=MAX_WORKERS)


def comparison_runs() -> tuple[pd.DataFrame, list[tuple[int, str]]]:
    """:func:`simulate_pairs`, from the disk memo when the sources have not changed."""
    return memoized("diag44-comparison-runs", simulate_pairs, cap=CAP)


def _interval(values: np.ndarray) -> tuple[float, float]:
    """Mean and Student-t 95% half-width (NaN for one value)."""
    summary = summarize(pd.DataFrame({"metric": "x", "value": values}))
    return float(summary["mean"].iloc[0]), float(summary["half_width"].iloc[0])


def comparison() -> pd.DataFrame:
    """The standard comparison table: every published cell, its role, tolerance and no-change baseline."""
    table, changes = _published_cells()
    published = measurements()
    runs, _ = comparison_runs()
    pair_index = {name: index for index, name in enumerate(PAIRS)}
    by_metric = {key: group["value"].to_numpy() for key, group in runs.groupby(["point", "metric"], sort=False)}
    cells = []
    for row in table.itertuples():
        cell, role = _cell_spec(row)
        values = by_metric[(pair_index[row.table], f"{row.run_id}:{row.metric}")]
        mean, half = _interval(values)
        if role == "prediction":
            reference = REFERENCE_FALLBACK.get((row.run_id, row.metric), REFERENCE_RUNS[row.run_id])
            note = f"mean of {len(values)} replications; baseline: the same row of {reference}"
            result = Cell(cell, mean, role, half, no_change_baseline(published, row.run_id, row.metric),
                          tolerance(cell, row.row), note)
            cells.append(_noted(result, len(values)))
            continue
        note = DERIVED.get((row.run_id, row.metric), "") if role == "derived" else \
            f"sets {CALIBRATION_CELLS[(row.run_id, row.metric)]}"
        cells.append(Cell(cell, mean, role, half, math.nan, tolerance(cell, row.row), note))
    for row in changes.itertuples():
        cell, role = _change_spec(row)
        values = by_metric[(pair_index[row.comparison], f"{_CHANGE}:{row.metric}")]
        mean, half = _interval(values)
        how = f"mean of {len(values)} per-replication changes (paired: same seeds)"
        if role == "derived":
            cells.append(Cell(cell, mean, role, half, tolerance=DEFAULT,
                              note=f"{DERIVED_CHANGES[(row.from_run, row.to_run, row.metric)]}; {how}"))
            continue
        cells.append(_noted(Cell(cell, mean, role, half, 0.0, DEFAULT, f"{how}; baseline: no change (0%)"),
                            len(values)))
    return comparison_table(cells, study=STUDY, document=DOCUMENT)


def _noted(cell: Cell, replications: int) -> Cell:
    """``cell`` with the standard note when its interval is wider than its precision target."""
    note = imprecise_note(cell, replications, CAP)
    return dataclasses.replace(cell, note=f"{cell.note}; {note}") if note else cell
