"""Every published cell of Tables 1 and 2 beside the model: its role, tolerance and no-change baseline.

Roles (the rule of :mod:`perfstudies.compare`).  Nine cells set the nine
calibrated parameters (:mod:`.calibration`).  A cell is ``derived`` when the
model's value for it is fixed, whatever the model's uncalibrated assumptions
(the 3 MB/s tape rate, the file-size distribution, random placement on the
volumes, first-free drive choice, customer size), by

* the report's own arithmetic on other cells of its table: elapsed-time
  ratios, rate ratios, overlapped time, percentage overlap, percentage
  reduction in tapes, processor utilisation (each of those cells is
  compared itself, so scoring the ratio again would count one number twice);
* SPTAPE's construction as one serial server: nothing overlaps a change, so
  its idle time is its change time and its overlap is zero;
* a copy of a calibrated cell: the loads read the dumps' tapes back (their
  tape counts), the model charges every run the same processor time per page;
* the model's construction on other cells: a run's change time is its
  changes times the stated one-minute change; an SPXTAPE dump is
  reading-bound (one drive takes 732 pages/s, the four volumes give 311), so
  its elapsed time is the calibrated 4-drive reading time plus its idle time;
* the closed form of :func:`.metrics.system_effects` on the two calibrated
  Table 2 cells and the run without the dump (the Table 2 rows).

What remains are the predictions: the idle time with two and four drives and
of the load (whether the buffer and the other drives hide every change), the
tape counts with two and four drives and of the concurrent dump (how the
first-free drive choice spreads the blocks), and SPTAPE's load time (its
serial sum on a run none of whose cells set a parameter).

Every simulated number is a mean over replications from ``SEED``
(:func:`perfstudies.sweep.sweep_until`, replications added until each
calibrated or predicted cell's 95% half-width is at most a quarter of its
tolerance, or of its error for a decisive miss
(:func:`perfstudies.compare.required_half_width`), or ``CAP`` is reached; a cell still wider says so in its note,
:func:`perfstudies.compare.imprecise_note`).  Ratios between configurations
are computed per replication against the SPTAPE run of the same seed (common
random numbers).
"""

import dataclasses
import math

import numpy as np
import pandas as pd

from perfstudies.cache import memoized
from perfstudies.compare import (DEFAULT, Cell, Published, Tolerance, comparison_table, imprecise_note,
                                 required_half_width, resolution)
from perfstudies.models.spxtape.calibration import (CONFIGURATIONS, REPLICATIONS, TABLE1_CALIBRATION,
                                                    TABLE1_COLUMN_OF, TABLE2_CALIBRATION, calibrate,
                                                    calibrate_concurrent, column_name, comparison_run, facts, table1,
                                                    table1_cell, table2_cell, table2_model)
from perfstudies.models.spxtape.network import model
from perfstudies.models.spxtape.params import DOCUMENT, SEED, STUDY, SpxtapeParams
from perfstudies.runner import DEFAULT_CAP, replicate_until, summarize
from perfstudies.sweep import run_sweep, sweep_until

#: First and largest number of replications of any configuration.
INITIAL = 5
CAP = DEFAULT_CAP

#: Table 1 columns compared, in the table's order.
TABLE1_COLUMNS = ["elapsed_s", "elapsed_ratio", "rate_ratio", "tape_change_s", "system_idle_s",
                  "overlapped_change_s", "overlap_pct", "tapes", "tape_reduction_pct", "processor_s",
                  "processor_util_pct"]
#: Table 2 rows compared (the model metric of each); the text's tape count follows them.
TABLE2_ROWS = {"SPXTAPE pages/s (text)": "dump_pages_per_s", "AVG LAST (T)": "avg_last_s", "ETR (T)": "etr",
               "RIO RATE (V)": "rio_rate", "RIO/CMD (V)": "rio_per_cmd", "NONPAGE RIO/CMD (V)": "nonpage_rio_per_cmd"}
CONCURRENT_TAPES = "tapes required (text)"
#: The name of the concurrent dump's runs among :func:`simulated_runs`.
CONCURRENT_RUN = "concurrent dump"

#: The reference configuration of each Table 1 configuration that has predicted cells (see :func:`baseline`).
REFERENCE = {("SPXTAPE", "DUMP", 2): ("SPXTAPE", "DUMP", 1), ("SPXTAPE", "DUMP", 4): ("SPXTAPE", "DUMP", 1),
             ("SPTAPE", "LOAD", 1): ("SPTAPE", "DUMP", 1), ("SPXTAPE", "LOAD", 1): ("SPXTAPE", "DUMP", 1)}
