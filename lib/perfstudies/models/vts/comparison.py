"""Published versus model: every compared cell of the white paper, declared once with its role.

:func:`cells` declares every compared cell (a :class:`~perfstudies.cells.CellSpec`:
its role, tolerance, and its baseline, derivation or the parameter it sets),
:func:`experiments` the simulated configurations they name, and
:func:`comparison` hands both to the one evaluator
(:func:`perfstudies.evaluate.evaluate`), which returns the standard comparison
table (:mod:`perfstudies.compare`).

*Two parts.*  The numbers the paper prints come first; then the paper's
qualitative statements (``data/vts/statements.csv``: PAF sustained write flat
above CF 3, and hence about 50 MB/s at CF 4; peak write about 60% above
sustained; a best-case recall of two to three minutes), each read as a number
with a declared band, in rows whose table ends in :data:`STATEMENT`.  Both parts
follow the same roles and the same tolerance policy.

*Roles.*  Nine cells set the service times (:mod:`.calibration`) or the
import/export slowdown; four follow from published cells by an identity the
published numbers satisfy (their :class:`~perfstudies.cells.Derivation` says
which) and are shown but not scored; the rest are predictions.

*Baselines.*  Every predicted cell declares the answer a capacity planner would
give without the model: the published value of the same quantity in the
configuration the planner measured (persistence).

* PAF machine: the measurement point of Tables 1 and 2 (1728 GB, 8 ESCON,
  CF 2.66, 32 KB blocks), where the calibration measured peak write, read hit
  and recall; PAF sustained write was measured only at CF 1, so that is its
  reference.
* EHPO machine: the base machine on the same cache (the document says the
  EHPO curves start from the base throughput at CF 1, where EHPO compresses
  nothing).
* base machine: the largest cache, the fully configured B18.
* Table 4's lines: the line of the same workload on the cache the calibration
  used (4 groups of 2+P, 288/72 GB).
* the import under host load: the export measured under the same load.
* a mount response: the fast-ready mount of a volume in cache (Sec. 3.4).
* PAF peak over sustained write: the ratio at CF 1, the one compressibility at
  which the paper gives both.

Where the same quantity has no published value in a reference configuration
(base sustained write on the largest cache; the sustained line of the
calibrated cache), the naive answer: the peak rate measured on the same machine
and cache (copy-out assumed free).  A ratio with nothing to go on is 1 (no change).

*Tolerances.*  The policy's 10% everywhere, with exceptions on the ground of the
printed resolution: an intercept printed to two decimals, and a statement that
gives its own range (the best-case recall); the document states no measurement
variability in numbers.

*Precision.*  Every simulated configuration is one of :func:`configurations`,
replicated (all from :data:`~perfstudies.models.vts.params.SEED`, from
:data:`INITIAL` up to :data:`CAP`) by the evaluator's sequential rule.  A ratio
of two configurations is computed per replication, the same seed for both
(common random numbers), so its interval is the ratio's own.

Table 4's ``m`` and ``b`` are compared in closed form: the slope and intercept
of a line fitted to the model's bottleneck bound at CF 1-4
(:func:`~perfstudies.models.vts.analytic.bound_line`).  Simulated replications
cannot resolve an intercept to a tenth of its value (a fitted intercept varies
by about +/-0.3 MB/s over five replications, and published intercepts are as
small as -0.03); the simulation meets the bound at these configurations
(``tests/vts/test_analytic.py``).  The best-case recall is in closed form too:
nothing queues ahead of a lone recall, so its mean response is exactly its mean
drive time; simulating it would only add noise.
"""

import functools

import pandas as pd

from perfstudies import data
from perfstudies.cells import Baseline, CellSpec, Derivation, Exact, Experiment, metric, ratio
from perfstudies.compare import Published, resolution
from perfstudies.models.vts.analytic import (
    bound, bound_line, contended_task_minutes, import_export_minutes, recall_response_s,
)
from perfstudies.models.vts.calibration import calibrated_rates, calibration_cells, contention_slowdown, published_rate
from perfstudies.models.vts.network import model
from perfstudies.models.vts.params import KEY, VTSParams, base, ehpo, paf, statement, text_value

#: The one simulated experiment: every compared configuration, replicated with common random numbers.
EXPERIMENT = "host throughput"
#: First and largest number of replications of any compared configuration.
INITIAL = 5
CAP = 60

