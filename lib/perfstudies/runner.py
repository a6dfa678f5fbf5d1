"""Seeded simulation runs, replications and confidence intervals.

A *model* in this package is a plain function ``model(params, seed) -> dict``
that runs one replication and returns its metrics as ``{name: number}``.
Seeding happens in exactly one place, :func:`run_ciw`, which calls
:func:`ciw.seed` right before building the :class:`ciw.Simulation`, so the same
seed gives the same numbers byte for byte and nothing leaks between runs.

:func:`replicate` runs a model over independent seeds and returns a
:class:`Replications` result: a tidy per-replication table and a per-metric
summary with a Student-t 95% confidence interval.
"""

import contextlib
import contextvars
import dataclasses
import functools
import gc
import math
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter

import ciw
import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from perfstudies import engine, student_t
from perfstudies.context import building_book
from perfstudies.fifo import FIFONode
from perfstudies.engine import EventBudgetExceeded
from perfstudies.params import MAX_EVENTS, check_callable, check_flag, check_integer, check_real, check_text

Model = Callable[[object, int], Mapping[str, float]]

#: Most replications any call may ask for (each is a full simulation; the events of all of them
#: together are bounded by MAX_CALL_EVENTS).  A comparison cell whose value is 0 in most
#: replications and tens of seconds in a few (spxtape's 4-drive idle time) needs over 1,000 to be
#: known to a quarter of its tolerance.
MAX_REPLICATIONS = 2_000
#: Largest seed (seeds are integers 0 <= seed <= MAX_SEED).
MAX_SEED = 2**64 - 1
#: Longest simulated time :func:`run_ciw` accepts, in the network's own time unit.  It
#: refuses the absurd (``inf``, ``1e300``); how many events a run needs depends on its
#: rates too, so each study's record bounds its own run with
#: :meth:`perfstudies.params.Params.check_event_budget`.
MAX_TIME = 1e12
#: Default cap of :func:`replicate_until`.
DEFAULT_CAP = 40
#: Most Ciw events one :func:`run_ciw` call may carry out (its default ``max_events``): about a
#: minute of CPU on this project's 2-core machine (37,000 to 115,000 events a second, depending on
#: the node classes).  A record's estimate (:meth:`perfstudies.params.Params.check_event_budget`)
#: refuses a run before it starts; this bound stops any run the estimate missed.
MAX_RUN_EVENTS = MAX_EVENTS
#: Most Ciw events all the runs of one :func:`replicate` or :func:`replicate_until` call may carry
#: out together (their default ``max_events``), so a call of many replications is bounded too.
MAX_CALL_EVENTS = 2 * MAX_EVENTS

def check_seed(seed, name: str = "seed") -> int:
    """``seed`` as an ``int`` if it is an integer 0 <= seed <= :data:`MAX_SEED` (numpy integers too, never a
    bool or a float), or the standard ValueError naming ``name``: the one check of every seed a model takes."""
    return check_integer(name, seed, low=0, high=MAX_SEED)


_BUDGETS: contextvars.ContextVar[tuple] = contextvars.ContextVar("perfstudies_event_budgets", default=())


@dataclasses.dataclass
class EventBudget:
    """Events left to the :func:`run_ciw` calls inside an :func:`event_budget` block.

    Attributes
    ----------
    events : int
        The block's budget.
    names : tuple of str
        What sets the block's total, named when a run passes it.
    used : int
        Events carried out so far by the block's runs.
    """

    events: int
    names: tuple
    used: int = 0

    @property
    def left(self) -> int:
        """Events the block's remaining runs may still carry out."""
        return max(0, self.events - self.used)


