"""The study's compared cells, declared: every published cell, its role, tolerance, baseline or derivation.

Each of the report's three comparisons is one :class:`~perfstudies.cells.Experiment`
of two configurations (its "before" and "after" runs), named as the report's
table: the 9-way with the fast path off and on, the 5-way off and on, and the
9-way fast-path run with 3 and with 6 client virtual processors.  Replication
*i* of both runs of an experiment has the same seed (common random numbers),
so the percentage changes the text states are computed per replication
(:func:`~perfstudies.cells.change_pct`) and their intervals are the
intervals of the change.  A run printed in two tables (EXPTD440) is compared
in the first one that prints the row.

:func:`cells` declares every cell where it is: the cells :mod:`.calibration`
fits are ``calibration`` and name the one parameter each sets; a cell that the
report's own rows imply (a sum, a share, a difference, the accounting identity
between utilization and charged time, a change between two calibrated rows)
is ``derived`` with its identity, which the evaluator checks on the published
values; so is every percentage change the text states that is its two rows'
own arithmetic to one unit of the printed digit (:func:`derived_change`).
Every other cell is a ``prediction`` beside the strongest answer a planner
could give without the model (:func:`baseline_for`: persistence from the
report's "before" column, the fast path's design, or the 9-way's measured
effect; :data:`NO_CHANGE` for a stated change).  The two stated changes the
rows do not reproduce are scored as their direction and magnitude
(:data:`MAGNITUDE_BAND`).  Each experiment replicates until every calibrated
and predicted cell is decided or its cap (:data:`CAPS`) is reached.
"""

import functools

import pandas as pd

from perfstudies import data
from perfstudies.cells import Baseline, CellSpec, Derivation, Experiment, change_pct, metric
from perfstudies.compare import DEFAULT, Published, Tolerance, resolution
from perfstudies.paths import DATA

from .calibration import (BASE_RUN, FAST_RUN, SMALL_RUN, accounting_ratio, measurements, published_cell,
                          run_config)
from .network import model
from .params import KEY, DiagParams

FAST_5WAY, SIX_VPS = "EXPTD442", "EXPTD441"
#: The report's three comparisons (its tables' names): (before, after) runs, one experiment each.
PAIRS = {"9-way fast path": (BASE_RUN, FAST_RUN), "5-way fast path": (SMALL_RUN, FAST_5WAY),
         "9-way virtual processors": (FAST_RUN, SIX_VPS)}
#: Largest number of replications of each experiment's runs (the sequential rule stops earlier once every
#: calibrated and predicted cell of the experiment is decided), and the number every run starts with.
CAPS = {"9-way fast path": 40, "5-way fast path": 240, "9-way virtual processors": 700}
#: The largest cap (what a table's replication counts never exceed).
CAP = max(CAPS.values())
INITIAL_REPLICATIONS = 5

#: Why each run's reference run is what a capacity planner carries over (see :func:`run_baseline`).
REFERENCE_GROUNDS = {
    BASE_RUN: "the 9-way's fast-path-off run, the report's 'before' column",
    SMALL_RUN: "the 5-way's fast-path-off run, the report's 'before' column",
    FAST_RUN: "the 3-VP run, the report's 'before' column of the 3-versus-6 table",
}
#: The no-change baseline of a percentage change the text states.
NO_CHANGE = Baseline(0.0, "persistence", "no change: the 'before' run's value carried over (0%)")


def run_params(run: str) -> DiagParams:
    """The parameter record of one published run: the pinned calibrated constants and the run's configuration.

    The constants are the defaults of :class:`~.params.DiagParams` (and
    :data:`~.params.FIVE_WAY` on the 5-way), which
    ``tests/diag44/test_calibration.py`` checks are what :func:`.calibration.calibrate` returns.
    """
    return DiagParams().replace(**run_config(measurements(), run))


def experiments() -> list[Experiment]:
    """The report's three comparisons, each simulated as two runs with common random numbers."""
    return [Experiment(name, model, {before: run_params(before), after: run_params(after)},
                       initial=INITIAL_REPLICATIONS, cap=CAPS[name]) for name, (before, after) in PAIRS.items()]


@functools.cache
def _tables() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The measurement cells and the text's changes, read once per process (the declarations name dozens)."""
    return measurements(), data.load(KEY, "text_changes").set_index(["from_run", "to_run", "metric"])


