"""Mean value analysis (MVA) of closed product-form queueing networks, and their bounds.

A closed network has a fixed population of jobs that circulate for ever:
terminals that think and submit, or streams that each keep one request in
flight.  If every station is a first-come-first-served queue with exponential
service (the same mean for every class), a processor-sharing queue, or a delay
(infinite-server) station, the network has a *product-form* solution, and MVA
computes its exact mean values by a recursion over the population, using the
arrival theorem: a job arriving at a station sees the network in equilibrium
with itself removed (Reiser and Lavenberg 1980).  For ``n`` jobs,

.. math::

    R_k(n) = D_k\\,(1 + Q_k(n-1)) \\text{ (queue)},\\quad R_k(n) = D_k \\text{ (delay)},\\qquad
    X(n) = \\frac{n}{Z + \\sum_k R_k(n)},\\qquad Q_k(n) = X(n)\\,R_k(n),

where ``D_k`` is the service demand at station ``k`` (visits times service
time per visit, seconds per job), ``Z`` the think time, ``R_k`` the residence
time (all visits together), ``X`` the throughput and ``Q_k`` the mean number of
jobs at the station.  Everything here is in "per job" terms: give demands, not
service times per visit (:func:`demands_from` converts).

Functions
---------
``exact``                     exact single-class MVA, optionally with multi-server stations;
``exact_path``                the same for every population 1..N (one recursion);
``exact_multiclass``          exact multi-class MVA (cost grows with the product of the class populations);
``bard_schweitzer``           the Bard-Schweitzer approximation for large populations (single class);
``bard_schweitzer_multiclass``  the same for several classes;
``bounds``                    asymptotic bounds and balanced job bounds (single class);
``sweep``                     throughput, response time and bounds for a range of populations, as a table;
``demands_from``              demands from visit counts and service times per visit.

Limits (documented so that nothing accepted runs for more than a few seconds):
:data:`MAX_STATIONS` stations, :data:`MAX_POPULATION` jobs for exact
single-class MVA, :data:`MAX_APPROXIMATE_POPULATION` for Bard-Schweitzer and
:data:`MAX_STATES` population vectors for exact multi-class MVA.  Exact
multi-class MVA visits every vector ``(n_1, ..., n_C)`` with ``n_c <= N_c``,
``prod(N_c + 1)`` of them, so its cost is exponential in the number of classes:
two classes of 300 jobs each fit, four classes of 16 each, eight classes of
3 each.  Use :func:`bard_schweitzer_multiclass` beyond that.

Using it in a study
-------------------
A closed study's ``analytic.py`` turns its parameter record into demands per
job (seconds at each resource, all visits together) and calls :func:`exact`
with the population and think time its Ciw model uses; :func:`sweep` gives the
curve over populations with the bounds beside it::

    from perfstudies import mva

    solution = mva.exact({"channels": 0.5, "processors": 0.8, "cache": 0.3},
                         population=16, servers={"channels": 4, "processors": 2})
    solution.throughput, solution.bottleneck, solution.table()

The answer is exact only for product form: exponential service at
first-come-first-served stations (the same mean for every class there),
processor-sharing or delay stations, and routing that does not look at the
state of the network.  Gamma service times, finite buffers (blocking), held
completions, fast paths taken only when a queue is empty and similar
mechanisms break it; the MVA value is then the product-form reference, and the
gap between it and the simulation measures what the mechanism adds.

Examples
--------
A terminal system (Jain 1991, Example 34.2): think time 4 s, demands of 2 s at
the CPU, 3 s at disk A and 1 s at disk B.

>>> solution = exact({"cpu": 2.0, "disk A": 3.0, "disk B": 1.0}, population=2, think_time=4.0)
>>> round(solution.throughput, 3), round(solution.response_time, 3)
(0.175, 7.4)
>>> solution.bottleneck
'disk A'
>>> print(solution.table().round(3))  # doctest: +NORMALIZE_WHITESPACE
          kind  servers  demand  residence_time  queue_length  utilisation
station
cpu      queue        1     2.0             2.4         0.421        0.351
disk A   queue        1     3.0             3.9         0.684        0.526
disk B   queue        1     1.0             1.1         0.193        0.175
total      NaN     <NA>     6.0             7.4         1.298          NaN
>>> b = bounds({"cpu": 2.0, "disk A": 3.0, "disk B": 1.0}, population=2, think_time=4.0)
>>> [round(x, 3) for x in b.balanced_throughput]
[0.163, 0.179]
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import numbers
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

#: Most stations a network may have.
MAX_STATIONS = 50
#: Largest population of exact single-class MVA (the recursion takes one step per job:
#: about 0.1 s at this size with single-server stations, a little more per multi-server one).
MAX_POPULATION = 10_000
#: Largest population (per class) of the Bard-Schweitzer approximation, whose cost
#: does not grow with the population.
MAX_APPROXIMATE_POPULATION = 10_000_000
#: Most population vectors exact multi-class MVA may visit: ``prod(N_c + 1)``.
MAX_STATES = 100_000
#: Most classes of a multi-class network (one job per class already makes
#: ``2**MAX_CLASSES`` population vectors for exact MVA, about two seconds).
MAX_CLASSES = 16
#: Most servers a multi-server station may have in :func:`exact`.
MAX_SERVERS = 1_000
#: Most multi-server stations in one network for :func:`exact` (each doubles the work).
MAX_MULTI_SERVER_STATIONS = 3
#: Largest service demand or think time accepted (in whatever time unit the caller uses).
MAX_TIME = 1e12
#: Smallest non-zero service demand or think time accepted: smaller ones (denormals) overflow a
#: throughput ``N / (Z + sum R)`` to infinity.
MIN_TIME = 1e-12
#: Most populations one :func:`sweep` tabulates: exact MVA (one recursion, about a second at
#: this size), and Bard-Schweitzer (one fixed point each, about 1.5 ms with three stations).
MAX_SWEEP_POPULATIONS = 10_000
MAX_APPROXIMATE_SWEEP = 2_000
#: Convergence tolerance and iteration cap of the Bard-Schweitzer fixed point.
TOLERANCE = 1e-10
MAX_ITERATIONS = 100_000

QUEUE = "queue"
DELAY = "delay"


# --------------------------------------------------------------------------- results


@dataclasses.dataclass(frozen=True, eq=False)
class Solution:
    """Mean values of a single-class closed network (or of one class of a multi-class one).

    Attributes
    ----------
    method : str
        ``"exact"`` or ``"bard-schweitzer"``.
    population : int
        Jobs in the network (of this class).
    think_time : float
        Mean think time ``Z`` at the terminals (not part of the response time).
    throughput : float
        System throughput ``X``: jobs completed per unit time.
    response_time : float
        Mean time from submission to completion, ``sum_k R_k``; by the
        response-time law ``R = N / X - Z``.
    demand, residence_time, queue_length, utilisation : dict
        Per station: service demand ``D_k``, residence time ``R_k`` (all visits
        of one job), mean number of jobs present ``Q_k`` (waiting or in
        service) and utilisation ``U_k = X D_k / c_k`` of each server (NaN for a
        delay station, whose "servers" are never short).  In a multi-class
        solution these are this class's share.
    kind, servers : dict
        Per station: ``"queue"`` or ``"delay"``, and the number of servers.
    """

    method: str
    population: int
    think_time: float
    throughput: float
    response_time: float
    demand: dict
    residence_time: dict
    queue_length: dict
    utilisation: dict
    kind: dict
    servers: dict

    @property
    def cycle_time(self) -> float:
        """Response time plus think time: the time between two submissions of one job."""
        return self.response_time + self.think_time

    @property
    def bottleneck(self) -> str:
        """The queueing station with the largest demand per server (the first one on a tie)."""
        queues = {name: self.demand[name] / self.servers[name] for name in self.demand if self.kind[name] == QUEUE}
        if not queues:
            return ""
        return max(queues, key=queues.get)

    def table(self) -> pd.DataFrame:
        """One row per station and a ``total`` row: kind, servers, demand, residence time, queue length, utilisation.

        The total row's queue length is the mean number of jobs in the system
        (not thinking); its residence time is the response time.
        """
        frame = pd.DataFrame({
            "kind": pd.Series(self.kind),
            "servers": pd.Series({k: (pd.NA if math.isinf(v) else v) for k, v in self.servers.items()},
                                 dtype="Int64"),
            "demand": pd.Series(self.demand, dtype=float),
            "residence_time": pd.Series(self.residence_time, dtype=float),
            "queue_length": pd.Series(self.queue_length, dtype=float),
            "utilisation": pd.Series(self.utilisation, dtype=float),
        })
        frame.index.name = "station"
        total = pd.DataFrame({"kind": [np.nan], "servers": pd.array([pd.NA], dtype="Int64"),
                              "demand": [frame["demand"].sum()], "residence_time": [self.response_time],
                              "queue_length": [frame["queue_length"].sum()], "utilisation": [np.nan]},
                             index=pd.Index(["total"], name="station"))
        return pd.concat([frame, total])

    def as_row(self) -> dict:
        """System-level numbers as a flat dict (for building tables over populations)."""
        return {"population": self.population, "throughput": self.throughput,
                "response_time": self.response_time, "cycle_time": self.cycle_time,
                "jobs_in_system": float(sum(self.queue_length.values()))}

    def __repr__(self) -> str:
        return (f"Solution(method={self.method!r}, population={self.population}, "
                f"throughput={self.throughput:.6g}, response_time={self.response_time:.6g}, "
                f"bottleneck={self.bottleneck!r})")


@dataclasses.dataclass(frozen=True, eq=False)
class MultiClassSolution:
    """Mean values of a multi-class closed network.

    Attributes
    ----------
    method : str
        ``"exact"`` or ``"bard-schweitzer"``.
    classes : dict
        ``{class name: Solution}``: each class's throughput, response time and
        per-station residence times, queue lengths and utilisations.
    utilisation, queue_length : dict
        Per station, summed over the classes.
    """

    method: str
    classes: dict
    utilisation: dict
    queue_length: dict

    @property
    def throughput(self) -> dict:
        """``{class: throughput}``."""
        return {name: part.throughput for name, part in self.classes.items()}

    @property
    def response_time(self) -> dict:
        """``{class: response time}``."""
        return {name: part.response_time for name, part in self.classes.items()}

    def table(self) -> pd.DataFrame:
        """Every class's :meth:`Solution.table`, stacked with a ``class`` level, then the all-class totals per station."""
        parts = {name: part.table() for name, part in self.classes.items()}
        first = next(iter(self.classes.values()))
        overall = pd.DataFrame({
            "kind": pd.Series(first.kind),
            "servers": pd.Series({k: (pd.NA if math.isinf(v) else v) for k, v in first.servers.items()},
                                 dtype="Int64"),
            "demand": np.nan, "residence_time": np.nan,
            "queue_length": pd.Series(self.queue_length, dtype=float),
            "utilisation": pd.Series(self.utilisation, dtype=float)})
        overall.index.name = "station"
        parts["all classes"] = overall
        return pd.concat(parts, names=["class", "station"])

    def __repr__(self) -> str:
        parts = ", ".join(f"{name}: X={part.throughput:.6g} R={part.response_time:.6g}"
                          for name, part in self.classes.items())
        return f"MultiClassSolution(method={self.method!r}, {parts})"