@contextlib.contextmanager
def event_budget(max_events: int, names=()):
    """Bound the Ciw events of every :func:`run_ciw` call inside the block, all together.

    Each run gets at most the events the block has left (and at most its own
    ``max_events``); a run that would pass them is stopped with
    :class:`perfstudies.engine.EventBudgetExceeded`, whose message names
    ``names`` (what sets the block's total, e.g. ``("replications = 1000",)``
    or a study record's fields, see :meth:`perfstudies.params.Params.budget_names`).
    Blocks nest: a run draws from every enclosing block.  Runs in other
    processes (a sweep's workers) are not counted.

    Parameters
    ----------
    max_events : int
        Events all the block's runs may carry out together, 1 <= max_events <= MAX_EVENT_BUDGET.
    names : tuple of str
        What sets the total, for the error message.

    Yields
    ------
    EventBudget
        The block's budget (``used`` grows as its runs finish).
    """
    budget = EventBudget(check_integer("max_events", max_events, low=1, high=engine.MAX_EVENT_BUDGET),
                         _checked_budget_names(names))
    token = _BUDGETS.set((*_BUDGETS.get(), budget))
    try:
        yield budget
    finally:
        _BUDGETS.reset(token)


def _checked_budget_names(names) -> tuple:
    if isinstance(names, str) or not isinstance(names, (tuple, list)) \
            or not all(isinstance(name, str) and name for name in names):
        raise ValueError(f"budget_names = {names!r} has the wrong type: allowed a tuple of non-empty strings "
                         "(what sets the run's length, e.g. 'VTSParams.completions = 4000')")
    return tuple(names)

#: Seconds a loop runs before its progress bar appears; shorter loops stay quiet.
PROGRESS_DELAY_S = 2.0


def progress_bar(iterable, description: str, enabled: bool = True, **options):
    """Wrap ``iterable`` in a tqdm bar that appears only after ``PROGRESS_DELAY_S``.

    Bars are off while the static book builds, where nobody watches them.
    """
    if not isinstance(iterable, Iterable):
        raise ValueError(f"iterable = {iterable!r} has the wrong type: allowed an iterable")
    check_text("description", description)
    check_flag("enabled", enabled)
    return tqdm(iterable, desc=description, delay=PROGRESS_DELAY_S, leave=False,
                disable=not enabled or building_book(), **options)


def replication_seeds(seed: int, replications: int) -> list[int]:
    """Return ``replications`` independent integer seeds derived from ``seed``.

    The seeds come from :class:`numpy.random.SeedSequence` spawning, so they are
    statistically independent streams, and replication *i* gets the same seed
    whatever the number of replications.
    """
    seed = check_seed(seed)
    replications = check_integer("replications", replications, low=1, high=MAX_REPLICATIONS)
    children = np.random.SeedSequence(seed).spawn(replications)
    return [int(child.generate_state(1)[0]) for child in children]


