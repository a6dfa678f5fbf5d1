"""The parameter record of the VTS model and the hardware facts it rests on.

:class:`VTSParams` describes one configuration of the IBM 3494 Virtual Tape Server
model B18 (feature level, cache, tape drives, channels), one workload on it
(what the host does, how compressible the data is) and the eight service times
of its resources.  It validates itself: the cache must be one that Table 3 of
the white paper lists for that feature level, the Performance Accelerator needs
four or more drives, and a compressibility above 4 (outside the measured range
of Figs. 7 and 8) needs ``extrapolate=True``.

The eight service times are the model's calibrated constants.  Their defaults
are the output of :func:`perfstudies.models.vts.calibration.calibrate` to the
last digit (each is solved from one named published cell);
:func:`~perfstudies.models.vts.calibration.check_defaults` and the tests check
that they still agree, and the comparison refuses to run when they do not.

:func:`paf`, :func:`base` and :func:`ehpo` build the three machines the document
measured, as it describes them.
"""

import functools
from dataclasses import dataclass

import pandas as pd

from perfstudies import data, mva
from perfstudies.params import MIN_SAMPLED_MEAN, Params, param

KEY = "vts"
DOCUMENT = "IBM Magstar 3494 Virtual Tape Server Performance White Paper"
#: The one base seed of every simulated number of the study (calibration checks,
#: comparison, widget re-runs and sweeps): replication i uses
#: ``replication_seeds(SEED, n)[i]``.
SEED = 3494

FEATURES = ("base", "EHPO", "PAF")
WORKLOADS = ("peak_write", "sustained_write", "read_hit", "read_recall")
CACHE_CAPACITIES_GB = (72, 144, 216, 288, 432, 576, 864, 1152, 1728)

#: The resources a workload's data passes, in data-flow order (Secs. 3.1-3.2):
#: a write goes host -> channels -> processors -> cache (and, in the sustained
#: state, on to tape); a read hit comes back the same way from the cache; a
#: recall starts at a tape drive.  Each resource is one node of the Ciw network.
PATHS = {
    "peak_write": ("channels", "processors", "cache"),
    "sustained_write": ("channels", "processors", "cache", "tape"),
    "read_hit": ("cache", "processors", "channels"),
    "read_recall": ("tape", "cache", "processors", "channels"),
}

#: Gamma shape of every random service time: coefficient of variation 1/sqrt(4) = 0.5 (the
#: mechanism's; :mod:`.mechanism` explains it).
SERVICE_SHAPE = 4.0
#: Host MB of the smallest simulated customer and of the largest logical volume (the ranges of
#: ``chunk_mb`` and ``volume_mb``).
CHUNK_MB_MIN = 1.0
VOLUME_MB_MAX = 4000.0
#: Smallest calibrated service time (s) a record accepts: the smallest that both models can run.  The
#: smallest share of a time any node meets is a chunk's share of its volume's mount at a copy-out drive,
#: ``mount_s x chunk_mb / volume_mb``, at most ``VOLUME_MB_MAX / CHUNK_MB_MIN`` times smaller than the time
#: (every other time meets smaller divisors: the cache's striping over at most a few dozen arms at up to
#: CF 10 against its 16 track operations per MB, the processors' none).  The simulation draws Gamma scales
#: of that share over ``SERVICE_SHAPE``, which must be at least the smallest normal float
#: (:data:`perfstudies.params.MIN_SAMPLED_MEAN`; below it ``VTSParams(mount_s=5e-324)`` built a Gamma of
#: mean 0.0); exact MVA (:func:`.analytic.mva_solution`) takes that share as a demand, which must be at
#: least its smallest nonzero time (:data:`perfstudies.mva.MIN_TIME`, 1e-12 s).  The second bound is the
#: larger: 4 ns.
TIME_FLOOR_S = max(MIN_SAMPLED_MEAN * SERVICE_SHAPE, mva.MIN_TIME) * VOLUME_MB_MAX / CHUNK_MB_MIN

#: Compressibility range of the measurements and of equation 3 (Appendix B).
MEASURED_CF_MAX = 4.0

#: Ciw events per customer visit to a node (arrival, start and end of service),
#: for the event budget of one replication.
EVENTS_PER_VISIT = 3

