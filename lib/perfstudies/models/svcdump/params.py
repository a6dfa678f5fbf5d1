"""Parameters of the SVC dump model: the study's names and seed, the hardware constants, the configuration record.

The document measures one dump (about 490,000 4 KiB blocks, taken while the
processor is about 90% busy) on varied configurations: 3390-3 or ESS volumes,
one or more stripes, ESCON or FICON channels, SMS compression and a varied
number of page data sets.  :class:`DumpParams` holds one such configuration.

The hardware constants below are general public knowledge about the devices of
the time, not numbers from the document; each says so.  Three per-block or
per-I/O costs the document does not give are *calibrated* on named statements
(see :mod:`perfstudies.models.svcdump.calibration`); their defaults here are
the rounded output of that calibration, and the tests check they agree.
"""

from dataclasses import dataclass

from perfstudies.params import Params, param

#: The study's key (its data folder, chapter and registry entry) and the document it rebuilds.
KEY = "svcdump"
DOCUMENT = "z/OS Performance: SVC Dump"
#: The one base seed of every simulated number the study shows: calibration checks, the
#: comparison, the widget re-runs and the sweeps (replication i uses replication_seeds(SEED, n)[i]).
SEED = 2002

DEVICES = ("3390-3", "ESS")
CHANNELS = ("ESCON", "FICON")

# --- dump records ----------------------------------------------------------------------
#: Bytes in one dump block (the document counts the dump in 4K blocks).
BLOCK_BYTES = 4096
#: Blocks written by one I/O: a 3390 track (56,664 bytes) holds twelve 4 KiB blocks, and we
#: assume the dump writer moves one full track per I/O (general 3390 knowledge; an assumption).
BLOCKS_PER_IO = 12

# --- 3390-3 disk (general public 3390 specifications) ----------------------------------
#: One revolution at 4,260 rpm, in ms.
REVOLUTION_MS = 60_000 / 4_260
#: Average seek of a 3390-3, in ms (used for random page-data-set reads only: a dump data set
#: is written sequentially, so its volumes stay on a cylinder and pay no seek).
AVERAGE_SEEK_MS = 9.5
#: Media transfer rate of a 3390, in MB/s (10**6 bytes per second).
DISK_MEDIA_MB_S = 4.2

# --- channels (nominal link rates, general public knowledge) --------------------------
#: ESCON is about 17 MB/s and circuit switched: a channel path is held for a whole transfer,
#: which runs at the slower of the device and the link.  FICON is about 100 MB/s and
#: multiplexed: a path is busy only while the bytes cross the link.
CHANNEL_MB_S = {"ESCON": 17.0, "FICON": 100.0}

# --- paging (assumptions; the document says only that page data sets were barely used) --
#: Blocks read by one page-in I/O (block paging groups several pages; an assumption).
PAGE_BLOCKS_PER_IO = 8
#: Share of the dumped blocks that are paged out and must be read back from page data sets.
#: With 13 GB and no storage constraint "little use was made of the page data sets" (document);
#: 1% stands for "little", 25% for a constrained system (both assumptions, for illustration).
PAGED_FRACTION = {False: 0.01, True: 0.25}

# --- compression (assumption) ---------------------------------------------------------
#: Bytes before / after SMS compression of dump data (a typical 2:1; an assumption).
COMPRESSION_RATIO = 2.0

# --- randomness of one I/O and of the processor (assumptions) -------------------------
#: Coefficient of variation of one ESS cache write (no moving parts; an assumption).
ESS_IO_CV = 0.3
#: Coefficient of variation of one random page-in I/O (seek and rotation vary; an assumption).
PAGE_IO_CV = 0.5
#: Coefficient of variation of the processor time of one chunk: the dump shares a processor
#: with a busy workload (an assumption).
CPU_CHUNK_CV = 0.3

#: Largest number of simulated chunks, so one run stays well under a second.
MAX_CHUNKS = 4_000
#: Nodes one chunk visits at most: page-in, capture, its volume and a channel path in the dump,
#: then its volume, a channel path and IPCS when the dump is read back.
VISITS_PER_CHUNK = 4 + 3
#: Ciw events of one visit: the arrival at the node and the end of its service.
EVENTS_PER_VISIT = 2


@dataclass(frozen=True)
class DumpParams(Params):
    """One SVC dump configuration, as varied in the document.

    The first seven fields are the document's measurement variables; the rest
    are the modelling choices and the three calibrated costs.
    """

    stripes: int = param(1, low=1, high=8, doc="stripes (dump volumes)")
    device: str = param("3390-3", choices=DEVICES, doc="dump volume device")
    channel: str = param("ESCON", choices=CHANNELS, doc="channel type")
    dump_blocks: int = param(490_000, low=10_000, high=2_000_000, step=10_000, unit="4 KiB blocks",
                             doc="dump size")  # about 490k blocks in the document
    compression: bool = param(False, doc="SMS compression")
    page_data_sets: int = param(1, low=1, high=8, doc="page data sets")
    storage_constrained: bool = param(False, doc="storage constrained")
    channel_paths: int = param(2, low=1, high=8, doc="channel paths to the dump volumes")
    chunk_blocks: int = param(1_000, low=100, high=20_000, step=100, unit="4 KiB blocks",
                              doc="blocks per simulated chunk")
    # calibrated (calibration.calibrate(); rounded here, checked by the tests)
    io_turnaround_ms: float = param(2.39, low=0.0, high=50.0, unit="ms",
                                    doc="per-I/O time off the channel and off the media")
    capture_us_per_block: float = param(176.2, low=1.0, high=10_000.0, unit="us",
                                        doc="dump capture processor time per block")
    compression_cpu_factor: float = param(0.1875, low=0.0, high=5.0,
                                          doc="compression processor time / capture time")

    def __post_init__(self):
        super().__post_init__()
        if self.chunk_blocks > self.dump_blocks:
            raise ValueError(f"DumpParams.chunk_blocks = {self.chunk_blocks!r} is out of range: allowed "
                             f"100 <= chunk_blocks <= dump_blocks ({self.dump_blocks})")
        if self.chunks > MAX_CHUNKS:
            raise ValueError(f"DumpParams.chunk_blocks = {self.chunk_blocks!r} is out of range: allowed "
                             f"chunk_blocks >= dump_blocks / {MAX_CHUNKS} ({self.dump_blocks / MAX_CHUNKS:g}) "
                             f"so that a run simulates at most {MAX_CHUNKS} chunks")
        self.check_event_budget(self.events, ("chunk_blocks", "dump_blocks"))

    @property
    def chunks(self) -> int:
        """Number of simulated chunks (the dump is cut into equal chunks of about ``chunk_blocks``)."""
        return max(1, round(self.dump_blocks / self.chunk_blocks))

    @property
    def events(self) -> int:
        """Ciw events of one replication (dump and IPCS), at most: chunks x visits x events per visit.

        Every chunk is in the system from the start and service times do not
        add events, so the count depends on the number of chunks alone; with
        at most :data:`MAX_CHUNKS` chunks it stays far below the core's budget.
        """
        return self.chunks * VISITS_PER_CHUNK * EVENTS_PER_VISIT