TABLE4 = "Table 4"
#: The end of the table label of every statement row: the part of the comparison apart from printed numbers.
STATEMENT = "(statement)"
#: Table labels of the statement rows.
FLAT = f"Sec. 3.5.3 {STATEMENT}"
SIXTY = f"Sec. 3.5.4 {STATEMENT}"
BEST_CASE = f"Sec. 3.4 {STATEMENT}"

#: Compressibilities at which the PAF's peak over sustained write is compared with the statement
#: (where the paper gives both rates: 80 MB/s peak from CF 2 up, 50 MB/s sustained at CF 3 and above).
PAF_RATIO_CF = (3.0, 4.0)


def configurations() -> dict[str, VTSParams]:
    """Every simulated configuration of the comparison, by name (the calibration's own where it measured)."""
    calibrated = {key: cell.params for key, cell in calibration_cells().items()}
    return {
        "PAF peak write, CF 2.66, 32 KB": calibrated["write_block_overhead_s"],
        "PAF read hit, CF 2.66, 32 KB": calibrated["read_block_overhead_s"],
        "base peak write, largest cache": calibrated["cpu_base_peak"],
        "PAF peak write, CF 1": calibrated["cpu_paf_peak"],
        "PAF sustained write, CF 1": calibrated["cpu_paf_sustained"],
        "base peak write, smallest cache": calibrated["disk_op_s"],
        "PAF read recall, CF 2.66": calibrated["mount_s"],
        "PAF read hit, CF 1": paf(workload="read_hit", compressibility=1.0),
        "PAF read recall, CF 1": paf(workload="read_recall", compressibility=1.0),
        "PAF peak write, CF 2.66, 64 KB": paf(workload="peak_write", compressibility=2.66, block_kb=64),
        "PAF read hit, CF 2.66, 64 KB": paf(workload="read_hit", compressibility=2.66, block_kb=64),
        "base sustained write, smallest cache": base(4, workload="sustained_write"),
        "base sustained write, largest cache": base(16, workload="sustained_write"),
        "PAF sustained write, CF 3": paf(workload="sustained_write", compressibility=3.0),
        "PAF peak write, CF 2": paf(workload="peak_write", compressibility=2.0),
        "EHPO sustained write, CF 3, largest cache": ehpo(16, workload="sustained_write", compressibility=3.0),
        "PAF read recall, CF 2.66, import/export running": calibrated["mount_s"].replace(import_export_drives=2),
        "PAF sustained write, CF 4": paf(workload="sustained_write", compressibility=4.0),
        "EHPO peak write, CF 3, largest cache": ehpo(16, workload="peak_write", compressibility=3.0),
        "PAF peak write, CF 3": paf(workload="peak_write", compressibility=3.0),
        "PAF peak write, CF 4": paf(workload="peak_write", compressibility=4.0),
    }


def experiments() -> list[Experiment]:
    """The one experiment: host MB/s of every configuration, from :data:`INITIAL` up to :data:`CAP` replications."""
    return [Experiment(EXPERIMENT, model, configurations(), initial=INITIAL, cap=CAP)]


def _flow(configuration: str):
    """Host MB/s of one configuration."""
    return metric(EXPERIMENT, configuration, "host_mb_s")


def _flow_ratio(reference: str, changed: str):
    """Host MB/s of ``changed`` over ``reference``, per replication (common random numbers)."""
    return ratio(EXPERIMENT, reference, changed, "host_mb_s")


def line_coefficient(workload: str, parity_groups: int, coefficient: str) -> float:
    """``m`` or ``b`` of the model's Table 4 line (:func:`~perfstudies.models.vts.analytic.bound_line`)."""
    m, b = bound_line(workload, parity_groups)
    return {"m": m, "b": b}[coefficient]


def _table4(workload: str, parity_groups: int, coefficient: str) -> Published:
    """The published Table 4 coefficient ``m`` or ``b`` of one workload's line on one cache."""
    table = data.load(KEY, "table4_ehpo_coefficients").set_index(["workload", "parity_groups"])
    row = table.loc[(workload, parity_groups)]
    return Published(TABLE4, f"{workload.replace('_', ' ')} {coefficient}",
                     f"{int(row['capacity_gb_36gb_hdd'])}/{int(row['capacity_gb_9gb_hdd'])} GB",
                     float(row[coefficient]))


