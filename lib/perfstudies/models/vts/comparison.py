"""Published versus model: every compared cell of the white paper, simulated.

:func:`comparison` simulates every compared configuration with independent
replications and returns the standard comparison table.  Throughputs are host
MB/s; Table 4's ``m`` and ``b`` are the slope and intercept of a line fitted,
replication by replication, to the simulated EHPO throughput at CF 1, 2, 3 and
4, as the document fitted its own.  :func:`baselines` declares the no-change
baseline of every predicted cell.
"""

import dataclasses
import math

import numpy as np
import pandas as pd
from scipy import stats

from perfstudies import data
from perfstudies.compare import DEFAULT, Cell, Published, comparison_table
from perfstudies.models.vts.analytic import contended_task_minutes, import_export_minutes
from perfstudies.models.vts.calibration import calibrated_rates, calibration_cells, contention_slowdown, published_rate
from perfstudies.models.vts.network import model, recall_model
from perfstudies.models.vts.params import DOCUMENT, SEED, STUDY, VTSParams, base, ehpo, paf, text_value
from perfstudies.sweep import run_sweep

REPLICATIONS = 5
#: One recall is one random service time, so the best-case cells use more replications.
RECALL_REPLICATIONS = 40
TABLE4_CF = (1.0, 2.0, 3.0, 4.0)


@dataclasses.dataclass(frozen=True)
class Target:
    """A published cell and the configuration whose simulated host MB/s it is compared with."""

    published: Published
    params: VTSParams
    role: str = "prediction"
    note: str = ""


@dataclasses.dataclass(frozen=True)
class Baseline:
    """The no-change answer for a predicted cell: a published value and the configuration it belongs to."""

    value: float
    reference: str


