"""Theory first: the VTS as a set of resources, its bottleneck bound, and equations 1-3.

Every host megabyte a workload moves costs a fixed amount of work at each
resource of the VTS: the ESCON channels, the RS/6000 processors, the disk arms
of the tape volume cache and the 3590 tape drives.  A resource with ``c``
servers and demand ``D`` seconds per host MB can carry at most ``c / D`` host
MB/s; the smallest of these is the *bottleneck bound* on throughput.  The Ciw
network in :mod:`.network` has exactly these resources as nodes with exactly
these demands, so the simulation can only approach this bound from below.

Where the work comes from (per host MB, ``CF`` = compressibility, data below the
host adapters is compressed by ``CF`` with EHPO or PAF and not compressed in the
base machine):

* channels: ``(overhead + block / 17 MB/s) / block`` per host MB, one overhead per
  host block, different for writes and reads;
* processors: ``a + (b * passes + e * disk operations) / CF``: a little per host MB,
  ``b`` for each time a compressed MB crosses the RS/6000 memory (1 for peak write
  and read hit; 3 for sustained write and recall, which also copy between cache
  and tape), and ``e`` for each disk operation it issues;
* cache arms: 16 tracks of 64 KB per MB; a write without the PAF is a RAID-5
  read-modify-write (read data and parity, write both: 4 operations per track);
  with the PAF it is a full-stride write ((d+1)/d operations per track); a read is
  one operation per track.  Without the PAF the incoming data is not buffered
  into contiguous strides (Sec. 3.5.2), so the RS/6000 issues as many write
  requests as the uncompressed data would need: each pays a fixed part
  ``disk_fixed_s`` per host track and only the rest shrinks with compression.
  This is the one cost in the model that works on host bytes below the
  adapters, and it is what bends the EHPO lines of Table 4 at small caches;
* tape drives: compressed MB at the drive's native rate, plus a fixed time per
  volume: a recall costs a drive one mount (``mount_s``) and one search before it
  reads the whole volume; a volume copied out in sustained write costs it one
  mount and no search (it is appended).  The copy is "approximately the reverse"
  of the recall (Secs. 3, 3.2.2), so both are charged the same ``mount_s``,
  calibrated on Table 1's recall.  The mount is paid per *volume*, and a volume
  is 800 host MB whatever the compressibility: this is the one tape cost that
  does not shrink with compression, and it is what flattens PAF sustained write
  above CF 3 (the drives' capacity tends to ``drives x volume / mount_s``).

The service times (``a``, ``b``, ``e``, the block overheads, the disk operation
and its fixed part, the mount) are the calibrated fields of
:class:`~perfstudies.models.vts.params.VTSParams`.

The Ciw network of :mod:`.network` is closed (``streams`` customers), so its
product-form reference is exact mean value analysis of the same demands
(:func:`mva_solution`, :mod:`perfstudies.mva`).
"""

import dataclasses
import functools
import math

import numpy as np

from perfstudies import data, mva
from perfstudies.models.vts.params import PATHS, KEY, VTSParams, ehpo, text_value
from perfstudies.params import check_record

#: ESCON link data rate in MB/s.  Not stated in the white paper: it is the ESCON
#: architecture's 200 Mbit/s optical link after 8b/10b coding and framing.
ESCON_LINK_MB_S = 17.0
#: Size of the cache's logical track (Sec. 2: a 64 KB track from each HDD of a stride).
TRACK_MB = 64 / 1024
#: Times a (compressed) MB crosses the processors' memory, per workload.
PASSES = {"peak_write": 1, "read_hit": 1, "sustained_write": 3, "read_recall": 3}
#: Resources in data-flow order of a write; each is one Ciw node.
RESOURCES = ("channels", "processors", "cache", "tape")


@dataclasses.dataclass(frozen=True)
class Station:
    """One resource: its parallel servers and its demand per host MB (and per volume)."""

    servers: int
    s_per_mb: float
    s_per_volume: float = 0.0

    def capacity(self, volume_mb: float) -> float:
        """Host MB/s the resource can carry when nothing else limits it."""
        return self.servers * volume_mb / (self.s_per_mb * volume_mb + self.s_per_volume)


def processors(p: VTSParams) -> int:
    """RS/6000 processors: two, four with the PAF (Sec. 2)."""
    return 4 if p.feature == "PAF" else 2


def internal_cf(p: VTSParams) -> float:
    """Compressibility of data below the host adapters: CF with EHPO/PAF, 1 in the base machine."""
    return 1.0 if p.feature == "base" else p.compressibility


def arms(p: VTSParams) -> int:
    """Disk arms of the cache: groups x (data disks + parity); spares do not work."""
    groups, data_disks = p.raid
    return groups * (data_disks + 1)