def run_ciw(network, seed: int, max_time: float, warmup: float = 0.0, node_class=FIFONode,
            max_events: int | None = None, budget_names=(), columns: Mapping[str, type] | None = None,
            **simulation_kwargs) -> tuple[ciw.Simulation, pd.DataFrame]:
    """Seed, build and run a Ciw simulation on the engine; return it and its records.

    The simulation is a :class:`perfstudies.engine.Simulation`: stock Ciw's
    records, re-dating only the nodes an event touched.  It runs with Python's
    cyclic garbage collector paused (:func:`cycle_collector_paused`).

    Parameters
    ----------
    network : ciw.Network
        The network to simulate.
    seed : int
        Seed for :func:`ciw.seed`, set right before the simulation is built
        (0 <= seed <= :data:`MAX_SEED`; numpy integers too).
    max_time : float
        Simulated time to run for, 0 < max_time <= :data:`MAX_TIME`.
    warmup : float
        Records of customers that arrived before this time are deleted, 0 <= warmup < max_time.
    node_class : type or list of types
        Node class(es), subclasses of :class:`ciw.Node` (a list has one per node);
        :class:`~perfstudies.fifo.FIFONode` by default.
    max_events : int, optional
        The run's event budget, 1 <= max_events <= MAX_EVENT_BUDGET (None:
        :data:`MAX_RUN_EVENTS`, about a minute of CPU); inside an
        :func:`event_budget` block, at most what the block has left.  A run that
        would pass it stops with :class:`perfstudies.engine.EventBudgetExceeded`
        (a ValueError naming the budget, ``budget_names`` and ``max_time``).
    budget_names : tuple of str
        What sets the run's length, named in that error: a study passes its
        record's fields (:meth:`perfstudies.params.Params.budget_names`).
    columns : mapping, optional
        The records' columns to keep, as in :func:`records_frame`.
    **simulation_kwargs
        Passed to :class:`perfstudies.engine.Simulation`, as to :class:`ciw.Simulation`
        (for example ``tracker``).

    Returns
    -------
    (ciw.Simulation, pandas.DataFrame)
        The finished simulation and its records after warm-up deletion.
    """
    if not isinstance(network, ciw.network.Network):
        raise ValueError(f"network = {network!r} has the wrong type: allowed a ciw.Network (ciw.create_network)")
    seed = check_seed(seed)
    max_time = check_real("max_time", max_time, low=0.0, low_open=True, high=MAX_TIME)
    warmup = check_real("warmup", warmup, low=0.0, high=max_time, high_open=True)
    _check_node_class(node_class, len(network.service_centres))
    max_events = MAX_RUN_EVENTS if max_events is None else max_events
    max_events = check_integer("max_events", max_events, low=1, high=engine.MAX_EVENT_BUDGET)
    names = _checked_budget_names(budget_names)
    enclosing = _BUDGETS.get()
    binding = min(enclosing, key=lambda budget: budget.left, default=None)
    if binding is not None and binding.left < max_events:
        max_events, names = binding.left, (*names, *binding.names)
        if max_events == 0:
            raise EventBudgetExceeded(f"the event budget of {binding.events:,} events is spent before this run "
                                      f"started: it is set by {', '.join(binding.names) or 'event_budget()'}: "
                                      "allowed runs within it (reduce those)", events=0, time=0.0)
    factory = engine.Simulation
    if _keeps_budget(factory):
        factory = functools.partial(factory, max_events=max_events, budget_names=names)
    ciw.seed(seed)
    simulation = factory(network, node_class=node_class, **simulation_kwargs)
    try:
        with cycle_collector_paused():
            simulation.simulate_until_max_time(max_time)
    finally:
        for budget in enclosing:
            budget.used += getattr(simulation, "events_done", 0)
    return simulation, records_frame(simulation, warmup, columns)


def _keeps_budget(factory) -> bool:
    """Whether ``factory`` (``engine.Simulation``, or what a test put in its place) takes an event budget."""
    base = factory.func if isinstance(factory, functools.partial) else factory
    return isinstance(base, type) and issubclass(base, engine.simulation.Simulation)