def baselines() -> dict[tuple[str, str, str], Baseline]:
    """The no-change baseline of every predicted cell, keyed by ``(table, row, column)``.

    The answer a capacity planner would give without the model: the published
    value of the same quantity in the configuration the planner measured.

    * PAF machine: the measurement point of Tables 1 and 2 (1728 GB, 8 ESCON,
      CF 2.66, 32 KB blocks), where the calibration measured it; PAF sustained
      write was measured only at CF 1, so that is its reference.
    * EHPO machine: the base machine on the same cache (the document notes that
      the EHPO curves start from the base throughput at CF 1, where EHPO
      compresses nothing).
    * base machine: the largest cache, the fully configured B18.
    * Table 4 lines: the line of the same workload on the cache the calibration
      used (4 groups of 2+P, 288/72 GB).
    * import under host load: the export measured under the same load.
    * a mount response: the fast-ready mount of a volume in cache (Sec. 3.4).

    Where the same quantity has no published value in a reference
    configuration, the naive answer: a sustained rate equals the peak rate
    measured on the same machine (copy-out assumed free); a ratio is 1 (no change).
    """
    table4 = data.load(STUDY, "table4_ehpo_coefficients").set_index(["workload", "parity_groups"])
    peak_32 = published_rate("table2_block_size", operation="peak_write", block_kb=32)
    hit_32 = published_rate("table2_block_size", operation="read_hit", block_kb=32)
    recall_266 = published_rate("table1_read_rates", operation="read_recall", cf=2.66)
    paf_point = "PAF at Tables 1-2's point (CF 2.66, 32 KB)"
    found = {
        ("Table 1", "read hit", "CF 1"): Baseline(hit_32, f"read hit, {paf_point}"),
        ("Table 1", "read recall", "CF 1"): Baseline(recall_266, f"read recall, {paf_point}"),
        ("Table 2", "peak write", "64 KB"): Baseline(peak_32, f"peak write, {paf_point}"),
        ("Table 2", "read hit", "64 KB"): Baseline(hit_32, f"read hit, {paf_point}"),
        ("Fig. 8 (text)", "PAF peak write", "CF 2"): Baseline(peak_32, f"peak write, {paf_point}"),
        ("Fig. 7 (text)", "PAF sustained write", "CF 3"): Baseline(
            text_value("paf_sustained_write_cf1"), "PAF sustained write at CF 1, its only measured point"),
        ("Fig. 7 (text)", "PAF sustained write", "CF 4"): Baseline(
            text_value("paf_sustained_write_cf1"), "PAF sustained write at CF 1, its only measured point"),
        ("Fig. 7 (text)", "EHPO sustained write", "CF 3, largest cache"): Baseline(
            text_value("base_sustained_write_largest_cache"), "base machine, sustained write, largest cache"),
        ("Figs. 7-8 (text)", "peak / sustained write", "EHPO, CF 3, largest cache"): Baseline(
            text_value("base_peak_write_largest_cache") / text_value("base_sustained_write_largest_cache"),
            "base machine, peak / sustained write, largest cache"),
        ("Fig. 3 (text)", "base sustained write", "smallest cache"): Baseline(
            text_value("base_sustained_write_largest_cache"), "base machine, sustained write, largest cache"),
        ("Fig. 3 (text)", "base sustained write", "largest cache"): Baseline(
            text_value("base_peak_write_largest_cache"),
            "naive: the peak write measured on the same machine (copy-out assumed free)"),
        ("Sec. 3.4 (text)", "best-case recall mount response", "800 MB, CF 1"): Baseline(
            (text_value("fast_ready_mount_low") + text_value("fast_ready_mount_high")) / 2,
            "fast-ready mount of a volume in cache (2-3 s, Sec. 3.4)"),
        ("Sec. 3.4 (text)", "best-case recall mount response", "800 MB, CF 3"): Baseline(
            (text_value("fast_ready_mount_low") + text_value("fast_ready_mount_high")) / 2,
            "fast-ready mount of a volume in cache (2-3 s, Sec. 3.4)"),
        ("Sec. 7 (text)", "import time increase under peak write", "6 mounts, 2.3 GB"): Baseline(
            text_value("export_elongation_peak_write"), "the export measured under the same host load"),
        ("Sec. 7 (text)", "recall rate with import/export running", "relative to without"): Baseline(
            1.0, "no change"),
    }
    for row in data.load(STUDY, "table4_ehpo_coefficients").itertuples():
        column = f"{row.capacity_gb_36gb_hdd}/{row.capacity_gb_9gb_hdd} GB"
        label = row.workload.replace("_", " ")
        if row.parity_groups != 4:
            reference, where = table4.loc[(row.workload, 4)], f"{label} line, 288/72 GB (the calibrated cache)"
        else:
            reference, where = table4.loc[("peak_write", 4)], ("naive: the peak write line of the same cache "
                                                               "(copy-out assumed free)")
        found[("Table 4", f"{label} m", column)] = Baseline(float(reference["m"]), where)
        found[("Table 4", f"{label} b", column)] = Baseline(float(reference["b"]), where)
    return found


