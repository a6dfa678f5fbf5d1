"""Theory first: closed forms for held interrupts, device queues and the 4705's capacity.

Every function here is queueing arithmetic on the dispatch schedule
(:class:`~perfstudies.models.mdf.mechanism.Windows`); the chapter uses them
before any simulation, the calibration inverts them, and the tests hold the
simulation to them where they are exact.  :func:`held_busy_time` gives a held
device's capacity, and :func:`check_device_load` the refusal of a load at or
above it that the model and the live panel make before they run.  Times are
in seconds, rates per second.
"""

import functools
import math

import numpy as np
from scipy import special

from perfstudies import mva
from perfstudies.models.mdf.mechanism import Windows, windows_of
from perfstudies.models.mdf.params import ImsParams, TsoParams
from perfstudies.params import check_record


def hold_moments(windows: Windows) -> tuple[float, float]:
    """First and second moment of the hold of an interrupt arriving at a random moment.

    In each cycle of length ``C`` the domain is away (other domains' slices,
    idle time and its own switch-in) for one stretch of length ``g``.  An
    interrupt landing in that stretch, at a uniform point, waits for the rest
    of it; landing inside the slice, it is cleared at once.  So
    ``E[H] = g^2 / (2 C)`` and ``E[H^2] = g^3 / (3 C)``; for two equal slices
    ``L`` and no switch cost, ``E[H] = L / 4``.
    """
    if not windows.sliced:
        return 0.0, 0.0
    gap = windows.cycle - windows.slice + windows.switch
    return gap**2 / (2 * windows.cycle), gap**3 / (3 * windows.cycle)


def mean_hold(windows: Windows) -> float:
    """Expected hold of an interrupt arriving at a random moment (s); see :func:`hold_moments`."""
    return hold_moments(windows)[0]


def pollaczek_khinchine_wait(rate: float, mean: float, second_moment: float) -> float:
    """Mean wait in queue of M/G/1: ``rate E[S^2] / (2 (1 - rate E[S]))``."""
    load = rate * mean
    if not 0 <= load < 1:
        raise ValueError(f"rate * mean = {load!r} is out of range: allowed 0 <= rate * mean < 1")
    return rate * second_moment / (2 * (1 - load))


def held_device_iosq(rate: float, service: float, scv: float, windows: Windows) -> float:
    """Mean IOSQ of a device whose completions are held (M/G/1 estimate).

    The device's busy time per request is the transfer ``S`` (mean
    ``service``, squared coefficient of variation ``scv``) plus an independent
    hold ``H`` (:func:`hold_moments`), so ``E[B] = E[S] + E[H]`` and
    ``E[B^2] = E[S^2] + 2 E[S] E[H] + E[H^2]``.  It ignores that requests are
    issued only inside the domain's slices, which the simulation keeps.
    """
    hold, hold_square = hold_moments(windows)
    second = service**2 * (1 + scv) + 2 * service * hold + hold_square
    return pollaczek_khinchine_wait(rate, service + hold, second)


def scv_from_wait(rate: float, service: float, wait: float) -> float:
    """Invert Pollaczek-Khinchine: the service SCV that gives mean wait ``wait``."""
    load = rate * service
    if not 0 < load < 1:
        raise ValueError(f"rate * service = {load!r} is out of range: allowed 0 < rate * service < 1")
    return 2 * wait * (1 - load) / (rate * service**2) - 1


def rate_from_wait(service: float, scv: float, wait: float) -> float:
    """Invert Pollaczek-Khinchine: the Poisson rate that gives mean wait ``wait``.

    From ``W (1 - rate S) = rate S^2 (1 + scv) / 2`` the rate is
    ``W / (S^2 (1 + scv) / 2 + W S)``.
    """
    if not (service > 0 and wait >= 0 and scv >= 0):
        raise ValueError(f"service, scv, wait = {(service, scv, wait)!r} are out of range: "
                         f"allowed service > 0, scv >= 0, wait >= 0")
    return wait / (service**2 * (1 + scv) / 2 + wait * service)