@contextlib.contextmanager
def cycle_collector_paused():
    """Pause Python's cyclic garbage collector inside the block, as :mod:`timeit` does.

    Every Ciw event allocates (a record, an individual, dates), and CPython
    starts a cyclic collection after every few hundred allocations; the older
    generations' collections then walk every tracked object of the process,
    which in a Jupyter kernel is hundreds of thousands that the run never
    touches.  That made up about a third of a widget re-run.  Reference
    counting still frees everything that is not in a cycle at once; what a
    run leaves in cycles (the simulation's own object graph) is collected by
    the next collection after the block.  The collector's previous state is
    restored on exit, exceptions included.  Nothing random depends on it, so
    the records are the same either way.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _check_node_class(node_class, nodes: int) -> None:
    def is_node(value) -> bool:
        return isinstance(value, type) and issubclass(value, ciw.Node)

    if is_node(node_class):
        return
    if isinstance(node_class, (list, tuple)) and len(node_class) == nodes and all(map(is_node, node_class)):
        return
    raise ValueError(f"node_class = {node_class!r} is not allowed: allowed a subclass of ciw.Node, "
                     f"or a list of {nodes} of them (one per node)")


def records_frame(simulation: ciw.Simulation, warmup: float = 0.0,
                  columns: Mapping[str, type] | None = None) -> pd.DataFrame:
    """Return a simulation's records as a DataFrame, without warm-up arrivals.

    ``columns`` (``{field: int or float}``, numeric fields of Ciw's records,
    ``arrival_date`` among them when ``warmup`` is set) keeps those columns
    only, with those dtypes, each built in one pass in C: the same values as
    the full frame's columns, without the text columns (customer class,
    record type) that cost most of its making, for a caller that reads only
    numbers (a fifth of a short run's time).
    """
    if not callable(getattr(simulation, "get_all_records", None)):
        raise ValueError(f"simulation = {simulation!r} has the wrong type: allowed a finished ciw.Simulation")
    warmup = check_real("warmup", warmup, low=0.0)
    fields = ciw.data_record.DataRecord._fields
    if columns is not None and (not isinstance(columns, Mapping) or not columns
                                or any(name not in fields or kind not in (int, float) for name, kind in columns.items())
                                or (warmup and "arrival_date" not in columns)):
        raise ValueError(f"columns = {columns!r} is not allowed: allowed None or a non-empty {{field: int or float}} "
                         f"mapping of Ciw's record fields ({', '.join(fields)}), with arrival_date when warmup > 0")
    records = simulation.get_all_records()
    if columns is not None:
        frame = pd.DataFrame({name: np.fromiter(map(attrgetter(name), records), dtype=kind, count=len(records))
                              for name, kind in columns.items()})
    elif not records:
        return pd.DataFrame(columns=fields)
    else:
        frame = pd.DataFrame.from_records(records, columns=fields)
    return frame[frame["arrival_date"] >= warmup].reset_index(drop=True)


@dataclasses.dataclass(frozen=True)
class Replications:
    """The result of :func:`replicate` or :func:`replicate_until`.

    Attributes
    ----------
    runs : pandas.DataFrame
        Tidy table, one row per replication and metric: ``replication``,
        ``seed``, ``metric``, ``value``.
    confidence : float
        Confidence level of the intervals in :meth:`summary`.
    imprecise : tuple of str
        Metrics whose precision target :func:`replicate_until` could not meet
        within its cap (empty when every target was met, or none was set).
    """

    runs: pd.DataFrame
    confidence: float = 0.95
    imprecise: tuple = ()

    def __post_init__(self):
        _check_runs(self.runs, ("replication", "seed", "metric", "value"), "Replications.runs")
        object.__setattr__(self, "confidence", _check_confidence(self.confidence, "Replications.confidence"))
        if not isinstance(self.imprecise, tuple) or not all(isinstance(metric, str) for metric in self.imprecise):
            raise ValueError(f"Replications.imprecise = {self.imprecise!r} has the wrong type: "
                             "allowed a tuple of metric names")

    def summary(self) -> pd.DataFrame:
        """Per-metric ``n``, ``mean``, ``std``, ``half_width``, ``low``, ``high``."""
        return summarize(self.runs, confidence=self.confidence)

    def wide(self) -> pd.DataFrame:
        """One row per replication, one column per metric."""
        return self.runs.pivot(index=["replication", "seed"], columns="metric", values="value").reset_index()

    def mean(self, metric: str) -> float:
        """Mean of one metric over the replications."""
        return float(self.summary().loc[self._metric(metric), "mean"])

    def half_width(self, metric: str) -> float:
        """Confidence-interval half-width of one metric."""
        return float(self.summary().loc[self._metric(metric), "half_width"])

    def _metric(self, metric) -> str:
        known = list(dict.fromkeys(self.runs["metric"]))
        if not isinstance(metric, str) or metric not in known:
            raise ValueError(f"metric = {metric!r} is not allowed: allowed one of {known}")
        return metric


def replicate(model: Model, params, replications: int = 10, seed: int = 1, progress: bool = True,
              confidence: float = 0.95, max_events: int | None = None) -> Replications:
    """Run ``model(params, seed_i)`` for independent seeds and collect the metrics.

    Parameters
    ----------
    model : callable
        ``model(params, seed) -> {metric: value}`` for one replication.
    params : Params
        The model's parameter record.
    replications : int
        Number of independent replications (>= 1; >= 2 for an interval).
    seed : int
        Base seed; see :func:`replication_seeds`.
    progress : bool
        Show a progress bar if the loop runs longer than ``PROGRESS_DELAY_S``.
    confidence : float
        Confidence level of the intervals, 0 < confidence < 1.
    max_events : int, optional
        Ciw events all the replications' :func:`run_ciw` calls may carry out
        together (None: :data:`MAX_CALL_EVENTS`); a run that would pass it is
        stopped with :class:`perfstudies.engine.EventBudgetExceeded` naming
        ``replications``.
    """
    check_callable("model", model)
    confidence = _check_confidence(confidence)
    seeds = replication_seeds(seed, replications)
    check_flag("progress", progress)
    rows = []
    max_events = MAX_CALL_EVENTS if max_events is None else max_events
    names = (f"replications = {replications!r} (replicate's max_events = {max_events!r} over all of them)",)
    with event_budget(max_events, names):
        for index, rep_seed in enumerate(progress_bar(seeds, getattr(model, "__name__", "model"), progress)):
            rows.extend(metric_rows(model_metrics(model, params, rep_seed), replication=index, seed=rep_seed))
    return Replications(pd.DataFrame(rows), confidence=confidence)


def replicate_until(model: Model, params, precision: Mapping[str, float], seed: int = 1, initial: int = 5,
                    cap: int = DEFAULT_CAP, confidence: float = 0.95, progress: bool = False,
                    max_events: int | None = None) -> Replications:
    """Replicate until every metric in ``precision`` has a CI half-width at most its target.

    The sequential rule of Hoad, Robinson and Davies (2010, "Automated
    selection of the number of replications for a discrete-event simulation",
    *J. Oper. Res. Soc.* 61(11)): start with ``initial`` replications, and
    while a target is missed add replications (half as many again as there
    are, at least one) until it is met or ``cap`` is reached.  Replication *i*
    keeps its seed whatever the final count (:func:`replication_seeds`), so the
    result is the one ``replicate`` gives for that count.  Metrics still
    missing their target at the cap are listed in ``Replications.imprecise``.

    Parameters
    ----------
    precision : mapping
        ``{metric: largest allowed CI half-width}``, in the metric's unit; a
        target may also be a callable of the metric's current mean (see
        :func:`missed_targets`).
    initial, cap : int
        First and largest number of replications (2 <= initial <= cap <= MAX_REPLICATIONS).
    max_events : int, optional
        Ciw events all the replications may carry out together (None:
        :data:`MAX_CALL_EVENTS`); passing it raises
        :class:`perfstudies.engine.EventBudgetExceeded` naming ``cap``.
    """
    check_callable("model", model)
    check_sequential(initial, cap)
    targets = precision_targets(precision)
    seeds = replication_seeds(seed, cap)
    confidence = _check_confidence(confidence)
    check_flag("progress", progress)
    max_events = MAX_CALL_EVENTS if max_events is None else max_events
    with event_budget(max_events, (f"cap = {cap!r} (replicate_until's max_events = {max_events!r} over all "
                                   "its replications)",)):
        return _replicate_until(model, params, targets, seeds, initial, cap, confidence)


def _replicate_until(model, params, targets, seeds, initial, cap, confidence) -> Replications:
    rows: list[dict] = []
    done = 0
    count = initial
    while True:
        for index in range(done, count):
            rows.extend(metric_rows(model_metrics(model, params, seeds[index]), replication=index,
                                    seed=seeds[index]))
        done = count
        result = Replications(pd.DataFrame(rows), confidence=confidence)
        missed = missed_targets(result.summary(), targets)
        if not missed or count == cap:
            return dataclasses.replace(result, imprecise=tuple(missed))
        count = min(cap, count + max(1, count // 2))


def model_metrics(model: Model, params, seed: int) -> Mapping[str, float]:
    """``model(params, seed)``, checked to be a non-empty ``{metric name: real number}`` mapping.

    A model that returns anything else is named in the ValueError, with what it returned.
    """
    check_callable("model", model)
    seed = check_seed(seed)
    metrics = model(params, seed)
    if (not isinstance(metrics, Mapping) or not metrics
            or not all(isinstance(name, str) and isinstance(value, numbers.Real) for name, value in metrics.items())):
        shown = repr(metrics)
        raise ValueError(f"model = {getattr(model, '__qualname__', model)!r} returned {shown[:200]} for seed {seed}: "
                         "allowed a model(params, seed) that returns a non-empty {metric name: real number} mapping")
    return metrics


def missed_targets(summary: pd.DataFrame, precision: Mapping[str, "float | Callable[[float], float]"]) -> list[str]:
    """The metrics of ``precision`` whose half-width in ``summary`` exceeds their target.

    A target may be a number, or a callable that takes the metric's current
    mean and returns the largest allowed half-width (for a target that depends
    on how far the model lies from a published value, e.g.
    :func:`perfstudies.compare.required_half_width`).
    """
    if not isinstance(summary, pd.DataFrame) or "half_width" not in summary.columns:
        raise ValueError(f"summary = {summary!r} has the wrong type: allowed a summarize() table (column half_width)")
    if not isinstance(precision, Mapping):
        raise ValueError(f"precision = {precision!r} has the wrong type: allowed a {{metric: largest half-width}} mapping")
    if precision:
        precision = precision_targets(precision)
    unknown = [metric for metric in precision if metric not in summary.index]
    if unknown:
        raise ValueError(f"precision names metrics {unknown} the model does not return: "
                         f"allowed {list(summary.index)}")
    return [metric for metric, target in precision.items()
            if not summary.loc[metric, "half_width"] <= _target_at(metric, target, summary.loc[metric, "mean"])]


def _target_at(metric: str, target, mean: float) -> float:
    if not callable(target):
        return target
    value = target(float(mean))
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 < float(value) < math.inf:
        raise ValueError(f"precision[{metric!r}]({mean!r}) = {value!r} is out of range: allowed 0 < half-width < inf")
    return float(value)


def check_sequential(initial: int, cap: int) -> None:
    """Raise the standard ValueError unless ``2 <= initial <= cap <= MAX_REPLICATIONS``."""
    check_integer("initial", initial, low=2, high=MAX_REPLICATIONS)
    check_integer("cap", cap, high=MAX_REPLICATIONS)
    if cap < initial:
        raise ValueError(f"cap = {cap!r} is out of range: allowed an integer initial ({initial}) <= cap <= "
                         f"{MAX_REPLICATIONS}")


def precision_targets(precision: Mapping[str, "float | Callable[[float], float]"]) -> dict:
    """``precision`` checked: a non-empty ``{metric: largest allowed half-width > 0, or a callable of the mean}``."""
    if not isinstance(precision, Mapping) or not precision:
        raise ValueError(f"precision = {precision!r} is not allowed: allowed a non-empty "
                         "{metric: largest half-width} mapping")
    checked = {}
    for metric, target in precision.items():
        if not isinstance(metric, str):
            raise ValueError(f"precision key {metric!r} has the wrong type: allowed a metric name (str)")
        if callable(target):
            checked[metric] = target
            continue
        if (isinstance(target, bool) or not isinstance(target, numbers.Real)
                or not 0 < float(target) < math.inf):
            raise ValueError(f"precision[{metric!r}] = {target!r} is out of range: allowed 0 < half-width < inf, "
                             "or a callable of the mean")
        checked[metric] = float(target)
    return checked


def metric_rows(metrics: Mapping[str, float], **keys) -> list[dict]:
    """Turn one replication's ``{metric: value}`` into tidy rows tagged with ``keys``.

    ``metrics`` is what a model returns: a non-empty mapping of metric names to
    real numbers (NaN allowed: a metric with nothing to measure in a run).
    """
    if not isinstance(metrics, Mapping) or not metrics:
        raise ValueError(f"metrics = {metrics!r} is not allowed: allowed a non-empty {{metric: number}} mapping "
                         "(what model(params, seed) returns)")
    rows = []
    for name, value in metrics.items():
        if not isinstance(name, str):
            raise ValueError(f"metrics key {name!r} has the wrong type: allowed a metric name (str)")
        if not isinstance(value, numbers.Real):
            raise ValueError(f"metrics[{name!r}] = {value!r} has the wrong type: allowed a real number")
        try:
            number = float(value)
        except OverflowError:  # an integer beyond any float
            raise ValueError(f"metrics[{name!r}] is an integer of {len(str(value))} digits: allowed a real number "
                             "within a float's range") from None
        rows.append({**keys, "metric": name, "value": number})
    return rows


def summarize(runs: pd.DataFrame, by: Sequence[str] = ("metric",), confidence: float = 0.95) -> pd.DataFrame:
    """Mean and Student-t confidence interval of ``value`` per group of ``by``.

    The half-width is ``t_{(1+confidence)/2, n-1} * s / sqrt(n)``; it is NaN
    for a single replication, because one run says nothing about its spread.
    ``by`` names columns of ``runs`` (one name or a sequence of them);
    ``0 < confidence < 1``.
    """
    by = [by] if isinstance(by, str) else by
    if not isinstance(by, Sequence) or not by or not all(isinstance(column, str) for column in by):
        raise ValueError(f"by = {by!r} has the wrong type: allowed a column name or a non-empty sequence of them")
    if isinstance(runs, pd.DataFrame):
        unknown = [column for column in by if column not in runs.columns]
        if unknown:
            raise ValueError(f"by = {by!r} names columns {unknown} that runs lacks: allowed columns of runs, "
                             f"{list(runs.columns)}")
    _check_runs(runs, (*by, "value"), "runs")
    confidence = _check_confidence(confidence)
    grouped = runs.groupby(list(by), sort=False)["value"]
    table = grouped.agg(n="count", mean="mean", std="std")
    t = student_t.quantile((1 + confidence) / 2, table["n"].to_numpy() - 1)
    table["half_width"] = np.where(table["n"] > 1, t * table["std"] / np.sqrt(table["n"]), np.nan)
    table["low"] = table["mean"] - table["half_width"]
    table["high"] = table["mean"] + table["half_width"]
    return table


def _check_confidence(confidence, name: str = "confidence") -> float:
    return check_real(name, confidence, low=0.0, high=1.0, low_open=True, high_open=True)


def _check_runs(runs, columns: Sequence[str], name: str) -> None:
    if not isinstance(runs, pd.DataFrame):
        raise ValueError(f"{name} = {type(runs).__name__} has the wrong type: allowed a pandas DataFrame "
                         f"with columns {list(columns)}")
    missing = [column for column in columns if column not in runs.columns]
    if missing:
        raise ValueError(f"{name} lacks columns {missing}: allowed a DataFrame with columns {list(columns)}")
    if "value" in columns and not (pd.api.types.is_numeric_dtype(runs["value"])
                                   and not pd.api.types.is_bool_dtype(runs["value"])):
        raise ValueError(f"{name}['value'] has dtype {runs['value'].dtype}: allowed a numeric column")