def targets() -> list[Target]:
    """Every single-throughput cell: calibrations first, then predictions."""
    # The Table 4 calibration cell is a fitted line's slope, compared in :func:`_table4_cells`.
    found = [Target(c.published, c.params, "calibration", f"sets {key}")
             for key, c in calibration_cells().items() if c.published.table != "Table 4"]
    for row in data.load(STUDY, "table1_read_rates").itertuples():
        key = (row.operation, row.cf)
        if key == ("read_recall", 2.66):
            continue  # a calibration cell above (sets mount_s)
        role, note = ("calibration", "same measurement as Table 2 read hit 32 KB") if key == ("read_hit", 2.66) \
            else ("prediction", "")
        found.append(Target(Published("Table 1", row.operation.replace("_", " "), f"CF {row.cf:g}", row.host_mb_s),
                            paf(workload=row.operation, compressibility=float(row.cf)), role, note))
    t2 = data.load(STUDY, "table2_block_size")
    for row in t2[t2["block_kb"] == 64].itertuples():
        found.append(Target(Published("Table 2", row.operation.replace("_", " "), "64 KB", row.host_mb_s),
                            paf(workload=row.operation, compressibility=float(row.cf), block_kb=64)))
    text = [
        ("Fig. 3 (text)", "base sustained write", "smallest cache", "base_sustained_write_smallest_cache",
         base(4, workload="sustained_write")),
        ("Fig. 3 (text)", "base sustained write", "largest cache", "base_sustained_write_largest_cache",
         base(16, workload="sustained_write")),
        ("Fig. 7 (text)", "PAF sustained write", "CF 3", "paf_sustained_write_cf3",
         paf(workload="sustained_write", compressibility=3.0)),
        ("Fig. 7 (text)", "PAF sustained write", "CF 4", "paf_sustained_write_cf4",
         paf(workload="sustained_write", compressibility=4.0)),
        ("Fig. 8 (text)", "PAF peak write", "CF 2", "paf_peak_write_cf2",
         paf(workload="peak_write", compressibility=2.0)),
        ("Fig. 7 (text)", "EHPO sustained write", "CF 3, largest cache", "ehpo_sustained_write_cf3_largest_cache",
         ehpo(16, workload="sustained_write", compressibility=3.0)),
    ]
    found.extend(Target(Published(t, r, c, text_value(key)), p) for t, r, c, key, p in text)
    return found


def table4_points() -> list[VTSParams]:
    """The EHPO configurations whose lines are compared with Table 4."""
    return [ehpo(g, workload=w, compressibility=cf) for w in ("sustained_write", "peak_write")
            for g in (4, 8, 16) for cf in TABLE4_CF]


def mean_and_half_width(values) -> tuple[float, float]:
    """Mean and Student-t 95% half-width of replication values."""
    values = np.asarray(values, dtype=float)
    half = stats.t.ppf(0.975, len(values) - 1) * values.std(ddof=1) / math.sqrt(len(values))
    return float(values.mean()), float(half)


def simulate_throughputs(points: list[VTSParams]) -> dict[VTSParams, np.ndarray]:
    """Host MB/s of every replication at every distinct point (common seeds across points)."""
    unique = list(dict.fromkeys(points))
    runs = run_sweep(model, unique, replications=REPLICATIONS, seed=SEED, progress=False)
    runs = runs[runs["metric"] == "host_mb_s"].sort_values(["point", "replication"])
    return {p: runs.loc[runs["point"] == i, "value"].to_numpy() for i, p in enumerate(unique)}


def _cell(published: Published, model_value: float, role: str, half: float, note: str) -> Cell:
    baseline = baselines()[(published.table, published.row, published.column)].value if role == "prediction" \
        else math.nan
    return Cell(published, model_value, role, half, baseline, DEFAULT, note)


def _throughput_cells(found: list[Target], results) -> list[Cell]:
    cells = []
    for t in found:
        mean, half = mean_and_half_width(results[t.params])
        cells.append(_cell(t.published, mean, t.role, half, f"host MB/s; {t.note}".rstrip("; ")))
    return cells


def _table4_cells(results) -> list[Cell]:
    cells = []
    for row in data.load(STUDY, "table4_ehpo_coefficients").itertuples():
        rates = np.array([results[ehpo(row.parity_groups, workload=row.workload, compressibility=cf)]
                          for cf in TABLE4_CF])  # CF x replication
        fits = np.array([np.polyfit(TABLE4_CF, rates[:, k], 1) for k in range(rates.shape[1])])
        column = f"{row.capacity_gb_36gb_hdd}/{row.capacity_gb_9gb_hdd} GB"
        label = row.workload.replace("_", " ")
        m, m_half = mean_and_half_width(fits[:, 0])
        b, b_half = mean_and_half_width(fits[:, 1])
        # This row's line at CF 4 (4 m + b) sets disk_fixed_s, so both its m and its b are calibration.
        calibrates = (row.workload, row.parity_groups) == ("peak_write", 4)
        role, sets = ("calibration", "; with b, sets disk_fixed_s") if calibrates else ("prediction", "")
        cells.append(_cell(Published("Table 4", f"{label} m", column, row.m), m, role, m_half,
                           f"MB/s per unit CF; line fitted to simulated CF 1-4{sets}"))
        cells.append(_cell(Published("Table 4", f"{label} b", column, row.b), b, role, b_half,
                           f"MB/s; intercept of the same line{sets.replace('with b', 'with m')}"))
    return cells


