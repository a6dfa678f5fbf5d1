"""Theory first: the back-of-envelope arithmetic of a dump or load, in closed form.

These are the sums the report's numbers invite before any simulation: which
device is the bottleneck, how long the buffer can hide a tape change, how many
cartridges the data needs.  Calibration (:mod:`.calibration`) inverts the same
sums to turn named published cells into parameter values.
"""

import math

import numpy as np

from perfstudies.models.spxtape.params import SpxtapeParams
from perfstudies.models.spxtape.workload import workload


def busiest_volume_pages(p: SpxtapeParams, seeds: list[int]) -> float:
    """Mean over ``seeds`` of the pages on the fullest volume: what a parallel dump waits for."""
    return float(np.mean([max(sum(c.pages for c in chunks) for chunks in workload(p, seed)) for seed in seeds]))


def tape_space(p: SpxtapeParams) -> float:
    """Tape space of the whole dump in pages: SPTAPE adds ``mark_pages`` per file."""
    marks = p.files * p.mark_pages if p.command == "SPTAPE" else 0.0
    return p.total_pages + marks


def tapes_needed(p: SpxtapeParams) -> int:
    """Cartridges: the space over the capacity, rounded up, plus one partly filled per extra drive."""
    return math.ceil(tape_space(p) / p.tape_capacity_pages) + p.drives - 1


def hidden_per_change(p: SpxtapeParams, stream_rate: float) -> float:
    """Seconds of one tape change the buffer hides when the non-tape side moves ``stream_rate`` pages/s.

    Dumping, reading goes on until the buffer is full; loading, file creation
    goes on until it is empty.  Either way the buffer lasts ``buffer / rate``.
    """
    return min(p.change_time, p.buffer_pages / stream_rate)


def envelope(p: SpxtapeParams, busiest_pages: float) -> dict[str, float]:
    """Back-of-envelope elapsed time, idle time and tapes of one run.

    SPTAPE adds everything up.  SPXTAPE takes the time of its slowest stage:
    the busiest volume's reading when dumping, the one-at-a-time file creation
    when loading; with one drive each change adds what the buffer cannot hide,
    with two or more drives the other drive covers it.
    """
    tapes = tapes_needed(p)
    changes = tapes - p.drives
    if p.command == "SPTAPE":
        per_file = p.mark_time if p.function == "DUMP" else p.file_create_time
        idle = changes * p.change_time
        work = p.total_pages * (p.page_io_time + p.tape_page_time) + p.files * per_file
        return {"elapsed_s": work + idle, "system_idle_s": idle, "tapes": tapes}
    if p.function == "DUMP":
        work, rate = busiest_pages * p.page_io_time, p.volumes / p.page_io_time
    else:
        work = p.files * p.file_create_time
        rate = p.total_pages / work
    idle = changes * (p.change_time - hidden_per_change(p, rate)) if p.drives == 1 else 0.0
    return {"elapsed_s": work + idle, "system_idle_s": idle, "tapes": tapes}