@dataclasses.dataclass(frozen=True)
class Bounds:
    """Asymptotic and balanced job bounds on a single-class closed network.

    Each pair is ``(lower, upper)``.  Response-time bounds follow from the
    throughput bounds by the response-time law ``R = N / X - Z``.

    Attributes
    ----------
    population : int
        Jobs in the network.
    asymptotic_throughput, asymptotic_response_time : tuple of float
        ``N / (N D + Z) <= X <= min(N / (D + Z), 1 / D_max)`` (Lazowska et al.
        1984, Sec. 5.3), with ``D`` the total demand, ``D_max`` the largest
        demand per server of a queueing station and ``Z`` the think time plus
        any delay stations' demands.
    balanced_throughput, balanced_response_time : tuple of float
        Balanced job bounds (Zahorjan, Sevcik, Eager and Galler 1982;
        Lazowska et al. 1984, Sec. 5.4), tighter two-sided bounds that use the
        average demand ``D_avg = D / K`` over the ``K`` queueing stations.
        NaN when a station has more than one server (the bounds assume single
        servers).
    knee : float
        ``N* = (D + Z) / D_max``: below it the jobs mostly do not meet, above it
        the bottleneck is saturated and each extra job only adds waiting.
    bottleneck : str
        The station with the largest demand per server.
    """

    population: int
    asymptotic_throughput: tuple
    asymptotic_response_time: tuple
    balanced_throughput: tuple
    balanced_response_time: tuple
    knee: float
    bottleneck: str


