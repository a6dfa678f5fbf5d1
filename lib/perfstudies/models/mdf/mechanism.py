"""The 580/MDF mechanism: the dispatch schedule, and the Ciw classes that follow it.

The schedule (:class:`Windows`, built for a record's domain by
:func:`windows_of`) answers *when does this domain run?*: plain arithmetic on
the scheduling parameter, the allocations and the switch cost (Sections 1.0
and 7.0), which the theory (:mod:`.analytic`), the Ciw classes below and the
chapter's timeline all read.  It is not a Ciw class.

Ciw asks a distribution for a duration at the moment an arrival or a service
begins (``sample(t=now)``).  Wrapping an ordinary distribution with a domain's
:class:`Windows` turns it into the 580/MDF mechanism without any scheduling
events, so a run costs the same as an unsliced one:

* :class:`DomainArrivals`: a domain issues I/O requests (or starts CPU work)
  only while it is dispatched;
* :class:`DispatchSurge`: the alternative of issue 29 (``DeviceParams.arrivals``):
  requests become due all the time and those due while the domain is away
  are issued in a surge at its next dispatch;
* :class:`HeldCompletion`: a device (or the 4705 channel) is started only
  while its domain runs, transfers independently of the processors, and then
  stays busy until its domain is dispatched again and clears the completion
  interrupt.  This is the held interrupt of the document's Figure 1;
* :class:`DomainWork`: CPU work progresses only while its domain runs;
* :class:`DatabaseIO`: an IMS transaction's database I/Os one after another,
  each completion held until the IMS domain runs before the program goes on;
* :class:`FrontEndRouting`: the 4705 carries each transaction's message in and
  its reply out, through the same queue;
* :class:`RegionGate` (a node): IMS's input queue, where a message waits for
  one of the sixty message-processing regions; inside a region the
  transaction queues for the domain's processors and does its database I/O,
  which is the paper's execution time;
* :class:`RmfSampler` (a node, with :class:`RmfTimer` and :class:`RmfDelay`):
  RMF Monitor I's sampling cycle, which can look at a device's queue only while
  the device's domain is dispatched (Sections 2.0 and 4.0).

The times are drawn in blocks from Ciw's seeded NumPy generator
(:class:`BlockGamma`, :class:`BlockExponential`), so runs stay reproducible and
a draw costs a fraction of a microsecond.

Examples
--------
>>> ims, tso = domain_windows(1, 0.5, 0.5, switch=0.0)   # 30 ms slices, 60 ms cycle
>>> ims.next_dispatch(0.045), tso.next_dispatch(0.010)
(0.06, 0.03)
"""

import dataclasses
import math

import ciw
import numpy as np

from perfstudies.fifo import FIFONode
from perfstudies.models.mdf.params import ARRIVALS, RMF_RULES, DomainSetup, cycle_length

#: Node numbers of the IMS network (Ciw counts from 1).
TERMINALS, FRONT_END, INPUT_QUEUE, PROCESSORS, DATABASE_IO = 1, 2, 3, 4, 5
#: The IMS nodes a transaction holds a message-processing region through: its CPU work and its database I/O.
IN_REGION = (PROCESSORS, DATABASE_IO)
#: Node numbers of the device network: the device, and RMF's sampler.
DEVICE, RMF = 1, 2
#: Draws per block of :class:`BlockGamma` and :class:`BlockExponential`.
BLOCK = 512
#: How long after a dispatch RMF looks at the queue under rule ``after clearing`` (s): after the
#: completion held at the dispatch has been cleared and the next queued request started.
AFTER_CLEARING = 1e-7


