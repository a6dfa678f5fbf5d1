"""What one run did, read back from Ciw's records and the tape log, as the report's quantities.

Turns a Table 1 replication into the report's quantities (elapsed time, tape
change time, the part of it that left the whole system idle, tapes used) and
into the interval frames the chapter's timeline draws; and carries one
simulated spool volume of the Table 2 run through to Table 2's rows
(:func:`system_effects`).
"""

import numpy as np
import pandas as pd

from perfstudies.models.spxtape.analytic import user_io_response_alone
from perfstudies.models.spxtape.mechanism import CHANGING, TRANSFERRING, TapeLog
from perfstudies.models.spxtape.params import DUMP_VOLUMES, PAGE_BYTES, PAGES_PER_BLOCK, ConcurrentParams

#: The columns of Ciw's records that the metrics and the chapter's frames read (all numbers), the only
#: ones :func:`.network.simulate` keeps (:func:`perfstudies.runner.records_frame`'s ``columns``).
COLUMNS = {"id_number": int, "node": int, "arrival_date": float, "service_start_date": float,
           "service_end_date": float, "time_blocked": float, "exit_date": float}
#: States of a spool volume on the timeline.
READING = "spool I/O"
BLOCKED = "blocked: buffer full"


def merge(intervals: np.ndarray) -> np.ndarray:
    """Union of ``[start, end]`` rows as sorted disjoint rows.

    Sorted by start, a row opens a new union row exactly when it starts after
    the furthest end reached so far (a running maximum).
    """
    if len(intervals) == 0:
        return np.empty((0, 2))
    intervals = intervals[np.argsort(intervals[:, 0], kind="stable")]
    starts, reach = intervals[:, 0], np.maximum.accumulate(intervals[:, 1])
    opens = np.flatnonzero(np.concatenate([[True], starts[1:] > reach[:-1]]))
    closes = np.append(opens[1:] - 1, len(starts) - 1)
    return np.column_stack([starts[opens], reach[closes]])


def covered(interval: tuple[float, float], disjoint: np.ndarray) -> float:
    """Length of ``interval`` covered by the sorted disjoint rows ``disjoint``."""
    start, end = interval
    if len(disjoint) == 0:
        return 0.0
    overlap = np.minimum(disjoint[:, 1], end) - np.maximum(disjoint[:, 0], start)
    return float(overlap[overlap > 0].sum())


def work_intervals(records: pd.DataFrame, log: TapeLog, roles: dict) -> np.ndarray:
    """When anything useful happened: spool I/O, file creation, or a drive transferring data."""
    busy_nodes = roles["volumes"] + roles["create"]
    served = records[records["node"].isin(busy_nodes)]
    nodes = served[["service_start_date", "service_end_date"]].to_numpy()
    tape = np.array([(start, end) for _, state, start, end in log.segments if state == TRANSFERRING]).reshape(-1, 2)
    return merge(np.vstack([nodes, tape]))


def run_metrics(records: pd.DataFrame, log: TapeLog, roles: dict, p) -> dict[str, float]:
    """The Table 1 quantities of one run of parameters ``p``.

    System idle time is the part of the tape changes during which no volume,
    no file creation and no drive was doing useful work; overlapped change time
    is the rest, as the report defines them.
    """
    elapsed = float(records["exit_date"].max())
    changes = [(start, end) for _, state, start, end in log.segments if state == CHANGING]
    change_time = sum(end - start for start, end in changes)
    work = work_intervals(records, log, roles)
    idle = float(sum(end - start - covered((start, end), work) for start, end in changes))
    # every page moved costs processor time; a load also pays for creating its files (mechanism.FileCreation)
    processor = p.cpu_per_page * p.total_pages + log.created_cpu_s
    return {
        "elapsed_s": elapsed,
        "tape_change_s": change_time,
        "system_idle_s": idle,
        "overlapped_change_s": change_time - idle,
        "overlap_pct": 100.0 * (change_time - idle) / change_time if change_time else 0.0,
        # every drive holds a cartridge from the start, and each change adds one
        "tapes": float(p.drives + len(changes)),
        "pages_per_s": p.total_pages / elapsed,
        "processor_s": processor,
        "processor_util_pct": 100.0 * processor / (elapsed * 4),  # 4 processors (footnote 1)
    }