#: The concurrent dump's reference: the dedicated SPXTAPE dump of Table 1.
CONCURRENT_REFERENCE = ("SPXTAPE", "DUMP", 1)

WHOLE_TAPES = resolution(1.0, "tape counts are whole cartridges: ±1 tape")
WHOLE_POINTS = resolution(1.0, "printed as a whole percentage: ±1 point")
WHOLE_SECONDS = resolution(1.0, "printed in whole seconds, and a published 0 s has no relative error: ±1 s")


def tolerance(cell: Published) -> Tolerance:
    """The one policy: 10% relative, or the printed resolution where that demands more.

    Tape counts are whole cartridges (±1), overlap and tape reduction are
    printed as whole percentages (±1 point), and a published 0 s of idle or
    overlapped time is printed in whole seconds (±1 s).  The report states no
    measurement variability of its own.
    """
    quantity = TABLE1_COLUMN_OF.get(cell.row, cell.row)
    if quantity in ("tapes", CONCURRENT_TAPES):
        return WHOLE_TAPES
    if quantity in ("overlap_pct", "tape_reduction_pct"):
        return WHOLE_POINTS
    if cell.value == 0:
        return WHOLE_SECONDS
    return DEFAULT


def baseline(cell: Published) -> float:
    """The no-change baseline: the published value of the same quantity in the cell's reference configuration.

    The study's reference configuration is the 1-drive SPXTAPE dump: the first
    SPXTAPE run, the one whose tapes the SPXTAPE load read back, and the one
    most of the calibration rests on.  A capacity planner who has measured it
    and has no model expects the same numbers with more drives (2 and 4
    drives), from loading those tapes again with the same drive (the SPXTAPE
    load), and from a dump of a subset of the files next to interactive users
    (the concurrent dump's tapes).  For SPTAPE's load the reference is
    SPTAPE's own dump: a load is expected to take what the dump took.  (The
    Table 2 rows with the dump would take the run without it as their
    reference, but they are derived, not predicted.)
    """
    if cell.table == "Table 2":
        if cell.row != CONCURRENT_TAPES:
            raise ValueError(f"cell = {cell.where!r} has no baseline: allowed a predicted cell")
        return float(table1().loc[CONCURRENT_REFERENCE, "tapes"])
    key = _key(cell.column)
    if key not in REFERENCE:
        raise ValueError(f"cell = {cell.where!r} has no baseline: the reference configuration itself, "
                         f"allowed one of {[column_name(k) for k in REFERENCE]}")
    return float(table1().loc[REFERENCE[key], TABLE1_COLUMN_OF[cell.row]])


def _key(column: str) -> tuple:
    command, function, drives = column.split()
    return command, function, int(drives)


def table1_role(key: tuple, column: str) -> tuple[str, str]:
    """``(role, note)`` of one Table 1 cell by the rule of the module docstring."""
    command, function, drives = key
    serial = command == "SPTAPE"
    if (key, column) in TABLE1_CALIBRATION:
        return "calibration", f"Sets {TABLE1_CALIBRATION[key, column]} (calibration.calibrate)."
    if column == "elapsed_ratio":
        if serial:
            return "derived", "1 by definition: SPTAPE is the reference of its own function."
        return "derived", (f"By definition: this run's elapsed time over the SPTAPE {function} elapsed time "
                           "(the report's arithmetic, per replication); both are compared cells.")
    if column == "rate_ratio":
        return "derived", "Reciprocal of the elapsed-time ratio, by definition (1 for SPTAPE)."
    if column in ("overlapped_change_s", "overlap_pct"):
        if serial:
            return "derived", "0 by construction: SPTAPE is one serial server, so nothing overlaps a change."
        return "derived", "By definition: tape change time minus system idle time (as a share of the change time)."
    if column == "tape_reduction_pct":
        return "derived", f"By definition: 1 - tapes / the SPTAPE {function} tapes (12, a calibrated count)."
    if column == "processor_util_pct":
        return "derived", "By definition (footnote 1): processor time over 4 x the elapsed time."
    if column == "processor_s":
        return "derived", ("Copy of the calibrated 2-drive dump's 79 s: the model charges every run the same "
                           "processor time per page; it has no processor cost per spool file created.")
    if column == "tapes":
        if function == "LOAD":
            source = "SPTAPE DUMP's 12" if serial else "the 1-drive SPXTAPE DUMP's 7"
            return "derived", f"Copy of the calibrated count: the load reads {source} tapes back."
        return "prediction", ("Simulated: each 32 KB block goes to the first free drive, so n drives end with up "
                              "to n partly filled cartridges.")
    if column == "tape_change_s":
        return "derived", ("By construction: (tapes - drives) changes x the stated 1-minute change, so it "
                           "repeats the tape count (the report's changes took about 62 s each).")
    if column == "system_idle_s":
        if serial:
            return "derived", "Equal to the tape change time by construction: SPTAPE is one serial server."
        if function == "LOAD":
            return "prediction", ("Simulated: the drive reads ahead into the buffer (calibrated on the 1-drive "
                                  "dump) while file creation drains it; a change idles the run when the buffer "
                                  "runs dry first (after a run of huge files, whose chunks are created quickly).")
        return "prediction", ("Simulated: while one drive changes, the others take the blocks and the buffer "
                              "absorbs the rest; idle only when changes coincide or come after the last read.")
    if column == "elapsed_s":
        if serial:
            return "prediction", ("SPTAPE's serial sum for the load: tape reads at the assumed 3 MB/s, the file "
                                  "creation calibrated on SPXTAPE's load, page writes at the calibrated page time "
                                  "and 11 one-minute changes, one after another.")
        return "derived", ("By construction: the dump is reading-bound (one drive takes 732 pages/s, the volumes "
                           "give 311), so its time is the calibrated 4-drive reading time plus its idle time "
                           "(calibrated with one drive; compared in its own cell with two).")
    raise ValueError(f"column = {column!r} is not allowed: allowed one of {TABLE1_COLUMNS}")


