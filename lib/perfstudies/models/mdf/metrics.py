"""Records -> the device's quantities: the true mean IOSQ, and the IOSQ RMF would report.

RMF does not time requests: it samples the number of requests queued at a
device's UCB once per cycle and divides the average by the device's activity
rate (Section 4.0).  When every moment is equally likely to be sampled, that
is Little's law and the estimate is the true mean IOSQ.  Under 580/MDF it is
not: the sampler (:class:`~perfstudies.models.mdf.mechanism.RmfSampler`) can
look at the queue only while its domain is dispatched, so what it reports
depends on what it does with a pop that falls while the domain is away
(:data:`~perfstudies.models.mdf.params.RMF_RULES`).

Two numbers come from each rule:

* :func:`sampled_iosq_ms`: what the run's own sampler reported, from its
  samples (a few hundred in a simulated run of minutes), noise included;
* :func:`expected_iosq_ms`: what the same rule reports on average over where
  the pops fall in the MDF cycle (uniform: :class:`~perfstudies.models.mdf.mechanism.RmfTimer`),
  computed exactly from the queue's whole path.  It is the sampler's mean
  without the sampling noise of one run, so the comparison can reach its
  precision in tens of replications instead of thousands; the tests hold the
  sampler's mean to it.

Times are in seconds unless a name says otherwise.
"""

import numpy as np

from perfstudies.models.mdf.mechanism import Windows
from perfstudies.models.mdf.params import RMF_RULES

#: A moment after a dispatch (s) at which the completion held until then has been cleared and the next
#: request started (the same as the sampler's ``AFTER_CLEARING``).
AFTER_CLEARING = 1e-7


def queue_path(arrivals: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The number of requests waiting (arrived, not yet started), as a step function.

    Returns ``(times, queue)``: ``queue[i]`` holds on ``[times[i], times[i+1])``.
    ``starts`` has ``inf`` for a request that never started.
    """
    arrivals, starts = np.asarray(arrivals, float), np.asarray(starts, float)
    if arrivals.shape != starts.shape or np.any(starts < arrivals):
        raise ValueError("arrivals and starts are not allowed: allowed one start per arrival, never earlier")
    times = np.concatenate([arrivals, starts[np.isfinite(starts)]])
    steps = np.concatenate([np.ones(len(arrivals)), -np.ones(int(np.isfinite(starts).sum()))])
    order = np.argsort(times, kind="stable")
    return times[order], np.cumsum(steps[order])


def in_slice_time(windows: Windows, t: np.ndarray) -> np.ndarray:
    """Time the domain has been dispatched (doing useful work) from 0 to each ``t``."""
    t = np.asarray(t, float)
    if not windows.sliced:
        return t
    index = np.floor((t - windows.offset) / windows.cycle)
    phase = t - windows.offset - index * windows.cycle
    usable = windows.slice - windows.switch
    return index * usable + np.clip(phase - windows.switch, 0.0, usable)


def _integrals(times, queue, windows: Windows, start: float, end: float) -> tuple[float, float]:
    """(integral of the queue over [start, end), the same over the domain's slices only)."""
    left = np.clip(times, start, end)
    right = np.clip(np.append(times[1:], end), start, end)
    whole = float(np.sum(queue * (right - left)))
    inside = float(np.sum(queue * (in_slice_time(windows, right) - in_slice_time(windows, left))))
    return whole, inside


def expected_iosq_ms(arrivals, starts, windows: Windows, rule: str, start: float, end: float,
                     rate: float) -> float:
    """The IOSQ (ms) RMF reports under ``rule`` on average over its pops' phase, for one run's queue.

    ``before clearing`` samples the queue at every moment alike (the queue a
    pop outside the slice finds is the one the domain left, frozen until the
    next dispatch), so it is the time-average queue over ``rate``: the true
    IOSQ by Little's law.  ``missed`` averages the queue over the slices only.
    ``after clearing`` gives each absence of the domain (the length of the gap
    between slices) the queue just after the next dispatch, once IOS has
    cleared the held completion and started the next request.
    """
    if rule not in RMF_RULES:
        raise ValueError(f"rule = {rule!r} is not allowed: allowed one of {list(RMF_RULES)}")
    if not (0 <= start < end and rate > 0):
        raise ValueError(f"start, end, rate = {(start, end, rate)!r} are out of range: "
                         "allowed 0 <= start < end and rate > 0")
    times, queue = queue_path(arrivals, starts)
    whole, inside = _integrals(times, queue, windows, start, end)
    if rule == "before clearing" or not windows.sliced:
        mean_queue = whole / (end - start)
    elif rule == "missed":
        mean_queue = inside / float(in_slice_time(windows, end) - in_slice_time(windows, start))
    else:
        first = np.ceil((start - windows.offset - windows.switch) / windows.cycle)
        dispatches = windows.offset + windows.switch + windows.cycle * np.arange(
            first, np.floor((end - windows.offset - windows.switch) / windows.cycle) + 1)
        after = queue[np.searchsorted(times, dispatches + AFTER_CLEARING, side="right") - 1] \
            if len(times) else np.zeros(len(dispatches))
        gap = windows.cycle - (windows.slice - windows.switch)
        mean_queue = (inside + gap * float(np.sum(np.clip(after, 0, None)))) / (
            float(in_slice_time(windows, end) - in_slice_time(windows, start)) + gap * len(dispatches))
    return 1000.0 * mean_queue / rate


def sampled_iosq_ms(samples: list, start: float, rate: float) -> float:
    """The IOSQ (ms) the run's sampler reported: its mean sampled queue after ``start`` over ``rate``.

    NaN when the sampler took no sample (a short run whose pops all fell
    outside the slice under rule ``missed``).
    """
    kept = [queue for pop, _, queue in samples if pop >= start]
    if not kept or not rate > 0:
        return float("nan")
    return 1000.0 * float(np.mean(kept)) / rate