def frontend_capacity(windows: Windows, per_message: float) -> float:
    """Messages per second a busy 4705 moves when its exchanges are held.

    The front end works back to back while the IMS domain runs, finishing
    ``(slice - switch) / per_message`` messages on average (exponential
    message times); the message in flight when the slice ends completes while
    IMS is away, and its interrupt holds the channel until IMS returns.  So a
    cycle moves one message more than the slice's share:
    ``((slice - switch) / per_message + 1) / cycle``.  Shorter slices mean more
    cycles and so more of these extra messages per second.
    """
    if not windows.sliced:
        return 1.0 / per_message
    return ((windows.slice - windows.switch) / per_message + 1.0) / windows.cycle


def frontend_time_for_capacity(windows: Windows, messages_per_s: float) -> float:
    """Invert :func:`frontend_capacity`: the per-message time that gives ``messages_per_s``."""
    extra = 1.0 if windows.sliced else 0.0
    cycles = messages_per_s * windows.cycle - extra
    if not cycles > 0:
        raise ValueError(f"messages_per_s = {messages_per_s!r} is out of range: allowed "
                         f"messages_per_s > {extra / windows.cycle:g} (one held message per cycle)")
    return (windows.slice - windows.switch) / cycles


def closed_response(population: int, throughput: float, think: float) -> float:
    """Little's law for a closed loop: response ``= N / X - Z``."""
    if not throughput > 0:
        raise ValueError(f"throughput = {throughput!r} is out of range: allowed throughput > 0")
    return population / throughput - think


def closed_loop_bounds(population: int, think: float, unloaded_response: float,
                       capacity: float) -> tuple[float, float]:
    """Asymptotic bounds of a closed loop: (throughput, response).

    Throughput is at most ``N / (Z + R0)`` (nobody ever queues) and at most the
    bottleneck's ``capacity``; when the bottleneck binds, Little's law gives the
    response ``N / X - Z``.  These are the optimistic bounds of operational
    analysis, the "theory first" for the IMS domain.
    """
    throughput = min(population / (think + unloaded_response), capacity)
    return throughput, max(unloaded_response, closed_response(population, throughput, think))


def ims_bounds(p: ImsParams) -> dict:
    """Theory first for the IMS domain: capacities of the 4705 and the processors, and the bounds.

    Each transaction sends two messages through the 4705, so its capacity in
    transactions is half of :func:`frontend_capacity`; the processors give
    ``processors x fraction / cpu`` transactions per second.  The unloaded
    response is two exchanges and two holds, the CPU work after a wait for
    dispatch, and the database I/O.
    """
    check_record("p", p, ImsParams)
    windows = windows_of(p, "IMS")
    frontend, cpu = p.frontend_ms / 1000.0, p.cpu_ms / 1000.0
    capacities = {"4705": frontend_capacity(windows, frontend) / 2.0,
                  "processors": p.processors * windows.fraction / cpu}
    hold = mean_hold(windows)
    unloaded = 2 * (frontend + hold) + cpu + hold + p.io_per_transaction * p.io_response_ms / 1000.0
    throughput, response = closed_loop_bounds(p.terminals, p.think_s, unloaded, min(capacities.values()))
    return {"frontend_capacity_tx_per_s": capacities["4705"], "cpu_capacity_tx_per_s": capacities["processors"],
            "bottleneck": min(capacities, key=capacities.get), "unloaded_response_s": unloaded,
            "etr_bound_per_s": throughput, "response_bound_s": response}


# --- exact MVA of the two domains' closed networks (product-form references) ---------------------

