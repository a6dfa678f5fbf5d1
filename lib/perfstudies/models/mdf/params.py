"""Parameter records of the 580/MDF study.

*Partitioning Large Processors* (Young, Poliak and Martindale, Amdahl) ran an
IMS domain and a TSO domain on one processor complex, 50% each in MP mode
(Section 7.0, Figures 2 and 3), at scheduling parameters 1, 3 and 5 (slices of
30, 20 and 10 ms).  Fields marked *calibrated* get their study values from
:mod:`perfstudies.models.mdf.calibration`; the defaults here are those values
rounded, so a widget starts near the study's operating point.

Each record checks its own fields on construction (ranges, the two allocations
against each other, the switch against the shortest slice, the run's length).
What needs the dispatch schedule (:class:`~perfstudies.models.mdf.mechanism.Windows`)
and the theory (:func:`~perfstudies.models.mdf.analytic.held_busy_time`), the
refusal of a device its held completions would make unstable, is made where
a record is run: :func:`~perfstudies.models.mdf.network.build_network` and
``model`` for a device, the live panel's model for a panel setting, before any
simulation starts.

Examples
--------
>>> cycle_length(1)   # two 30 ms slices
0.06
"""

import math
from dataclasses import dataclass

from perfstudies.params import Params, param

KEY = "mdf"
DOCUMENT = "Partitioning Large Processors (Young, Poliak and Martindale, Amdahl Corporation)"
#: Base seed of every simulated number of the study (calibration, comparison,
#: the chapter's runs, widget re-runs and sweeps); replication i uses
#: ``replication_seeds(SEED, n)[i]``.
SEED = 580

#: Slice length per scheduling parameter (ms) for two domains at 50% each.
#: Parameters 1, 3 and 5 are documented (Section 7.0: 30, 20 and 10 ms); 2 and 4
#: are our linear interpolation, the document gives no value for them.
SLICE_MS_AT_HALF = {1: 30.0, 2: 25.0, 3: 20.0, 4: 15.0, 5: 10.0}

#: Relative hardware service time (PEND + DISC + CONN) of the device types the
#: widget offers.  The document only says a 3350 is slower than a 3380; the
#: ratio uses the drives' published average access figures (IBM product specs,
#: not from the document): 3350 25 ms seek + 8.4 ms latency + 3.4 ms for 4 KB at
#: 1.2 MB/s = 36.8 ms; 3380 16 ms + 8.3 ms + 1.4 ms for 4 KB at 3 MB/s = 25.7 ms.
DEVICE_SPEED = {"3380": 1.0, "3350": round(36.8 / 25.7, 3)}

SCHEDULING = dict(low=1, high=5, doc="scheduling parameter (1 = longest slices)")

#: RMF Monitor I's sampling cycle (ms).  Section 2.0 recommends "not less than 250 ms"; the study
#: takes that lower limit, which the authors, writing the recommendation from these runs, would have
#: kept to, and which gives RMF the most samples the recommendation allows.  The *expected* estimate
#: does not depend on the cycle as long as one pop at most falls in each absence of the domain
#: (true for any cycle above the longest MDF cycle, 60 ms at 50/50); only its sampling noise does.
RMF_CYCLE_MS = 250.0
#: What RMF does with a sampling "timer pop" that falls while its domain is not dispatched (Section
#: 2.0: "the best case is a delay in taking the sample.  The worst case is a missed sample"):
#: ``missed``, no sample; ``after clearing``, the sample is taken when the domain is dispatched again,
#: after the I/O interrupt handler has cleared the held completions and started the queued requests
#: (Section 5.0, t4 to t5); ``before clearing``, taken at that dispatch before the handler runs (the
#: queue as it stood, frozen, while the domain was away: no bias).  The study's rule is calibrated.
RMF_RULES = ("missed", "after clearing", "before clearing")

#: How a device's requests arrive (``DeviceParams.arrivals``, issue 29): ``in-slice``, the study's, a Poisson
#: stream issued only while the owning domain runs, at the device's rate over the domain's share of the time
#: (:class:`~perfstudies.models.mdf.mechanism.DomainArrivals`); ``at-dispatch``, requests become due at the
#: device's rate all the time and those due while the domain is away are issued in a surge at its next
#: dispatch (:class:`~perfstudies.models.mdf.mechanism.DispatchSurge`); ``wall-clock``, Poisson ignoring the
#: slices, the arrivals the theory's Pollaczek-Khinchine formula assumes: a reference, not the document's.
ARRIVALS = ("in-slice", "at-dispatch", "wall-clock")

