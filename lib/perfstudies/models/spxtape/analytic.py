"""Theory first: the back-of-envelope arithmetic of a dump or load, in closed form.

These are the sums the report's numbers invite before any simulation: which
device is the bottleneck, how long the buffer can hide a tape change, how many
cartridges the data needs, and (Table 2) how long a user's spool I/O waits
behind the dump's queued reads.  Calibration (:mod:`.calibration`) inverts the
same sums to turn named published cells into parameter values;
``tests/spxtape/test_analytic.py`` checks them against the simulation.
"""

import math

import numpy as np

from perfstudies.models.spxtape.params import ConcurrentParams, SpxtapeParams
from perfstudies.models.spxtape.workload import workload
from perfstudies.params import check_real, check_record
from perfstudies.runner import check_seed


def busiest_volume_pages(p: SpxtapeParams, seeds: list[int]) -> float:
    """Mean over ``seeds`` of the pages on the fullest volume: what a parallel dump waits for."""
    check_record("p", p, SpxtapeParams)
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, (list, tuple)) or not seeds:
        raise ValueError(f"seeds = {seeds!r} has the wrong type: allowed a non-empty list of seeds")
    seeds = [check_seed(seed, f"seeds[{index}]") for index, seed in enumerate(seeds)]
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
    check_record("p", p, SpxtapeParams)
    busiest_pages = check_real("busiest_pages", busiest_pages, low=0.0)
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


# Table 2: one spool volume shared by the dump's closed loop of queued reads and the users' Poisson I/Os


def user_utilisation(p: ConcurrentParams) -> float:
    """The share of the volume the users' I/Os take, ``rho = user_io_rate * page_io_time``."""
    return p.user_io_rate * p.page_io_time


def dump_share(p: ConcurrentParams) -> float:
    """The share of the volume left to the dump: ``1 - rho``.

    The dump always has reads queued, so the volume never idles and the dump
    gets whatever the users leave.
    """
    return 1.0 - user_utilisation(p)


def user_io_response_alone(p: ConcurrentParams) -> float:
    """Users' I/O response time on the volume without the dump: M/M/1, ``s / (1 - rho)``."""
    return p.page_io_time / (1 - user_utilisation(p))


def user_io_response(p: ConcurrentParams) -> float:
    """Users' mean I/O response time with the dump's ``q`` reads always queued (exact, FIFO).

    An arriving user I/O waits for the work present (PASTA): the residual of
    the service under way, ``s (1 + rho) / 2`` on average (deterministic page
    reads for the time share ``1 - rho``, exponential user I/Os for ``rho``),
    the other ``q - 1`` dump reads, and the users present, ``rho R / s`` of
    them by Little's law.  Solving ``R = s (1 + rho) / 2 + (q - 1) s + rho R + s``
    gives ``R = s (q + (1 + rho) / 2) / (1 - rho)``.
    """
    rho, s = user_utilisation(p), p.page_io_time
    return s * (p.dump_reads_queued + (1 + rho) / 2) / (1 - rho)


def reads_queued_for(response: float, page_io_time: float, rho: float) -> int:
    """The dump's queued reads per volume that give users the I/O response time ``response``.

    Inverts the approximation ``R ~ s + q s / (1 - rho)`` (a user waits for the
    ``q`` queued reads, stretched by the users' own share); it differs from the
    exact :func:`user_io_response` by ``s (3 rho - 1) / (2 (1 - rho))``, under one
    page time for ``rho < 0.6``.
    """
    return round((response - page_io_time) * (1 - rho) / page_io_time)
