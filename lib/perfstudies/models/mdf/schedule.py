"""The 580/MDF dispatching schedule: when each domain runs, and what holding completions costs a device.

Two domains take turns on the processors in fixed slices (Section 1.0); the
scheduling parameter sets the slice (Section 7.0).  :class:`Windows` answers
*when does this domain run?* for one domain: plain arithmetic on the
scheduling parameter and the allocations, not a Ciw class.  Every layer reads
it: the records validate their devices with it (:mod:`.params`), the theory
(:mod:`.analytic`), the Ciw distributions that make the mechanism
(:mod:`.mechanism`), RMF's sampling (:mod:`.metrics`) and the chapter's
timeline (:mod:`.figures`).  :func:`held_busy_time` is the renewal-reward
consequence for a device whose requests queue: its capacity with holds.

Examples
--------
>>> ims, tso = domain_windows(1, 0.5, 0.5, switch=0.0)   # 30 ms slices, 60 ms cycle
>>> ims.next_dispatch(0.045), tso.next_dispatch(0.010)
(0.06, 0.03)
"""

import dataclasses
import functools
import math

import numpy as np
from scipy import stats

#: Slice length per scheduling parameter (ms) for two domains at 50% each.
#: Parameters 1, 3 and 5 are documented (Section 7.0: 30, 20 and 10 ms); 2 and 4
#: are our linear interpolation, the document gives no value for them.
SLICE_MS_AT_HALF = {1: 30.0, 2: 25.0, 3: 20.0, 4: 15.0, 5: 10.0}


# --- the dispatching schedule ---------------------------------------------------------------

def cycle_length(scheduling_parameter: int) -> float:
    """Seconds for one full round of domain dispatches.

    With two domains at 50% each, each slice is ``SLICE_MS_AT_HALF[p]``, so one
    cycle (both slices) is twice that; a domain's slice is its allocation times
    the cycle.
    """
    if scheduling_parameter not in SLICE_MS_AT_HALF:
        raise ValueError(f"scheduling_parameter = {scheduling_parameter!r} is out of range: "
                         f"allowed 1 <= scheduling_parameter <= 5")
    return 2.0 * SLICE_MS_AT_HALF[scheduling_parameter] / 1000.0


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


# --- held completions: how busy a device is per request when requests queue -----------------------

#: Phase grid step (s) and tail mass of :func:`held_busy_time`'s arithmetic.
PHASE_STEP = 2e-5
TAIL = 1e-12


@functools.lru_cache(maxsize=1024)
def held_busy_time(windows: Windows, mean: float, scv: float) -> float:
    """Mean time a device of this domain is busy per request when requests are always waiting (s).

    Each request keeps the device busy for its transfer ``S`` (Gamma, mean
    ``mean``, squared coefficient of variation ``scv``) plus the hold until
    the domain next runs, if the transfer ends outside the domain's slice
    (Section 5.0: the part of the other domain's slice not overlapped by the
    transfer, plus the domain switch).  When requests queue, the next one
    starts the moment the previous completion is cleared: at once if the
    transfer ended inside the slice, else at the start of the next slice.  So
    the phase at which each request starts is a Markov chain that renews at
    every hold, and by renewal-reward the mean busy time per request is the
    mean length of a renewal cycle over the mean number of requests in it.
    This computes both on a grid of phases (step :data:`PHASE_STEP`, with the
    transfer's distribution folded onto the cycle), exact up to the grid.

    ``1 / held_busy_time`` is the device's capacity: a device is stable only
    below it.  The mean hold of a completion at a random moment
    (``analytic.mean_hold``) is not enough for that: requests start where
    holds end, so completions are not uniform over the cycle, and for nearly
    constant transfers the two differ by tens of percent.
    """
    if not windows.sliced:
        return mean
    cycle, start, end = windows.cycle, windows.switch, windows.slice
    size = max(1000, math.ceil(cycle / PHASE_STEP))
    step = cycle / size
    transfer = stats.gamma(1.0 / scv, scale=mean * scv)
    top = math.ceil(transfer.ppf(1.0 - TAIL) / step) + 1
    mass = np.diff(transfer.cdf((np.arange(top + 1) + 0.5) * step), prepend=0.0)  # transfer ~ m steps
    folded = np.pad(mass, (0, (-len(mass)) % size)).reshape(-1, size).sum(axis=0)
    folded /= folded.sum()                                                # transfer's phase shift
    phase = np.arange(size) * step
    inside = (phase >= start) & (phase < end)
    hold = np.where(inside, 0.0, np.where(phase < start, start - phase, cycle + start - phase))
    shift = np.fft.rfft(folded)
    expected_hold = np.fft.irfft(np.fft.rfft(hold) * np.conj(shift), size)  # by start phase
    starts = np.zeros(size)
    starts[min(math.ceil(start / step - 1e-9), size - 1)] = 1.0            # a renewal: the slice begins
    requests = busy = 0.0
    while (alive := starts.sum()) > TAIL:
        requests += alive
        busy += alive * mean + starts @ expected_hold
        starts = np.fft.irfft(np.fft.rfft(starts) * shift, size)
        starts = np.where(inside, np.clip(starts, 0.0, None), 0.0)       # ended in the slice: next starts now
    return busy / requests
