"""Calibration: eight service times from eight named published cells, in closed form.

Each calibration cell is a measurement the document says one resource limits,
so its published rate equals that resource's capacity (the bottleneck bound of
:mod:`.analytic`), and the equation can be solved for the resource's service time:

=========================================  ===========================  ==============
cell                                       limited by                   sets
=========================================  ===========================  ==============
Table 2 peak write, 32 KB (PAF, CF 2.66)   8 ESCON channels             write overhead
Table 2 read hit, 32 KB (PAF, CF 2.66)     8 ESCON channels             read overhead
base peak write, largest cache (Fig. 3)    2 processors                 a, b, e (jointly,
PAF peak write, CF 1 (Fig. 8)              4 processors                 a 3 x 3 linear
PAF sustained write, CF 1 (Fig. 7)         4 processors                 system)
base peak write, smallest cache (Fig. 3)   12 cache disk arms           disk op time
Table 4 peak write, 288 GB (EHPO): the     12 cache disk arms           fixed part of an
line m CF + b at CF 4 (equation 3)                                      unbuffered write
Table 1 read recall, CF 2.66 (PAF)         4 tape drives                mount time
=========================================  ===========================  ==============

:func:`check_bottlenecks` verifies afterwards that each cell really is limited by
the resource it was solved for, and :func:`check_defaults` that the defaults of
:class:`~perfstudies.models.vts.params.VTSParams` are these values.  The Table 4
cell is solved after the disk op time, whose value it needs; it is one number
made of two published entries (4 m + b).
"""

import dataclasses
import functools

import numpy as np
import pandas as pd

from perfstudies import data
from perfstudies.compare import Published
from perfstudies.models.vts.analytic import (
    ESCON_LINK_MB_S, TRACK_MB, arms, bottleneck, disk_ops_per_mb, drive_mb_s, equation3, import_export_minutes,
    internal_cf, processor_terms, processors, write_ops_per_track,
)
from perfstudies.models.vts.params import KEY, VTSParams, base, ehpo, paf, text_value


#: The eight calibrated service times: the fields of :class:`~perfstudies.models.vts.params.VTSParams` that
#: :func:`calibrate` sets, each from the named cell(s) of :func:`calibration_cells`.
CALIBRATED = ("write_block_overhead_s", "read_block_overhead_s", "cpu_s_per_host_mb", "cpu_s_per_mb_pass",
              "cpu_s_per_disk_op", "disk_op_s", "disk_fixed_s", "mount_s")


@dataclasses.dataclass(frozen=True)
class CalibrationCell:
    """A published cell that sets a service time, and the configuration it was measured on."""

    published: Published
    params: VTSParams


#: The table label of Table 4's cells: the paper's analytic coefficients (its curves were "extended ... using
#: analytical performance modeling", Sec. 3.5.1), compared in their own part, apart from measurements.
TABLE4 = "Table 4 (analytic)"
#: Compressibility at which Table 4's smallest-cache peak-write line calibrates ``disk_fixed_s``:
#: the end of the measured range, where the fixed part weighs most against the shrinking rest.
LINE_CALIBRATION_CF = 4.0


def published_rate(name: str, **where) -> float:
    """The ``host_mb_s`` of the one row of table ``name`` matching ``where``."""
    table = data.load(KEY, name)
    for column, value in where.items():
        table = table[table[column] == value]
    if len(table) != 1:
        raise ValueError(f"{name} has {len(table)} rows matching {where}: allowed exactly one")
    return float(table["host_mb_s"].iloc[0])


@functools.cache
def calibration_cells() -> dict[str, CalibrationCell]:
    """The eight calibration cells, keyed by the service time (or group of them) they set."""
    t2 = "Table 2"
    return {
        "write_block_overhead_s": CalibrationCell(
            Published(t2, "peak write", "32 KB", published_rate("table2_block_size", operation="peak_write",
                                                                block_kb=32)),
            paf(workload="peak_write", compressibility=2.66)),
        "read_block_overhead_s": CalibrationCell(
            Published(t2, "read hit", "32 KB", published_rate("table2_block_size", operation="read_hit",
                                                              block_kb=32)),
            paf(workload="read_hit", compressibility=2.66)),
        "cpu_base_peak": CalibrationCell(
            Published("Fig. 3 (text)", "base peak write", "largest cache",
                      text_value("base_peak_write_largest_cache")),
            base(16, workload="peak_write")),
        "cpu_paf_peak": CalibrationCell(
            Published("Fig. 8 (text)", "PAF peak write", "CF 1", text_value("paf_peak_write_cf1")),
            paf(workload="peak_write", compressibility=1.0)),
        "cpu_paf_sustained": CalibrationCell(
            Published("Fig. 7 (text)", "PAF sustained write", "CF 1", text_value("paf_sustained_write_cf1")),
            paf(workload="sustained_write", compressibility=1.0)),
        "disk_op_s": CalibrationCell(
            Published("Fig. 3 (text)", "base peak write", "smallest cache",
                      text_value("base_peak_write_smallest_cache")),
            base(4, workload="peak_write")),
        "disk_fixed_s": CalibrationCell(
            Published(TABLE4, "peak write line m CF + b at CF 4", "288/72 GB",
                      equation3("peak_write", 4, LINE_CALIBRATION_CF)),
            ehpo(4, workload="peak_write", compressibility=LINE_CALIBRATION_CF)),
        "mount_s": CalibrationCell(
            Published("Table 1", "read recall", "CF 2.66", published_rate("table1_read_rates",
                                                                          operation="read_recall", cf=2.66)),
            paf(workload="read_recall", compressibility=2.66)),
    }


