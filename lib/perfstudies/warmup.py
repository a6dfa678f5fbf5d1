"""How much of a run to throw away: the MSER-5 truncation rule, and a one-call pilot check.

A simulation that starts empty (or with every job in one place) first passes
through a transient before it settles into the steady state a study wants to
measure.  Deleting too little biases the mean; deleting too much wastes run
time and widens the interval.  MSER (White 1997) picks the truncation point
``d`` that minimises the *marginal standard error* of what is kept,

.. math::

    \\mathrm{MSER}(d) = \\frac{1}{(m - d)^2} \\sum_{j=d+1}^{m} (Z_j - \\bar Z_{m,d})^2,

the squared width of a confidence interval on the kept mean: deleting an early
observation far from the steady mean shrinks the sum more than the
denominator.  MSER-5 (White, Cobb and Spratt 2000) applies it to the means
``Z_j`` of consecutive batches of five observations, which smooths the series
and makes the rule robust.  The search runs over the first half of the batches
only: a minimum in the second half means that the run is too short to show a
steady state, and the result says so (``reliable=False``).

How a study uses it: run one pilot replication *without* warm-up deletion,
take the series of a metric in time order, and check that the warm-up the
study deletes is at least the MSER-5 truncation time.  :func:`pilot_warmup`
does all of that for a Ciw network in one call::

    from perfstudies.warmup import pilot_warmup

    found = pilot_warmup(my_network(params), seed=1, max_time=params.max_time,
                         node=2, metric="response_time", node_class=DelayNode)
    assert found.reliable
    assert params.warmup >= found.time

For a series that does not come from Ciw records (a time-weighted queue
length, say), call :func:`mser5` with the values and their times.

References
----------
White, K. P., Jr. (1997). An effective truncation heuristic for bias reduction
in simulation output. *Simulation*, 69(6), 323-334.

White, K. P., Jr., Cobb, M. J. and Spratt, S. C. (2000). A comparison of five
steady-state truncation heuristics for simulation. *Proceedings of the 2000
Winter Simulation Conference*, 755-760.

Examples
--------
>>> import numpy as np
>>> series = np.r_[np.full(100, 10.0), np.zeros(900)]   # a transient of 100 observations
>>> mser5(series)
Truncation(index=100, time=100.0, batches=200, reliable=True)
"""

import dataclasses
import numbers
from collections.abc import Sequence

import numpy as np
import pandas as pd

from perfstudies.fifo import FIFONode
from perfstudies.runner import run_ciw

#: Observations per batch of MSER-5.
BATCH = 5
#: Fewest batches MSER-5 will work on (fewer say nothing about a transient).
MIN_BATCHES = 10
#: Largest magnitude of a value MSER works on (its batch means are squared, and 1e308 is a float's end).
MAX_VALUE = 1e150
#: Metrics :func:`records_series` can read from Ciw records.
METRICS = ("response_time", "waiting_time", "service_time")


@dataclasses.dataclass(frozen=True)
class Truncation:
    """Where MSER-5 cuts a series.

    Attributes
    ----------
    index : int
        Observations to delete from the start (a multiple of the batch size).
    time : float
        The time of the first kept observation when times were given (so
        deleting everything earlier than ``time`` deletes exactly the first
        ``index`` observations of a time-ordered series), ``0.0`` when nothing is
        deleted, and otherwise the kept observation's position.
    batches : int
        Number of batch means the rule looked at (incomplete last batch dropped).
    reliable : bool
        False when the minimum fell at the end of the searched first half: the
        series may still be drifting, and a longer pilot is needed.
    statistic : numpy.ndarray
        ``MSER(d)`` for every candidate ``d`` (in batches), for plotting.
    """

    index: int
    time: float
    batches: int
    reliable: bool
    statistic: np.ndarray = dataclasses.field(repr=False, compare=False)


