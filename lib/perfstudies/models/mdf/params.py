"""Parameter records of the three 580/MDF models, each field with its unit and source.

*Partitioning Large Processors* (Young, Poliak and Martindale, Amdahl) ran an
IMS domain and a TSO domain on one processor complex, 50% each in MP mode
(Section 7.0, Figures 2 and 3), at scheduling parameters 1, 3 and 5 (slices of
30, 20 and 10 ms).  Fields marked *calibrated* get their study values from
:mod:`perfstudies.models.mdf.calibration`; the defaults here are those values
rounded, so a widget starts near the study's operating point.
"""

from dataclasses import dataclass

from perfstudies.models.mdf.slices import Windows, cycle_length, domain_windows
from perfstudies.params import Params, param

#: Relative hardware service time (PEND + DISC + CONN) of the device types the
#: widget offers.  The document only says a 3350 is slower than a 3380; the
#: ratio uses the drives' published average access figures (IBM product specs,
#: not from the document): 3350 25 ms seek + 8.4 ms latency + 3.4 ms for 4 KB at
#: 1.2 MB/s = 36.8 ms; 3380 16 ms + 8.3 ms + 1.4 ms for 4 KB at 3 MB/s = 25.7 ms.
DEVICE_SPEED = {"3380": 1.0, "3350": round(36.8 / 25.7, 3)}

SCHEDULING = dict(low=1, high=5, doc="scheduling parameter (1 = longest slices)")


@dataclass(frozen=True)
class DomainSetup(Params):
    """How the processors are shared: scheduling parameter, allocations, switch cost."""

    scheduling_parameter: int = param(1, **SCHEDULING)
    ims_share: float = param(0.5, low=0.05, high=0.95, step=0.05, unit="fraction",
                             doc="IMS CPU allocation")  # Figure 3: 50%
    tso_share: float = param(0.5, low=0.05, high=0.95, step=0.05, unit="fraction",
                             doc="TSO CPU allocation")  # Figure 3: 50%
    switch_ms: float = param(0.05, low=0.0, high=2.0, step=0.05, unit="ms",
                             doc="domain switch time per dispatch")  # assumed; see calibration.py
    sliced: bool = param(True, doc="domains alternate slices (False: BASE, no slicing)")

    def __post_init__(self):
        super().__post_init__()
        owner = type(self).__name__
        total = self.ims_share + self.tso_share
        if total > 1.0 + 1e-12:
            raise ValueError(f"{owner}.ims_share + tso_share = {total!r} is out of range: allowed "
                             f"ims_share + tso_share <= 1 (the CPU allocations of both domains)")
        shortest_ms = min(self.ims_share, self.tso_share) * cycle_length(self.scheduling_parameter) * 1000
        if self.sliced and self.switch_ms >= shortest_ms:
            raise ValueError(f"{owner}.switch_ms = {self.switch_ms!r} is out of range: allowed "
                             f"0 <= switch_ms < the shortest slice ({shortest_ms:g} ms)")

    def windows(self, domain: str) -> Windows:
        """The :class:`Windows` of ``domain`` ("IMS" or "TSO") under this setup."""
        if domain not in ("IMS", "TSO"):
            raise ValueError(f"domain = {domain!r} is not allowed: allowed one of ['IMS', 'TSO']")
        if not self.sliced:
            return Windows.always()
        ims, tso = domain_windows(self.scheduling_parameter, self.ims_share, self.tso_share,
                                  self.switch_ms / 1000.0)
        return ims if domain == "IMS" else tso