def _published(run: str, metric_name: str) -> Published:
    return published_cell(_tables()[0], run, metric_name)


def _changes() -> pd.DataFrame:
    return _tables()[1]


def key(run: str, metric_name: str) -> str:
    """The key of a run's published cell (what a derivation names as its source)."""
    return _published(run, metric_name).where


def change_key(before: str, after: str, metric_name: str) -> str:
    """The key of a percentage change the text states."""
    return _change_cell(before, after, metric_name).where


def _change_cell(before: str, after: str, metric_name: str) -> Published:
    row = _changes().loc[(before, after, metric_name)]
    return Published(f"text: {row['comparison']}", row["statement"], f"{before} -> {after} (%)",
                     float(row["percent_change"]))


def _model(run: str, metric_name: str):
    """The run's metric in the experiment of the table that prints the cell."""
    return metric(_published(run, metric_name).table, run, metric_name)


def printed_zero(row: str) -> Tolerance:
    """A published 0 has no relative error: the report prints the row as whole numbers, so 0 means less than 1."""
    return resolution(1.0, f"a published 0 has no relative error; the report prints {row} as whole numbers, "
                           "so 0 means less than 1")


def run_baseline(metric_name: str, reference: str) -> Baseline:
    """The no-change baseline of a run's predicted cell: the same row of its reference run.

    A planner asked what the fast path, four fewer processors or three more
    virtual processors per client will do, and given no model, carries the
    measured figures of the configuration in hand over unchanged (the
    forecaster's persistence forecast); the model earns credit only where it
    does better.  The reference run is the report's own "before" column: the
    fast-path-off run of the same machine for a fast-path run, the 3-VP run
    for the 6-VP run, and the 9-way base run for the 5-way base run.
    """
    return Baseline(_published(reference, metric_name).value, "persistence",
                    f"the same row of {reference}, {REFERENCE_GROUNDS[reference]}")


def calibrated(run: str, metric_name: str, sets: str, note: str = "") -> CellSpec:
    """A cell whose published value sets the parameter ``sets``."""
    return CellSpec(_published(run, metric_name), "calibration", _model(run, metric_name), sets=sets, note=note)


def design_baseline(run: str, metric_name: str, reference: str) -> Baseline:
    """The fast path's design as a planner reads it: every DIAG 44 of the 'before' run moves to the fast path.

    The report expects a high share of the DIAG 44s on the fast path once it is
    enabled; a planner taking that at its word answers 0 for the normal-path
    rate and the whole 'before' rate for the fast-path rate.
    """
    moved = _published(reference, "diag_total").value
    value = 0.0 if metric_name == "diag_normal" else moved
    return Baseline(value, "scaling", f"the fast path's design: every DIAG 44 of {reference} (the 'before' column, "
                                      f"{moved:,.0f}/s) takes the fast path once it is enabled")


def effect_baseline(metric_name: str) -> Baseline:
    """The fast path's effect measured on the 9-way, carried over to the 5-way's own 'before' run.

    The 9-way comparison comes first in the report; a planner holding it
    applies its on/off ratio of the row to the 5-way's fast-path-off run (the
    fast-path rate, 0 with the fast path off, as the 9-way's share of its
    'before' total that moved to the fast path).
    """
    before_9, after_9, before_5 = BASE_RUN, FAST_RUN, SMALL_RUN
    if metric_name == "diag_fast":
        factor = _published(after_9, "diag_fast").value / _published(before_9, "diag_total").value
        value = _published(before_5, "diag_total").value * factor
        how = f"{before_5}'s total DIAG 44 rate x {after_9}'s fast-path rate / {before_9}'s total"
    else:
        factor = _published(after_9, metric_name).value / _published(before_9, metric_name).value
        value = _published(before_5, metric_name).value * factor
        how = f"{before_5}'s row x {after_9} / {before_9} ({factor:.3g})"
    return Baseline(value, "scaling", f"the fast path's effect measured on the 9-way, applied to the 5-way: {how}")


def strongest(run: str, metric_name: str, candidates: list[Baseline]) -> Baseline:
    """Of the naive answers a planner could give, the one closest to the published value (the hardest to beat)."""
    published = _published(run, metric_name).value
    return min(candidates, key=lambda baseline: abs(baseline.value - published))