def write_ops_per_track(p: VTSParams) -> float:
    """Disk operations per track written: full stride with the PAF, read-modify-write without."""
    _, data_disks = p.raid
    return (data_disks + 1) / data_disks if p.feature == "PAF" else 4.0


def disk_ops_per_mb(p: VTSParams) -> float:
    """Cache disk operations per compressed MB for the workload."""
    write, read = write_ops_per_track(p), 1.0
    per_track = {"peak_write": write, "sustained_write": write + read,
                 "read_hit": read, "read_recall": write + read}[p.workload]
    return per_track / TRACK_MB


def drive_mb_s(p: VTSParams) -> float:
    """Native data rate of one 3590 drive (Sec. 2: E = 14 MB/s, 1.5 times the B)."""
    rate_e = text_value("drive_e_rate")
    return rate_e if p.drive_model == "E" else rate_e / text_value("drive_e_over_b_rate")


def cache_s_per_mb(p: VTSParams) -> float:
    """Disk arm seconds per host MB: compressed track operations, plus the fixed part
    of every unbuffered write operation (no PAF) counted on uncompressed tracks."""
    cf = internal_cf(p)
    all_ops = disk_ops_per_mb(p)
    if p.feature == "PAF" or p.workload == "read_hit":
        return all_ops * p.disk_op_s / cf
    writes = write_ops_per_track(p) / TRACK_MB
    return writes * (p.disk_fixed_s + (p.disk_op_s - p.disk_fixed_s) / cf) + (all_ops - writes) * p.disk_op_s / cf


def is_write(p: VTSParams) -> bool:
    """True for the workloads whose host blocks travel towards the VTS (channel write overhead)."""
    return p.workload in ("peak_write", "sustained_write")


def processor_terms(p: VTSParams) -> tuple[float, float, float]:
    """Coefficients of (a, b, e) in the processors' demand per host MB."""
    cf = internal_cf(p)
    return 1.0, PASSES[p.workload] / cf, disk_ops_per_mb(p) / cf


def stations(p: VTSParams) -> dict[str, Station]:
    """The resources the workload uses, with servers and demands (the Ciw nodes)."""
    block_mb = p.block_kb / 1024
    overhead = p.write_block_overhead_s if is_write(p) else p.read_block_overhead_s
    a, b, e = processor_terms(p)
    cpu = a * p.cpu_s_per_host_mb + b * p.cpu_s_per_mb_pass + e * p.cpu_s_per_disk_op
    result = {
        "channels": Station(p.escon_channels, (overhead + block_mb / ESCON_LINK_MB_S) / block_mb),
        "processors": Station(processors(p), cpu),
        "cache": Station(arms(p), cache_s_per_mb(p)),
    }
    # The drive compresses in the base machine; with EHPO it receives compressed data.
    # Drives held by an import/export task are not available to copy-out or recall.
    tape_s_per_mb = 1.0 / (p.compressibility * drive_mb_s(p))
    free_drives = p.drives - p.import_export_drives
    if p.workload == "sustained_write":
        result["tape"] = Station(free_drives, tape_s_per_mb, p.mount_s)
    elif p.workload == "read_recall":
        result["tape"] = Station(free_drives, tape_s_per_mb, p.mount_s + text_value("search_time"))
    return result


def capacities(p: VTSParams) -> dict[str, float]:
    """Host MB/s each resource could carry alone."""
    check_record("p", p, VTSParams)
    return {name: s.capacity(p.volume_mb) for name, s in stations(p).items()}


def bound(p: VTSParams) -> float:
    """The bottleneck bound on host MB/s: the smallest resource capacity."""
    check_record("p", p, VTSParams)
    return min(capacities(p).values())


def bottleneck(p: VTSParams) -> str:
    """Name of the resource with the smallest capacity."""
    check_record("p", p, VTSParams)
    found = capacities(p)
    return min(found, key=found.get)


def typical_mix_bound(p: VTSParams) -> float:
    """Bound for the typical mix (Sec. 3.5.6): 60% sustained writes, 40% reads, half of them hits.

    Each resource's demand is the host-MB-weighted sum of the three workloads' demands.
    """
    shares = {"sustained_write": 0.6, "read_hit": 0.2, "read_recall": 0.2}
    load: dict[str, float] = {}
    servers: dict[str, int] = {}
    for workload, share in shares.items():
        for name, s in stations(p.replace(workload=workload)).items():
            load[name] = load.get(name, 0.0) + share * (s.s_per_mb + s.s_per_volume / p.volume_mb)
            servers[name] = s.servers
    return min(servers[name] / load[name] for name in load)


