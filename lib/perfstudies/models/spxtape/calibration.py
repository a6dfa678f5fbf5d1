"""Calibration on named published cells.

Eight Table 1 cells and two Table 2 cells set ten parameters, each by a
closed-form inversion of the mechanism's own arithmetic (:mod:`.analytic`),
the buffer size then refined by Newton steps on the simulation:

==========================================  ===================================
published cell                              sets
==========================================  ===================================
SPXTAPE DUMP 4 drives, elapsed time         spool DASD time per page
SPXTAPE DUMP 1 drive, tapes                 pages per cartridge
SPTAPE DUMP, tapes                          tape space per SPTAPE tape mark
SPTAPE DUMP, elapsed time                   time per SPTAPE tape mark
SPXTAPE DUMP 1 drive, system idle time      memory for buffering
SPXTAPE LOAD, elapsed time                  spool file creation time
SPXTAPE DUMP 2 drives, processor time       processor time per page
SPXTAPE LOAD, processor time                processor time per spool file created
Table 2 dump rate with users (237 pages/s)  users' I/O rate per volume
Table 2 AVG LAST (T) with the dump          dump reads queued per volume
==========================================  ===================================

Every published number is read from ``data/spxtape/`` and named by a
:class:`perfstudies.compare.Published` cell.
"""

import functools

import pandas as pd

from perfstudies.cache import memoized
from perfstudies.compare import Published
from perfstudies.data import load
from perfstudies.models.spxtape import analytic
from perfstudies.models.spxtape.metrics import system_effects
from perfstudies.models.spxtape.network import model, volume_model
from perfstudies.models.spxtape.params import (DUMP_VOLUMES, KEY, PAGE_BYTES, SEED, ConcurrentParams,
                                               SpxtapeParams)
from perfstudies.params import check_record, validate_value
from perfstudies.runner import check_seed, replication_seeds
from perfstudies.sweep import run_sweep

#: Replications of every simulation the calibration runs (its Newton steps and closed forms).
REPLICATIONS = 5
#: Customer size of the full-scale runs: 32 pages = four 32 KB tape blocks; the widgets use coarser ones.
FULL_SCALE_CHUNK = 32
#: Where customer size cannot matter (SPTAPE is strictly serial, the load is paced by file
#: creation on one drive), the comparison uses coarser customers to save time.
SERIAL_CHUNK = 128

#: The six configurations of Table 1, in the table's column order: (command, function, drives).
CONFIGURATIONS = [("SPTAPE", "DUMP", 1), ("SPXTAPE", "DUMP", 1), ("SPXTAPE", "DUMP", 2),
                  ("SPXTAPE", "DUMP", 4), ("SPTAPE", "LOAD", 1), ("SPXTAPE", "LOAD", 1)]

#: The Table 1 cells that set a parameter: (configuration, column) -> the parameter set.
TABLE1_CALIBRATION = {
    (("SPXTAPE", "DUMP", 4), "elapsed_s"): "page_io_time",
    (("SPXTAPE", "DUMP", 1), "tapes"): "tape_capacity_pages",
    (("SPTAPE", "DUMP", 1), "tapes"): "mark_pages",
    (("SPTAPE", "DUMP", 1), "elapsed_s"): "mark_time",
    (("SPXTAPE", "DUMP", 1), "system_idle_s"): "buffer_mb",
    (("SPXTAPE", "LOAD", 1), "elapsed_s"): "file_create_time",
    (("SPXTAPE", "DUMP", 2), "processor_s"): "cpu_per_page",
    (("SPXTAPE", "LOAD", 1), "processor_s"): "cpu_per_file",
}
#: Table 2's column of the run with the dump, and the two cells that set a parameter.
TABLE2_COLUMN = "with SPXTAPE DUMP"
TABLE2_CALIBRATION = {"SPXTAPE pages/s (text)": "user_io_rate", "AVG LAST (T)": "dump_reads_queued"}