TABLE2_NOTE = ("By construction: metrics.system_effects carries the calibrated AVG LAST (T) and dump rate through "
               "closed forms (interactive response-time law, I/O accounting) from the run without the dump.")


def table2_role(row: str) -> tuple[str, str]:
    """``(role, note)`` of one Table 2 cell."""
    if row in TABLE2_CALIBRATION:
        return "calibration", f"Sets {TABLE2_CALIBRATION[row]} (calibration.calibrate_concurrent)."
    if row == CONCURRENT_TAPES:
        return "prediction", ("Simulated: the calibrated 2-drive dump of the 264,000 pages (10.2 per file) "
                              "of the concurrent run.")
    return "derived", TABLE2_NOTE


def concurrent_dump(p: SpxtapeParams) -> SpxtapeParams:
    """The 2-drive dump of the concurrent run (Interaction with Concurrent Activity: Additional Information)."""
    known = facts()
    return p.replace(total_pages=int(known["concurrent_spool_pages"]), mean_file_pages=known["concurrent_pages_per_file"],
                     drives=int(known["concurrent_tape_drives"]))


def _precision(cells: dict, metric_of: dict | None = None) -> dict:
    """``{metric: largest half-width as a function of the current mean}`` of every calibrated or predicted cell:
    :func:`perfstudies.compare.required_half_width` (a quarter of the tolerance, or of the error for a
    decisive miss).

    ``metric_of`` maps a cell's row to the model metric behind it (the row itself by default).
    """
    metric_of = metric_of or {}
    return {metric_of.get(cell.row, cell.row): _target(cell) for cell, (role, _) in cells.items() if role != "derived"}


def _target(cell: Published):
    """The precision target of one cell: :func:`perfstudies.compare.required_half_width` at the current mean."""
    allowed = tolerance(cell)
    return lambda mean: required_half_width(cell.value, allowed, mean)


def table1_cells() -> dict[tuple, dict[Published, tuple[str, str]]]:
    """Every published Table 1 cell by configuration, with its ``(role, note)``."""
    published = table1()
    return {key: {table1_cell(key, column): table1_role(key, column) for column in TABLE1_COLUMNS
                  if not pd.isna(published.loc[key, column])} for key in CONFIGURATIONS}