#: The 5-way fast-path run's rows, and the fast-path runs' DIAG 44 rows, have more than one naive answer.
_DIAG_ROWS = ("diag_normal", "diag_fast")


def baseline_for(run: str, metric_name: str, reference: str) -> Baseline:
    """A run's baseline: the strongest of persistence and the rules a planner could apply to that run.

    Persistence (the same row of the report's 'before' column) always; for a
    fast-path run's DIAG 44 rows also the fast path's design
    (:func:`design_baseline`); for the 5-way fast-path run also the effect the
    9-way measured (:func:`effect_baseline`).
    """
    candidates = [run_baseline(metric_name, reference)]
    fast_path_run = run in (FAST_RUN, FAST_5WAY) and reference in (BASE_RUN, SMALL_RUN)
    if fast_path_run and metric_name in _DIAG_ROWS:
        candidates.append(design_baseline(run, metric_name, reference))
    if run == FAST_5WAY:
        candidates.append(effect_baseline(metric_name))
    return strongest(run, metric_name, candidates)


def predicted(run: str, metric_name: str, reference: str, note: str = "") -> CellSpec:
    """A run's predicted cell, beside the strongest naive answer (:func:`baseline_for`)."""
    return CellSpec(_published(run, metric_name), "prediction", _model(run, metric_name),
                    baseline=baseline_for(run, metric_name, reference), note=note)


def derived(run: str, metric_name: str, sources: tuple[tuple[str, str], ...], identity, why: str,
            tolerance: Tolerance = DEFAULT) -> CellSpec:
    """A run's cell that follows from the published ``(run, metric)`` cells ``sources`` by ``identity``."""
    return CellSpec(_published(run, metric_name), "derived", _model(run, metric_name), tolerance,
                    derivation=Derivation(tuple(key(*source) for source in sources), identity, why))


def printed_unit(before: str, after: str, metric_name: str) -> float:
    """One unit of the last digit the text prints a change to (1 for "309%", 0.1 for "6.7%")."""
    raw = pd.read_csv(DATA / KEY / "text_changes.csv", dtype=str).set_index(["from_run", "to_run", "metric"])
    text = raw.loc[(before, after, metric_name), "percent_change"]
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 10.0 ** -decimals


def change_resolution(before: str, after: str, metric_name: str) -> Tolerance:
    """What a stated change means: the rows' own change to within one unit of the text's last digit."""
    unit = printed_unit(before, after, metric_name)
    return resolution(unit, f"the text prints this change to {unit:g} point and truncates its whole percentages "
                            "(309.8 -> 309, -14.8 -> -14, 111.8 -> 111): a stated change is the rows' own "
                            "change to within one unit of its last digit")


#: A stated change that the rows do not reproduce is scored as its direction and magnitude: between half and
#: twice the stated change (the text's digits are finer than the simulation's paired noise, 1.5-3.6 points at
#: 40 replications, and finer than the agreement of the text with its own table).
MAGNITUDE_BAND = (0.5, 2.0)


def predicted_change(before: str, after: str, metric_name: str, why: str) -> CellSpec:
    """A stated change the rows do not reproduce, computed per paired replication, scored as its band.

    The band is its sign and its magnitude within a factor of two
    (:data:`MAGNITUDE_BAND`); no change (0%) is outside it, so the baseline
    never passes alone.
    """
    cell = _change_cell(before, after, metric_name)
    bounds = tuple(sorted(factor * cell.value for factor in MAGNITUDE_BAND))
    return CellSpec(cell, "prediction",
                    change_pct(_changes().loc[(before, after, metric_name), "comparison"], before, after,
                               metric_name),
                    baseline=NO_CHANGE, bounds=bounds,
                    note=f"Computed per paired replication (same seeds). {why} Scored as its direction and "
                         f"magnitude: between {bounds[0]:g}% and {bounds[1]:g}% (half to twice the stated change).")


def derived_change(before: str, after: str, metric_name: str, why: str) -> CellSpec:
    """A percentage change the text states that is the two runs' published rows' own arithmetic."""
    return CellSpec(_change_cell(before, after, metric_name), "derived",
                    change_pct(_changes().loc[(before, after, metric_name), "comparison"], before, after,
                               metric_name),
                    change_resolution(before, after, metric_name),
                    derivation=Derivation((key(before, metric_name), key(after, metric_name)), _percent_change,
                                          why))


