"""The parameter record of the VTS model and the hardware facts it rests on.

:class:`VTSParams` describes one configuration of the IBM 3494 Virtual Tape Server
model B18 (feature level, cache, tape drives, channels) and one workload on it
(what the host does, how compressible the data is).  It validates itself: the
cache must be one that Table 3 of the white paper lists for that feature level,
the Performance Accelerator needs four or more drives, and a compressibility
above 4 (outside the measured range of Figs. 7 and 8) needs ``extrapolate=True``.
"""

import functools
from dataclasses import dataclass

import pandas as pd

from perfstudies import data
from perfstudies.params import Params, param

STUDY = "vts"

FEATURES = ("base", "EHPO", "PAF")
WORKLOADS = ("peak_write", "sustained_write", "read_hit", "read_recall")
CACHE_CAPACITIES_GB = (72, 144, 216, 288, 432, 576, 864, 1152, 1728)

#: Compressibility range of the measurements and of equation 3 (Appendix B).
MEASURED_CF_MAX = 4.0


@functools.cache
def cache_configurations() -> pd.DataFrame:
    """Table 3: the cache capacities each feature level can have, with their RAID-5 groups."""
    return data.load(STUDY, "table3_cache_configurations")


@functools.cache
def text_value(key: str) -> float:
    """A number the document's text states (``data/vts/text_values.csv``), by key."""
    table = data.load(STUDY, "text_values").set_index("key")
    if key not in table.index:
        raise ValueError(f"key = {key!r} is not a transcribed text value: allowed one of {list(table.index)}")
    return float(table.loc[key, "value"])


@dataclass(frozen=True)
class VTSParams(Params):
    """One VTS B18 configuration and one host workload.

    Hardware facts come from the white paper (section in each field's doc);
    the calibrated service times live in :class:`~perfstudies.models.vts.analytic.Rates`.
    """

    feature: str = param("PAF", choices=FEATURES,
                         doc="feature level (Sec. 3.5: base, EHPO compression, PAF = EHPO + 4 CPUs + full strides)")
    capacity_gb: int = param(1728, choices=CACHE_CAPACITIES_GB, unit="GB",
                             doc="tape volume cache capacity (Table 3)")
    hdd_gb: int = param(36, choices=(9, 36), unit="GB", doc="disk drive size of the cache (Table 3)")
    drives: int = param(4, low=3, high=6, unit="drives", doc="3590 tape drives (Sec. 2: 3-6, 4-6 with PAF)")
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
    volume_mb: float = param(800.0, low=50.0, high=4000.0, unit="MB", step=50.0,
                             doc="logical volume size, host MB (Secs. 3.1-3.4: 800)")
    recall_queue: int = param(0, low=0, high=64, unit="recalls", doc="recalls queued ahead of a new one (Fig. 6)")
    chunk_mb: float = param(8.0, low=1.0, high=64.0, unit="MB",
                            doc="host MB carried by one simulated customer (granularity)")
    completions: int = param(600, low=50, high=20_000, unit="customers",
                             doc="customer completions a throughput run lasts for")

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

    @staticmethod
    def _rows(feature: str) -> pd.DataFrame:
        table = cache_configurations()
        return table[table["features"] == ("paf" if feature == "PAF" else "base_ehpo")]

    @classmethod
    def allowed_capacities(cls, feature: str, hdd_gb: int) -> list[int]:
        """Cache capacities Table 3 lists for a feature level and disk size."""
        rows = cls._rows(feature)
        return [int(c) for c in rows.loc[rows["hdd_gb"] == hdd_gb, "capacity_gb"]]

    @classmethod
    def allowed_hdd_sizes(cls, feature: str) -> list[int]:
        """Disk sizes Table 3 lists for a feature level."""
        return sorted({int(h) for h in cls._rows(feature)["hdd_gb"]})

    @property
    def raid(self) -> tuple[int, int]:
        """``(parity_groups, data_disks_per_group)`` of the cache (Table 3)."""
        table = cache_configurations()
        row = table[(table["features"] == ("paf" if self.feature == "PAF" else "base_ehpo"))
                    & (table["hdd_gb"] == self.hdd_gb) & (table["capacity_gb"] == self.capacity_gb)].iloc[0]
        return int(row["parity_groups"]), int(row["data_disks_per_group"])
