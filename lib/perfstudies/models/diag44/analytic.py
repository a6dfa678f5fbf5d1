"""Theory first: the fast path's share from queueing, CP's scheduler lock, and MVA of the closed network.

**The fast path.**  A yield takes the fast path only when *every* other VP of
the yielding guest is out of the real-processor queue.  If each of the
``V - 1`` siblings is queued with probability ``pi``, independently, the chance
that none is queued is the binomial zero term ``(1 - pi) ** (V - 1)``
(:func:`no_sibling_queued`): it falls geometrically with the number of virtual
processors.  How large ``pi`` is follows from how busy the real processors
are: treating them as an M/M/c queue, a ready VP spends the share
``C / (C + c (1 - u))`` of its time queued (:func:`queued_share`), with ``C``
the Erlang C probability of waiting at utilization ``u`` on ``c`` processors.
A fast-path yield stands for more DIAG 44s than a normal-path one, so the
percentage of DIAG 44s on the fast path weights the two (:func:`percent_fast`);
:func:`fast_path_percent` chains the three steps, from a utilization and a VP
count to a percentage, before any simulation.

**CP's scheduler lock** is a single server acquired far more often than the
model can simulate: its mean spin is the M/M/1 wait (:func:`mm1_wait`), and
its hold time and other users follow from the two spin rows of one run
(:func:`lock_from_spin_rows`).

**The closed network.**  Forty connections circulate between the real
processors (``c`` servers) and the time away from them: a closed network
whose product-form answer exact MVA gives (:func:`mva_solution`, with
:mod:`perfstudies.mva`).  The model is not product form (a connection holds its
guest's VP while it waits for a processor; spinning makes the work of a
transaction depend on how many of its siblings run; the fast path looks at
the queue), and the chapter measures by how much that moves the answer.
"""

from perfstudies import mva
from perfstudies.params import check_real
from perfstudies.reference import erlang_c


def _check_fraction(name: str, value: float, high_open: bool = False) -> None:
    ok = 0 <= value < 1 if high_open else 0 <= value <= 1
    if not ok:
        bound = "<" if high_open else "<="
        raise ValueError(f"{name} = {value!r} is out of range: allowed 0 <= {name} {bound} 1")


def queued_share(processors: int, utilization: float) -> float:
    """Share of a ready VP's time spent waiting for a real processor (M/M/c).

    Parameters
    ----------
    processors : int
        Real processors ``c`` (>= 1).
    utilization : float
        Busy share of each processor, ``0 <= u < 1``.
    """
    if isinstance(processors, bool) or not isinstance(processors, int) or processors < 1:
        raise ValueError(f"processors = {processors!r} is out of range: allowed an integer processors >= 1")
    _check_fraction("utilization", utilization, high_open=True)
    waiting = erlang_c(processors, processors * utilization)
    return waiting / (waiting + processors * (1 - utilization))


def no_sibling_queued(vps: int, sibling_queued: float) -> float:
    """Chance that none of the ``vps - 1`` siblings is queued: ``(1 - pi) ** (vps - 1)``."""
    if isinstance(vps, bool) or not isinstance(vps, int) or vps < 1:
        raise ValueError(f"vps = {vps!r} is out of range: allowed an integer vps >= 1")
    _check_fraction("sibling_queued", sibling_queued)
    return (1 - sibling_queued) ** (vps - 1)


def percent_fast(fast_yield_share: float, diags_per_fast_yield: float, diags_per_normal_yield: float) -> float:
    """Percent of DIAG 44s that take the fast path, from the share of yields that do.

    A VP whose yield takes the fast path keeps spinning on its processor and
    issues DIAG 44 again and again, so fast yields weigh more DIAG 44s than
    normal ones: each share is weighted by its DIAG 44s per yield.
    """
    _check_fraction("fast_yield_share", fast_yield_share)
    for name, value in (("diags_per_fast_yield", diags_per_fast_yield),
                        ("diags_per_normal_yield", diags_per_normal_yield)):
        if not value > 0:
            raise ValueError(f"{name} = {value!r} is out of range: allowed {name} > 0")
    fast = fast_yield_share * diags_per_fast_yield
    return 100 * fast / (fast + (1 - fast_yield_share) * diags_per_normal_yield)