# --------------------------------------------------------------------------- validation


def _is_real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _time_value(name: str, value, what: str) -> float:
    allowed = f"allowed a number 0 <= {what} <= {MAX_TIME:g} that is 0 or at least {MIN_TIME:g}"
    if not _is_real(value):
        raise TypeError(f"{name} = {_shown(value)} has the wrong type: {allowed}")
    try:
        number = float(value)
    except OverflowError:  # an integer beyond any float
        number = math.inf
    if not (number == 0.0 or MIN_TIME <= number <= MAX_TIME):  # also refuses NaN
        shown = _shown(value) if math.isinf(number) and not isinstance(value, float) else repr(number)
        raise ValueError(f"{name} = {shown} is out of range: {allowed}")
    return number


def _shown(value) -> str:
    """``repr(value)``, cut short (an integer of 400 digits is not a message)."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:25]}...{text[-10:]} ({len(text)} characters)"


def _count(name: str, value, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} = {_shown(value)} has the wrong type: allowed an integer {low} <= {what} <= {high:,}")
    if not low <= value <= high:
        raise ValueError(f"{name} = {_shown(value)} is out of range: allowed {low} <= {what} <= {high:,}")
    return int(value)


def _station_names(demands) -> list[str]:
    if not isinstance(demands, Mapping):
        raise TypeError(f"demands = {demands!r} has the wrong type: allowed a mapping {{station name: demand}}")
    names = list(demands)
    if not 1 <= len(names) <= MAX_STATIONS:
        raise ValueError(f"demands has {len(names)} stations: allowed 1 <= stations <= {MAX_STATIONS}")
    for name in names:
        if not isinstance(name, str) or not name or name == "total":
            raise ValueError(f"demands key {name!r} is not allowed: allowed a non-empty string other than 'total'")
    return names


def _delay_set(delay, names: list[str]) -> set[str]:
    if isinstance(delay, str) or not isinstance(delay, Iterable):
        raise TypeError(f"delay = {delay!r} has the wrong type: allowed a collection of station names, "
                        f"e.g. ({names[0]!r},)")
    chosen = set(delay)
    unknown = sorted(map(repr, chosen - set(names)))
    if unknown:
        raise ValueError(f"delay = {tuple(delay)!r} names stations that are not in demands: {', '.join(unknown)}; "
                         f"allowed {names}")
    return chosen


def _servers_map(servers, names: list[str], delay: set[str]) -> dict[str, int]:
    if servers is None:
        return {name: 1 for name in names}
    if not isinstance(servers, Mapping):
        raise TypeError(f"servers = {servers!r} has the wrong type: allowed a mapping {{station name: servers}}")
    unknown = sorted(map(repr, set(servers) - set(names)))
    if unknown:
        raise ValueError(f"servers names stations that are not in demands: {', '.join(unknown)}; allowed {names}")
    both = sorted(map(repr, set(servers) & delay))
    if both:
        raise ValueError(f"servers names delay stations {', '.join(both)}: a delay station has unlimited servers; "
                         "allowed only queueing stations")
    counts = {name: _count(f"servers[{name!r}]", servers.get(name, 1), 1, MAX_SERVERS, "servers")
              for name in names}
    multi = [name for name, c in counts.items() if c > 1]
    if len(multi) > MAX_MULTI_SERVER_STATIONS:
        raise ValueError(f"servers = {dict(servers)!r} gives {len(multi)} stations more than one server: allowed "
                         f"at most {MAX_MULTI_SERVER_STATIONS} (each one doubles the work of exact MVA)")
    return counts


@dataclasses.dataclass(frozen=True)
class _Network:
    names: list
    demand: np.ndarray        # stations x classes
    is_delay: np.ndarray      # stations, bool
    servers: np.ndarray       # stations, int
    think: np.ndarray         # classes
    population: np.ndarray    # classes, int
    classes: list


def _single(demands, population, think_time, delay, servers=None, max_population=MAX_POPULATION) -> _Network:
    names = _station_names(demands)
    values = [_time_value(f"demands[{name!r}]", demands[name], "demand") for name in names]
    delayed = _delay_set(delay, names)
    counts = _servers_map(servers, names, delayed)
    return _Network(
        names=names, demand=np.array(values, dtype=float)[:, None],
        is_delay=np.array([name in delayed for name in names]),
        servers=np.array([counts[name] for name in names]),
        think=np.array([_time_value("think_time", think_time, "think_time")]),
        population=np.array([_count("population", population, 1, max_population, "population")]),
        classes=["jobs"])


def _multi(demands, populations, think_times, delay, max_population) -> _Network:
    names = _station_names(demands)
    if not isinstance(populations, Mapping) or not populations:
        raise TypeError(f"populations = {populations!r} has the wrong type: allowed a non-empty mapping "
                        "{class name: jobs}")
    classes = list(populations)
    if len(classes) > MAX_CLASSES:
        raise ValueError(f"populations has {len(classes)} classes: allowed 1 <= classes <= {MAX_CLASSES}")
    for name in classes:
        if not isinstance(name, str) or not name:
            raise ValueError(f"populations key {name!r} is not allowed: allowed a non-empty string")
    counts = np.array([_count(f"populations[{c!r}]", populations[c], 1, max_population, "population")
                       for c in classes])
    matrix = np.zeros((len(names), len(classes)))
    for k, station in enumerate(names):
        row = demands[station]
        if not isinstance(row, Mapping):
            raise TypeError(f"demands[{station!r}] = {row!r} has the wrong type: allowed a mapping "
                            "{class name: demand} (a class left out has demand 0 there)")
        unknown = sorted(map(repr, set(row) - set(classes)))
        if unknown:
            raise ValueError(f"demands[{station!r}] names classes that are not in populations: "
                             f"{', '.join(unknown)}; allowed {classes}")
        for c, name in enumerate(classes):
            matrix[k, c] = _time_value(f"demands[{station!r}][{name!r}]", row.get(name, 0.0), "demand")
    if _is_real(think_times):
        think = [_time_value("think_times", think_times, "think_time")] * len(classes)
    elif isinstance(think_times, Mapping):
        unknown = sorted(map(repr, set(think_times) - set(classes)))
        if unknown:
            raise ValueError(f"think_times names classes that are not in populations: {', '.join(unknown)}; "
                             f"allowed {classes}")
        think = [_time_value(f"think_times[{c!r}]", think_times.get(c, 0.0), "think_time") for c in classes]
    else:
        raise TypeError(f"think_times = {think_times!r} has the wrong type: allowed a number (every class) "
                        "or a mapping {class name: think time}")
    delayed = _delay_set(delay, names)
    network = _Network(names=names, demand=matrix, is_delay=np.array([n in delayed for n in names]),
                       servers=np.ones(len(names), dtype=int), think=np.array(think), population=counts,
                       classes=classes)
    _check_cycle(network)
    return network


def _check_cycle(network: _Network) -> None:
    for c, name in enumerate(network.classes):
        if network.think[c] + network.demand[:, c].sum() <= 0:
            raise ValueError(f"demands and think time are all zero for class {name!r}: its jobs would "
                             "cycle infinitely fast; allowed a positive think time or some positive demand")


# --------------------------------------------------------------------------- the algorithms


def _solution(network: _Network, method: str, c: int, throughput: float, residence: np.ndarray,
              queue: np.ndarray) -> Solution:
    names = network.names
    demand = network.demand[:, c]
    utilisation = np.where(network.is_delay, np.nan, throughput * demand / network.servers)
    return Solution(
        method=method, population=int(network.population[c]), think_time=float(network.think[c]),
        throughput=float(throughput), response_time=float(residence.sum()),
        demand=dict(zip(names, map(float, demand))),
        residence_time=dict(zip(names, map(float, residence))),
        queue_length=dict(zip(names, map(float, queue))),
        utilisation=dict(zip(names, map(float, utilisation))),
        kind={name: DELAY if d else QUEUE for name, d in zip(names, network.is_delay)},
        servers={name: (math.inf if d else int(s)) for name, s, d in zip(names, network.servers, network.is_delay)},
    )


def _exact_path(network: _Network) -> list[tuple[float, np.ndarray, np.ndarray]]:
    """Exact single-class MVA for n = 1..N: a list of (X, R_k, Q_k)."""
    demand = network.demand[:, 0]
    think = float(network.think[0])
    if think + demand.sum() <= 0:
        raise ValueError("demands and think_time are all zero: the jobs would cycle infinitely fast; "
                         "allowed a positive think time or some positive demand")
    throughput, residence, queue = _recursion(demand, network.is_delay, network.servers, think,
                                              int(network.population[0]), frozenset(), {})
    return [(float(throughput[n]), residence[n], queue[n]) for n in range(1, len(throughput))]


def _recursion(demand: np.ndarray, is_delay: np.ndarray, servers: np.ndarray, think: float, population: int,
               removed: frozenset, cache: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Throughput ``X[n]``, residence times ``R[n, k]`` and queues ``Q[n, k]`` for n = 0..N.

    Stations in ``removed`` are left out (their demand set to zero).
    Single-server queues use ``R = D (1 + Q(n-1))``.  A queue with ``c > 1``
    servers uses the exact load-dependent form (Bolch, Greiner, de Meer and
    Trivedi 2006, Sec. 8.2), ``R = D/c (1 + Q(n-1) + sum_{j<c-1} (c-1-j) p(j|n-1))``,
    with the probabilities ``p(j|n)`` of ``j < c`` jobs present from
    ``p(j|n) = X(n) D / j p(j-1|n-1)``.  The probability of an empty station is
    *not* taken as one minus the others, which loses every digit near
    saturation, but from ``p(0|n) = G_k(n) / G(n) = p(0|n-1) X(n) / X_k(n)``, where
    ``X_k`` is the throughput of the network without the station, itself
    solved by this recursion; so a network with ``m`` multi-server stations
    costs ``2**m`` recursions (``MAX_MULTI_SERVER_STATIONS``).
    """
    if removed in cache:
        return cache[removed]
    demand = demand.copy()
    demand[list(removed)] = 0.0
    queue_like = ~is_delay
    multi = [k for k in range(len(demand)) if queue_like[k] and servers[k] > 1 and demand[k] > 0]
    single = queue_like.copy()
    single[multi] = False
    without = {}
    for k in multi:
        rest = demand.copy()
        rest[k] = 0.0
        rest[list(removed)] = 0.0
        # an empty remainder (no other demand, no think time) holds nobody: p(0|n) = 0 for n >= 1
        without[k] = (None if think + rest.sum() <= 0 else
                      _recursion(demand, is_delay, servers, think, population, removed | {k}, cache)[0])
    marginals = {k: np.concatenate([[1.0], np.zeros(servers[k] - 1)]) for k in multi}
    weights = {k: np.arange(servers[k] - 1, 0, -1, dtype=float) for k in multi}     # c-1-j for j < c-1
    steps = {k: demand[k] / np.arange(1, servers[k]) for k in multi}              # D / j for 1 <= j < c
    single_demand = np.where(single, demand, 0.0)
    fixed = np.where(single, 0.0, demand)          # delay stations (multi-server ones are overwritten)
    throughput = np.zeros(population + 1)
    residence = np.zeros((population + 1, len(demand)))
    queue = np.zeros((population + 1, len(demand)))
    for n in range(1, population + 1):
        r = single_demand * (1.0 + queue[n - 1]) + fixed
        for k in multi:
            p = marginals[k]
            r[k] = demand[k] / servers[k] * (1.0 + queue[n - 1, k] + float(weights[k] @ p[:-1]))
        x = n / (think + r.sum())
        throughput[n] = x
        residence[n] = r
        queue[n] = x * r
        for k in multi:
            old = marginals[k]
            new = np.empty_like(old)
            new[1:] = x * steps[k] * old[:-1]
            new[0] = 0.0 if without[k] is None else old[0] * x / without[k][n]
            marginals[k] = new
    cache[removed] = (throughput, residence, queue)
    return cache[removed]