def _percent_change(before: float, after: float) -> float:
    return 100.0 * (after / before - 1.0)


def _fast_path_off() -> float:
    return 0.0


def _sum(first: float, second: float) -> float:
    return first + second


def _difference(total: float, part: float) -> float:
    return total - part


def _percent_of(part: float, total: float) -> float:
    return 100.0 * part / total


def _accounting_ratio(base_util: float, base_tx_rate: float, base_total_us: float) -> float:
    """EXPT5200's processor time per charged microsecond, from its three published rows."""
    return accounting_ratio({"total_util": base_util, "tx_rate": base_tx_rate, "total_us_per_tx": base_total_us},
                            processors=9)


def _utilization(processors: int):
    """Total Util/Proc = Tx rate x Total usec/Tx x accounting ratio / processors."""
    def identity(tx_rate, total_us, base_util, base_tx_rate, base_total_us):
        return 100 * tx_rate * total_us * 1e-6 * _accounting_ratio(base_util, base_tx_rate, base_total_us) \
            / processors
    return identity


def _rate(processors: int):
    """Tx rate = Total Util/Proc x processors / (accounting ratio x Total usec/Tx)."""
    def identity(total_util, total_us, base_util, base_tx_rate, base_total_us):
        return total_util / 100 * processors / (_accounting_ratio(base_util, base_tx_rate, base_total_us)
                                                * total_us * 1e-6)
    return identity


#: The EXPT5200 cells that give the accounting ratio (the source cells of the accounting identity).
RATIO_SOURCES = ((BASE_RUN, "total_util"), (BASE_RUN, "tx_rate"), (BASE_RUN, "total_us_per_tx"))
_OFF = "With the fast path off (the column 'No') no DIAG 44 takes the fast path"
_TOTAL = "Total = Normal + Fast Path"
_PERCENT = "Percent Fast Path = 100 x Fast Path / Total"
_CP_EMUL = "Total µsec/Tx = CP + Emul µsec/Tx"
_UTIL = ("Total Util/Proc = Tx rate x Total µsec/Tx x the accounting ratio / processors, the ratio from "
         "EXPT5200's three rows (the model's accounting, calibrated there); scored in the Tx rate row")
_COSTS = "One of the six CP and Emul µsec/Tx cells of the cost fit (three equations, three unknowns, each)."
_ROWS = ("100 x (after / before - 1) of the two runs' rows: the text restates its table (each run's row is "
         "scored in the table)")
_SYSTEM = ("Simulated: the run's scheduler-lock spinning plus its DIAG 44 rate on each path times the CP system "
           "time of one DIAG 44 on that path (normal calibrated on EXPT5200, fast on EXPTD440); the report's rows "
           "do not imply it (its spin and DIAG 44 rows give a smaller number than it prints).")