def arm_ops_per_track(p: VTSParams) -> float:
    """Cache arm operations the model charges per 64 KB track of the workload's data (4 for a base or EHPO
    peak write, 5 for its sustained write: the read-modify-write and the copy-out's read)."""
    check_record("p", p, VTSParams)
    return disk_ops_per_mb(p) * TRACK_MB


def implied_arm_ops_per_track(p: VTSParams, host_mb_s: float) -> float:
    """Arm operations per track the cache would have to spend for its arms alone to hold ``p`` to ``host_mb_s``.

    The arms' capacity is inversely proportional to their work per host MB, so
    the model's count (:func:`arm_ops_per_track`) is scaled by the arms'
    capacity over the rate.  It reads a published rate as if the arms limited
    it (issue 30's question: what would copy-out have to cost the arms for the
    smallest base cache to sustain only 5.5 MB/s?).  At the base machine's
    CF 1 every operation costs the same; with compression it scales every
    operation, the uncompressed fixed part included, alike.
    """
    check_record("p", p, VTSParams)
    if not (isinstance(host_mb_s, (int, float)) and 0.0 < host_mb_s < math.inf):
        raise ValueError(f"host_mb_s = {host_mb_s!r} is out of range: allowed 0 < host_mb_s < inf")
    return arm_ops_per_track(p) * capacities(p)["cache"] / host_mb_s


def hours_at_peak(p: VTSParams) -> float:
    """Hours of peak write an empty cache absorbs before copy-out must keep pace (Figs. 4, 10).

    Cache capacity divided by the rate it fills at peak write (compressed MB/s).
    """
    peak = bound(p.replace(workload="peak_write"))
    return p.capacity_gb * 1024 / (peak / internal_cf(p)) / 3600


def copy_service_s(p: VTSParams) -> float:
    """Drive time to copy one volume out in sustained write: one mount, then write the compressed volume."""
    check_record("p", p, VTSParams)
    return p.mount_s + p.volume_mb / (p.compressibility * drive_mb_s(p))


def copy_ceiling(p: VTSParams) -> float:
    """Host MB/s the copy-out drives tend to as compressibility grows: ``drives x volume / mount_s``.

    Compression shrinks the write but not the mount, which is paid per volume.
    """
    check_record("p", p, VTSParams)
    return (p.drives - p.import_export_drives) * p.volume_mb / p.mount_s


def sustained_crossover_cf(p: VTSParams) -> float:
    """The compressibility at which the copy-out drives take over from the processors in sustained write.

    Both capacities grow with CF, the processors' faster (their work is almost
    all on compressed data; the drives also pay a mount per volume).  Returns
    the CF in [1, 10] where they are equal (bisection), NaN if they do not
    cross there.
    """
    check_record("p", p, VTSParams)
    def gap(cf: float) -> float:
        found = capacities(p.replace(workload="sustained_write", compressibility=cf, extrapolate=True))
        return found["processors"] - found["tape"]

    low, high = 1.0, 10.0
    if gap(low) * gap(high) > 0:
        return math.nan
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if gap(low) * gap(middle) > 0 else (low, middle)
    return (low + high) / 2


def recall_service_s(p: VTSParams) -> float:
    """Drive time of one recall: mount, search, read the compressed volume."""
    check_record("p", p, VTSParams)
    return p.mount_s + text_value("search_time") + p.volume_mb / (p.compressibility * drive_mb_s(p))