def _line(workload: str, parity_groups: int, coefficient: str) -> Exact:
    return Exact(functools.partial(line_coefficient, workload, parity_groups, coefficient))


def elongation_pct(task: str) -> float:
    """Sec. 7's elongation of ``task`` under peak write, percent: equations 1-2 with the data term slowed."""
    megabytes, mounts = text_value("contention_task_mb"), text_value(f"contention_{task}_mounts")
    alone = import_export_minutes(task, megabytes, mounts)
    return 100 * (contended_task_minutes(task, megabytes, mounts, contention_slowdown()) / alone - 1)


def _elongation(task: str) -> Published:
    return Published("Sec. 7 (text)", f"{task} time increase under peak write",
                     f"{text_value(f'contention_{task}_mounts'):g} mounts, 2.3 GB",
                     text_value(f"{task}_elongation_peak_write"))


def lone_recall(compressibility: float) -> VTSParams:
    """The best-case recall of Sec. 3.4: an 800 MB volume on the PAF machine with nothing queued ahead."""
    return paf(workload="read_recall", compressibility=compressibility,
               volume_mb=text_value("measured_volume_size"), recall_queue=0)


def _best_case(compressibility: float) -> CellSpec:
    """The best-case recall statement at one compressibility, in closed form (mount + search + read)."""
    best = statement("recall_best_case")
    fast_ready = (text_value("fast_ready_mount_low") + text_value("fast_ready_mount_high")) / 2
    return CellSpec(
        Published(BEST_CASE, "best-case recall mount response", f"800 MB, CF {compressibility:g}", best.value),
        "prediction", Exact(functools.partial(recall_response_s, lone_recall(compressibility))),
        resolution(best.half_band, "the text gives only a range, 'on the order of approximately two to three "
                                   "minutes' (Sec. 3.4): 150 s stands for any value from 120 to 180 s"),
        baseline=Baseline(fast_ready, "persistence", "the fast-ready mount of a volume in cache (2-3 s, Sec. 3.4)"),
        note=f"seconds; closed form (mount + search + read, nothing queued); {best.reading}.")