def mm1_wait(utilisation: float, hold_us: float) -> float:
    """Mean spin of one acquisition of a FIFO lock with exponential holds of mean ``hold_us`` (M/M/1).

    ``W = rho h / (1 - rho)``: every acquisition finds the lock held with
    chance ``rho`` (Poisson arrivals see time averages) and then waits on
    average ``h / (1 - rho)``.

    Parameters
    ----------
    utilisation : float
        Share of time the lock is held, ``0 <= rho < 1``.
    hold_us : float
        Mean hold time per acquisition (>= 0).
    """
    _check_fraction("utilisation", utilisation, high_open=True)
    hold_us = check_real("hold_us", hold_us, low=0.0)
    return utilisation * hold_us / (1 - utilisation)


def lock_from_spin_rows(spins_per_s: float, spin_share: float, normal_per_s: float,
                        tx_per_s: float) -> dict[str, float]:
    """Hold time and other acquisitions per transaction of an M/M/1 lock from its spin rate and spin time.

    With ``A`` acquisitions a second, each holding the lock ``h`` on average,
    the lock is held ``rho = A h`` of the time; ``A rho`` acquisitions a second
    find it held (the spin rate) and together they spin ``A rho h / (1 - rho)``
    processor-seconds a second (``spin_share``).  The two equations give
    ``h / (1 - rho) = spin_share / spin rate`` and ``h = rho^2 / spin rate``,
    so ``rho^2 / (1 - rho) = spin_share``, a quadratic in ``rho``.  The acquisitions that are not normal-path DIAG 44s,
    per transaction, are ``(A - normal_per_s) / tx_per_s``.

    Parameters
    ----------
    spins_per_s : float
        Acquisitions a second that found the lock held (> 0).
    spin_share : float
        Processor-seconds spinning per second (> 0).
    normal_per_s, tx_per_s : float
        Normal-path DIAG 44s (>= 0) and transactions (> 0) a second.

    Returns
    -------
    dict
        ``hold_us``, ``other_per_tx``, ``utilisation`` and ``acquisitions_per_s``.
    """
    spins_per_s, spin_share, tx_per_s = (check_real(name, value, low=0.0, low_open=True) for name, value in
                                         (("spins_per_s", spins_per_s), ("spin_share", spin_share),
                                          ("tx_per_s", tx_per_s)))
    normal_per_s = check_real("normal_per_s", normal_per_s, low=0.0)
    k = spin_share
    rho = (-k + (k * k + 4 * k) ** 0.5) / 2          # rho^2 + k rho - k = 0
    acquisitions = spins_per_s / rho
    hold_s = rho / acquisitions
    other = (acquisitions - normal_per_s) / tx_per_s
    if other < 0:
        raise ValueError(f"normal_per_s = {normal_per_s!r} is more than the lock's acquisitions "
                         f"({acquisitions:.6g} a second): allowed normal_per_s <= acquisitions")
    return {"hold_us": hold_s * 1e6, "other_per_tx": other, "utilisation": rho, "acquisitions_per_s": acquisitions}


def fast_path_percent(processors: int, utilization: float, vps: int, diags_per_fast_yield: float,
                      diags_per_normal_yield: float) -> float:
    """Percent of DIAG 44s on the fast path at a utilization and a VP count: the three steps chained.

    ``pi = queued_share(processors, utilization)``, then the chance that none
    of the ``vps - 1`` siblings is queued, then the DIAG 44 weighting.

    Examples
    --------
    >>> round(fast_path_percent(9, 0.5, 3, 600.0, 50.0), 2)
    99.96
    """
    share = no_sibling_queued(vps, queued_share(processors, utilization))
    return percent_fast(share, diags_per_fast_yield, diags_per_normal_yield)


def mva_solution(busy_per_tx_us: float, off_processor_us: float, processors: int, connections: int
                 ) -> mva.Solution:
    """Exact MVA of the closed network: ``connections`` jobs, ``processors`` servers, a delay away from them.

    Parameters
    ----------
    busy_per_tx_us : float
        Processor time of one transaction (the demand at the real processors), > 0.
    off_processor_us : float
        Mean time a connection spends away from the processors (the think time), >= 0.
    processors, connections : int
        Servers of the processor station and jobs in the network.

    Returns
    -------
    perfstudies.mva.Solution
        ``solution.throughput * 1e6`` is the transaction rate a second and
        ``solution.utilisation["real processors"]`` the busy share of each processor.
    """
    busy_per_tx_us = check_real("busy_per_tx_us", busy_per_tx_us, low=0.0, low_open=True)
    return mva.exact({"real processors": busy_per_tx_us}, population=connections, think_time=off_processor_us,
                     servers={"real processors": processors})