def recall_response_s(p: VTSParams) -> float:
    """Mount response of a recall that finds ``recall_queue`` recalls ahead of it (Fig. 6).

    With ``drives`` drives taking recalls first come first served and equal
    recall times ``S``, it starts after ``floor(q / drives)`` rounds:
    ``T = (floor(q / drives) + 1) S``.
    """
    return (p.recall_queue // (p.drives - p.import_export_drives) + 1) * recall_service_s(p)


@functools.cache
def _table4():
    return data.load(KEY, "table4_ehpo_coefficients")


def equation3(workload: str, parity_groups: int, compressibility: float) -> float:
    """Equation 3: EHPO host MB/s = m CF + b, with m and b from Table 4.

    Raises ValueError outside 1 <= CF <= 4 (the bounds of Figs. 7 and 8) or for
    a cache arrangement Table 4 does not list.
    """
    table = _table4()
    rows = table[(table["workload"] == workload) & (table["parity_groups"] == parity_groups)]
    if rows.empty:
        raise ValueError(f"workload, parity_groups = {workload!r}, {parity_groups!r} is not in Table 4: allowed "
                         f"workload in {sorted(set(table['workload']))}, parity_groups in "
                         f"{sorted(set(table['parity_groups']))}")
    if not 1.0 <= compressibility <= 4.0:
        raise ValueError(f"compressibility = {compressibility!r} is out of range: allowed 1 <= compressibility <= 4")
    row = rows.iloc[0]
    return float(row["m"] * compressibility + row["b"])


#: Compressibilities at which the model's EHPO lines are fitted: the range of Figs. 7-8 and equation 3.
TABLE4_CF = (1.0, 2.0, 3.0, 4.0)


def bound_line(workload: str, parity_groups: int) -> tuple[float, float]:
    """The model's row of Table 4 in closed form: ``(m, b)`` of a straight line fitted to the
    bottleneck bound of the EHPO machine (:func:`~perfstudies.models.vts.params.ehpo`) at CF 1, 2, 3, 4.

    The document fitted its lines to curves it extended from measurements "using
    analytical performance modeling" (Sec. 3.5.1); this is the model's analytic curve.
    """
    rates = [bound(ehpo(parity_groups, workload=workload, compressibility=cf)) for cf in TABLE4_CF]
    m, b = np.polyfit(TABLE4_CF, rates, 1)
    return float(m), float(b)


@functools.cache
def _import_export():
    return data.load(KEY, "import_export_coefficients").set_index("task")


def import_export_minutes(task: str, megabytes: float, mounts: int, searches: int = 0) -> float:
    """Equations 1 (export) and 2 (import): task time in minutes.

    ``megabytes`` physical (compressed) MB moved, ``mounts`` source plus
    destination cartridge mounts, ``searches`` repositionings along a tape.
    """
    table = _import_export()
    if task not in table.index:
        raise ValueError(f"task = {task!r} is not allowed: allowed one of {list(table.index)}")
    for name, value in (("megabytes", megabytes), ("mounts", mounts), ("searches", searches)):
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
            raise ValueError(f"{name} = {value!r} is out of range: allowed a finite {name} >= 0")
    row = table.loc[task]
    return float(row["minutes_per_mb"] * megabytes + row["minutes_per_mount"] * mounts
                 + row["minutes_per_search"] * searches)


def contended_task_minutes(task: str, megabytes: float, mounts: int, data_slowdown: float,
                           searches: int = 0) -> float:
    """Equations 1-2 with the data-transfer term slowed by ``data_slowdown`` (host load).

    Mounts and searches are robot and drive work the host does not compete for;
    moving the data shares the processors and the cache with the host, so under
    host load only that term stretches.  A task with fewer mounts per megabyte
    is therefore stretched more, relatively.
    """
    if not (math.isfinite(data_slowdown) and data_slowdown >= 1.0):
        raise ValueError(f"data_slowdown = {data_slowdown!r} is out of range: allowed a finite data_slowdown >= 1")
    alone = import_export_minutes(task, megabytes, mounts, searches)
    moving = import_export_minutes(task, megabytes, 0, 0)
    return alone + (data_slowdown - 1.0) * moving


def customer_mb(p: VTSParams) -> float:
    """Host MB one simulated customer carries: a whole volume for a recall, a chunk otherwise."""
    return p.volume_mb if p.workload == "read_recall" else p.chunk_mb


#: The stations of the Ciw network that are one server whatever their hardware: data is
#: striped across all cache arms (Sec. 2), so the cache serves one customer with every arm.
STRIPED = ("cache",)


def mva_demands(p: VTSParams) -> tuple[dict[str, float], dict[str, int]]:
    """Service demand (seconds per customer) and servers of each node of the throughput network.

    The same demands the Ciw network of :mod:`.network` draws its service times
    from: a striped resource is one server with its demand divided by its arms.
    """
    size = customer_mb(p)
    demands, servers = {}, {}
    for name in PATHS[p.workload]:
        station = stations(p)[name]
        work = station.s_per_mb * size + station.s_per_volume * size / p.volume_mb
        if name in STRIPED:
            demands[name], servers[name] = work / station.servers, 1
        else:
            demands[name], servers[name] = work, station.servers
    return demands, servers


def mva_solution(p: VTSParams) -> mva.Solution:
    """Exact MVA of the throughput network: ``streams`` customers, exponential service, same demands.

    The product-form reference for the Ciw model (whose service times are Gamma
    with a coefficient of variation of 0.5, not 1).  Host MB/s is
    ``solution.throughput * customer_mb(p)``.  Every record can be solved: its
    times are at least :data:`.params.TIME_FLOOR_S`, which keeps every demand
    at least MVA's smallest nonzero time.
    """
    check_record("p", p, VTSParams)
    demands, servers = mva_demands(p)
    return mva.exact(demands, population=p.streams, servers={k: c for k, c in servers.items() if c > 1})