@dataclass(frozen=True)
class DeviceParams(DomainSetup):
    """One DASD volume of one domain: Poisson requests, held completion interrupts."""

    domain: str = param("IMS", choices=("IMS", "TSO"), doc="domain that owns the device")
    rate: float = param(25.0, low=0.0, low_open=True, high=60.0, step=0.5, unit="I/O per s",
                        doc="device activity rate")  # Table 2: 10.7 to 32.8
    service_ms: float = param(17.0, low=1.0, high=60.0, step=0.5, unit="ms",
                              doc="PEND+DISC+CONN of a 3380")  # calibrated on BASE
    scv: float = param(0.7, low=0.05, high=5.0, step=0.05, unit="",
                       doc="squared coeff. of variation of service")  # calibrated on BASE
    device: str = param("3380", choices=tuple(DEVICE_SPEED), doc="device type")
    max_time: float = param(300.0, low=10.0, high=1e5, unit="s", doc="simulated time")
    warmup: float = param(20.0, low=0.0, high=1e4, unit="s", doc="records before this are deleted")

    def __post_init__(self):
        super().__post_init__()
        self.check_warmup()
        busy = self.rate * self.hardware_s
        if busy >= 1.0:
            raise ValueError(f"DeviceParams.rate = {self.rate!r} is out of range: the device saturates; "
                             f"allowed rate < 1 / service = {1.0 / self.hardware_s:.1f} I/O per s")

    @property
    def hardware_s(self) -> float:
        """Mean PEND + DISC + CONN in seconds for the chosen device type."""
        return self.service_ms * DEVICE_SPEED[self.device] / 1000.0


@dataclass(frozen=True)
class ImsParams(DomainSetup):
    """The IMS domain: terminals, 4705 front end, message processing, database I/O."""

    terminals: int = param(1000, low=10, high=2000, step=10, doc="IMS terminals")  # Section 6.0, Figure 4
    think_s: float = param(16.0, low=0.5, high=120.0, unit="s",
                           doc="terminal think time")  # 1,000 terminals / 62.5 tx/s offered
    frontend_ms: float = param(6.3, low=0.5, high=50.0, step=0.1, unit="ms",
                               doc="4705 time per message")  # calibrated on Table 3 ETR, parameter 3
    cpu_ms: float = param(17.7, low=1.0, high=100.0, step=0.1, unit="ms",
                          doc="CPU per transaction")  # calibrated on Table 3 CPU, parameter 3
    processors: int = param(2, low=1, high=4, doc="processors shared by the domains")  # Section 5.0, MP mode
    io_per_transaction: float = param(16.2, low=0.0, high=100.0, unit="I/O", doc="I/O per transaction")  # Figure 5
    io_response_ms: float = param(24.4, low=1.0, high=200.0, unit="ms",
                                  doc="database I/O response")  # Table 1 BASE, IMS AVG RESP
    max_time: float = param(240.0, low=10.0, high=1e5, unit="s", doc="simulated time")
    warmup: float = param(40.0, low=0.0, high=1e4, unit="s", doc="records before this are deleted")

    def __post_init__(self):
        super().__post_init__()
        self.check_warmup()


@dataclass(frozen=True)
class TsoParams(DomainSetup):
    """The TSO domain: users thinking, then CPU-bound commands on the domain's slices."""

    users: int = param(450, low=10, high=2000, step=10, doc="TSO users")  # Section 6.0
    think_s: float = param(20.0, low=0.5, high=120.0, unit="s",
                           doc="think plus non-CPU time")  # calibrated on Table 4, parameter 3
    cpu_ms: float = param(51.7, low=1.0, high=500.0, unit="ms",
                          doc="CPU per command")  # calibrated on Table 4 ETR, parameter 3
    processors: int = param(2, low=1, high=4, doc="processors shared by the domains")  # Section 5.0
    max_time: float = param(900.0, low=10.0, high=1e5, unit="s", doc="simulated time")
    warmup: float = param(100.0, low=0.0, high=1e4, unit="s", doc="records before this are deleted")

    def __post_init__(self):
        super().__post_init__()
        self.check_warmup()


@dataclass(frozen=True)
class PanelParams(DomainSetup):
    """What the chapter's live panel lets a reader change."""

    device_rate: float = param(25.0, low=1.0, high=45.0, step=1.0, unit="I/O per s",
                               doc="IMS device activity rate")  # Table 2: about 25 at parameter 1
    device: str = param("3380", choices=tuple(DEVICE_SPEED), doc="device type")
    terminals: int = param(1000, low=100, high=2000, step=50, doc="IMS terminals")  # Section 6.0