# --- the dispatching schedule ---------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Windows:
    """The times one domain runs: ``[k*cycle + offset + switch, k*cycle + offset + slice)``.

    Two domains take turns on the processors (Section 1.0: fixed time-slice
    allocations): the IMS domain runs for its slice, then the TSO domain for
    its slice, and the cycle repeats.  Each dispatch starts with a domain
    switch, during which neither domain does useful work.  The object answers
    the three questions the mechanism asks about one domain:

    * when does the domain next run (:meth:`next_dispatch`)?  A held I/O
      completion interrupt is cleared at that moment, and only then can the
      domain start a new I/O;
    * when is a piece of CPU work finished if it only progresses while the
      domain runs (:meth:`stretch`)?
    * what fraction of the time does the domain run (:attr:`fraction`)?

    All times are in seconds.  A domain that owns the whole machine (the BASE
    runs, no slicing) is ``Windows.always()``.

    Parameters
    ----------
    cycle : float
        Length of one round of all domains' slices (s).
    slice : float
        This domain's slice (s), ``switch < slice <= cycle``.
    offset : float
        Where this domain's slice starts within the cycle (s).
    switch : float
        Domain-switch time at the start of every slice (s), lost to both domains.
    """

    cycle: float
    slice: float
    offset: float = 0.0
    switch: float = 0.0

    def __post_init__(self):
        if not self.cycle > 0:
            raise ValueError(f"Windows.cycle = {self.cycle!r} is out of range: allowed cycle > 0")
        if not 0 <= self.switch < self.slice <= self.cycle:
            raise ValueError(f"Windows.slice = {self.slice!r} is out of range: allowed "
                             f"switch ({self.switch}) < slice <= cycle ({self.cycle})")
        if not 0 <= self.offset < self.cycle:
            raise ValueError(f"Windows.offset = {self.offset!r} is out of range: allowed 0 <= offset < cycle")

    @classmethod
    def always(cls) -> "Windows":
        """A domain that never loses the processors (no slicing)."""
        return cls(cycle=1.0, slice=1.0)

    @property
    def sliced(self) -> bool:
        """True when the domain ever waits for another domain."""
        return self.slice < self.cycle or self.switch > 0

    @property
    def fraction(self) -> float:
        """Share of wall-clock time in which the domain does useful work."""
        return (self.slice - self.switch) / self.cycle

    def _cycle_index(self, t: float) -> tuple[int, float]:
        index = math.floor((t - self.offset) / self.cycle)
        return index, t - self.offset - index * self.cycle

    def next_dispatch(self, t: float) -> float:
        """Earliest time ``>= t`` at which the domain is running."""
        if not self.sliced:
            return t
        index, phase = self._cycle_index(t)
        if phase < self.switch:
            return self.offset + index * self.cycle + self.switch
        if phase >= self.slice:
            return self.offset + (index + 1) * self.cycle + self.switch
        return t

    def stretch(self, t: float, work: float) -> float:
        """Time at which ``work`` seconds of the domain's own time, begun at ``t``, are done."""
        if not self.sliced:
            return t + work
        t = self.next_dispatch(t)
        index, phase = self._cycle_index(t)
        left_in_slice = self.slice - phase
        if work <= left_in_slice:
            return t + work
        usable = self.slice - self.switch
        whole, rest = divmod(work - left_in_slice, usable)
        if rest == 0:
            return self.offset + (index + whole) * self.cycle + self.slice
        return self.offset + (index + 1 + whole) * self.cycle + self.switch + rest

    def hold(self, t: float) -> float:
        """How long a completion interrupt arriving at ``t`` waits to be cleared."""
        return self.next_dispatch(t) - t


def domain_windows(scheduling_parameter: int, ims_share: float, tso_share: float,
                   switch: float) -> tuple[Windows, Windows]:
    """The IMS and TSO domains' windows for a scheduling parameter and CPU allocations.

    The IMS slice comes first in each cycle and the TSO slice follows.  When the
    shares add up to less than 1 the rest of the cycle is left idle (the
    maximum allocation caps each domain).
    """
    cycle = cycle_length(scheduling_parameter)
    ims_slice, tso_slice = ims_share * cycle, tso_share * cycle
    return (Windows(cycle, ims_slice, 0.0, switch),
            Windows(cycle, tso_slice, ims_slice, switch))

