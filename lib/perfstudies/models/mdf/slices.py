"""Clock arithmetic of a domain's fixed, alternating time slices under 580/MDF.

Two domains take turns on the processors: the IMS domain runs for its slice,
then the TSO domain for its slice, and the cycle repeats.  Each dispatch
starts with a domain switch, during which neither domain does useful work.
A :class:`Windows` object answers the three questions the model asks about one
domain:

* when does the domain next run (:meth:`Windows.next_dispatch`)?  A held I/O
  completion interrupt is cleared at that moment, and only then can the
  domain start a new I/O;
* when is a piece of CPU work finished if it only progresses while the domain
  runs (:meth:`Windows.stretch`)?
* what fraction of the time does the domain run (:attr:`Windows.fraction`)?

All times are in seconds.  A domain that owns the whole machine (the BASE
runs, no slicing) is ``Windows.always()``.
"""

import dataclasses
import math

#: Slice length per scheduling parameter (ms) for two domains at 50% each.
#: Parameters 1, 3 and 5 are documented (Section 7.0: 30, 20 and 10 ms); 2 and 4
#: are our linear interpolation, the document gives no value for them.
SLICE_MS_AT_HALF = {1: 30.0, 2: 25.0, 3: 20.0, 4: 15.0, 5: 10.0}


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
