"""Parameter records of the SPXTAPE study, each field with its unit and source.

Numbers stated by the report (*SPXTAPE Performance*, VM/ESA Release 2.2
Performance Report) are defaults with their passage named; numbers the report
does not state are either hardware constants (source given) or *calibrated*:
their defaults here are round placeholders, and :func:`calibration.calibrate`
replaces them by closed-form inversions over named published cells.
"""

from dataclasses import dataclass

from perfstudies.params import Params, param

KEY = "spxtape"
DOCUMENT = ("SPXTAPE Performance (excerpt from VM/ESA Release 2.2 Performance Report, "
            "GC24-5673-01), IBM, 1999")

#: The one base seed of every simulated number of the study: calibration, comparison,
#: widget re-runs and sweeps (replication *i* uses ``replication_seeds(SEED, n)[i]``).
SEED = 1999

#: Bytes in a spool page and in a tape page-equivalent (CP pages are 4 KB).
PAGE_BYTES = 4096
#: Spool volumes the concurrent dump read ("all contained on 4 of the spool volumes",
#: Interaction with Concurrent Activity, DASD note).
DUMP_VOLUMES = 4
#: Pages per 32 KB tape block: one tape write per eight pages read ("32K blocks", discussion of tapes).
PAGES_PER_BLOCK = 8

# The event budget (perfstudies.params.MAX_EVENTS): how a record estimates one replication's Ciw events.
#: Events per visit of a customer to a node: its arrival, service start and service end.
EVENTS_PER_VISIT = 3
#: Ciw finds a blocked customer by scanning the whole queue of the node it waits at (a list
#: comprehension over its customers); one scanned customer costs at most about 1/500 of an event
#: (measured on this machine: 10-30 ns against about 10 us per event).
SCANS_PER_EVENT = 500


@dataclass(frozen=True)
class SpxtapeParams(Params):
    """One dump or load run: command, direction, devices, workload and device timings."""

    command: str = param("SPXTAPE", choices=("SPTAPE", "SPXTAPE"), doc="command")
    function: str = param("DUMP", choices=("DUMP", "LOAD"), doc="function")
    drives: int = param(2, low=1, high=8, unit="drives", doc="tape drives")
    volumes: int = param(4, low=1, high=16, unit="volumes", doc="spool volumes")
    # "Tape change time was observed to require about 1 minute" (Measurement Discussion)
    change_time: float = param(60.0, low=0.0, high=600.0, unit="s", step=5.0, doc="tape change time")
    # real memory SPXTAPE may fill with staged pages; calibrated on the 1-drive DUMP idle time
    buffer_mb: float = param(32.0, low=0.0, low_open=True, high=1024.0, unit="MB", step=1.0,
                             doc="memory for buffering")
    # "occupied, on average, 10.4 spool pages" (Additional Information)
    mean_file_pages: float = param(10.4, low=2.5, high=200.0, unit="pages", step=0.1, doc="mean file size")
    # 0 spreads files evenly; s gives volume k a share proportional to (1 - s)**k
    spread_skew: float = param(0.0, low=0.0, high=0.9, step=0.05, doc="unevenness over volumes")
    # 353,000 spool pages dumped/loaded (Additional Information)
    total_pages: int = param(353_000, low=1_000, high=2_000_000, unit="pages", doc="pages to move")
    # model resolution: one simulated customer carries this many pages (not in the report)
    chunk_pages: int = param(256, low=8, high=4096, unit="pages", doc="pages per simulated customer")
    # calibrated on the 4-drive SPXTAPE DUMP elapsed time (DASD-bound)
    page_io_time: float = param(0.013, low=0.0, low_open=True, high=1.0, unit="s/page",
                                doc="spool DASD time per page")
    # IBM 3490 data rate 3 MB/s (hardware constant; the report does not state it)
    tape_page_time: float = param(PAGE_BYTES / 3.0e6, low=0.0, low_open=True, high=1.0, unit="s/page",
                                  doc="tape transfer time per page")
    # calibrated on the 1-drive SPXTAPE DUMP tape count
    tape_capacity_pages: float = param(54_000.0, low=100.0, high=1e7, unit="pages", doc="pages per cartridge")
    # SPTAPE only: calibrated on the SPTAPE DUMP elapsed time and tape count
    mark_time: float = param(0.2, low=0.0, high=10.0, unit="s/file", doc="SPTAPE tape-mark time per file")
    mark_pages: float = param(8.0, low=0.0, high=100.0, unit="pages/file", doc="SPTAPE tape space per mark")
    # LOAD only: calibrated on the SPXTAPE LOAD elapsed time
    file_create_time: float = param(0.12, low=0.0, high=10.0, unit="s/file", doc="spool file creation time")
    # calibrated on the 2-drive SPXTAPE DUMP processor time (RTM)
    cpu_per_page: float = param(2e-4, low=0.0, high=1.0, unit="s/page", doc="processor time per page")
    # LOAD only: CP's processor time to create one spool file, calibrated on the SPXTAPE LOAD processor time (RTM)
    cpu_per_file: float = param(0.02, low=0.0, high=1.0, unit="s/file", doc="processor time per file created")

    def __post_init__(self):
        super().__post_init__()
        if self.command == "SPTAPE" and self.drives != 1:
            raise ValueError(f"SpxtapeParams.drives = {self.drives!r} is out of range: "
                             "allowed drives = 1 with command 'SPTAPE' (SPTAPE drives one tape)")
        if self.total_pages < self.mean_file_pages:
            raise ValueError(f"SpxtapeParams.total_pages = {self.total_pages!r} is out of range: allowed "
                             f"total_pages >= mean_file_pages ({self.mean_file_pages})")
        self.check_event_budget(self.events_estimate(), ("total_pages",), shrinking=("chunk_pages",))

    def events_estimate(self) -> float:
        """Simulated events of one replication (with the cost of Ciw's blocked-queue scans in events).

        About ``total_pages / chunk_pages`` customers each visit one node (SPTAPE),
        two (a dump: volume, drives) or three (a load: drives, file creation,
        volume).  A blocked customer is found by a scan of its node's queue:
        while loading, the drive is blocked behind file creation at almost
        every chunk, and its queue holds every chunk not yet read; a dump
        blocks its volumes throughout only when they read faster than the
        drives write.
        """
        chunks = self.total_pages / self.chunk_pages + self.volumes
        if self.command == "SPTAPE":
            visits, queue = 1, 0.0
        elif self.function == "DUMP":
            outpaced = self.volumes / self.page_io_time > self.drives / self.tape_page_time
            visits, queue = 2, chunks / self.volumes if outpaced else 0.0
        else:
            visits, queue = 3, chunks
        return EVENTS_PER_VISIT * visits * chunks + chunks * queue / 2 / SCANS_PER_EVENT

    @property
    def files(self) -> int:
        """Number of spool files: total pages over the mean file size."""
        return max(1, round(self.total_pages / self.mean_file_pages))

    @property
    def buffer_pages(self) -> float:
        """The buffering memory in 4 KB pages."""
        return self.buffer_mb * 1024 * 1024 / PAGE_BYTES