def windows_of(setup: DomainSetup, domain: str) -> Windows:
    """The :class:`Windows` of ``domain`` ("IMS" or "TSO") under a record's setup (``Windows.always()`` unsliced)."""
    if domain not in ("IMS", "TSO"):
        raise ValueError(f"domain = {domain!r} is not allowed: allowed one of ['IMS', 'TSO']")
    if not setup.sliced:
        return Windows.always()
    ims, tso = domain_windows(setup.scheduling_parameter, setup.ims_share, setup.tso_share, setup.switch_ms / 1000.0)
    return ims if domain == "IMS" else tso


# --- the Ciw classes -----------------------------------------------------------------------

class _Blocks(ciw.dists.Distribution):
    """Values drawn ``BLOCK`` at a time from Ciw's seeded generator ``ciw.rng``.

    :func:`ciw.seed` replaces ``ciw.rng`` before every run, so the block is
    refilled from the new generator whenever it changed: the same seed gives
    the same values, and no value carries over from one run to the next.
    """

    def __init__(self):
        self._generator = None
        self._values = ()
        self._next = 0

    def __repr__(self):
        return f"{type(self).__name__}()"

    def _draw(self, generator: np.random.Generator) -> np.ndarray:
        raise NotImplementedError

    def sample(self, t=None, ind=None):
        if self._next == len(self._values) or self._generator is not ciw.rng:
            self._generator = ciw.rng
            self._values = self._draw(ciw.rng).tolist()
            self._next = 0
        value = self._values[self._next]
        self._next += 1
        return value


class BlockGamma(_Blocks):
    """Gamma service times of mean ``mean`` and squared coefficient of variation ``scv``, drawn in blocks."""

    def __init__(self, mean: float, scv: float):
        if not (mean > 0 and scv > 0 and math.isfinite(mean) and math.isfinite(scv)):
            raise ValueError(f"mean, scv = {(mean, scv)!r} are out of range: allowed mean > 0 and scv > 0")
        super().__init__()
        self._mean, self.scv = mean, scv
        self.shape, self.scale = 1.0 / scv, mean * scv

    def __repr__(self):
        return f"BlockGamma(mean={self._mean!r}, scv={self.scv!r})"

    @property
    def mean(self):
        return self._mean

    @property
    def variance(self):
        return self.scv * self._mean**2

    def _draw(self, generator):
        return generator.gamma(self.shape, self.scale, BLOCK)


class BlockExponential(_Blocks):
    """Exponential times at ``rate`` per second, drawn in blocks."""

    def __init__(self, rate: float):
        if not (rate > 0 and math.isfinite(rate)):
            raise ValueError(f"rate = {rate!r} is out of range: allowed 0 < rate < inf")
        super().__init__()
        self.rate = rate

    def __repr__(self):
        return f"BlockExponential(rate={self.rate!r})"

    @property
    def mean(self):
        return 1.0 / self.rate

    @property
    def variance(self):
        return 1.0 / self.rate**2

    def _draw(self, generator):
        return generator.exponential(1.0 / self.rate, BLOCK)


class DomainArrivals(ciw.dists.Distribution):
    """Poisson requests at ``rate`` per wall-clock second, issued only inside the windows.

    Section 5.0: while a domain is dispatched one of its CPUs handles
    interrupts and "the other CPU is quite capable of issuing new I/O
    requests"; while it is not dispatched nothing in it runs, so it issues
    none.  The requests keep the device's published activity rate by being
    issued at ``rate / fraction`` during the domain's own time.
    """

    def __init__(self, rate: float, windows: Windows):
        self.rate = rate
        self.windows = windows
        self.inner = BlockExponential(rate / windows.fraction)

    def __repr__(self):
        return f"DomainArrivals(rate={self.rate!r}, windows={self.windows!r})"

    def sample(self, t=None, ind=None):
        return self.windows.stretch(t, self.inner.sample()) - t