#: Warm-up of a throughput run, in customers served at the bottleneck rate: the larger of this
#: share of ``completions`` and :data:`WARMUP_CYCLES` cycles of the whole population.  The run
#: starts with every stream's customer at its first node, and the queue takes a few population
#: cycles to move to the bottleneck: MSER-5 on pilot runs of the compared configurations found
#: transients of up to about five cycles (PAF sustained write limited by the drives; four seeds),
#: so six (tests/vts/test_analytic.py checks it).  The measured window is
#: ``(1 - WARMUP_SHARE) * completions`` customers.
WARMUP_SHARE = 0.15
WARMUP_CYCLES = 6


def warmup_customers(completions: int, streams: int) -> float:
    """Customers a throughput run serves (at the bottleneck rate) before its measurement window opens."""
    return max(WARMUP_SHARE * completions, WARMUP_CYCLES * streams)


@functools.cache
def cache_configurations() -> pd.DataFrame:
    """Table 3: the cache capacities each feature level can have, with their RAID-5 groups."""
    return data.load(KEY, "table3_cache_configurations")


@functools.cache
def text_value(key: str) -> float:
    """A number the document's text states (``data/vts/text_values.csv``), by key."""
    table = data.load(KEY, "text_values").set_index("key")
    if key not in table.index:
        raise ValueError(f"key = {key!r} is not a transcribed text value: allowed one of {list(table.index)}")
    return float(table.loc[key, "value"])


@dataclass(frozen=True)
class Statement:
    """A qualitative statement of the text read as a number (``data/vts/statements.csv``).

    ``half_band`` is the statement's own range where it gives one (NaN: the
    tolerance policy's default applies); ``reading`` says how it was read.
    """

    key: str
    source: str
    value: float
    half_band: float
    reading: str


@functools.cache
def statement(key: str) -> Statement:
    """A statement of the text, by key (``data/vts/statements.csv``)."""
    table = data.load(KEY, "statements").set_index("key")
    if key not in table.index:
        raise ValueError(f"key = {key!r} is not a transcribed statement: allowed one of {list(table.index)}")
    row = table.loc[key]
    return Statement(key, str(row["source"]), float(row["value"]), float(row["half_band"]), str(row["reading"]))