#: The resource each calibration cell is solved for.
LIMITED_BY = {"write_block_overhead_s": "channels", "read_block_overhead_s": "channels",
              "cpu_base_peak": "processors", "cpu_paf_peak": "processors", "cpu_paf_sustained": "processors",
              "disk_op_s": "cache", "disk_fixed_s": "cache", "mount_s": "tape"}

#: The service time(s) each calibration cell sets.
SETS = {"write_block_overhead_s": "write_block_overhead_s", "read_block_overhead_s": "read_block_overhead_s",
        "cpu_base_peak": "cpu_s_per_host_mb, cpu_s_per_mb_pass, cpu_s_per_disk_op (jointly with the next two)",
        "cpu_paf_peak": "(joint with the cell above)", "cpu_paf_sustained": "(joint with the cell above)",
        "disk_op_s": "disk_op_s", "disk_fixed_s": "disk_fixed_s (given disk_op_s)", "mount_s": "mount_s"}


def calibration_table() -> pd.DataFrame:
    """The calibration cells as a table: the cell, its published value, the resource it is solved for, what it sets."""
    return pd.DataFrame([{"cell": cell.published.where, "published MB/s": cell.published.value,
                          "limited by": LIMITED_BY[key], "sets": SETS[key]}
                         for key, cell in calibration_cells().items()])


def _channel_overhead(cell: CalibrationCell) -> float:
    """Solve channels * block / (overhead + block / link rate) = published for the overhead."""
    p = cell.params
    block_mb = p.block_kb / 1024
    return p.escon_channels * block_mb / cell.published.value - block_mb / ESCON_LINK_MB_S


def calibrate() -> VTSParams:
    """The calibrated record: :class:`VTSParams` with the eight service times of :data:`CALIBRATED` solved from
    the calibration cells (see the module docstring).

    A cell that would need a negative or vanishing service time is refused by
    the record's own range check (ValueError naming the field): such a
    calibration has no physical reading.
    """
    cells = calibration_cells()
    cpu_keys = ("cpu_base_peak", "cpu_paf_peak", "cpu_paf_sustained")
    # processors / X = a * ta + b * tb + e * te for each processor-limited cell.
    terms = np.array([processor_terms(cells[k].params) for k in cpu_keys])
    demand = np.array([processors(cells[k].params) / cells[k].published.value for k in cpu_keys])
    a, b, e = np.linalg.solve(terms, demand)
    disk = cells["disk_op_s"]
    disk_op_s = arms(disk.params) * internal_cf(disk.params) / (disk.published.value * disk_ops_per_mb(disk.params))
    # arms / X = writes per MB * (fixed + (op - fixed) / CF) at the line's CF 4 point; solve for fixed.
    line = cells["disk_fixed_s"]
    cf = line.params.compressibility
    per_write = arms(line.params) * TRACK_MB / (line.published.value * write_ops_per_track(line.params))
    disk_fixed_s = (per_write - disk_op_s / cf) / (1 - 1 / cf)
    recall = cells["mount_s"].params
    per_volume = recall.drives * recall.volume_mb / cells["mount_s"].published.value
    mount_s = per_volume - text_value("search_time") - recall.volume_mb / (recall.compressibility * drive_mb_s(recall))
    return VTSParams().replace(
        write_block_overhead_s=_channel_overhead(cells["write_block_overhead_s"]),
        read_block_overhead_s=_channel_overhead(cells["read_block_overhead_s"]),
        cpu_s_per_host_mb=float(a), cpu_s_per_mb_pass=float(b), cpu_s_per_disk_op=float(e),
        disk_op_s=float(disk_op_s), disk_fixed_s=float(disk_fixed_s), mount_s=float(mount_s),
    )


def with_calibration(params: VTSParams, calibrated: VTSParams) -> VTSParams:
    """``params`` with the eight service times (:data:`CALIBRATED`) of ``calibrated``."""
    return params.replace(**{name: getattr(calibrated, name) for name in CALIBRATED})


def check_bottlenecks(calibrated: VTSParams) -> None:
    """Raise ValueError if a calibration cell is not limited by the resource it was solved for."""
    for key, cell in calibration_cells().items():
        found = bottleneck(with_calibration(cell.params, calibrated))
        if found != LIMITED_BY[key]:
            raise ValueError(f"calibration cell {cell.published.where} is limited by {found}, "
                             f"not by {LIMITED_BY[key]}: the closed-form calibration does not hold")


def check_defaults(calibrated: VTSParams) -> None:
    """Raise ValueError unless the defaults of VTSParams are exactly ``calibrated`` (the calibration's output)."""
    defaults = VTSParams()
    drifted = [f"{name} = {getattr(defaults, name)!r} (calibrated {getattr(calibrated, name)!r})"
               for name in CALIBRATED if getattr(defaults, name) != getattr(calibrated, name)]
    if drifted:
        raise ValueError(f"VTSParams defaults differ from calibrate(): {'; '.join(drifted)}; "
                         "set the defaults in params.py to the calibrated values")


@functools.cache
def calibrated_params() -> VTSParams:
    """:func:`calibrate`'s record, checked against the bottlenecks and the record's defaults (once per process)."""
    calibrated = calibrate()
    check_bottlenecks(calibrated)
    check_defaults(calibrated)
    return calibrated


def contention_slowdown() -> float:
    """Slowdown of import/export data transfer under saturating host peak write.

    Calibrated on the export measured under peak write (Sec. 7: ten volumes,
    thirteen mounts, 2.3 GB, about 25% longer): solve
    ``contended / alone = 1 + elongation`` for the data-transfer slowdown.
    """
    megabytes, mounts = text_value("contention_task_mb"), text_value("contention_export_mounts")
    alone = import_export_minutes("export", megabytes, mounts)
    moving = import_export_minutes("export", megabytes, 0)
    return 1.0 + text_value("export_elongation_peak_write") / 100 * alone / moving