def cells() -> list[CellSpec]:
    """Every compared cell, printed numbers first, then statements (see the module docstring).

    Declared against the calibrated service times: :func:`calibrated_rates`
    refuses (ValueError) when the defaults of ``VTSParams`` are not the
    calibration's output.
    """
    calibrated_rates()
    calibration = calibration_cells()
    line = calibration["disk_fixed_s"]
    peak_32, hit_32 = (calibration[key].published for key in ("write_block_overhead_s", "read_block_overhead_s"))
    recall_266 = calibration["mount_s"].published
    base_peak_small, base_peak_large = (calibration[key].published for key in ("disk_op_s", "cpu_base_peak"))
    paf_point = "at the PAF measurement point of Tables 1-2 (CF 2.66, 32 KB)"
    paf_sustained_cf1 = Baseline(text_value("paf_sustained_write_cf1"), "persistence",
                                 "PAF sustained write at CF 1, its only measured point")
    base_sustained_large = Baseline(text_value("base_sustained_write_largest_cache"), "persistence",
                                    "sustained write of the base machine, largest cache")
    paf_peak_over_sustained = Baseline(
        text_value("paf_peak_write_cf1") / text_value("paf_sustained_write_cf1"), "persistence",
        "PAF peak / sustained write at CF 1, the one compressibility where the paper gives both")
    peak_m_288, peak_b_288, peak_m_1152 = (_table4("peak_write", 4, "m"), _table4("peak_write", 4, "b"),
                                           _table4("peak_write", 16, "m"))
    peak_line_288 = "peak write line, 288/72 GB (the calibrated cache)"
    sustained_line_288 = "sustained write line, 288/72 GB (the calibrated cache)"
    naive_peak_line = "naive: peak write line, 288/72 GB (copy-out assumed free)"
    table4_note = "line fitted to the model's bound at CF 1-4 (closed form)."
    flat, cf4, sixty = (statement(key) for key in ("paf_sustained_flat_above_cf3", "paf_sustained_write_cf4",
                                                    "peak_over_sustained"))
    joint = "solved jointly with the other two processor-limited cells (a 3 x 3 linear system in a, b, e)"
    return [
        # --- calibration: each cell sets one service time (calibration.calibrate)
        CellSpec(peak_32, "calibration", _flow("PAF peak write, CF 2.66, 32 KB"), sets="write_block_overhead_s",
                 note="host MB/s; limited by the 8 ESCON channels."),
        CellSpec(hit_32, "calibration", _flow("PAF read hit, CF 2.66, 32 KB"), sets="read_block_overhead_s",
                 note="host MB/s; limited by the 8 ESCON channels."),
        CellSpec(base_peak_large, "calibration", _flow("base peak write, largest cache"), sets="cpu_s_per_disk_op",
                 note=f"host MB/s; limited by the 2 processors, the cell with the most disk operations per MB; "
                      f"{joint}."),
        CellSpec(calibration["cpu_paf_peak"].published, "calibration", _flow("PAF peak write, CF 1"),
                 sets="cpu_s_per_host_mb",
                 note=f"host MB/s; limited by the 4 processors, the cell with the fewest passes and disk operations "
                      f"per MB; {joint}."),
        CellSpec(calibration["cpu_paf_sustained"].published, "calibration", _flow("PAF sustained write, CF 1"),
                 sets="cpu_s_per_mb_pass",
                 note=f"host MB/s; limited by the 4 processors, the cell with three memory passes per MB; {joint}."),
        CellSpec(base_peak_small, "calibration", _flow("base peak write, smallest cache"), sets="disk_op_s",
                 note="host MB/s; limited by the 12 cache disk arms."),
        CellSpec(recall_266, "calibration", _flow("PAF read recall, CF 2.66"), sets="mount_s",
                 note="host MB/s; limited by the 4 tape drives."),
        # --- Table 1 (its read recall at CF 2.66 is the mount_s calibration above)
        CellSpec(Published("Table 1", "read hit", "CF 1", published_rate("table1_read_rates", operation="read_hit",
                                                                         cf=1.0)),
                 "prediction", _flow("PAF read hit, CF 1"),
                 baseline=Baseline(hit_32.value, "persistence", f"the read hit {paf_point}"), note="host MB/s."),
        CellSpec(Published("Table 1", "read hit", "CF 2.66", published_rate("table1_read_rates", operation="read_hit",
                                                                            cf=2.66)),
                 "derived", _flow("PAF read hit, CF 2.66, 32 KB"),
                 derivation=Derivation((hit_32.where,), lambda hit: hit,
                                       "the same measurement as the calibrated Table 2 read hit, 32 KB (PAF, 8 ESCON, "
                                       "CF 2.66, 32 KB), printed in both tables"),
                 note="host MB/s."),
        CellSpec(Published("Table 1", "read recall", "CF 1",
                           published_rate("table1_read_rates", operation="read_recall", cf=1.0)),
                 "prediction", _flow("PAF read recall, CF 1"),
                 baseline=Baseline(recall_266.value, "persistence", f"the read recall {paf_point}"), note="host MB/s."),
        # --- Table 2 at 64 KB blocks (32 KB are calibration cells above)
        CellSpec(Published("Table 2", "peak write", "64 KB", published_rate("table2_block_size", operation="peak_write",
                                                                            block_kb=64)),
                 "prediction", _flow("PAF peak write, CF 2.66, 64 KB"),
                 baseline=Baseline(peak_32.value, "persistence", f"the peak write {paf_point}"), note="host MB/s."),
        CellSpec(Published("Table 2", "read hit", "64 KB", published_rate("table2_block_size", operation="read_hit",
                                                                          block_kb=64)),
                 "prediction", _flow("PAF read hit, CF 2.66, 64 KB"),
                 baseline=Baseline(hit_32.value, "persistence", f"the read hit {paf_point}"), note="host MB/s."),
        # --- rates the text around Figs. 3, 7 and 8 states
        CellSpec(Published("Fig. 3 (text)", "base sustained write", "smallest cache",
                           text_value("base_sustained_write_smallest_cache")),
                 "prediction", _flow("base sustained write, smallest cache"), baseline=base_sustained_large,
                 note="host MB/s."),
        CellSpec(Published("Fig. 3 (text)", "base sustained write", "largest cache",
                           text_value("base_sustained_write_largest_cache")),
                 "prediction", _flow("base sustained write, largest cache"),
                 baseline=Baseline(base_peak_large.value, "persistence",
                                   "naive: peak write of the base machine, largest cache (copy-out assumed free)"),
                 note="host MB/s."),
        CellSpec(Published("Fig. 7 (text)", "PAF sustained write", "CF 3", text_value("paf_sustained_write_cf3")),
                 "prediction", _flow("PAF sustained write, CF 3"), baseline=paf_sustained_cf1, note="host MB/s."),
        CellSpec(Published("Fig. 8 (text)", "PAF peak write", "CF 2", text_value("paf_peak_write_cf2")),
                 "prediction", _flow("PAF peak write, CF 2"),
                 baseline=Baseline(peak_32.value, "persistence", f"the peak write {paf_point}"), note="host MB/s."),
        CellSpec(Published("Fig. 7 (text)", "EHPO sustained write", "CF 3, largest cache",
                           text_value("ehpo_sustained_write_cf3_largest_cache")),
                 "prediction", _flow("EHPO sustained write, CF 3, largest cache"), baseline=base_sustained_large,
                 note="host MB/s."),
        # --- Sec. 7: a task holding drives
        CellSpec(Published("Sec. 7 (text)", "recall rate with import/export running", "relative to without",
                           text_value("recall_rate_with_import_export")),
                 "prediction",
                 _flow_ratio("PAF read recall, CF 2.66", "PAF read recall, CF 2.66, import/export running"),
                 baseline=Baseline(1.0, "persistence", "no change: the recall rate without the task"),
                 note=f"ratio of host MB/s, per replication; the task holds two of the "
                      f"{calibration['mount_s'].params.drives} drives."),
        # --- Table 4 (closed form): the calibrated line value at CF 4, then each line's m and b
        CellSpec(line.published, "calibration", Exact(functools.partial(bound, line.params)), sets="disk_fixed_s",
                 note="MB/s; limited by the 12 cache disk arms; the bound at CF 4 (closed form)."),
        CellSpec(_table4("sustained_write", 4, "m"), "prediction", _line("sustained_write", 4, "m"),
                 baseline=Baseline(peak_m_288.value, "persistence", naive_peak_line),
                 note=f"MB/s per unit CF; {table4_note}"),
        CellSpec(_table4("sustained_write", 4, "b"), "prediction", _line("sustained_write", 4, "b"),
                 baseline=Baseline(peak_b_288.value, "persistence", naive_peak_line), note=f"MB/s; {table4_note}"),
        CellSpec(_table4("sustained_write", 8, "m"), "prediction", _line("sustained_write", 8, "m"),
                 baseline=Baseline(_table4("sustained_write", 4, "m").value, "persistence", sustained_line_288),
                 note=f"MB/s per unit CF; {table4_note}"),
        CellSpec(_table4("sustained_write", 8, "b"), "prediction", _line("sustained_write", 8, "b"),
                 baseline=Baseline(_table4("sustained_write", 4, "b").value, "persistence", sustained_line_288),
                 note=f"MB/s; {table4_note}"),
        CellSpec(_table4("sustained_write", 16, "m"), "prediction", _line("sustained_write", 16, "m"),
                 baseline=Baseline(_table4("sustained_write", 4, "m").value, "persistence", sustained_line_288),
                 note=f"MB/s per unit CF; {table4_note}"),
        CellSpec(_table4("sustained_write", 16, "b"), "prediction", _line("sustained_write", 16, "b"),
                 baseline=Baseline(_table4("sustained_write", 4, "b").value, "persistence", sustained_line_288),
                 note=f"MB/s; {table4_note}"),
        CellSpec(peak_m_288, "derived", _line("peak_write", 4, "m"),
                 derivation=Derivation((line.published.where, base_peak_small.where),
                                       lambda at_cf4, at_cf1: (at_cf4 - at_cf1) / 3,
                                       "the line passes through two calibrated points, 4m + b (the line value at "
                                       "CF 4) and m + b (the base peak write on the smallest cache: at CF 1 EHPO "
                                       "compresses nothing), so m = ((4m + b) - (m + b)) / 3"),
                 note=f"MB/s per unit CF; {table4_note}"),
        CellSpec(peak_b_288, "derived", _line("peak_write", 4, "b"),
                 derivation=Derivation((line.published.where, base_peak_small.where),
                                       lambda at_cf4, at_cf1: (4 * at_cf1 - at_cf4) / 3,
                                       "as m of this line: b = (4(m + b) - (4m + b)) / 3 of the two calibrated points"),
                 note=f"MB/s; {table4_note}"),
        CellSpec(_table4("peak_write", 8, "m"), "prediction", _line("peak_write", 8, "m"),
                 baseline=Baseline(peak_m_288.value, "persistence", peak_line_288),
                 note=f"MB/s per unit CF; {table4_note}"),
        CellSpec(_table4("peak_write", 8, "b"), "prediction", _line("peak_write", 8, "b"),
                 resolution(0.005, "printed to two decimals: -0.03 stands for anything from -0.035 to -0.025, so no "
                                   "tolerance can be finer than 0.005 MB/s (10% of it would be 0.003)"),
                 baseline=Baseline(peak_b_288.value, "persistence", peak_line_288), note=f"MB/s; {table4_note}"),
        CellSpec(peak_m_1152, "prediction", _line("peak_write", 16, "m"),
                 baseline=Baseline(peak_m_288.value, "persistence", peak_line_288),
                 note=f"MB/s per unit CF; {table4_note}"),
        CellSpec(_table4("peak_write", 16, "b"), "derived", _line("peak_write", 16, "b"),
                 derivation=Derivation((base_peak_large.where, peak_m_1152.where), lambda at_cf1, m: at_cf1 - m,
                                       "m + b is the calibrated base peak write on the largest cache (at CF 1 EHPO "
                                       "compresses nothing), so b = (m + b) - m and its error is m's, mirrored"),
                 note=f"MB/s; {table4_note}"),
        # --- Sec. 7: task elongation under host peak write (equations 1-2, closed form)
        CellSpec(_elongation("export"), "calibration", Exact(functools.partial(elongation_pct, "export")),
                 sets="contention_slowdown",
                 note="percent; equations 1-2 with the data term slowed (closed form); the slowdown of import/export "
                      "data transfer under saturating peak write (calibration.contention_slowdown)."),
        CellSpec(_elongation("import"), "prediction", Exact(functools.partial(elongation_pct, "import")),
                 baseline=Baseline(text_value("export_elongation_peak_write"), "persistence",
                                   "the export measured under the same host load"),
                 note="percent; equations 1-2 with the data term slowed (closed form)."),
        # --- the statements (data/vts/statements.csv)
        CellSpec(Published(FLAT, "PAF sustained write, CF 4 over CF 3", "1728 GB", flat.value), "prediction",
                 _flow_ratio("PAF sustained write, CF 3", "PAF sustained write, CF 4"),
                 baseline=Baseline(1.0, "persistence", "no change: the rate at CF 3"),
                 note=f"ratio of host MB/s, per replication; {flat.reading}."),
        CellSpec(Published(FLAT, "PAF sustained write", "CF 4", cf4.value), "prediction",
                 _flow("PAF sustained write, CF 4"), baseline=paf_sustained_cf1, note=f"host MB/s; {cf4.reading}."),
        CellSpec(Published(SIXTY, "peak / sustained write", "EHPO, CF 3, largest cache", sixty.value), "prediction",
                 _flow_ratio("EHPO sustained write, CF 3, largest cache", "EHPO peak write, CF 3, largest cache"),
                 baseline=Baseline(base_peak_large.value / text_value("base_sustained_write_largest_cache"),
                                   "persistence", "peak / sustained write of the base machine, largest cache"),
                 note=f"ratio of host MB/s, per replication; {sixty.reading}."),
        *[CellSpec(Published(SIXTY, "peak / sustained write", f"PAF, CF {cf:g}", sixty.value), "prediction",
                   _flow_ratio(f"PAF sustained write, CF {cf:g}", f"PAF peak write, CF {cf:g}"),
                   baseline=paf_peak_over_sustained, note=f"ratio of host MB/s, per replication; {sixty.reading}.")
          for cf in PAF_RATIO_CF],
        _best_case(1.0),
        _best_case(text_value("fig6_compressibility")),
    ]


def statements(table: pd.DataFrame) -> pd.DataFrame:
    """The statements part of a comparison table (rows whose table ends in :data:`STATEMENT`)."""
    return table[table["table"].str.endswith(STATEMENT)]


def printed(table: pd.DataFrame) -> pd.DataFrame:
    """The printed-numbers part of a comparison table."""
    return table[~table["table"].str.endswith(STATEMENT)]