def timeline_frame(records: pd.DataFrame, log: TapeLog, roles: dict) -> pd.DataFrame:
    """Intervals per lane (each volume, each drive) for :func:`perfstudies.diagrams.timeline`."""
    columns = ["lane", "state", "start", "end"]
    drives = pd.DataFrame(log.segments, columns=columns)
    drives["lane"] = "drive " + drives["lane"].astype(str)
    parts = [drives]
    for number, node in enumerate(roles["volumes"], start=1):
        mine = records[records["node"] == node]
        blocked = mine[mine["time_blocked"] > 0]
        for state, start, end in ((READING, mine["service_start_date"], mine["service_end_date"]),
                                  (BLOCKED, blocked["service_end_date"],
                                   blocked["service_end_date"] + blocked["time_blocked"])):
            parts.append(pd.DataFrame({"lane": f"volume {number}", "state": state,
                                       "start": start.to_numpy(), "end": end.to_numpy()}, columns=columns))
    return pd.concat(parts, ignore_index=True)


def buffer_frame(records: pd.DataFrame, log: TapeLog, roles: dict) -> pd.DataFrame:
    """Megabytes staged in the memory buffer over time (a step series).

    A chunk is in the buffer from its arrival at the node behind the buffer
    (the drives when dumping, file creation when loading) until its service
    there starts.
    """
    node = roles["create"][0] if roles["create"] else roles["tape"][0]
    mine = records[records["node"] == node]
    megabytes = mine["id_number"].map(log.pages).to_numpy() * PAGE_BYTES / 2**20
    events = pd.DataFrame({"time": np.concatenate([mine["arrival_date"], mine["service_start_date"]]),
                           "change": np.concatenate([megabytes, -megabytes])}).sort_values("time", kind="stable")
    return pd.DataFrame({"time": events["time"].to_numpy(), "buffer_mb": events["change"].cumsum().to_numpy()})


def system_effects(volume: dict, p: ConcurrentParams, without: dict) -> dict[str, float]:
    """From one volume's result to the Table 2 rows, given the run without the dump.

    ``without`` holds the without-dump run's published ``response_s`` (AVG LAST),
    ``think_s`` (AVG THINK), ``etr`` (ETR (T)), ``rio_rate`` (RIO RATE) and
    ``nonpage_rio_per_cmd``: the state the dump is added to.  The rows after
    AVG LAST are the closed forms below, which the comparison also applies to
    the published cells to show that the report's numbers obey them.
    """
    io_per_command = DUMP_VOLUMES * p.user_io_rate / without["etr"]
    extra_wait = volume["user_io_response_s"] - user_io_response_alone(p)
    response = without["response_s"] + io_per_command * extra_wait
    etr = closed_loop_etr(response, without)
    rio = real_io_rate(etr, volume["dump_pages_per_s"], without)
    return {"dump_pages_per_s": volume["dump_pages_per_s"], "avg_last_s": response, "etr": etr,
            "rio_rate": rio, "rio_per_cmd": rio / etr,
            "nonpage_rio_per_cmd": nonpage_rio_per_cmd(etr, volume["dump_pages_per_s"], without)}


def closed_loop_etr(response_s: float, without: dict) -> float:
    """Commands per second at response time ``response_s``: each user alternates thinking and waiting,
    so throughput ~ 1 / (Z + R), scaled from the run without the dump.

    The think time ``Z`` is the run without the dump's: Table 2's lower AVG THINK with the dump (21.57 s
    against 26.07 s) is, by the report's footnote 2, an effect of the shorter measurement interval (about
    15 minutes, ended by the dump), not a change in the users.
    """
    return without["etr"] * (without["think_s"] + without["response_s"]) / (without["think_s"] + response_s)


def dump_io_rate(dump_pages_per_s: float) -> float:
    """Real I/Os per second of the dump: one page read per page and one 32 KB tape write per eight pages.

    The 32 KB blocks are the report's (discussion of tapes); one spool read per page is an assumption.
    """
    return dump_pages_per_s * (1 + 1 / PAGES_PER_BLOCK)


def real_io_rate(etr: float, dump_pages_per_s: float, without: dict) -> float:
    """RIO RATE: the users' own I/O, scaled with their commands, plus the dump's."""
    return without["rio_rate"] * etr / without["etr"] + dump_io_rate(dump_pages_per_s)


def nonpage_rio_per_cmd(etr: float, dump_pages_per_s: float, without: dict) -> float:
    """NONPAGE RIO/CMD: the users' own non-paging I/O per command plus the dump's I/O spread over the commands."""
    return without["nonpage_rio_per_cmd"] + dump_io_rate(dump_pages_per_s) / etr