def _ratio_cell(results) -> Cell:
    peak = results[ehpo(16, workload="peak_write", compressibility=3.0)]
    sustained = results[ehpo(16, workload="sustained_write", compressibility=3.0)]
    ratio, half = mean_and_half_width(peak / sustained)
    return _cell(Published("Figs. 7-8 (text)", "peak / sustained write", "EHPO, CF 3, largest cache",
                           text_value("peak_over_sustained_ratio")), ratio, "prediction", half,
                 "ratio of host MB/s, per replication")


def recall_with_import_export_points() -> list[VTSParams]:
    """Table 1's recall at CF 2.66 without and with an import/export task holding two drives."""
    alone = paf(workload="read_recall", compressibility=2.66)
    return [alone, alone.replace(import_export_drives=2)]


def _import_export_cells(results) -> list[Cell]:
    """Sec. 7's contention figures: task elongation under peak write, recall rate beside import/export."""
    slowdown = contention_slowdown()
    megabytes = text_value("contention_task_mb")
    cells = []
    for task, key, role in (("export", "export_elongation_peak_write", "calibration"),
                            ("import", "import_elongation_peak_write", "prediction")):
        mounts = text_value(f"contention_{task}_mounts")
        alone = import_export_minutes(task, megabytes, mounts)
        stretched = contended_task_minutes(task, megabytes, mounts, slowdown)
        cells.append(_cell(Published("Sec. 7 (text)", f"{task} time increase under peak write",
                                     f"{mounts:g} mounts, 2.3 GB", text_value(key)),
                           100 * (stretched / alone - 1), role, math.nan,
                           "percent; equations 1-2 with the data term slowed (closed form)"))
    alone, shared = (results[p] for p in recall_with_import_export_points())
    ratio, half = mean_and_half_width(shared / alone)
    cells.append(_cell(Published("Sec. 7 (text)", "recall rate with import/export running", "relative to without",
                                 text_value("recall_rate_with_import_export")), ratio, "prediction", half,
                       "ratio of host MB/s; the task holds two of four drives"))
    return cells


def _recall_cells() -> list[Cell]:
    low, high = text_value("recall_best_case_low"), text_value("recall_best_case_high")
    cells = []
    for cf in (1.0, text_value("fig6_compressibility")):
        point = paf(workload="read_recall", compressibility=cf, volume_mb=text_value("measured_volume_size"),
                    recall_queue=0)
        runs = run_sweep(recall_model, [point], replications=RECALL_REPLICATIONS, seed=SEED, max_workers=1,
                         progress=False)
        mean, half = mean_and_half_width(runs["value"])
        cells.append(_cell(Published("Sec. 3.4 (text)", "best-case recall mount response", f"800 MB, CF {cf:g}",
                                     (low + high) / 2), mean, "prediction", half,
                           "seconds; published is the middle of 2-3 minutes"))
    return cells


def comparison() -> pd.DataFrame:
    """The standard comparison table of the study (deterministic)."""
    calibrated_rates()  # refuses to compare when the record's defaults are not the calibration's output
    found = targets()
    results = simulate_throughputs([t.params for t in found] + table4_points() + recall_with_import_export_points())
    cells = (_throughput_cells(found, results) + _table4_cells(results) + [_ratio_cell(results)] + _recall_cells()
             + _import_export_cells(results))
    return comparison_table(cells, study=STUDY, document=DOCUMENT)