def ims_demands(p: ImsParams) -> dict[str, float]:
    """Service demand (s per transaction) of each station of the IMS domain, for exact MVA.

    Product form needs load-independent, exponential stations, so each
    mechanism enters only through its long-run capacity: the 4705 carries two
    messages per transaction at its held-exchange capacity
    (:func:`frontend_capacity`), each IMS processor gives the domain
    ``fraction`` of a second of work per second (two servers), and the
    database I/O is a delay of ``io_per_transaction`` responses at the BASE
    response time, holds left out.  The sixty message-processing regions are
    left out too: a transaction holds its region while it queues for the
    processors and does its I/O, a simultaneous possession of two resources
    that product form cannot express, so MVA's wait at the processors is the
    simulation's input-queue wait and processor wait together (where the
    regions fill, at parameter 5, the simulation splits it between IMS IN Q
    and IMS EXEC).
    """
    windows = windows_of(p, "IMS")
    return {"4705": 2.0 / frontend_capacity(windows, p.frontend_ms / 1000.0),
            "IMS processors": p.cpu_ms / 1000.0 / windows.fraction,
            "database I/O": p.io_per_transaction * p.io_response_ms / 1000.0}


def ims_mva(p: ImsParams) -> mva.Solution:
    """Exact MVA of the IMS domain: ``terminals`` thinking ``think_s``, demands of :func:`ims_demands`."""
    return mva.exact(ims_demands(p), population=p.terminals, think_time=p.think_s, delay=["database I/O"],
                     servers={"IMS processors": p.processors})


def tso_mva(p: TsoParams) -> mva.Solution:
    """Exact MVA of the TSO domain: ``users`` thinking ``think_s`` and the sliced processors (two servers)."""
    return mva.exact({"TSO processors": p.cpu_ms / 1000.0 / windows_of(p, "TSO").fraction}, population=p.users,
                     think_time=p.think_s, servers={"TSO processors": p.processors})


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
    (:func:`mean_hold`) is not enough for that: requests start where
    holds end, so completions are not uniform over the cycle, and for nearly
    constant transfers the two differ by tens of percent.
    """
    if not windows.sliced:
        return mean
    cycle, start, end = windows.cycle, windows.switch, windows.slice
    size = max(1000, math.ceil(cycle / PHASE_STEP))
    step = cycle / size
    # the gamma transfer time's quantile and distribution function (scipy.stats.gamma's, without
    # importing scipy.stats: see perfstudies.student_t)
    shape, scale = 1.0 / scv, mean * scv
    top = math.ceil(special.gammaincinv(shape, 1.0 - TAIL) * scale / step) + 1
    mass = np.diff(special.gammainc(shape, (np.arange(top + 1) + 0.5) * step / scale), prepend=0.0)  # ~ m steps
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


def check_device_load(owner: str, field: str, rate: float, transfer_s: float, scv: float,
                      windows: Windows, scheduling_parameter: int) -> None:
    """Raise the standard ValueError unless a device at ``rate`` is stable, holds included.

    ``owner.field`` names the rate in the message (the argument a model or a
    panel was given, e.g. ``params.rate``); the refusal says the load, the busy
    time per I/O and the largest rate allowed (one over :func:`held_busy_time`).
    """
    if rate * transfer_s >= 1.0:
        raise ValueError(f"{owner}.{field} = {rate!r} is out of range: the device saturates even without "
                         f"slicing; allowed {field} < 1 / transfer = {1.0 / transfer_s:.1f} I/O per s")
    busy = held_busy_time(windows, transfer_s, scv)
    if rate * busy >= 1.0:
        raise ValueError(
            f"{owner}.{field} = {rate!r} is out of range: with completions held until the domain runs again "
            f"(scheduling parameter {scheduling_parameter}) each I/O keeps the device busy {1000 * busy:.1f} ms "
            f"when requests queue ({1000 * transfer_s:.1f} ms transfer + {1000 * (busy - transfer_s):.1f} ms held), "
            f"so its utilisation including the hold is {rate * busy:.2f} >= 1 and IOSQ would grow without bound; "
            f"allowed {field} < {1.0 / busy:.1f} I/O per s")