def _float_array(name: str, values) -> np.ndarray:
    """``values`` as a float array, or the TypeError/ValueError naming ``name``."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} = {values!r} has the wrong type: allowed a sequence of numbers")
    try:
        return np.asarray(values, dtype=float)
    except OverflowError:
        raise ValueError(f"{name} holds a number beyond any float: allowed finite numbers "
                         f"with |value| <= {MAX_VALUE:g}") from None
    except (TypeError, ValueError):
        shown = repr(values)
        raise TypeError(f"{name} = {shown[:80]}{'...' if len(shown) > 80 else ''} has the wrong type: "
                        "allowed a sequence of numbers") from None


def mser(values: Sequence[float], times: Sequence[float] | None = None, batch: int = BATCH) -> Truncation:
    """The MSER truncation point of a series, on batch means of ``batch`` observations.

    Parameters
    ----------
    values : sequence of float
        The output series in time order (e.g. each customer's response time,
        ordered by arrival).  At least ``MIN_BATCHES * batch`` finite values.
    times : sequence of float, optional
        The time of each value, non-decreasing; sets :attr:`Truncation.time`.
    batch : int
        Observations per batch (1 <= batch <= 1000); 5 is MSER-5.

    Returns
    -------
    Truncation
    """
    if isinstance(batch, bool) or not isinstance(batch, numbers.Integral):
        raise TypeError(f"batch = {batch!r} has the wrong type: allowed an integer 1 <= batch <= 1000")
    if not 1 <= batch <= 1000:
        raise ValueError(f"batch = {batch!r} is out of range: allowed 1 <= batch <= 1000")
    series = _float_array("values", values)
    if series.ndim != 1:
        raise ValueError(f"values has shape {series.shape}: allowed a one-dimensional series")
    if not np.all(np.isfinite(series)):
        bad = int(np.flatnonzero(~np.isfinite(series))[0])
        raise ValueError(f"values[{bad}] = {float(series[bad])!r} is not finite: allowed finite numbers only")
    if series.size and np.max(np.abs(series)) > MAX_VALUE:
        bad = int(np.argmax(np.abs(series)))
        raise ValueError(f"values[{bad}] = {float(series[bad])!r} is out of range: allowed finite numbers "
                         f"with |value| <= {MAX_VALUE:g} (their batch means are squared)")
    batches = len(series) // batch
    if batches < MIN_BATCHES:
        raise ValueError(f"values has {len(series)} observations: allowed at least {MIN_BATCHES * batch} "
                         f"({MIN_BATCHES} batches of {batch})")
    stamps = None
    if times is not None:
        stamps = _float_array("times", times)
        if stamps.shape != series.shape:
            raise ValueError(f"times has {stamps.size} entries: allowed one per value ({series.size})")
        if not np.all(np.isfinite(stamps)) or np.any(np.diff(stamps) < 0):
            raise ValueError("times is not a finite non-decreasing sequence: allowed the values' times in order")
    means = series[: batches * batch].reshape(batches, batch).mean(axis=1)
    # MSER(d) over the kept batches d..m-1, from suffix sums (one pass)
    suffix_sum = np.cumsum(means[::-1])[::-1]
    suffix_square = np.cumsum((means**2)[::-1])[::-1]
    kept = np.arange(batches, 0, -1, dtype=float)        # m - d for d = 0..m-1
    squares = np.maximum(suffix_square - suffix_sum**2 / kept, 0.0)
    statistic = squares / kept**2
    half = batches // 2
    best = int(np.argmin(statistic[: half + 1]))
    index = best * batch
    if index == 0:
        time = 0.0
    else:
        time = float(stamps[index]) if stamps is not None else float(index)
    return Truncation(index=index, time=time, batches=batches, reliable=best < half, statistic=statistic)


def mser5(values: Sequence[float], times: Sequence[float] | None = None) -> Truncation:
    """MSER-5: :func:`mser` on batch means of five observations (White, Cobb and Spratt 2000).

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> mser5(rng.normal(size=2_000)).index < 200   # no transient: little or nothing deleted
    True
    """
    return mser(values, times, batch=BATCH)


def records_series(records: pd.DataFrame, metric: str = "response_time", node: int | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
    """A per-customer series from Ciw records: ``(arrival dates, values)`` in arrival order.

    Parameters
    ----------
    records : pandas.DataFrame
        Records as :func:`perfstudies.runner.run_ciw` returns them (run with
        ``warmup=0`` for a pilot).
    metric : str
        ``"response_time"`` (waiting plus service at the node),
        ``"waiting_time"`` or ``"service_time"``.
    node : int, optional
        Keep only the records of this Ciw node (1-based); all nodes otherwise.
    """
    if metric not in METRICS:
        raise ValueError(f"metric = {metric!r} is not allowed: allowed one of {list(METRICS)}")
    chosen = records
    if node is not None:
        if isinstance(node, bool) or not isinstance(node, numbers.Integral) or node < 1:
            raise ValueError(f"node = {node!r} is out of range: allowed an integer node number >= 1, or None")
        chosen = records[records["node"] == node]
        if chosen.empty:
            raise ValueError(f"node = {node!r} has no records: allowed one of {sorted(records['node'].unique())}")
    chosen = chosen.sort_values("arrival_date", kind="stable")
    if metric == "response_time":
        values = chosen["waiting_time"] + chosen["service_time"]
    else:
        values = chosen[metric]
    return chosen["arrival_date"].to_numpy(dtype=float), values.to_numpy(dtype=float)


def pilot_warmup(network, seed: int, max_time: float, metric: str = "response_time", node: int | None = None,
                 node_class=FIFONode, **simulation_kwargs) -> Truncation:
    """Run one pilot replication with no warm-up deletion and return MSER-5's truncation.

    Parameters
    ----------
    network : ciw.Network
        The study's network, built exactly as its model builds it.
    seed, max_time, node_class, **simulation_kwargs
        As in :func:`perfstudies.runner.run_ciw` (pass the node classes the
        model uses, e.g. :class:`perfstudies.delay.DelayNode`).
    metric, node
        Which per-customer series to examine, as in :func:`records_series`;
        pick the node whose queue builds up (the bottleneck) and the metric the
        study reports.

    Returns
    -------
    Truncation
        ``time`` is the warm-up (in simulated time) that deletes the transient
        MSER-5 found: a study's warm-up should be at least that.
    """
    _, records = run_ciw(network, seed, max_time, 0.0, node_class=node_class, **simulation_kwargs)
    times, values = records_series(records, metric, node)
    return mser5(values, times)
