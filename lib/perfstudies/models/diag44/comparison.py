"""The study's comparison table: every published cell beside the model.

Every run of the three measurement tables is simulated with the calibrated
constants (:func:`.calibration.calibrate`); the percentage changes the text
states are computed from the same replications (paired by seed).
"""

import numpy as np
import pandas as pd
from scipy import stats

from perfstudies import data
from perfstudies.compare import DEFAULT, Cell, Published, comparison_table, resolution
from perfstudies.runner import replicate

from .calibration import CALIBRATION_CELLS, calibrate, measurements, run_config
from .network import model
from .params import DOCUMENT, SEED, STUDY, DiagParams

COMPARISON_REPLICATIONS = 5
#: The run each run is set beside: the fast-path-off run of the same configuration.
REFERENCE_RUNS = {"EXPTD440": "EXPT5200", "EXPTD442": "EXPT5209", "EXPTD441": "EXPTD440", "EXPT5209": "EXPT5200",
                  "EXPT5200": "EXPT5200"}


def simulate_runs(p: DiagParams, table: pd.DataFrame, replications: int = COMPARISON_REPLICATIONS) -> pd.DataFrame:
    """Replications of every published run: tidy rows ``run_id, replication, metric, value``."""
    frames = []
    for run_id in table["run_id"].unique():
        runs = replicate(model, p.replace(**run_config(table, run_id)), replications=replications, seed=SEED,
                         progress=False).runs
        frames.append(runs.assign(run_id=run_id))
    return pd.concat(frames, ignore_index=True)


def _interval(values: np.ndarray) -> tuple[float, float]:
    """Mean and Student-t 95% half-width of replication values (NaN half-width for one value)."""
    mean = float(np.mean(values))
    if len(values) < 2:
        return mean, float("nan")
    return mean, float(stats.t.ppf(0.975, len(values) - 1) * np.std(values, ddof=1) / np.sqrt(len(values)))


def _tolerance(value: float, row: str):
    if value == 0:
        return resolution(1.0, f"{row} is printed as a whole number; a published 0 has no relative error")
    return DEFAULT


def _table_cells(table: pd.DataFrame, runs: pd.DataFrame) -> list[Cell]:
    cells = []
    seen_runs = set()
    for (table_name, column), group in table.groupby(["table", "column"], sort=False):
        run_id = group["run_id"].iloc[0]
        repeat = run_id in seen_runs
        seen_runs.add(run_id)
        for row in group.itertuples():
            if repeat and row.metric in set(table[(table["run_id"] == run_id) & (table["table"] != table_name)]["metric"]):
                continue  # the same run's cell is already compared in an earlier table
            values = runs[(runs["run_id"] == run_id) & (runs["metric"] == row.metric)]["value"].to_numpy()
            mean, half = _interval(values)
            reference = table[(table["run_id"] == REFERENCE_RUNS[run_id]) & (table["metric"] == row.metric)]
            baseline = float(reference["value"].iloc[0]) if len(reference) else 0.0
            role = "calibration" if (run_id, row.metric) in CALIBRATION_CELLS else "prediction"
            cells.append(Cell(Published(table_name, row.row, f"{column} ({run_id})", float(row.value)), mean, role,
                              half, baseline, _tolerance(row.value, row.row)))
    return cells


def _change_cells(changes: pd.DataFrame, runs: pd.DataFrame) -> list[Cell]:
    cells = []
    wide = runs.pivot_table(index=["run_id", "replication"], columns="metric", values="value")
    for row in changes.itertuples():
        before = wide.loc[row.from_run][row.metric].to_numpy()
        after = wide.loc[row.to_run][row.metric].to_numpy()
        mean = 100 * (after.mean() - before.mean()) / before.mean()
        half = _interval(100 * (after - before) / before)[1] if (before > 0).all() else float("nan")
        note = "percentage change of the replication means; interval from paired replications (same seeds)"
        cells.append(Cell(Published(f"text: {row.comparison}", row.statement, f"{row.from_run} -> {row.to_run} (%)",
                                    float(row.percent_change)), mean, "prediction", half, 0.0, DEFAULT, note))
    return cells


def comparison() -> pd.DataFrame:
    """The standard comparison table: every published cell, calibrated or predicted."""
    table = measurements()
    runs = simulate_runs(calibrate(), table)
    cells = _table_cells(table, runs) + _change_cells(data.load(STUDY, "text_changes"), runs)
    return comparison_table(cells, study=STUDY, document=DOCUMENT)
