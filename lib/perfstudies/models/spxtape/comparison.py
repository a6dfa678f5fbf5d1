"""The study's comparison table: every published cell of Tables 1 and 2 beside the model.

Each cell is a :class:`perfstudies.compare.Cell` with its role (calibration
or prediction), the policy's tolerance and, for predictions, the no-change
baseline of :func:`baseline`.
"""

import math

import pandas as pd

from perfstudies.compare import DEFAULT, Cell, Published, Tolerance, comparison_table, resolution
from perfstudies.models.spxtape.calibration import (CONFIGURATIONS, REPLICATIONS, TABLE2_CALIBRATION,
                                                    calibrate, calibrate_concurrent, calibration_cells,
                                                    comparison_run, facts, table1, table1_cell, table2, table2_cell,
                                                    table2_model)
from perfstudies.models.spxtape.network import model
from perfstudies.models.spxtape.params import DOCUMENT, SEED, STUDY, SpxtapeParams
from perfstudies.runner import replicate, summarize
from perfstudies.sweep import run_sweep

#: Table 1 columns compared, in the table's order.
TABLE1_COLUMNS = ["elapsed_s", "elapsed_ratio", "rate_ratio", "tape_change_s", "system_idle_s",
                  "overlapped_change_s", "overlap_pct", "tapes", "tape_reduction_pct", "processor_s",
                  "processor_util_pct"]
#: Table 2 rows compared (the model metric of each), after the text's dump rate.
TABLE2_ROWS = {"SPXTAPE pages/s (text)": "dump_pages_per_s", "AVG LAST (T)": "avg_last_s", "ETR (T)": "etr",
               "RIO RATE (V)": "rio_rate", "RIO/CMD (V)": "rio_per_cmd", "NONPAGE RIO/CMD (V)": "nonpage_rio_per_cmd"}

#: The reference configuration of each Table 1 column (see :func:`baseline`).
REFERENCE = {("SPXTAPE", "DUMP", 1): ("SPTAPE", "DUMP", 1), ("SPTAPE", "DUMP", 1): ("SPXTAPE", "DUMP", 1),
             ("SPXTAPE", "DUMP", 2): ("SPXTAPE", "DUMP", 1), ("SPXTAPE", "DUMP", 4): ("SPXTAPE", "DUMP", 1),
             ("SPTAPE", "LOAD", 1): ("SPTAPE", "DUMP", 1), ("SPXTAPE", "LOAD", 1): ("SPXTAPE", "DUMP", 1)}

#: The naive answer where the reference configuration has no value: the same speed, the same tapes.
NO_CHANGE = {"elapsed_ratio": 1.0, "rate_ratio": 1.0, "tape_reduction_pct": 0.0}

WHOLE_TAPES = resolution(1.0, "tape counts are whole cartridges: ±1 tape")
WHOLE_POINTS = resolution(1.0, "printed as a whole percentage: ±1 point")
WHOLE_SECONDS = resolution(1.0, "printed in whole seconds; a published 0 s has no relative error: ±1 s")


def tolerance(cell: Published) -> Tolerance:
    """The policy's tolerance of a cell: 10% relative unless the printed resolution demands more."""
    if cell.row in ("tapes", "tapes required (text)"):
        return WHOLE_TAPES
    if cell.row in ("overlap_pct", "tape_reduction_pct"):
        return WHOLE_POINTS
    if cell.value == 0:
        return WHOLE_SECONDS
    return DEFAULT


def baseline(cell: Published) -> float:
    """The no-change baseline of a cell: the published value of the same quantity in its reference configuration."""
    if cell.table == "Table 2":
        if cell.row == "tapes required (text)":
            return float(table1().loc[("SPXTAPE", "DUMP", 1), "tapes"])
        return float(table2_without(cell.row))
    key = tuple(part if index < 2 else int(part) for index, part in enumerate(cell.column.split()))
    value = table1().loc[REFERENCE[key], cell.row]
    if pd.isna(value) and cell.row.startswith("processor"):
        value = table1().loc[("SPXTAPE", "DUMP", 2), cell.row]
    if pd.isna(value):
        value = NO_CHANGE[cell.row]
    return float(value)