def exact(demands: Mapping[str, float], population: int, think_time: float = 0.0,
          delay: Iterable[str] = (), servers: Mapping[str, int] | None = None) -> Solution:
    """Exact mean value analysis of a single-class closed network.

    Parameters
    ----------
    demands : mapping
        ``{station name: service demand}``: the total service time one job
        needs at the station over all its visits (visits x mean service time
        per visit; see :func:`demands_from`), ``0 <= demand <= MAX_TIME``.
    population : int
        Jobs in the network, ``1 <= population <= MAX_POPULATION``.
    think_time : float
        Mean think time ``Z`` at the terminals, outside the response time
        (0 for a batch system).
    delay : collection of str
        Stations that are delay (infinite-server) stations: a job there never
        waits (a think time inside the response time, a network latency).
    servers : mapping, optional
        ``{station: c}`` for queueing stations with ``c`` identical servers
        sharing one queue (``1 <= c <= MAX_SERVERS``); the others have one.
        Solved exactly by load-dependent MVA; each such station doubles the
        work, so at most ``MAX_MULTI_SERVER_STATIONS`` of them (a few seconds
        at ``MAX_POPULATION`` jobs).

    Returns
    -------
    Solution
        Throughput, response time and per-station mean values.

    Raises
    ------
    TypeError, ValueError
        Naming the argument, its value and the allowed range.

    Examples
    --------
    Two jobs between a CPU and a disk, no think time (a batch system):

    >>> exact({"cpu": 1.0, "disk": 1.0}, population=2).throughput
    0.6666666666666666
    >>> exact({"cpu": 1.0, "disk": 1.0}, population=2, servers={"cpu": 2}).queue_length["cpu"]
    0.8
    """
    network = _single(demands, population, think_time, delay, servers)
    throughput, residence, queue = _exact_path(network)[-1]
    return _solution(network, "exact", 0, throughput, residence, queue)