@dataclass(frozen=True)
class ConcurrentParams(Params):
    """The Table 2 run: an SPXTAPE DUMP reading volumes that CMS users also use.

    One spool volume is simulated (the four are alike by symmetry): SPXTAPE
    keeps ``dump_reads_queued`` page reads waiting on it, users' spool I/Os
    arrive as a Poisson stream, both served first come first served.
    """

    page_io_time: float = param(0.013, low=0.0, low_open=True, high=1.0, unit="s/page",
                                doc="spool DASD time per page")
    # calibrated on the concurrent dump rate (237 pages/s, text of Interaction with Concurrent Activity)
    user_io_rate: float = param(15.0, low=0.0, high=500.0, unit="I/O/s", doc="users' I/Os per dump volume")
    # calibrated on AVG LAST (T) with the dump running (Table 2)
    dump_reads_queued: int = param(250, low=1, high=5_000, unit="reads", doc="dump reads queued per volume")
    # the model's own rate of the dedicated 2-drive dump (set by calibrate_concurrent)
    dedicated_rate: float = param(303.0, low=1.0, high=10_000.0, unit="pages/s", doc="dedicated dump rate")
    run_time: float = param(120.0, low=10.0, high=3_600.0, unit="s", doc="simulated time")
    warmup: float = param(10.0, low=0.0, high=600.0, unit="s", doc="records before this are dropped")

    def __post_init__(self):
        super().__post_init__()
        self.check_warmup(length="run_time")
        if self.user_io_rate * self.page_io_time >= 1.0:
            raise ValueError(f"ConcurrentParams.user_io_rate = {self.user_io_rate!r} is out of range: "
                             f"allowed user_io_rate < 1 / page_io_time ({1 / self.page_io_time:.1f})")
        self.check_event_budget(self.events_estimate(), ("run_time",), shrinking=("page_io_time",))

    def events_estimate(self) -> float:
        """Simulated events of one replication: the volume is never idle (the dump always has reads
        queued), so it serves one I/O per page time, each an arrival, a service start and an end."""
        return EVENTS_PER_VISIT * (self.run_time / self.page_io_time + self.dump_reads_queued)