def cells() -> list[CellSpec]:
    """Every published cell compared: the three measurement tables (each run once), then the text's changes."""
    return [
        # 9-way, fast path off (EXPT5200): the 9-way's workload
        calibrated(BASE_RUN, "tx_rate", "accounting_ratio", "With Total µsec/Tx and Total Util/Proc of this run."),
        calibrated(BASE_RUN, "diag_normal", "contention", "The 9-way's value."),
        derived(BASE_RUN, "diag_fast", (), _fast_path_off, _OFF, printed_zero("DIAG 44/sec - Fast Path")),
        derived(BASE_RUN, "diag_total", ((BASE_RUN, "diag_normal"), (BASE_RUN, "diag_fast")), _sum, _TOTAL),
        derived(BASE_RUN, "pct_fast", ((BASE_RUN, "diag_fast"), (BASE_RUN, "diag_total")), _percent_of, _PERCENT,
                printed_zero("Percent Fast Path")),
        calibrated(BASE_RUN, "total_us_per_tx", "accounting_ratio", "With Tx rate and Total Util/Proc of this run."),
        calibrated(BASE_RUN, "cp_us_per_tx", "cp_share", _COSTS),
        calibrated(BASE_RUN, "emul_us_per_tx", "base_work_us", _COSTS),
        calibrated(BASE_RUN, "total_util", "client_share",
                   "It moves this run's transaction rate to where its utilization is the published one."),
        calibrated(BASE_RUN, "system_util", "system_per_normal_us",
                   "What the system utilization leaves after the simulated scheduler-lock spinning."),
        # 9-way, fast path on (EXPTD440)
        predicted(FAST_RUN, "tx_rate", BASE_RUN),
        predicted(FAST_RUN, "diag_normal", BASE_RUN),
        derived(FAST_RUN, "diag_fast", ((FAST_RUN, "diag_total"), (FAST_RUN, "diag_normal")), _difference,
                "Fast Path = Total - Normal: the calibrated Total minus the predicted Normal rate"),
        calibrated(FAST_RUN, "diag_total", "fast_diags_per_yield"),
        derived(FAST_RUN, "pct_fast", ((FAST_RUN, "diag_fast"), (FAST_RUN, "diag_total")), _percent_of, _PERCENT),
        derived(FAST_RUN, "total_us_per_tx", ((FAST_RUN, "cp_us_per_tx"), (FAST_RUN, "emul_us_per_tx")), _sum,
                f"{_CP_EMUL}, two calibrated cells"),
        calibrated(FAST_RUN, "cp_us_per_tx", "fast_cp_us", _COSTS),
        calibrated(FAST_RUN, "emul_us_per_tx", "fast_spin_us", _COSTS),
        derived(FAST_RUN, "total_util", ((FAST_RUN, "tx_rate"), (FAST_RUN, "total_us_per_tx"), *RATIO_SOURCES),
                _utilization(9), _UTIL),
        calibrated(FAST_RUN, "system_util", "system_per_fast_us",
                   "What the system utilization leaves after the simulated scheduler-lock spinning and the "
                   "normal-path DIAG 44s' system time."),
        # 5-way, fast path off (EXPT5209): the 5-way's workload
        derived(SMALL_RUN, "tx_rate", ((SMALL_RUN, "total_util"), (SMALL_RUN, "total_us_per_tx"), *RATIO_SOURCES),
                _rate(5), "Tx rate = Total Util/Proc x processors / (accounting ratio x Total µsec/Tx): the "
                          "accounting identity on three calibrated cells (the utilization sets the time away)"),
        calibrated(SMALL_RUN, "diag_normal", "contention", "The 5-way's own value (params.FIVE_WAY)."),
        derived(SMALL_RUN, "diag_fast", (), _fast_path_off, _OFF, printed_zero("DIAG 44/sec - Fast Path")),
        derived(SMALL_RUN, "diag_total", ((SMALL_RUN, "diag_normal"), (SMALL_RUN, "diag_fast")), _sum, _TOTAL),
        derived(SMALL_RUN, "pct_fast", ((SMALL_RUN, "diag_fast"), (SMALL_RUN, "diag_total")), _percent_of, _PERCENT,
                printed_zero("Percent Fast Path")),
        derived(SMALL_RUN, "total_us_per_tx", ((SMALL_RUN, "cp_us_per_tx"), (SMALL_RUN, "emul_us_per_tx")), _sum,
                f"{_CP_EMUL}, two calibrated cells"),
        calibrated(SMALL_RUN, "cp_us_per_tx", "normal_cp_us", _COSTS),
        calibrated(SMALL_RUN, "emul_us_per_tx", "normal_spin_us", _COSTS),
        calibrated(SMALL_RUN, "total_util", "off_processor_us", "One value for both machines."),
        predicted(SMALL_RUN, "system_util", BASE_RUN),
        # 5-way, fast path on (EXPTD442)
        predicted(FAST_5WAY, "tx_rate", SMALL_RUN),
        predicted(FAST_5WAY, "diag_normal", SMALL_RUN),
        predicted(FAST_5WAY, "diag_fast", SMALL_RUN),
        derived(FAST_5WAY, "diag_total", ((FAST_5WAY, "diag_normal"), (FAST_5WAY, "diag_fast")), _sum,
                f"{_TOTAL}: both predicted, scored there"),
        derived(FAST_5WAY, "pct_fast", ((FAST_5WAY, "diag_fast"), (FAST_5WAY, "diag_total")), _percent_of,
                _PERCENT),
        derived(FAST_5WAY, "total_us_per_tx", ((FAST_5WAY, "cp_us_per_tx"), (FAST_5WAY, "emul_us_per_tx")), _sum,
                f"{_CP_EMUL}: both predicted, scored there"),
        predicted(FAST_5WAY, "cp_us_per_tx", SMALL_RUN),
        predicted(FAST_5WAY, "emul_us_per_tx", SMALL_RUN),
        derived(FAST_5WAY, "total_util", ((FAST_5WAY, "tx_rate"), (FAST_5WAY, "total_us_per_tx"), *RATIO_SOURCES),
                _utilization(5), _UTIL),
        predicted(FAST_5WAY, "system_util", SMALL_RUN),
        # 9-way, 3 client VPs (EXPTD440): the scheduler lock's rows, printed only in the 3-versus-6 table
        calibrated(FAST_RUN, "spin_rate", "sched_other_per_tx",
                   "With Sched Pct Spin Time (analytic.lock_from_spin_rows)."),
        calibrated(FAST_RUN, "pct_spin", "sched_hold_us", "With Sched Spin Lock Rate (analytic.lock_from_spin_rows)."),
        # 9-way, fast path on, 6 client VPs (EXPTD441)
        predicted(SIX_VPS, "tx_rate", FAST_RUN),
        predicted(SIX_VPS, "diag_normal", FAST_RUN),
        predicted(SIX_VPS, "diag_fast", FAST_RUN),
        derived(SIX_VPS, "diag_total", ((SIX_VPS, "diag_normal"), (SIX_VPS, "diag_fast")), _sum,
                f"{_TOTAL}: both predicted, scored there"),
        derived(SIX_VPS, "pct_fast", ((SIX_VPS, "diag_fast"), (SIX_VPS, "diag_total")), _percent_of, _PERCENT),
        derived(SIX_VPS, "total_us_per_tx", ((SIX_VPS, "cp_us_per_tx"), (SIX_VPS, "emul_us_per_tx")), _sum,
                f"{_CP_EMUL}: both predicted, scored there"),
        predicted(SIX_VPS, "cp_us_per_tx", FAST_RUN),
        predicted(SIX_VPS, "emul_us_per_tx", FAST_RUN),
        derived(SIX_VPS, "total_util", ((SIX_VPS, "tx_rate"), (SIX_VPS, "total_us_per_tx"), *RATIO_SOURCES),
                _utilization(9), _UTIL),
        predicted(SIX_VPS, "system_util", FAST_RUN, _SYSTEM),
        predicted(SIX_VPS, "spin_rate", FAST_RUN),
        predicted(SIX_VPS, "pct_spin", FAST_RUN),
        # the text's percentage changes, in its order: every one the two runs' rows reproduce (to one unit of the
        # text's last digit) is derived, shown beside the model's paired change; the two the rows do not
        # reproduce are the text's own statements, predicted
        derived_change(BASE_RUN, FAST_RUN, "diag_total", _ROWS),
        derived_change(BASE_RUN, FAST_RUN, "tx_rate", _ROWS),
        derived_change(BASE_RUN, FAST_RUN, "emul_us_per_tx", _ROWS),
        derived_change(BASE_RUN, FAST_RUN, "cp_us_per_tx", _ROWS),
        derived_change(BASE_RUN, FAST_RUN, "system_util", _ROWS),
        derived_change(SMALL_RUN, FAST_5WAY, "diag_total", _ROWS),
        derived_change(SMALL_RUN, FAST_5WAY, "tx_rate", _ROWS),
        derived_change(SMALL_RUN, FAST_5WAY, "emul_us_per_tx", _ROWS),
        derived_change(SMALL_RUN, FAST_5WAY, "cp_us_per_tx", _ROWS),
        derived_change(SMALL_RUN, FAST_5WAY, "system_util", _ROWS),
        predicted_change(FAST_RUN, SIX_VPS, "tx_rate", "The text's -4.8% is not its table's change "
                                                       "(82.146 -> 77.751 is -5.35%)."),
        predicted_change(FAST_RUN, SIX_VPS, "cp_us_per_tx", "The text's +12% is not its table's change "
                                                            "(43869 -> 51716 is +17.9%)."),
        derived_change(FAST_RUN, SIX_VPS, "diag_normal", _ROWS),
        derived_change(FAST_RUN, SIX_VPS, "spin_rate", _ROWS),
        derived_change(FAST_RUN, SIX_VPS, "pct_spin", _ROWS),
        derived_change(FAST_RUN, SIX_VPS, "system_util", _ROWS),
    ]