def exact_path(demands: Mapping[str, float], population: int, think_time: float = 0.0,
               delay: Iterable[str] = (), servers: Mapping[str, int] | None = None) -> list[Solution]:
    """The exact solutions for every population 1, 2, ..., ``population`` (one recursion, no extra cost).

    Arguments as in :func:`exact`.

    Examples
    --------
    >>> [round(s.throughput, 3) for s in exact_path({"cpu": 2.0, "disk A": 3.0, "disk B": 1.0}, 3, 4.0)]
    [0.1, 0.175, 0.229]
    """
    network = _single(demands, population, think_time, delay, servers)
    return [dataclasses.replace(_solution(network, "exact", 0, x, r, q), population=n)
            for n, (x, r, q) in enumerate(_exact_path(network), start=1)]


def exact_multiclass(demands: Mapping[str, Mapping[str, float]], populations: Mapping[str, int],
                     think_times: float | Mapping[str, float] = 0.0,
                     delay: Iterable[str] = ()) -> MultiClassSolution:
    """Exact mean value analysis of a multi-class closed network.

    Parameters
    ----------
    demands : mapping
        ``{station: {class: demand}}``; a class missing at a station has
        demand 0 there.  For a first-come-first-served station to be product
        form, every class must have the same mean service time per visit there
        (classes may differ in visits); processor-sharing stations may differ.
    populations : mapping
        ``{class: jobs}``, each ``1 <= jobs``, with ``prod(jobs + 1) <=
        MAX_STATES``: the recursion visits every smaller population vector, so
        its cost is exponential in the number of classes.
    think_times : float or mapping
        One think time for every class, or ``{class: think time}`` (missing: 0).
    delay : collection of str
        Delay (infinite-server) stations.

    Returns
    -------
    MultiClassSolution

    Examples
    --------
    >>> s = exact_multiclass({"cpu": {"a": 1.0, "b": 2.0}, "disk": {"a": 1.0}}, {"a": 1, "b": 1})
    >>> {name: round(x, 4) for name, x in s.throughput.items()}
    {'a': 0.3333, 'b': 0.3333}
    """
    network = _multi(demands, populations, think_times, delay, MAX_STATES)
    states = int(np.prod(network.population + 1))
    if states > MAX_STATES:
        raise ValueError(f"populations = {dict(populations)!r} is out of range: exact multi-class MVA visits "
                         f"prod(N_c + 1) = {states:,} population vectors; allowed at most {MAX_STATES:,} "
                         "(use bard_schweitzer_multiclass)")
    sizes = network.population + 1
    strides = np.array([int(np.prod(sizes[c + 1:])) for c in range(len(sizes))])
    vectors = np.array(list(itertools.product(*[range(s) for s in sizes])))  # lexicographic = index order
    level = vectors.sum(axis=1)
    demand, is_delay, think = network.demand, network.is_delay, network.think
    queue = np.zeros((states, len(network.names)))  # total jobs per station at each population vector
    for total in range(1, int(level[-1]) + 1):
        rows = np.nonzero(level == total)[0]
        for c in range(len(network.classes)):
            present = rows[vectors[rows, c] > 0]
            residence = _residence(demand[:, c], is_delay, queue[present - strides[c]])
            throughput = vectors[present, c] / (think[c] + residence.sum(axis=1))
            queue[present] += throughput[:, None] * residence
    final = states - 1
    parts, utilisation = {}, np.zeros(len(network.names))
    for c, name in enumerate(network.classes):
        residence = _residence(demand[:, c], is_delay, queue[final - strides[c]][None, :])[0]
        throughput = network.population[c] / (think[c] + residence.sum())
        parts[name] = _solution(network, "exact", c, throughput, residence, throughput * residence)
        utilisation += np.where(is_delay, np.nan, throughput * demand[:, c])
    return MultiClassSolution("exact", parts, dict(zip(network.names, map(float, utilisation))),
                              dict(zip(network.names, map(float, queue[final]))))