@dataclass(frozen=True)
class VTSParams(Params):
    """One VTS B18 configuration, one host workload, and the resources' service times.

    Hardware facts come from the white paper (section in each field's doc);
    the last eight fields are the calibrated service times (see the module
    docstring and :mod:`perfstudies.models.vts.calibration`).
    """

    feature: str = param("PAF", choices=FEATURES,
                         doc="feature level (Sec. 3.5: base, EHPO compression, PAF = EHPO + 4 CPUs + full strides)")
    capacity_gb: int = param(1728, choices=CACHE_CAPACITIES_GB, unit="GB",
                             doc="tape volume cache capacity (Table 3)")
    hdd_gb: int = param(36, choices=(9, 36), unit="GB", doc="disk drive size of the cache (Table 3)")
    drives: int = param(6, low=3, high=6, unit="drives",
                        doc="3590 tape drives (Sec. 2: 3-6, 4-6 with PAF; six in the fully configured B18)")
    import_export_drives: int = param(0, low=0, high=2, unit="drives",
                                      doc="drives held by an import/export task (Sec. 7: source and destination)")
    drive_model: str = param("B", choices=("B", "E"), doc="3590 drive model (Sec. 2: E has 1.5x the data rate)")
    compressibility: float = param(3.0, low=1.0, high=10.0, step=0.25,
                                   doc="data compressibility CF (Figs. 7-8 measured 1-4)")
    extrapolate: bool = param(False, doc="allow CF above 4 (non-validated extrapolation, Appendix B)")
    escon_channels: int = param(8, choices=(4, 8), unit="channels", doc="ESCON host channels (Sec. 2)")
    block_kb: int = param(32, choices=(32, 64), unit="KB", doc="host block size (Sec. 3.5.7)")
    workload: str = param("sustained_write", choices=WORKLOADS, doc="host workload (Sec. 3)")
    streams: int = param(16, low=1, high=64, unit="virtual drives",
                         doc="concurrently active virtual drives (Sec. 3.1: 16; Table 1: 64)")
    volume_mb: float = param(800.0, low=50.0, high=VOLUME_MB_MAX, unit="MB", step=50.0,
                             doc="logical volume size, host MB (Secs. 3.1-3.4: 800)")
    recall_queue: int = param(0, low=0, high=64, unit="recalls", doc="recalls queued ahead of a new one (Fig. 6)")
    chunk_mb: float = param(8.0, low=CHUNK_MB_MIN, high=64.0, unit="MB",
                            doc="host MB carried by one simulated customer (granularity)")
    completions: int = param(600, low=50, high=20_000, unit="customers",
                             doc="customer completions a throughput run lasts for")
    # calibrated: calibration.calibrate()'s values to the last digit (check_defaults and the tests compare them)
    write_block_overhead_s: float = param(0.0012867647058823531, low=TIME_FLOOR_S, high=0.1, unit="s",
                                          doc="ESCON channel time per host block written, beyond the transfer "
                                              "(calibrated: Table 2 peak write, 32 KB)")
    read_block_overhead_s: float = param(0.002068014705882353, low=TIME_FLOOR_S, high=0.1, unit="s",
                                         doc="ESCON channel time per host block read, beyond the transfer "
                                             "(calibrated: Table 2 read hit, 32 KB)")
    cpu_s_per_host_mb: float = param(0.0019263845889232883, low=TIME_FLOOR_S, high=1.0, unit="s",
                                     doc="processor time per host MB, a (calibrated jointly: base peak write, "
                                         "largest cache; PAF peak and sustained write at CF 1)")
    cpu_s_per_mb_pass: float = param(0.04121087031303748, low=TIME_FLOOR_S, high=1.0, unit="s",
                                     doc="processor time per compressed MB per memory pass, b (calibrated jointly "
                                         "with a and e)")
    cpu_s_per_disk_op: float = param(0.002450980392156863, low=TIME_FLOOR_S, high=0.1, unit="s",
                                     doc="processor time per cache disk operation issued, e (calibrated jointly "
                                         "with a and b)")
    disk_op_s: float = param(0.0234375, low=TIME_FLOOR_S, high=1.0, unit="s",
                             doc="cache disk arm time per 64 KB track operation (calibrated: base peak write, "
                                 "smallest cache)")
    disk_fixed_s: float = param(0.0014501898851426442, low=TIME_FLOOR_S, high=1.0, unit="s",
                                doc="the part of disk_op_s an unbuffered write pays whatever the compression "
                                    "(calibrated: Table 4 peak write line at CF 4, 288/72 GB)")
    mount_s: float = param(73.09237379162191, low=TIME_FLOOR_S, high=600.0, unit="s",
                           doc="tape drive time per volume beyond search and transfer: a recall's mount, and "
                               "the mount each volume copied out costs (calibrated: Table 1 read recall, CF 2.66)")

    def __post_init__(self):
        super().__post_init__()
        name = type(self).__name__
        if self.compressibility > MEASURED_CF_MAX and not self.extrapolate:
            raise ValueError(f"{name}.compressibility = {self.compressibility!r} is out of range: allowed "
                             f"1.0 <= compressibility <= {MEASURED_CF_MAX} (set extrapolate=True for up to 10.0)")
        if self.feature == "PAF" and self.drives < 4:
            raise ValueError(f"{name}.drives = {self.drives!r} is out of range: allowed 4 <= drives <= 6 "
                             f"with feature 'PAF' (Sec. 2)")
        allowed = self.allowed_capacities(self.feature, self.hdd_gb)
        if not allowed:
            raise ValueError(f"{name}.hdd_gb = {self.hdd_gb!r} is not allowed with feature {self.feature!r}: "
                             f"allowed one of {self.allowed_hdd_sizes(self.feature)} (Table 3)")
        if self.capacity_gb not in allowed:
            raise ValueError(f"{name}.capacity_gb = {self.capacity_gb!r} is not allowed with feature "
                             f"{self.feature!r} and {self.hdd_gb} GB disks: allowed one of {allowed} (Table 3)")
        most = 32 if self.feature == "base" else 64
        if self.streams > most:
            raise ValueError(f"{name}.streams = {self.streams!r} is out of range: allowed 1 <= streams <= {most} "
                             f"with feature {self.feature!r} (Sec. 2: virtual drives)")
        if self.disk_fixed_s > self.disk_op_s:
            raise ValueError(f"{name}.disk_fixed_s = {self.disk_fixed_s!r} is out of range: allowed "
                             f"0 < disk_fixed_s <= disk_op_s ({self.disk_op_s}): it is a part of the operation")
        self.check_event_budget(self.events_per_replication(), ("completions", "streams", "recall_queue"))

    def events_per_replication(self) -> float:
        """Ciw events of one replication of each model, throughput and recall, together (an estimate).

        A throughput run serves its warm-up (:func:`warmup_customers`) and a
        measured window of ``(1 - WARMUP_SHARE) * completions`` customers at
        the bound rate, plus the ``streams`` in flight, each visiting every
        resource of the workload's path; a recall run serves
        ``recall_queue + 1`` recalls at the drives.
        """
        served = warmup_customers(self.completions, self.streams) + (1 - WARMUP_SHARE) * self.completions
        visits = (served + self.streams) * len(PATHS[self.workload]) + self.recall_queue + 1
        return EVENTS_PER_VISIT * visits

    @classmethod
    def allowed_capacities(cls, feature: str, hdd_gb: int) -> list[int]:
        """Cache capacities Table 3 lists for a feature level and disk size."""
        return list(_allowed_capacities(feature, hdd_gb))

    @classmethod
    def allowed_hdd_sizes(cls, feature: str) -> list[int]:
        """Disk sizes Table 3 lists for a feature level."""
        return sorted({int(h) for h in _table3_rows(feature)["hdd_gb"]})

    @property
    def raid(self) -> tuple[int, int]:
        """``(parity_groups, data_disks_per_group)`` of the cache (Table 3)."""
        return _raid(self.feature, self.hdd_gb, self.capacity_gb)