def table1() -> pd.DataFrame:
    """Published Table 1, indexed by (command, function, drives)."""
    return load(KEY, "table1").set_index(["command", "function", "drives"])


def workload() -> dict[str, float]:
    """The report's workload statement (spool files, pages, volumes, tape change time ...), by name."""
    return load(KEY, "workload").set_index("fact")["value"].to_dict()


def table2() -> pd.DataFrame:
    """Published Table 2, indexed by metric name."""
    return load(KEY, "table2").set_index("metric")


def column_name(key: tuple) -> str:
    """A Table 1 configuration as the comparison names its column: ``"SPXTAPE DUMP 2"``."""
    return " ".join(map(str, key))


#: Table 1's quantities by their data column (and model metric) -> the row name the report prints.
TABLE1_ROWS = {"elapsed_s": "Elapsed Time (sec)", "elapsed_ratio": "Elapsed Time Ratio", "rate_ratio": "Rate Ratio",
               "tape_change_s": "Tape Change Time (sec)", "system_idle_s": "System Idle Time (sec)",
               "overlapped_change_s": "Overlapped Tape Change Time (sec)", "overlap_pct": "Percentage Overlap",
               "tapes": "Tapes", "tape_reduction_pct": "Percentage Reduction in Tapes",
               "processor_s": "Processor time (sec)", "processor_util_pct": "Processor utilization (%)"}
#: A Table 1 row name -> its data column (and model metric).
TABLE1_COLUMN_OF = {row: column for column, row in TABLE1_ROWS.items()}


def table1_cell(key: tuple, column: str) -> Published:
    """The published Table 1 cell of configuration ``key`` in data ``column``, named by the report's row."""
    return Published("Table 1", TABLE1_ROWS[column], column_name(key), float(table1().loc[key, column]))


def table2_cell(row: str) -> Published:
    """A published cell of the Table 2 run with the dump (the text's dump rate and tape count included)."""
    known = workload()
    text = {"SPXTAPE pages/s (text)": known["concurrent_dump_rate"], "tapes required (text)": known["concurrent_tapes"]}
    value = text[row] if row in text else table2().loc[row, "with_value"]
    return Published("Table 2", row, TABLE2_COLUMN, float(value))


def calibration_cells() -> dict[Published, str]:
    """Every published cell that sets a parameter, with the parameter it sets."""
    cells = {table1_cell(key, column): name for (key, column), name in TABLE1_CALIBRATION.items()}
    cells.update({table2_cell(row): name for row, name in TABLE2_CALIBRATION.items()})
    return cells


def configuration(p: SpxtapeParams, command: str, function: str, drives: int) -> SpxtapeParams:
    """``p`` set to one Table 1 configuration."""
    return p.replace(command=command, function=function, drives=drives)


def comparison_run(p: SpxtapeParams, command: str, function: str, drives: int) -> SpxtapeParams:
    """One Table 1 configuration at the comparison's customer size (see ``SERIAL_CHUNK``)."""
    serial = command == "SPTAPE" or function == "LOAD"
    return configuration(p, command, function, drives).replace(
        chunk_pages=SERIAL_CHUNK if serial else p.chunk_pages)


def calibrate(chunk_pages: int = FULL_SCALE_CHUNK) -> SpxtapeParams:
    """The calibrated Table 1 parameters (disk-memoized: they cost a few simulations).

    ``chunk_pages`` is the customer size the calibration simulates, an allowed
    ``SpxtapeParams.chunk_pages`` (refused by name otherwise, before any run).
    """
    return _calibrated(validate_value("calibrate", "chunk_pages", chunk_pages, SpxtapeParams.spec()["chunk_pages"]))


@functools.cache
def _calibrated(chunk_pages: int) -> SpxtapeParams:
    return memoized("spxtape-calibration", lambda: _calibrate(chunk_pages), chunk_pages=chunk_pages)