def table2_without(row: str) -> float:
    """The published Table 2 value of ``row`` without the dump (the text's dedicated rate for the dump rate)."""
    if row == "SPXTAPE pages/s (text)":
        return facts()["dedicated_dump_rate"]
    return table2().loc[row, "without_value"]


def simulate_table1(p: SpxtapeParams) -> dict[tuple, pd.DataFrame]:
    """Replicated runs of the six Table 1 configurations: ``{(command, function, drives): summary}``."""
    points = [comparison_run(p, *key) for key in CONFIGURATIONS]
    runs = run_sweep(model, points, REPLICATIONS, SEED, max_workers=2, progress=False)
    summary = summarize(runs, by=["point", "metric"])
    return {key: summary.loc[index] for index, key in enumerate(CONFIGURATIONS)}


def _with_derived(summaries: dict) -> dict:
    """Add the report's derived rows (ratios, tape reduction) to each configuration's means."""
    means = {key: summary["mean"].to_dict() for key, summary in summaries.items()}
    widths = {key: summary["half_width"].to_dict() for key, summary in summaries.items()}
    for (command, function, drives), row in means.items():
        sptape = means[("SPTAPE", function, 1)]
        row["elapsed_ratio"] = row["elapsed_s"] / sptape["elapsed_s"]
        row["rate_ratio"] = 1 / row["elapsed_ratio"]
        row["tape_reduction_pct"] = 100 * (1 - row["tapes"] / sptape["tapes"])
    return {key: (means[key], widths[key]) for key in means}


def _cell(published: Published, model_value: float, half_width: float, role: str, note: str = "") -> Cell:
    return Cell(published, model_value, role, ci_half_width=half_width,
                baseline=baseline(published) if role == "prediction" else math.nan,
                tolerance=tolerance(published), note=note)


def _table1_cells(summaries: dict) -> list[Cell]:
    published, calibrated = table1(), calibration_cells()
    cells = []
    for key, (means, widths) in _with_derived(summaries).items():
        for column in TABLE1_COLUMNS:
            if pd.isna(published.loc[key, column]):
                continue
            cell = table1_cell(key, column)
            role = "calibration" if cell in calibrated else "prediction"
            note = "1 by definition (SPTAPE is the reference)" if key[0] == "SPTAPE" and "ratio" in column else ""
            cells.append(_cell(cell, float(means[column]), float(widths.get(column, math.nan)), role, note))
    return cells


def _table2_cells(dedicated_rate: float) -> list[Cell]:
    concurrent = calibrate_concurrent(dedicated_rate)
    summary = replicate(table2_model, concurrent, REPLICATIONS, SEED, progress=False).summary()
    cells = [_cell(table2_cell(row), float(summary.loc[name, "mean"]), float(summary.loc[name, "half_width"]),
                   "calibration" if row in TABLE2_CALIBRATION else "prediction")
             for row, name in TABLE2_ROWS.items()]
    known = facts()
    dump = calibrate().replace(total_pages=int(known["concurrent_spool_pages"]),
                               mean_file_pages=known["concurrent_pages_per_file"],
                               drives=int(known["concurrent_tape_drives"]))
    runs = run_sweep(model, [dump], REPLICATIONS, SEED, max_workers=2, progress=False)
    tapes = summarize(runs).loc["tapes"]
    cells.append(_cell(table2_cell("tapes required (text)"), float(tapes["mean"]), float(tapes["half_width"]),
                       "prediction"))
    return cells


def comparison() -> pd.DataFrame:
    """Every compared cell of Tables 1 and 2, published beside the model (deterministic)."""
    summaries = simulate_table1(calibrate())
    dedicated_rate = float(summaries[("SPXTAPE", "DUMP", 2)].loc["pages_per_s", "mean"])
    return comparison_table(_table1_cells(summaries) + _table2_cells(dedicated_rate), study=STUDY, document=DOCUMENT)