class DispatchSurge(ciw.dists.Distribution):
    """Requests that become due at ``rate`` per wall-clock second, issued at once or at the next dispatch.

    Section 5.0: the completions held while a domain was away are cleared as
    "a burst or steady stream" when it is dispatched, and the other CPU is
    then free to issue new I/O requests; Section 7.0: at long slices, with
    few dispatches, the work is "processed in surges", and as the slices
    shorten and dispatches come more often the flow "starts to even out".
    So the need for an I/O arises whether or not the domain runs (the
    domain's work keeps arriving: messages, completions on other devices),
    as a Poisson stream at the device's rate, but a request that becomes due
    while the domain is away is issued only at its next dispatch: a surge at
    the start of every slice, of about ``rate`` times the absence, then
    Poisson requests through the slice.  The long-run rate is ``rate`` with
    no scaling.  Unsliced (``Windows.always()``) it is a Poisson stream.

    The time the last request became due is the run's state; it restarts at
    the run's first sample (at time zero).
    """

    def __init__(self, rate: float, windows: Windows):
        self.rate = rate
        self.windows = windows
        self.due = BlockExponential(rate)
        self._last_due = 0.0

    def __repr__(self):
        return f"DispatchSurge(rate={self.rate!r}, windows={self.windows!r})"

    def sample(self, t=None, ind=None):
        if t == 0.0:
            self._last_due = 0.0
        self._last_due += self.due.sample()
        # several requests due in one absence are all issued at the dispatch: gaps of zero; the max only
        # absorbs Ciw's rounding of the previous issue time (t + gap), never a real negative gap
        return max(self.windows.next_dispatch(self._last_due) - t, 0.0)


def device_arrivals(kind: str, rate: float, windows: Windows) -> ciw.dists.Distribution:
    """The arrival distribution of a device issuing ``rate`` requests per second under mechanism ``kind``
    (one of :data:`~perfstudies.models.mdf.params.ARRIVALS`)."""
    if kind not in ARRIVALS:
        raise ValueError(f"kind = {kind!r} is not allowed: allowed one of {list(ARRIVALS)}")
    if kind == "in-slice":
        return DomainArrivals(rate, windows)
    if kind == "at-dispatch":
        return DispatchSurge(rate, windows)
    return BlockExponential(rate)


class HeldCompletion(ciw.dists.Distribution):
    """Start when the domain runs, transfer for ``hardware``, hold until the domain runs again.

    Section 1.0 (second observation) and Figure 1: an I/O that completes while
    its domain is not dispatched stays pending until the domain's next time
    slice; Section 4.0: IOS counts the device busy from SSCH until the
    interrupt is cleared, so requests issued meanwhile queue in IOSQ;
    Section 5.0: the delay is the part of the other domain's slice not
    overlapped by the transfer (t3 - t2) plus the domain switch.  The 4705's
    channel exchanges are held the same way (Section 7.0, Table 3: messages
    "processed in surges").
    """

    def __init__(self, hardware: ciw.dists.Distribution, windows: Windows):
        self.hardware = hardware
        self.windows = windows

    def __repr__(self):
        return f"HeldCompletion(hardware={self.hardware!r}, windows={self.windows!r})"

    def sample(self, t=None, ind=None):
        start = self.windows.next_dispatch(t)
        return self.windows.next_dispatch(start + self.hardware.sample()) - t


class DomainWork(ciw.dists.Distribution):
    """CPU work of ``work`` seconds that advances only inside the windows.

    Section 1.0: domains get the hardware in fixed time-slice allocations, and
    580/MDF does not preempt a running domain; Section 7.0 and Table 4: the
    CPU-bound TSO commands (and the IMS transactions of Table 3) progress only
    during their own domain's slices.
    """

    def __init__(self, work: ciw.dists.Distribution, windows: Windows):
        self.work = work
        self.windows = windows

    def __repr__(self):
        return f"DomainWork(work={self.work!r}, windows={self.windows!r})"

    def sample(self, t=None, ind=None):
        return self.windows.stretch(t, self.work.sample()) - t