def _calibrate(chunk_pages: int) -> SpxtapeParams:
    """The Table 1 parameters, each set from its named cell by a closed-form inversion."""
    published, known = table1(), workload()
    base = SpxtapeParams(volumes=int(known["spool_volumes"]), change_time=known["tape_change_time"],
                         mean_file_pages=known["pages_per_file"], total_pages=int(known["spool_pages"]),
                         chunk_pages=chunk_pages)
    seeds = replication_seeds(SEED, REPLICATIONS)
    # a 4-drive dump is DASD-bound: its elapsed time is the fullest volume's pages times the page time
    four = published.loc[("SPXTAPE", "DUMP", 4)]
    busiest = analytic.busiest_volume_pages(configuration(base, "SPXTAPE", "DUMP", 4), seeds)
    page_io_time = four["elapsed_s"] / busiest
    # one drive: the last of T cartridges is (on average) half full
    one = published.loc[("SPXTAPE", "DUMP", 1)]
    capacity = base.total_pages / (one["tapes"] - 0.5)
    # SPTAPE's tape marks take the space that turns the same pages into its cartridge count
    sptape = published.loc[("SPTAPE", "DUMP", 1)]
    mark_pages = (capacity * (sptape["tapes"] - 0.5) - base.total_pages) / base.files
    # SPTAPE's elapsed time is the serial sum; the tape marks take what the pages and changes leave
    serial = base.total_pages * (page_io_time + base.tape_page_time) + (sptape["tapes"] - 1) * base.change_time
    mark_time = (sptape["elapsed_s"] - serial) / base.files
    # one-drive dump: each change is hidden while the buffer fills at the reading rate, the rest is idle
    read_rate = base.volumes / page_io_time
    buffer_pages = (base.change_time - one["system_idle_s"] / (one["tapes"] - 1)) * read_rate
    # (refined below on the simulation: late in the run fewer volumes are still reading)
    # SPXTAPE LOAD is paced by creating the spool files one at a time
    load_run = published.loc[("SPXTAPE", "LOAD", 1)]
    file_create_time = load_run["elapsed_s"] / base.files
    # processor time grows with the pages moved (RTM was active for the 2-drive dump)
    cpu_per_page = published.loc[("SPXTAPE", "DUMP", 2)]["processor_s"] / base.total_pages
    # the load moves the same pages and creates every file again: what its processor time has beyond the pages
    cpu_per_file = (load_run["processor_s"] - cpu_per_page * base.total_pages) / base.files
    closed_form = base.replace(page_io_time=page_io_time, tape_capacity_pages=capacity, mark_pages=mark_pages,
                               mark_time=mark_time, buffer_mb=buffer_pages * PAGE_BYTES / 2**20,
                               file_create_time=file_create_time, cpu_per_page=cpu_per_page,
                               cpu_per_file=cpu_per_file)
    return refine_buffer(closed_form, one["system_idle_s"])


def refine_buffer(p: SpxtapeParams, idle_target: float, steps: int = 3) -> SpxtapeParams:
    """Newton steps on the buffer size until the simulated 1-drive idle time is within 1% of the target.

    The closed form assumes every volume is still reading when a change
    starts; the simulation knows better, so a few steps on its mean idle time
    (the calibration's seeds at every step) finish the job.  The slope is the closed form's:
    each extra page of buffer hides ``1 / read rate`` seconds of every change.
    """
    one = p.replace(command="SPXTAPE", function="DUMP", drives=1)
    changes = p.total_pages / p.tape_capacity_pages  # about tapes - 1 changes, as used in the closed form
    slope = -(changes - 0.5) * p.page_io_time / p.volumes * 2**20 / PAGE_BYTES  # seconds of idle per MB

    def miss(buffer_mb: float) -> float:
        runs = run_sweep(model, [one.replace(buffer_mb=buffer_mb)], REPLICATIONS, SEED, max_workers=1, progress=False)
        return float(runs[runs["metric"] == "system_idle_s"]["value"].mean() - idle_target)

    buffer_mb = p.buffer_mb
    for _ in range(steps):
        error = miss(buffer_mb)
        if abs(error) <= 0.01 * idle_target:
            break
        buffer_mb = min(1024.0, max(1.0, buffer_mb - error / slope))
    return p.replace(buffer_mb=buffer_mb)


