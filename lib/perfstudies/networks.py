"""Building blocks the studies' Ciw networks share, written once.

``closed_population``  a fixed population put in place at the start of a run
                       (Ciw has open networks only; customers that loop for
                       ever instead of leaving make a closed one);
``gamma_by_mean``      a Gamma service time given by its mean and shape;
``with_state``         the one idiom for giving a node (or distribution)
                       class the state of one run.

The infinite-server delay node lives in :mod:`perfstudies.delay` and the FIFO
node in :mod:`perfstudies.fifo`, one node class per module as Ciw lays out its
own.
"""

import dataclasses
import math
import numbers

import ciw

#: When a batch population arrives (s): just after 0, because Ciw samples the
#: first inter-arrival time from time 0.
BATCH_AT = 1e-9


@dataclasses.dataclass(frozen=True)
class Population:
    """Arrival and batch distributions of one node that bring a fixed population, then nobody.

    Pass ``arrivals`` in the node's place of ``arrival_distributions`` and
    ``batches`` in its place of ``batching_distributions``.
    """

    arrivals: ciw.dists.Distribution
    batches: ciw.dists.Distribution


def closed_population(count: int, gap: float | None = None) -> Population:
    """``count`` customers at the start of a run, then no more arrivals.

    Parameters
    ----------
    count : int
        Population size (>= 1).
    gap : float, optional
        Without it, the whole population arrives as one batch at
        :data:`BATCH_AT`.  With it, customers arrive one at a time ``gap`` apart
        (their arrival order then fixes their order in the first queue).

    Examples
    --------
    >>> population = closed_population(3, gap=0.5)
    >>> [population.arrivals.sample() for _ in range(4)]
    [0.5, 0.5, 0.5, inf]
    """
    if isinstance(count, bool) or not isinstance(count, numbers.Integral) or not 1 <= count <= 10_000_000:
        raise ValueError(f"count = {count!r} is out of range: allowed an integer 1 <= count <= 10000000")
    if gap is None:
        return Population(ciw.dists.Sequential([BATCH_AT, math.inf]), ciw.dists.Deterministic(int(count)))
    if isinstance(gap, bool) or not isinstance(gap, numbers.Real) or not 0 < gap < math.inf:
        raise ValueError(f"gap = {gap!r} is out of range: allowed 0 < gap < inf, or None for one batch")
    return Population(ciw.dists.Sequential([float(gap)] * int(count) + [math.inf]), ciw.dists.Deterministic(1))


def gamma_by_mean(mean: float, shape: float) -> ciw.dists.Gamma:
    """A Gamma distribution with the given ``mean`` and ``shape`` (coefficient of variation ``1/sqrt(shape)``).

    Examples
    --------
    >>> gamma_by_mean(2.0, shape=4.0)
    Gamma(shape=4.0, scale=0.5)
    """
    for name, value in (("mean", mean), ("shape", shape)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 < value < math.inf:
            raise ValueError(f"{name} = {value!r} is out of range: allowed 0 < {name} < inf")
    scale = float(mean) / float(shape)
    if not 0 < scale < math.inf:
        raise ValueError(f"mean = {mean!r} is out of range: with shape = {shape!r} the scale mean / shape is "
                         f"{scale!r}; allowed 0 < mean / shape < inf")
    return ciw.dists.Gamma(shape=float(shape), scale=scale)


def with_state(node_class: type, name: str | None = None, **state) -> type:
    """A subclass of ``node_class`` whose class attributes hold one run's ``state``.

    Ciw builds node objects itself (``node_class(id, simulation)``), so a node
    cannot take per-run arguments; a network builder calls this once per run
    and passes the returned class in ``node_class``.  Each attribute named in
    ``state`` must already be declared (annotated) on ``node_class``, so a
    typo cannot create a new one silently.

    Examples
    --------
    >>> class Counting(ciw.Node):
    ...     log: list
    >>> Bound = with_state(Counting, log=[])
    >>> Bound.log, Bound.__name__
    ([], 'Counting')
    """
    if not isinstance(node_class, type):
        raise ValueError(f"node_class = {node_class!r} has the wrong type: allowed a class")
    if name is not None and (not isinstance(name, str) or not name.isidentifier()):
        raise ValueError(f"name = {name!r} is not allowed: allowed a class name (an identifier) or None")
    declared = {key for klass in node_class.__mro__ for key in getattr(klass, "__annotations__", {})}
    unknown = sorted(set(state) - declared)
    if unknown:
        raise ValueError(f"state names {unknown} that {node_class.__name__} does not declare: "
                         f"allowed {sorted(declared)}")
    return type(name or node_class.__name__, (node_class,), {"__module__": node_class.__module__, **state})