class DatabaseIO(ciw.dists.Distribution):
    """An IMS transaction's database I/Os, one after another, each completion held until IMS runs.

    Figure 5: 16.2 I/Os per transaction.  A message-processing program issues
    an I/O and waits for it; the I/O's response (``response``, RMF's AVG RESP
    at BASE: IOSQ, PEND, DISC and CONN) runs on the channels whether or not
    IMS is dispatched, but the program learns of the completion only when IOS
    clears the interrupt, at IMS's next dispatch if the I/O ended outside an
    IMS slice (Section 5.0, Figure 1), and only then can it issue the next
    I/O.  So every I/O of the chain can pay a hold, not just one per
    transaction.  The count is ``floor(mean)`` or one more, with the
    fraction as the chance of one more, so that its mean is ``io_count``.
    """

    def __init__(self, io_count: float, response: float, windows: Windows):
        if not (io_count >= 0 and response > 0):
            raise ValueError(f"io_count, response = {(io_count, response)!r} are out of range: "
                             "allowed io_count >= 0 and response > 0")
        self.io_count, self.response, self.windows = io_count, response, windows
        self._whole, self._extra = int(io_count), io_count - int(io_count)
        self._times = BlockExponential(1.0 / response)
        self._coin = BlockUniform()

    def __repr__(self):
        return f"DatabaseIO(io_count={self.io_count!r}, response={self.response!r}, windows={self.windows!r})"

    def sample(self, t=None, ind=None):
        count = self._whole + (self._coin.sample() < self._extra)
        dispatch, times = self.windows.next_dispatch, self._times
        now = t
        for _ in range(count):
            now = dispatch(dispatch(now) + times.sample())
        return now - t


class BlockUniform(_Blocks):
    """Uniform values on [0, 1), drawn in blocks."""

    def __repr__(self):
        return "BlockUniform()"

    def _draw(self, generator):
        return generator.random(BLOCK)


class FrontEndRouting(ciw.routing.NodeRouting):
    """At the 4705 a message goes on to IMS; the reply that comes back goes to its terminal.

    Section 7.0 and Table 3: the TPNS queue (a terminal waiting to send) and
    the IMS output queue (a reply waiting for VTAM) both wait for the 4705, so
    one front-end node carries every transaction twice.  Each customer carries
    which way it goes next (``mdf_outbound``), flipped on every pass.
    """

    def __repr__(self):
        return "FrontEndRouting()"

    def next_node(self, ind):
        outbound = getattr(ind, "mdf_outbound", False)
        ind.mdf_outbound = not outbound
        return self.simulation.nodes[TERMINALS if outbound else INPUT_QUEUE]


class RegionGate(FIFONode):
    """IMS's input queue: a message waits here, first come first served, until a message-processing region is free.

    Section 6.0 and Figure 4: "Sixty message-processing regions (MPR) were
    available".  A transaction holds its region from its scheduling to its
    end: it queues for the domain's processors there, runs its CPU work and
    does its database I/O (nodes :data:`IN_REGION`), and all of that is the
    paper's IMS EXEC; only the wait for a region is IMS IN Q.  The node has
    infinite servers and a zero service time, so each message ends service
    as it arrives; it leaves when fewer than ``regions`` transactions are
    in a region, and its record's blocked time (exit minus end of service) is
    its wait.  Its next event depends on other nodes' customers, so the
    engine re-dates it after every event (:meth:`engine_trackable`).  The
    class attribute is one run's state (:func:`perfstudies.networks.with_state`).
    """

    regions: int

    def __repr__(self):
        return f"RegionGate(regions={self.regions!r})"

    def engine_trackable(self) -> bool:
        return False

    def in_regions(self) -> int:
        """Transactions holding a region now."""
        nodes = self.simulation.nodes
        return sum(nodes[node].number_of_individuals for node in IN_REGION)

    def update_next_event_date(self):
        """The oldest waiting message leaves now if a region is free (never before its arrival), else nothing."""
        waiting = self.individuals[0]
        if waiting and self.in_regions() < self.regions:
            head = waiting[0]
            date = max(head.service_end_date, self.simulation.current_time)
            self.possible_next_events = {"end_service": ([head], date)}
            self.next_event_date, self.next_individual = date, [head]
        else:
            self.possible_next_events = {}
            self.next_event_date, self.next_individual = math.inf, None
        self.next_event_type = "end_service"