def calibration_table() -> pd.DataFrame:
    """Each calibrated Table 1 parameter beside the published cell that set it."""
    p = calibrate()
    return pd.DataFrame([{"published cell": f"{column_name(key)} · {TABLE1_ROWS[column]}",
                          "published": float(table1().loc[key, column]), "sets": name,
                          "calibrated value": getattr(p, name)}
                         for (key, column), name in TABLE1_CALIBRATION.items()])


def envelope_table() -> pd.DataFrame:
    """The back-of-envelope estimate (:func:`.analytic.envelope`) of every Table 1 configuration,
    with the calibrated parameters, beside the published elapsed time and tapes."""
    p, published = calibrate(), table1()
    busiest = analytic.busiest_volume_pages(p, replication_seeds(SEED, REPLICATIONS))
    return pd.DataFrame([{"configuration": column_name(key), **analytic.envelope(configuration(p, *key), busiest),
                          "published_elapsed_s": published.loc[key, "elapsed_s"],
                          "published_tapes": published.loc[key, "tapes"]} for key in CONFIGURATIONS])


@functools.cache
def without_dump() -> dict[str, float]:
    """The published Table 2 run without the dump: the state the dump is added to."""
    t2 = table2()["without_value"]
    return {"response_s": t2["AVG LAST (T)"], "think_s": t2["AVG THINK (T)"], "etr": t2["ETR (T)"],
            "rio_rate": t2["RIO RATE (V)"], "nonpage_rio_per_cmd": t2["NONPAGE RIO/CMD (V)"]}


def calibrate_concurrent(dedicated_rate: float) -> ConcurrentParams:
    """The Table 2 parameters from the dump rate and AVG LAST (T) with the dump running.

    ``dedicated_rate`` is the model's own page rate of the dedicated 2-drive
    dump (mean over the calibration's ``REPLICATIONS`` seeds), an allowed
    ``ConcurrentParams.dedicated_rate`` (refused by name otherwise).
    """
    meta = ConcurrentParams.spec()["dedicated_rate"]
    return _calibrated_concurrent(validate_value("calibrate_concurrent", "dedicated_rate", dedicated_rate, meta))


@functools.cache
def _calibrated_concurrent(dedicated_rate: float) -> ConcurrentParams:
    page_io_time = calibrate().page_io_time
    known = workload()
    # the dump is always queued on its volumes, so it keeps what the users leave: rate ~ (1 - rho_users)
    rho_users = 1 - known["concurrent_dump_rate"] / known["dedicated_dump_rate"]
    user_io_rate = rho_users / page_io_time
    # FIFO: a user I/O waits for the q queued dump reads and the users ahead, W = q s / (1 - rho)
    without = without_dump()
    io_per_command = DUMP_VOLUMES * user_io_rate / without["etr"]
    alone = page_io_time / (1 - rho_users)
    target = alone + (table2()["with_value"]["AVG LAST (T)"] - without["response_s"]) / io_per_command
    queued = analytic.reads_queued_for(target, page_io_time, rho_users)
    return ConcurrentParams(page_io_time=page_io_time, user_io_rate=user_io_rate, dump_reads_queued=queued,
                            dedicated_rate=dedicated_rate)


def table2_model(params: ConcurrentParams, seed: int) -> dict[str, float]:
    """One replication of the concurrent run, carried through to the Table 2 rows."""
    params, seed = check_record("params", params, ConcurrentParams), check_seed(seed)
    return system_effects(volume_model(params, seed), params, without_dump())