def _residence(demand: np.ndarray, is_delay: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """Residence times ``D (1 + seen)`` at queues and ``D`` at delay stations; ``seen`` is rows x stations."""
    return np.where(is_delay, demand, demand * (1.0 + seen))


def bard_schweitzer(demands: Mapping[str, float], population: int, think_time: float = 0.0,
                    delay: Iterable[str] = (), tolerance: float = TOLERANCE) -> Solution:
    """The Bard-Schweitzer approximation of single-class MVA, for populations too large to recurse over.

    It replaces the queue a job finds on arrival, ``Q_k(N-1)``, by
    ``(N-1)/N * Q_k(N)`` and solves the resulting fixed point by successive
    substitution (Bard 1979; Schweitzer 1979; Lazowska et al. 1984, Sec. 6.4).
    Its cost does not depend on ``N``.  It is exact for one job and tends to
    the exact answer as ``N`` grows.  In between it under-estimates the
    throughput by a few percent, most near the knee ``N*`` of :class:`Bounds`
    and in networks of one or two stations: at most 7% (and the response time
    by at most 25%) over the hundreds of random networks ``tests/test_mva.py``
    compares with exact MVA; on Jain's Example 34.2 at most 4% (at 4 jobs) and 1% at 20.

    Parameters
    ----------
    demands, think_time, delay
        As in :func:`exact` (single-server stations only).
    population : int
        ``1 <= population <= MAX_APPROXIMATE_POPULATION``.
    tolerance : float
        Stop when no queue length moves by more than ``tolerance`` times the
        population in one iteration (``0 < tolerance <= 1e-3``).

    Examples
    --------
    >>> s = bard_schweitzer({"cpu": 2.0, "disk A": 3.0, "disk B": 1.0}, population=20, think_time=4.0)
    >>> round(s.throughput, 3)  # exact MVA: 0.333
    0.33
    """
    network = _single(demands, population, think_time, delay, max_population=MAX_APPROXIMATE_POPULATION)
    solved = _schweitzer(network, _tolerance(tolerance))
    return solved.classes["jobs"]


def bard_schweitzer_multiclass(demands: Mapping[str, Mapping[str, float]], populations: Mapping[str, int],
                               think_times: float | Mapping[str, float] = 0.0, delay: Iterable[str] = (),
                               tolerance: float = TOLERANCE) -> MultiClassSolution:
    """The Bard-Schweitzer approximation of multi-class MVA.

    A class-``c`` job arriving at station ``k`` is assumed to see the other
    classes' mean queues unchanged and its own class's scaled by
    ``(N_c - 1) / N_c``.  Arguments as in :func:`exact_multiclass`, except that
    each population may be up to ``MAX_APPROXIMATE_POPULATION`` and there is
    no limit on their product.
    """
    network = _multi(demands, populations, think_times, delay, MAX_APPROXIMATE_POPULATION)
    return _schweitzer(network, _tolerance(tolerance))


def _tolerance(tolerance) -> float:
    if not _is_real(tolerance):
        raise TypeError(f"tolerance = {tolerance!r} has the wrong type: allowed a number 0 < tolerance <= 0.001")
    if not 0 < tolerance <= 1e-3:
        raise ValueError(f"tolerance = {tolerance!r} is out of range: allowed 0 < tolerance <= 0.001")
    return float(tolerance)


def _schweitzer(network: _Network, tolerance: float) -> MultiClassSolution:
    _check_cycle(network)
    demand, is_delay, think = network.demand, network.is_delay, network.think
    population = network.population.astype(float)
    stations = len(network.names)
    queues = np.flatnonzero(~is_delay)
    # start with each class spread evenly over the queueing stations
    queue = np.zeros((stations, len(population)))
    if len(queues):
        queue[queues, :] = population / len(queues)
    scale = (population - 1.0) / population
    for _ in range(MAX_ITERATIONS):
        seen = queue.sum(axis=1, keepdims=True) - queue + scale * queue
        residence = np.where(is_delay[:, None], demand, demand * (1.0 + seen))
        throughput = population / (think + residence.sum(axis=0))
        new = throughput * residence
        if np.max(np.abs(new - queue)) <= tolerance * population.max():
            queue = new
            break
        queue = new
    else:
        raise RuntimeError(f"the Bard-Schweitzer iteration did not converge in {MAX_ITERATIONS:,} steps "
                           f"(tolerance = {tolerance!r}); use exact() where the population allows it")
    parts = {name: _solution(network, "bard-schweitzer", c, throughput[c], residence[:, c], queue[:, c])
             for c, name in enumerate(network.classes)}
    utilisation = np.where(is_delay, np.nan, (demand * throughput).sum(axis=1))
    return MultiClassSolution("bard-schweitzer", parts, dict(zip(network.names, map(float, utilisation))),
                              dict(zip(network.names, map(float, queue.sum(axis=1)))))


def bounds(demands: Mapping[str, float], population: int, think_time: float = 0.0,
           delay: Iterable[str] = (), servers: Mapping[str, int] | None = None) -> Bounds:
    """Asymptotic bounds and balanced job bounds on throughput and response time.

    Delay stations count as think time for throughput (in a product-form
    network the throughput depends only on their total demand) and as
    response time for the response-time bounds.  Multi-server stations enter
    the asymptotic bounds through their demand per server ``D_k / c_k``; the
    balanced job bounds assume single servers and are NaN otherwise.

    Arguments as in :func:`exact` (``population`` up to ``MAX_APPROXIMATE_POPULATION``).

    Examples
    --------
    >>> b = bounds({"cpu": 2.0, "disk A": 3.0, "disk B": 1.0}, population=20, think_time=4.0)
    >>> b.asymptotic_throughput[1], b.knee
    (0.3333333333333333, 3.3333333333333335)
    """
    network = _single(demands, population, think_time, delay, servers, max_population=MAX_APPROXIMATE_POPULATION)
    n = int(network.population[0])
    demand = network.demand[:, 0]
    queue_like = ~network.is_delay
    think = float(network.think[0]) + float(demand[network.is_delay].sum())   # delay stations act as think time
    delay_demand = float(demand[network.is_delay].sum())
    queue_demand = demand[queue_like]
    total = float(queue_demand.sum())
    per_server = queue_demand / network.servers[queue_like]
    largest = float(per_server.max()) if per_server.size else 0.0
    if think + total <= 0:
        raise ValueError("demands and think_time are all zero: the jobs would cycle infinitely fast; "
                         "allowed a positive think time or some positive demand")
    cap = 1.0 / largest if largest > 0 else math.inf
    asymptotic = (float(n / (n * total + think)), float(min(n / (total + think), cap)))
    if np.any(network.servers[queue_like] > 1):
        balanced = (math.nan, math.nan)
    elif total == 0:
        balanced = (n / think, n / think)
    else:
        average = total / int(np.count_nonzero(queue_demand))
        low = n / (total + think + (n - 1) * largest / (1 + think / (n * total)))
        high = min(cap, n / (total + think + (n - 1) * average / (1 + think / total)))
        balanced = (float(low), float(high))

    def response(pair):
        low, high = pair
        return (float(n / high - think + delay_demand), float(n / low - think + delay_demand))

    names = [name for name, q in zip(network.names, queue_like) if q]
    knee = (total + think) / largest if largest > 0 else math.inf
    return Bounds(population=n, asymptotic_throughput=asymptotic, asymptotic_response_time=response(asymptotic),
                  balanced_throughput=balanced, balanced_response_time=response(balanced), knee=knee,
                  bottleneck=names[int(np.argmax(per_server))] if names else "")


def sweep(demands: Mapping[str, float], populations: Iterable[int], think_time: float = 0.0,
          delay: Iterable[str] = (), servers: Mapping[str, int] | None = None,
          method: str = "exact") -> pd.DataFrame:
    """Throughput and response time with their bounds, one row per population.

    Parameters
    ----------
    demands, think_time, delay, servers
        As in :func:`exact` (``servers`` only with ``method="exact"``).
    populations : iterable of int
        The populations to tabulate (each within the method's limit; at most
        :data:`MAX_SWEEP_POPULATIONS` of them with ``"exact"``, about a second,
        and :data:`MAX_APPROXIMATE_SWEEP` with ``"bard-schweitzer"``, a few seconds).
    method : str
        ``"exact"`` (one recursion up to the largest population) or
        ``"bard-schweitzer"`` (one fixed point per population).

    Returns
    -------
    pandas.DataFrame
        Columns ``population``, ``throughput``, ``response_time``,
        ``cycle_time``, ``jobs_in_system``, ``bottleneck_utilisation`` and the
        bounds ``throughput_asymptotic_low/high``, ``throughput_balanced_low/high``,
        ``response_time_asymptotic_low/high``, ``response_time_balanced_low/high``.

    Examples
    --------
    >>> table = sweep({"cpu": 2.0, "disk A": 3.0, "disk B": 1.0}, [1, 2, 20], think_time=4.0)
    >>> table[["population", "throughput"]].round(3).to_dict("list")
    {'population': [1, 2, 20], 'throughput': [0.1, 0.175, 0.333]}
    """
    if method not in ("exact", "bard-schweitzer"):
        raise ValueError(f"method = {method!r} is not allowed: allowed 'exact' or 'bard-schweitzer'")
    if isinstance(populations, (str, bytes)) or not isinstance(populations, Iterable):
        raise TypeError(f"populations = {populations!r} has the wrong type: allowed a collection of integers")
    most = MAX_SWEEP_POPULATIONS if method == "exact" else MAX_APPROXIMATE_SWEEP
    listed = list(itertools.islice(populations, most + 1))
    if len(listed) > most:
        raise ValueError(f"populations has more than {most:,} items: allowed at most {most:,} populations "
                         f"with method = {method!r} (one row each)")
    wanted = [_count("populations item", n, 1, MAX_APPROXIMATE_POPULATION, "population") for n in listed]
    if not wanted:
        raise ValueError("populations is empty: allowed at least one population")
    if method == "exact":
        path = exact_path(demands, max(wanted), think_time, delay, servers)
        solutions = [path[n - 1] for n in wanted]
    else:
        if servers:
            raise ValueError(f"servers = {servers!r} is not allowed with method = 'bard-schweitzer': "
                             "allowed only single-server stations (servers=None)")
        solutions = [bard_schweitzer(demands, n, think_time, delay) for n in wanted]
    rows = []
    for solution in solutions:
        bound = bounds(demands, solution.population, think_time, delay, servers)
        bottleneck = solution.bottleneck
        rows.append({
            **solution.as_row(),
            "bottleneck_utilisation": solution.utilisation[bottleneck] if bottleneck else math.nan,
            "throughput_asymptotic_low": bound.asymptotic_throughput[0],
            "throughput_asymptotic_high": bound.asymptotic_throughput[1],
            "throughput_balanced_low": bound.balanced_throughput[0],
            "throughput_balanced_high": bound.balanced_throughput[1],
            "response_time_asymptotic_low": bound.asymptotic_response_time[0],
            "response_time_asymptotic_high": bound.asymptotic_response_time[1],
            "response_time_balanced_low": bound.balanced_response_time[0],
            "response_time_balanced_high": bound.balanced_response_time[1],
        })
    return pd.DataFrame(rows)


def demands_from(visits: Mapping[str, float], service_times: Mapping[str, float]) -> dict[str, float]:
    """Service demands ``D_k = V_k S_k`` from visits per job and mean service time per visit.

    Examples
    --------
    >>> demands_from({"cpu": 16, "disk A": 10, "disk B": 5}, {"cpu": 0.125, "disk A": 0.3, "disk B": 0.2})
    {'cpu': 2.0, 'disk A': 3.0, 'disk B': 1.0}
    """
    for name, value in (("visits", visits), ("service_times", service_times)):
        if not isinstance(value, Mapping):
            raise TypeError(f"{name} = {value!r} has the wrong type: allowed a mapping {{station name: number}}")
    if set(visits) != set(service_times):
        raise ValueError(f"visits and service_times name different stations: {sorted(visits)} and "
                         f"{sorted(service_times)}; allowed the same stations in both")
    return {name: _time_value(f"visits[{name!r}]", visits[name], "visits")
            * _time_value(f"service_times[{name!r}]", service_times[name], "service_time")
            for name in visits}