def _table3_rows(feature: str) -> pd.DataFrame:
    table = cache_configurations()
    return table[table["features"] == ("paf" if feature == "PAF" else "base_ehpo")]


@functools.cache
def _allowed_capacities(feature: str, hdd_gb: int) -> tuple[int, ...]:
    """Table 3's capacities for a feature level and disk size, looked up once per process."""
    rows = _table3_rows(feature)
    return tuple(int(c) for c in rows.loc[rows["hdd_gb"] == hdd_gb, "capacity_gb"])


@functools.cache
def _raid(feature: str, hdd_gb: int, capacity_gb: int) -> tuple[int, int]:
    """Table 3's RAID layout of one cache, looked up once per process (a live re-run asks for it often)."""
    table = cache_configurations()
    row = table[(table["features"] == ("paf" if feature == "PAF" else "base_ehpo"))
                & (table["hdd_gb"] == hdd_gb) & (table["capacity_gb"] == capacity_gb)].iloc[0]
    return int(row["parity_groups"]), int(row["data_disks_per_group"])


#: Cache capacity (36 GB disks) of the 2+P layouts the document measured: 4, 8 or 16 parity groups.
TWO_PLUS_P_CAPACITY_GB = {4: 288, 8: 576, 16: 1152}


def paf(**changes) -> VTSParams:
    """The fully configured PAF machine of Tables 1-2 and Figs. 7-8: 1728 GB, 8 ESCON, six 3590 drives,
    64 active virtual drives.

    Sec. 2 describes "as a default" the fully configured B18 with the PAF: the largest cache
    (1728 GB), eight ESCON channels and up to six tape drives; Sec. 3.2.2's example is the same
    six-drive machine.  Table 1 measured 64 active virtual drives (Sec. 3.5.5).
    """
    settings = dict(feature="PAF", capacity_gb=1728, hdd_gb=36, escon_channels=8, streams=64, drives=6)
    return VTSParams(**{**settings, **changes})


def base(groups: int, **changes) -> VTSParams:
    """The base B18 of Sec. 3.1: 36 GB disks, 4 ESCON, 16 writers, CF 1; 4, 8 or 16 groups of 2+P."""
    return VTSParams(feature="base", capacity_gb=TWO_PLUS_P_CAPACITY_GB[groups], hdd_gb=36, escon_channels=4,
                     streams=16, compressibility=1.0, drives=4, **changes)


def ehpo(groups: int, **changes) -> VTSParams:
    """EHPO machine of Figs. 7-8: 8 ESCON, 16 writers, 36 GB disks in 4, 8 or 16 groups of 2+P."""
    return VTSParams(feature="EHPO", capacity_gb=TWO_PLUS_P_CAPACITY_GB[groups], hdd_gb=36, escon_channels=8,
                     streams=16, drives=4, **changes)