# --- RMF: the sampler that measures IOSQ -------------------------------------------------------------

class RmfTimer(ciw.dists.Distribution):
    """RMF Monitor I's timer pops: every ``cycle`` seconds of the domain's TOD clock.

    Section 2.0: the pop times are computed from time-of-day clock values, and
    a domain's TOD clock runs whether or not the domain is dispatched, so the
    pops keep their period.  Where the first pop falls in the MDF cycle is not
    known; it is drawn uniformly over one RMF cycle, so the pops' phase in the
    MDF cycle is uniform over replications.
    """

    def __init__(self, cycle: float):
        if not (cycle > 0 and math.isfinite(cycle)):
            raise ValueError(f"cycle = {cycle!r} is out of range: allowed 0 < cycle < inf")
        self.cycle = cycle
        self._phase = BlockUniform()
        self._started = False

    def __repr__(self):
        return f"RmfTimer(cycle={self.cycle!r})"

    def sample(self, t=None, ind=None):
        if t == 0.0 or not self._started:
            self._started = True
            return self._phase.sample() * self.cycle
        return self.cycle


class RmfDelay(ciw.dists.Distribution):
    """How long after its timer pop RMF looks at the queue: at once, or at the next dispatch.

    A pop inside the domain's slice is served at once.  A pop outside it waits
    for the domain under rule ``after clearing`` (Section 2.0's "delay in
    taking the sample"; the sample comes after the I/O interrupt handler has
    cleared the held completions, :data:`AFTER_CLEARING`); under ``missed`` and
    ``before clearing`` it needs no waiting, because nothing is taken or the
    queue it takes is the one that stood, frozen, since the domain left.
    """

    def __init__(self, windows: Windows, rule: str):
        if rule not in RMF_RULES:
            raise ValueError(f"rule = {rule!r} is not allowed: allowed one of {list(RMF_RULES)}")
        self.windows, self.rule = windows, rule

    def __repr__(self):
        return f"RmfDelay(windows={self.windows!r}, rule={self.rule!r})"

    def sample(self, t=None, ind=None):
        dispatch = self.windows.next_dispatch(t)
        if dispatch == t or self.rule != "after clearing":
            return 0.0
        return dispatch - t + AFTER_CLEARING


class RmfSampler(FIFONode):
    """RMF's sampling cycle as a node: each customer is one timer pop, each end of service one sample.

    Section 4.0: RMF computes AVG IOSQ as the average number of requests
    queued at the device's UCB, sampled once per cycle, divided by the
    device's activity rate.  Section 2.0: a pop that falls while the domain is
    not dispatched is delayed or missed.  At the end of each pop's service the
    node counts the requests waiting for node ``device`` (present, not in
    service) and appends ``(pop time, sample time, queue)`` to ``samples``,
    unless the pop fell outside the slice and ``rule`` is ``missed``.  The
    class attributes are one run's state (:func:`perfstudies.networks.with_state`).
    """

    windows: Windows
    rule: str
    device: int
    samples: list

    def __repr__(self):
        return f"RmfSampler(rule={self.rule!r}, device={self.device!r})"

    def finish_service(self):
        pop = self.next_individual[0].arrival_date
        inside = self.windows.next_dispatch(pop) == pop
        if inside or self.rule != "missed":
            device = self.simulation.nodes[self.device]
            waiting = device.number_of_individuals - sum(1 for server in device.servers if server.busy)
            self.samples.append((pop, self.simulation.current_time, waiting))
        super().finish_service()