def simulate_table1(p: SpxtapeParams) -> dict[str, pd.DataFrame]:
    """Per-replication metrics of the six Table 1 configurations and of the concurrent dump.

    Returns ``{column name: frame}`` (``"SPXTAPE DUMP 2"``, ..., and
    ``"concurrent dump"``), one row per replication and one column per metric,
    with each Table 1 run's ratios to the SPTAPE run of the same function and
    seed added.  Replications are added (:func:`perfstudies.sweep.sweep_until`)
    until every calibrated or predicted cell is precise or ``CAP`` is reached.
    """
    cells = table1_cells()
    points = [comparison_run(p, *key) for key in CONFIGURATIONS] + [concurrent_dump(p)]
    precision = [_precision(cells[key], TABLE1_COLUMN_OF) for key in CONFIGURATIONS]
    precision.append(_precision({table2_cell(CONCURRENT_TAPES): table2_role(CONCURRENT_TAPES)},
                                {CONCURRENT_TAPES: "tapes"}))
    tidy, _ = sweep_until(model, points, precision, seed=SEED, initial=INITIAL, cap=CAP, max_workers=1)
    wide = {index: frame.pivot(index="replication", columns="metric", values="value")
            for index, frame in tidy.groupby("point")}
    runs = {key: wide[index] for index, key in enumerate(CONFIGURATIONS)}
    for function in ("DUMP", "LOAD"):
        # the SPTAPE run of each function gets every seed the other runs of that function used
        reference = ("SPTAPE", function, 1)
        longest = max(len(frame) for key, frame in runs.items() if key[1] == function)
        if longest > len(runs[reference]):
            tidy = run_sweep(model, [points[CONFIGURATIONS.index(reference)]], longest, SEED, max_workers=1,
                             progress=False)
            runs[reference] = tidy.pivot(index="replication", columns="metric", values="value")
    for key, frame in runs.items():
        sptape = runs[("SPTAPE", key[1], 1)].loc[frame.index]
        frame["elapsed_ratio"] = frame["elapsed_s"] / sptape["elapsed_s"]
        frame["rate_ratio"] = 1 / frame["elapsed_ratio"]
        frame["tape_reduction_pct"] = 100 * (1 - frame["tapes"] / sptape["tapes"])
    frames = {column_name(key): frame.rename_axis(index="replication", columns="metric") for key, frame in runs.items()}
    frames[CONCURRENT_RUN] = wide[len(CONFIGURATIONS)]
    return frames


def simulated_runs() -> dict[str, pd.DataFrame]:
    """:func:`simulate_table1` of the calibrated parameters (disk-memoized: the comparison's costly part)."""
    return memoized("spxtape-comparison-runs", lambda: simulate_table1(calibrate()))


def replication_counts() -> dict[str, int]:
    """How many replications each configuration of the comparison ran (``CAP`` at most)."""
    return {name: len(frame) for name, frame in simulated_runs().items()}


def _mean_and_half_width(values: pd.Series) -> tuple[float, float]:
    """Mean and 95% half-width over replications; 0 when every replication gave the same number
    (SPTAPE's serial sums differ only in the last bits of their floating-point additions)."""
    values = values.to_numpy(dtype=float)
    summary = summarize(pd.DataFrame({"metric": "x", "value": values}))
    mean, half_width = float(summary.loc["x", "mean"]), float(summary.loc["x", "half_width"])
    return mean, 0.0 if np.ptp(values) <= 1e-9 * abs(mean) else half_width


def _cell(published: Published, values: pd.Series, role: str, note: str) -> Cell:
    mean, half_width = _mean_and_half_width(values)
    cell = Cell(published, mean, role, ci_half_width=half_width,
                baseline=baseline(published) if role == "prediction" else math.nan,
                tolerance=tolerance(published), note=note)
    imprecise = imprecise_note(cell, len(values), CAP)
    return dataclasses.replace(cell, note=f"{note} {imprecise}") if imprecise else cell


def _table1_cells(runs: dict) -> list[Cell]:
    return [_cell(published, runs[column_name(key)][TABLE1_COLUMN_OF[published.row]], role, note)
            for key, specs in table1_cells().items() for published, (role, note) in specs.items()]


def dedicated_rate(runs: dict) -> float:
    """The model's own page rate of the dedicated 2-drive dump, over the calibration's ``REPLICATIONS`` seeds."""
    return float(np.mean(runs["SPXTAPE DUMP 2"]["pages_per_s"].iloc[:REPLICATIONS]))


def _table2_cells(rate: float, concurrent: pd.DataFrame) -> list[Cell]:
    params = calibrate_concurrent(rate)
    targets = _precision({table2_cell(row): table2_role(row) for row in TABLE2_ROWS}, TABLE2_ROWS)
    wide = replicate_until(table2_model, params, targets, seed=SEED, initial=INITIAL, cap=CAP).wide()
    cells = [_cell(table2_cell(row), wide[metric], *table2_role(row)) for row, metric in TABLE2_ROWS.items()]
    cells.append(_cell(table2_cell(CONCURRENT_TAPES), concurrent["tapes"], *table2_role(CONCURRENT_TAPES)))
    return cells


def comparison() -> pd.DataFrame:
    """The standard comparison table of Tables 1 and 2 (deterministic: every seed derives from ``SEED``)."""
    runs = simulated_runs()
    cells = _table1_cells(runs) + _table2_cells(dedicated_rate(runs), runs[CONCURRENT_RUN])
    return comparison_table(cells, study=STUDY, document=DOCUMENT)
