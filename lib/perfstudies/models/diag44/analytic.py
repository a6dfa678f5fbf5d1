"""Theory first: the chance that a yield finds no sibling virtual processor queued.

The fast path needs *every* other VP of the yielding guest to be out of the
real-processor queue.  If each of the ``V - 1`` siblings is queued with
probability ``pi``, independently, the chance that none is queued is the
binomial zero term ``(1 - pi) ** (V - 1)``: it falls geometrically with the
number of virtual processors.  How large ``pi`` is follows from how busy the
real processors are; treating them as an M/M/c queue, a ready VP spends the
share ``C / (C + c (1 - u))`` of its time queued, with ``C`` the Erlang C
probability of waiting at utilization ``u`` on ``c`` processors.  Both steps
are approximations the simulation does not make (its VPs are a small closed
population whose states are correlated); the chapter compares them.
"""

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