# --- the slices the document gives ------------------------------------------------------------

def cycle_length(scheduling_parameter: int) -> float:
    """Seconds for one full round of domain dispatches.

    With two domains at 50% each, each slice is ``SLICE_MS_AT_HALF[p]``, so one
    cycle (both slices) is twice that; a domain's slice is its allocation times
    the cycle.  The records check the switch against it; the schedule
    (:func:`~perfstudies.models.mdf.mechanism.domain_windows`) is built on it.
    """
    if scheduling_parameter not in SLICE_MS_AT_HALF:
        raise ValueError(f"scheduling_parameter = {scheduling_parameter!r} is out of range: "
                         f"allowed 1 <= scheduling_parameter <= 5")
    return 2.0 * SLICE_MS_AT_HALF[scheduling_parameter] / 1000.0


#: Requests a device run's measurement window (``max_time - warmup``) must expect, at least.  The model's
#: IOSQ and RMF's activity rate are averages over the requests completed in the window, so an empty
#: window has none (a rate of 1e-300 I/O per s failed inside the metrics, and below about 5.6e-309 the
#: interarrival time 1 / rate overflowed: Ciw's "Invalid time sampled").  Requests are Poisson, so no
#: rate makes an empty window impossible; this many makes its chance, ``exp(-64 ln 2) = 2**-64``, smaller
#: than one in the number of seeds a run can take (``runner.MAX_SEED + 1 = 2**64``): about 44.4 requests.
MIN_WINDOW_REQUESTS = 64 * math.log(2)


# --- the parameter records ------------------------------------------------------------------

@dataclass(frozen=True)
class DomainSetup(Params):
    """How the processors are shared: scheduling parameter, allocations, switch cost."""

    scheduling_parameter: int = param(1, **SCHEDULING)
    ims_share: float = param(0.5, low=0.05, high=0.95, step=0.05, unit="fraction",
                             doc="IMS CPU allocation")  # Figure 3: 50%
    tso_share: float = param(0.5, low=0.05, high=0.95, step=0.05, unit="fraction",
                             doc="TSO CPU allocation")  # Figure 3: 50%
    switch_ms: float = param(0.30, low=0.0, high=2.0, step=0.01, unit="ms",
                             doc="domain switch overhead per dispatch")  # Section 7.0: TSO ETR -2% from 1 to 5
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


@dataclass(frozen=True)
class DeviceParams(DomainSetup):
    """One DASD volume of one domain: Poisson requests, held completion interrupts."""

    domain: str = param("IMS", choices=("IMS", "TSO"), doc="domain that owns the device")
    rate: float = param(25.0, low=0.0, low_open=True, high=60.0, step=0.5, unit="I/O per s",
                        doc="device activity rate")  # Table 2: 10.7 to 32.8; and >= MIN_WINDOW_REQUESTS / window
    service_ms: float = param(17.0, low=1.0, high=60.0, step=0.5, unit="ms",
                              doc="PEND+DISC+CONN of a 3380")  # calibrated on BASE
    scv: float = param(0.7, low=0.05, high=5.0, step=0.05, unit="",
                       doc="squared coeff. of variation of service")  # calibrated on BASE
    device: str = param("3380", choices=tuple(DEVICE_SPEED), doc="device type")
    rmf_cycle_ms: float = param(RMF_CYCLE_MS, low=250.0, high=5000.0, step=50.0, unit="ms",
                                doc="RMF sampling cycle")  # Section 2.0: not less than 250 ms
    rmf_rule: str = param("missed", choices=RMF_RULES,
                          doc="RMF's sample when its timer pops outside the slice")  # calibrated on Table 1 (3)
    arrivals: str = param("in-slice", choices=ARRIVALS,
                          doc="how requests arrive: in the slices, in a surge at dispatch, or ignoring slices")
    max_time: float = param(300.0, low=10.0, high=1e5, unit="s", doc="simulated time")
    warmup: float = param(20.0, low=0.0, high=1e4, unit="s", doc="records before this are deleted")

    def __post_init__(self):
        super().__post_init__()
        self.check_warmup()
        window = self.max_time - self.warmup
        if self.rate * window < MIN_WINDOW_REQUESTS:
            raise ValueError(f"DeviceParams.rate = {self.rate!r} is out of range: with max_time - warmup = "
                             f"{window:g} s the measurement window expects {self.rate * window:.3g} requests; allowed "
                             f"rate >= {MIN_WINDOW_REQUESTS / window:.4g} I/O per s, {MIN_WINDOW_REQUESTS:.1f} "
                             f"requests in the window (fewer leave a window empty too often to average over)")
        self.check_event_budget(self.events(), ("max_time", "rate"), shrinking=("rmf_cycle_ms",))

    def events(self) -> float:
        """Ciw events of one replication: an arrival and an end of service per request and per RMF pop."""
        return 2.0 * (self.rate + 1000.0 / self.rmf_cycle_ms) * self.max_time

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
    regions: int = param(60, low=1, high=200, doc="message-processing regions")  # Section 6.0: sixty MPRs
    io_per_transaction: float = param(16.2, low=0.0, high=100.0, unit="I/O", doc="I/O per transaction")  # Figure 5
    io_response_ms: float = param(24.4, low=1.0, high=200.0, unit="ms",
                                  doc="database I/O response")  # Table 1 BASE, IMS AVG RESP
    max_time: float = param(240.0, low=10.0, high=1e5, unit="s", doc="simulated time")
    warmup: float = param(40.0, low=0.0, high=1e4, unit="s", doc="records before this are deleted")

    def __post_init__(self):
        super().__post_init__()
        self.check_warmup()
        self.check_event_budget(self.events(), ("max_time", "terminals"),
                                shrinking=("think_s", "cpu_ms", "frontend_ms"))

    def events(self) -> float:
        """Ciw events of one replication, at most: six per transaction at the highest throughput possible.

        A transaction ends a think, passes the 4705 twice, the input queue (the
        wait for a region) once, the processors once and the database I/O once.  The throughput is at most what the
        terminals offer, what the processors can do unsliced, and what a 4705
        that moves one extra message per cycle can carry (two messages per
        transaction).
        """
        # unsliced there is no cycle: one extra message per second, the 1 s cycle of ``Windows.always()``
        cycles_per_s = 1.0 / cycle_length(self.scheduling_parameter) if self.sliced else 1.0
        front_end = (1000.0 / self.frontend_ms + cycles_per_s) / 2.0
        throughput = min(self.terminals / self.think_s, 1000.0 * self.processors / self.cpu_ms, front_end)
        return 6.0 * throughput * self.max_time


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
        self.check_event_budget(self.events(), ("max_time", "users"), shrinking=("think_s", "cpu_ms"))

    def events(self) -> float:
        """Ciw events of one replication, at most: an end of think and an end of CPU work per command,
        at the highest throughput the users and the unsliced processors allow."""
        throughput = min(self.users / self.think_s, 1000.0 * self.processors / self.cpu_ms)
        return 2.0 * throughput * self.max_time


@dataclass(frozen=True)
class PanelParams(DomainSetup):
    """What the chapter's live panel lets a reader change."""

    device_rate: float = param(25.0, low=1.0, high=45.0, step=1.0, unit="I/O per s",
                               doc="IMS device activity rate")  # Table 2: about 25 at parameter 1
    device: str = param("3380", choices=tuple(DEVICE_SPEED), doc="device type")
    terminals: int = param(1000, low=100, high=2000, step=50, doc="IMS terminals")  # Section 6.0
    # the device's own service, not a control: explore.panel_defaults() sets the calibrated values
    service_ms: float = param(18.7, low=1.0, high=60.0, step=0.1, unit="ms",
                              doc="PEND+DISC+CONN of the IMS device on a 3380")  # Table 1 BASE: 24.36 - 5.63
    scv: float = param(0.6, low=0.05, high=5.0, step=0.05, unit="",
                       doc="squared coeff. of variation of service")  # calibrated on BASE
    rmf_rule: str = param("missed", choices=RMF_RULES,
                          doc="RMF's sample when its timer pops outside the slice")  # calibrated on Table 1 (3)

    @property
    def hardware_s(self) -> float:
        """Mean PEND + DISC + CONN in seconds of the IMS device for the chosen device type."""
        return self.service_ms * DEVICE_SPEED[self.device] / 1000.0
