"""Property-based tests of the core: whatever the input, a result or a named refusal, in bounded time.

Every public function of the core modules and every parameter record (the
``Params`` subclasses of each registered study's ``params`` module and of
``perfstudies.reference``) is called with generated arguments: valid values,
edge values and hostile ones (wrong types, NaN, infinities, huge and negative
numbers, numpy scalars, unknown keywords).  Each call must either

* return a valid result (checked against the documented contract: a
  ``summarize`` with ``confidence=2.5`` that "works" is *not* valid), or
* raise ``ValueError``/``TypeError`` whose message names an argument
  (for the data functions, an ``OSError`` naming the file counts too),

within :data:`TIME_LIMIT_S` of wall-clock time.  Anything else (an unnamed
error, another exception type, a timeout, an invalid result) fails the
target's test, with examples.

The core's targets run no model simulation (the sweeps and replications use
a stub model, ``run_ciw`` a network whose first arrival comes after any
allowed run length), and local process pools are replaced by an in-process
stand-in that records the pool size asked for (so a fork bomb is an invalid
result, not a fork bomb).  The studies' targets do run the models: each
study's ``model``, ``widget_run`` and ``sweep_points`` and every public
function of its ``__all__`` that takes one of its records (and a seed), the
closed forms among them, on generated accepted records whose run lengths are
held short (:data:`SHORT`, at most :data:`STUDY_EVENTS` estimated events),
on wrong records and on wrong seeds, each call within :data:`STUDY_LIMIT_S`.  Hypothesis is derandomized
(the same inputs every run) with a bounded number of examples per target.  The
outcome counts go to ``_build/fuzz-outcomes.json`` and are printed by the last
test (``pytest -s``).
"""

import concurrent.futures
import contextlib
import dataclasses
import importlib
import inspect
import json
import math
import numbers
import re
import signal
import time
import typing
from collections import Counter
from pathlib import Path

import ciw
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from perfstudies import (accuracy, cache, centralserver, charts, compare, context, data, diagrams, mva, networks,
                         reference, runner, studies, sweep, tables, warmup)
from perfstudies import params as params_module
from perfstudies.fifo import FIFONode
from perfstudies.paths import BUILD, DATA
from perfstudies.studies import STUDIES

#: Wall-clock seconds one call may take.
TIME_LIMIT_S = 5.0
#: Profiles: the default, derandomized and small (``make test``); ``PERFSTUDIES_FUZZ_PROFILE=large``
#: tries ten times as many inputs per target (a developer's run, several minutes).
PROFILE = __import__("os").environ.get("PERFSTUDIES_FUZZ_PROFILE", "small")
SCALE = {"small": 1, "large": 10}.get(PROFILE, 1)
#: Generated inputs per target (fewer for the costlier ones).
EXAMPLES = 50
OUTPUT = BUILD / "fuzz-outcomes.json"

OUTCOMES: dict[str, Counter] = {}
EXAMPLES_OF: dict[str, list] = {}
OTHER = ("unnamed error", "crash", "timeout", "invalid result")


def _settings(examples: int):
    return settings(derandomize=True, database=None, deadline=None, max_examples=examples * SCALE,
                    phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))


# --- running one call ------------------------------------------------------------------------------------------

class _TimeLimit(BaseException):
    """Raised by the alarm; a BaseException so that no ``except Exception`` under test swallows it."""


@contextlib.contextmanager
def _time_limit(seconds: float):
    def expire(signum, frame):
        raise _TimeLimit

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _names_one(message: str, names) -> bool:
    return any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", message) for name in names if name)


#: Wall-clock seconds the call under way may take: the target's ``limit`` while :func:`_fuzz` runs it.
_call_limit = TIME_LIMIT_S


def _attempt(target: str, call, names, valid, errors=(ValueError, TypeError), shown: str = "") -> None:
    """Run ``call()`` and file its outcome under ``target`` (``shown``: the arguments, for the examples)."""
    limit = _call_limit
    try:
        with _time_limit(limit):
            result = call()
    except _TimeLimit:
        outcome, detail = "timeout", f"still running after {limit} s"
    except errors as error:
        named = _names_one(str(error), names)
        outcome, detail = ("refused", None) if named else ("unnamed error", f"{type(error).__name__}: {error}")
    except Exception as error:
        outcome, detail = "crash", f"{type(error).__name__}: {error}"
    else:
        try:
            ok = bool(valid(result))
        except Exception as error:
            ok, result = False, f"{result!r} (checking it raised {type(error).__name__}: {error})"
        outcome, detail = ("accepted", None) if ok else ("invalid result", f"returned {_short(result)}")
    OUTCOMES.setdefault(target, Counter())[outcome] += 1
    if detail is not None:
        EXAMPLES_OF.setdefault(target, []).append(f"{outcome}: {detail[:300]}  <- {shown[:300]}")


def _short(value) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text[:200]


def _check_target(target: str) -> None:
    counts = OUTCOMES.get(target, Counter())
    bad = sum(counts[kind] for kind in OTHER)
    assert bad == 0, f"{target}: {dict(counts)}; for example:\n" + "\n".join(EXAMPLES_OF[target][:6])


# --- generated values ------------------------------------------------------------------------------------------

class _Opaque:
    def __repr__(self):
        return "_Opaque()"


HOSTILE_VALUES = [None, True, False, 0, -1, 1, 2, 3, 10**9, 10**30, -10**30, 2**64, 10**400, 0.0, -0.0, 0.5, 1.5,
                  -2.5, 1e-9, 1e-320, 5e-324, -5e-324, 1e300, -1e300, math.inf, -math.inf, math.nan, "", "abc", "1", "0.5", b"x",
                  (), (1,), _Opaque(), np.int64(2), np.int64(-3), np.float64(0.5), np.float64(math.nan),
                  np.bool_(True), np.float32(1e30)]
HOSTILE = st.one_of(st.sampled_from(HOSTILE_VALUES), st.builds(list), st.builds(dict), st.just([1]),
                    st.just({"a": 1}))
KEYS = st.sampled_from([value for value in HOSTILE_VALUES if value.__hash__ is not None])
NUMBERS = st.one_of(HOSTILE, st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True))
TEXT = st.one_of(st.text(max_size=12), HOSTILE)


@dataclasses.dataclass(frozen=True)
class Arg:
    """An argument's allowed values and its bad ones (the oracle of each target decides what is valid)."""

    valid: st.SearchStrategy
    bad: st.SearchStrategy

    @property
    def any(self) -> st.SearchStrategy:
        return st.one_of(self.valid, self.bad)


FLAGS = Arg(st.booleans(), HOSTILE)


def _real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)) and math.isfinite(value)


def _integer(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _flag(value) -> bool:
    return isinstance(value, (bool, np.bool_))


def _probability(value) -> bool:
    return _real(value) and 0 <= value <= 1


# --- fixtures the targets share ----------------------------------------------------------------------------------

MAX_TIME = getattr(runner, "MAX_TIME", 1e12)
MAX_REPLICATIONS = runner.MAX_REPLICATIONS
#: A network with nothing to do before any allowed run length ends: run_ciw's valid calls cost nothing.
IDLE = ciw.create_network(arrival_distributions=[ciw.dists.Deterministic(5 * MAX_TIME)],
                          service_distributions=[ciw.dists.Deterministic(1.0)], number_of_servers=[1])
ciw.seed(0)
FINISHED = ciw.Simulation(IDLE)
FINISHED.simulate_until_max_time(10.0)
RUNS = pd.DataFrame({"point": [0, 0, 1, 1] * 2, "replication": [0, 1] * 4, "seed": [5, 6] * 4,
                     "metric": ["x"] * 4 + ["y"] * 4, "value": [1.0, 2.0, 3.0, 5.0, 0.5, 0.7, 0.1, 0.2]})
SUMMARY = runner.summarize(RUNS)
REPLICATIONS = runner.Replications(RUNS.drop(columns="point"))
POINT = reference.QueueParams(max_time=100.0, warmup=10.0)
PUBLISHED = compare.Published("Table 1", "elapsed", "run A", 100.0)
ZERO = compare.Published("Table 1", "idle", "run A", 0.0)
ONE = compare.resolution(1.0, "whole units")
CELLS = [compare.Cell(PUBLISHED, 104.0, "calibration", ci_half_width=1.0),
         compare.Cell(compare.Published("Table 1", "load", "run A", 50.0), 60.0, "prediction", baseline=52.0),
         compare.Cell(ZERO, 1.0, "prediction", baseline=2.0, tolerance=ONE),
         compare.Cell(compare.Published("Table 1", "ratio", "run A", 2.0), 2.0, "derived", note="by arithmetic")]
TABLE = compare.comparison_table(CELLS, study="demo", document="A Report")
TABLES = st.one_of(st.sampled_from([TABLE, TABLE.iloc[:0], TABLE.drop(columns=["role"]), pd.DataFrame(),
                                    TABLE.assign(model="x"), TABLE.assign(study=3)]), HOSTILE)
QUEUE_META = dict(reference.QueueParams.spec()["servers"])


def _stub(params, seed):
    """A model that costs nothing: two metrics that depend on the seed."""
    return {"x": float(seed % 97) / 7.0, "y": 1.0}


def _returns_text(params, seed):
    return {"x": "abc"}


def _returns_none(params, seed):
    return None


MODELS = Arg(st.just(_stub), st.one_of(st.sampled_from([_returns_text, _returns_none]), HOSTILE))


class _RecordingPool:
    """Stands in for ProcessPoolExecutor during the fuzz: records the size asked for, runs in-process."""

    asked: list = []

    def __init__(self, max_workers=None, **options):
        _RecordingPool.asked.append(max_workers)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def submit(self, function, *arguments):
        done = concurrent.futures.Future()
        done.set_result(function(*arguments))
        return done


@pytest.fixture(scope="module", autouse=True)
def _isolated(tmp_path_factory):
    """No real process pool, and the disk memo in a folder of its own."""
    saved = sweep.ProcessPoolExecutor, cache.CACHE
    sweep.ProcessPoolExecutor, cache.CACHE = _RecordingPool, tmp_path_factory.mktemp("memo")
    yield
    sweep.ProcessPoolExecutor, cache.CACHE = saved


def _cpus() -> int:
    return getattr(sweep, "available_cpus", lambda: __import__("os").cpu_count() or 1)()


# --- the targets ---------------------------------------------------------------------------------------------------

@dataclasses.dataclass
class Target:
    """One public callable with a strategy per argument and the contract of a valid result."""

    label: str
    function: object
    arguments: dict
    required: tuple = ()
    valid: object = lambda result, arguments: True
    examples: int = EXAMPLES
    errors: tuple = (ValueError, TypeError)
    extra_names: tuple = ()
    #: arguments whose (text or path) value counts as a name in a message: a field name, a file
    value_names: tuple = ()
    #: wall-clock seconds one call may take
    limit: float = TIME_LIMIT_S


def _get(module, name):
    return getattr(module, name, None)


def _sweep_valid(result, a, tasks_of=lambda a: len(a["points"]) * a.get("replications", 5)):
    asked = _RecordingPool.asked
    if not isinstance(result, pd.DataFrame) or len(result) != tasks_of(a) * 2:
        return False
    workers = a.get("max_workers")
    limit = min(tasks_of(a), workers or _cpus()) if a.get("oversubscribe") is True else \
        min(tasks_of(a), workers or _cpus(), _cpus())
    return all(size is not None and size <= limit for size in asked)


def _until_tasks(a):
    return len(a["points"]) * a.get("cap", runner.DEFAULT_CAP)


SCHEDULERS = Arg(st.none(), st.sampled_from([8786, "http://localhost:8786", "tcp://", "localhost", "tcp://127.0.0.1:0",
                                               "tcp://127.0.0.1:99999", "tcp://127.0.0.1:1", b"tcp://x:1"]))
POINTS = Arg(st.lists(st.just(POINT), min_size=1, max_size=3), st.one_of(HOSTILE, st.lists(HOSTILE, min_size=1, max_size=2)))
PRECISION = Arg(st.dictionaries(st.sampled_from(["x", "y"]), st.floats(1e-6, 10.0), min_size=1, max_size=2),
                st.one_of(st.dictionaries(st.one_of(st.just("z"), KEYS), NUMBERS, max_size=2), HOSTILE))
REPLICATION_COUNTS = Arg(st.one_of(st.integers(1, 12), st.integers(1, MAX_REPLICATIONS)),
                         st.one_of(st.integers(-2, 0), st.sampled_from([MAX_REPLICATIONS + 1, 10**9]), HOSTILE))
SEEDS = Arg(st.integers(0, 2**40), st.one_of(st.integers(-5, -1), st.just(2**70), HOSTILE))
CONFIDENCES = Arg(st.floats(0, 1, exclude_min=True, exclude_max=True),
                  st.one_of(st.sampled_from([0.0, 1.0, 2.5, -0.5]), NUMBERS))
SWEEP_EVENTS = Arg(st.one_of(st.none(), st.integers(10**6, 10**9)), st.one_of(st.integers(-5, 0), HOSTILE))
WORKERS = Arg(st.one_of(st.none(), st.integers(1, 64)),
              st.one_of(st.integers(-1, 0), st.sampled_from([65, 10**9]), HOSTILE))
PATHS = st.one_of(st.sampled_from([str(DATA / "spxtape" / "table1.csv"), DATA / "vts" / "text_values.csv",
                                   str(DATA / "spxtape" / "table1.csv.yml"), "data/none.csv", "", ".", "/",
                                   str(DATA), "a\x00b.csv"]), st.text(max_size=10), HOSTILE)


def _core_targets() -> list[Target]:
    r, s, p, c, q, n, d, m = runner, sweep, params_module, compare, reference, networks, data, cache
    summary_ok = lambda result, a: isinstance(result, pd.DataFrame) and _real(a.get("confidence", 0.95)) \
        and 0 < a.get("confidence", 0.95) < 1
    return [
        # runner
        Target("runner.replication_seeds", r.replication_seeds, {"seed": SEEDS, "replications": REPLICATION_COUNTS},
               ("seed", "replications"),
               lambda res, a: _integer(a["replications"]) and 1 <= a["replications"] <= MAX_REPLICATIONS
               and _integer(a["seed"]) and a["seed"] >= 0 and len(res) == a["replications"]),
        Target("runner.run_ciw", r.run_ciw,
               {"network": st.one_of(st.just(IDLE), HOSTILE), "seed": SEEDS,
                "max_time": Arg(st.floats(1e-3, MAX_TIME), st.one_of(st.sampled_from([0.0, math.inf, 1e300, 2 * MAX_TIME]), NUMBERS)),
                "warmup": Arg(st.just(0.0), NUMBERS),
                "node_class": st.one_of(st.sampled_from([FIFONode, ciw.Node, [ciw.Node], (FIFONode,), dict,
                                                         [ciw.Node, ciw.Node], "FIFONode"]), HOSTILE)},
               ("network", "seed", "max_time"),
               lambda res, a: _real(a["max_time"]) and 0 < a["max_time"] <= MAX_TIME
               and _real(a.get("warmup", 0.0)) and 0 <= a.get("warmup", 0.0) < a["max_time"]
               and isinstance(res[1], pd.DataFrame), examples=40),
        Target("runner.records_frame", r.records_frame,
               {"simulation": st.one_of(st.just(FINISHED), HOSTILE), "warmup": NUMBERS}, ("simulation",),
               lambda res, a: isinstance(res, pd.DataFrame) and _real(a.get("warmup", 0.0))
               and a.get("warmup", 0.0) >= 0),
        Target("runner.replicate", r.replicate,
               {"model": MODELS, "params": st.one_of(st.just(POINT), HOSTILE), "replications": REPLICATION_COUNTS,
                "seed": SEEDS, "progress": FLAGS, "confidence": CONFIDENCES},
               ("model", "params"),
               lambda res, a: isinstance(res, r.Replications) and a["model"] is _stub
               and 0 < a.get("confidence", 0.95) < 1 and _real(a.get("confidence", 0.95))
               and _flag(a.get("progress", True)), examples=40),
        Target("runner.replicate_until", r.replicate_until,
               {"model": MODELS, "params": st.just(POINT), "precision": PRECISION, "seed": SEEDS,
                "initial": Arg(st.integers(2, 6), st.one_of(st.integers(-1, 1), HOSTILE)),
                # an allowed cap is at least any allowed initial (a smaller one is refused, naming cap)
                "cap": Arg(st.integers(6, MAX_REPLICATIONS), st.one_of(st.integers(-3, 1), HOSTILE)),
                "confidence": CONFIDENCES, "progress": FLAGS},
               ("model", "params", "precision"),
               lambda res, a: isinstance(res, r.Replications) and a["model"] is _stub
               and 0 < a.get("confidence", 0.95) < 1 and _real(a.get("confidence", 0.95))
               and _flag(a.get("progress", False)), examples=30),
        Target("runner.missed_targets", r.missed_targets,
               {"summary": Arg(st.just(SUMMARY), st.one_of(st.just(pd.DataFrame()), HOSTILE)), "precision": PRECISION},
               ("summary", "precision"),
               lambda res, a: isinstance(res, list) and all(_real(v) and v > 0 for v in a["precision"].values())),
        Target("runner.check_sequential", r.check_sequential,
               {"initial": Arg(st.integers(2, 12), st.one_of(st.integers(-2, 1_100), HOSTILE)), "cap": REPLICATION_COUNTS},
               ("initial", "cap"),
               lambda res, a: _integer(a["initial"]) and _integer(a["cap"])
               and 2 <= a["initial"] <= a["cap"] <= MAX_REPLICATIONS),
        Target("runner.precision_targets", r.precision_targets, {"precision": PRECISION}, ("precision",),
               lambda res, a: isinstance(res, dict) and res and all(_real(v) and v > 0 for v in res.values())
               and all(isinstance(k, str) for k in res)),
        Target("runner.metric_rows", r.metric_rows,
               {"metrics": st.one_of(st.dictionaries(st.one_of(st.text(max_size=5), KEYS), NUMBERS, max_size=3),
                                     HOSTILE)}, ("metrics",),
               lambda res, a: isinstance(res, list) and len(res) == len(a["metrics"]) > 0
               and all(isinstance(row["value"], float) and isinstance(row["metric"], str) for row in res)),
        Target("runner.summarize", r.summarize,
               {"runs": Arg(st.just(RUNS), st.one_of(st.sampled_from([RUNS.assign(value="a"), RUNS.drop(columns="value"),
                                                                    RUNS.iloc[:0]]), HOSTILE)),
                "by": Arg(st.sampled_from(["metric", ["metric"], ("point", "metric")]),
                          st.one_of(st.sampled_from([["nope"], []]), st.lists(TEXT, max_size=2), HOSTILE)),
                "confidence": CONFIDENCES}, ("runs",), summary_ok),
        Target("runner.progress_bar", r.progress_bar,
               {"iterable": st.one_of(st.just([1, 2]), HOSTILE), "description": TEXT, "enabled": FLAGS},
               ("iterable", "description"),
               lambda res, a: isinstance(a["description"], str) and _flag(a.get("enabled", True))
               and hasattr(a["iterable"], "__iter__") and list(res) == list(a["iterable"])),
        Target("runner.Replications", r.Replications,
               {"runs": st.one_of(st.sampled_from([REPLICATIONS.runs, RUNS.drop(columns="seed")]), HOSTILE),
                "confidence": CONFIDENCES, "imprecise": st.one_of(st.just(()), st.just(("x",)), HOSTILE)},
               ("runs",),
               lambda res, a: 0 < res.confidence < 1 and isinstance(res.imprecise, tuple)
               and not res.summary().empty),
        Target("runner.Replications.mean", REPLICATIONS.mean, {"metric": st.one_of(st.just("x"), TEXT)}, ("metric",),
               lambda res, a: a["metric"] in ("x", "y") and _real(res)),
        Target("runner.model_metrics", _get(r, "model_metrics"),
               {"model": MODELS, "params": st.just(POINT), "seed": SEEDS}, ("model", "params", "seed"),
               lambda res, a: a["model"] is _stub),
        # sweep
        Target("sweep.run_sweep", s.run_sweep,
               {"model": MODELS, "points": POINTS, "replications": REPLICATION_COUNTS, "seed": SEEDS,
                "scheduler": SCHEDULERS, "max_workers": WORKERS, "progress": FLAGS, "oversubscribe": FLAGS,
                "max_events": SWEEP_EVENTS},
               ("model", "points"), lambda res, a: a["model"] is _stub and _sweep_valid(res, a), examples=40),
        Target("sweep.sweep_until", s.sweep_until,
               {"model": MODELS, "points": st.lists(st.just(POINT), min_size=1, max_size=2),
                "precision": Arg(st.lists(st.one_of(st.just({}), PRECISION.valid), min_size=1, max_size=2),
                                 st.one_of(st.lists(PRECISION.bad, min_size=1, max_size=2), HOSTILE)),
                "seed": SEEDS, "initial": Arg(st.integers(2, 6), st.one_of(st.integers(-1, 1), HOSTILE)),
                "cap": Arg(st.integers(6, 60), st.one_of(st.integers(-1, 5), HOSTILE)),
                "scheduler": SCHEDULERS, "max_workers": WORKERS, "progress": FLAGS, "oversubscribe": FLAGS,
                "max_events": SWEEP_EVENTS},
               ("model", "points", "precision"),
               lambda res, a: a["model"] is _stub and isinstance(res, tuple) and isinstance(res[0], pd.DataFrame)
               and all(size <= min(_until_tasks(a), a.get("max_workers") or _cpus(),
                                   _cpus() if a.get("oversubscribe") is not True else 10**9)
                       for size in _RecordingPool.asked),
               examples=30),
        Target("sweep.worker_count", _get(s, "worker_count"),
               {"tasks": Arg(st.integers(1, 100_000), st.one_of(st.integers(-1, 0), st.just(100_001), HOSTILE)),
                "max_workers": WORKERS, "oversubscribe": FLAGS},
               ("tasks",), lambda res, a: 1 <= res <= a["tasks"] and res <= (a.get("max_workers") or _cpus())),
        Target("sweep.check_scheduler", _get(s, "check_scheduler"), {"scheduler": SCHEDULERS.bad}, ("scheduler",),
               lambda res, a: False),  # no address in the list is a Dask scheduler
        Target("sweep.available_cpus", _get(s, "available_cpus"), {}, (), lambda res, a: res >= 1),
        # params
        Target("params.param", p.param,
               {"default": Arg(st.sampled_from([1, 1.5, 2]), HOSTILE),
                "low": Arg(st.sampled_from([None, 0, 0.5]), NUMBERS), "high": Arg(st.sampled_from([None, 10, 2.5]), NUMBERS),
                "low_open": FLAGS, "high_open": FLAGS,
                "choices": Arg(st.none(), st.one_of(st.just(("ESS", "3390")), st.just((1, 2)), HOSTILE)),
                "unit": Arg(st.text(max_size=5), HOSTILE), "doc": Arg(st.text(max_size=5), HOSTILE),
                "step": Arg(st.one_of(st.none(), st.floats(0.01, 5)), NUMBERS)}, ("default",),
               lambda res, a: isinstance(res, dataclasses.Field) and _declared_ok(res)),
        Target("params.describe_range", p.describe_range,
               {"name": TEXT, "meta": st.one_of(st.just(QUEUE_META), HOSTILE)}, ("name", "meta"),
               lambda res, a: isinstance(res, str), value_names=("name",)),
        Target("params.validate_value", p.validate_value,
               {"owner": TEXT, "name": TEXT, "value": NUMBERS, "meta": st.one_of(st.just(QUEUE_META), HOSTILE)},
               ("owner", "name", "value", "meta"),
               lambda res, a: _integer(res) and 1 <= res <= 64, value_names=("name",)),
        Target("params.Params.check_warmup", POINT.check_warmup,
               {"warmup": st.one_of(st.sampled_from(["warmup", "max_time", "servers"]), TEXT),
                "length": st.one_of(st.sampled_from(["warmup", "max_time"]), TEXT)}, (),
               lambda res, a: res is None),
        Target("params.Params.check_event_budget", POINT.check_event_budget,
               {"events": NUMBERS, "fields": st.one_of(st.sampled_from([("max_time",), ("max_time", "servers"),
                                                                        ("nope",), ()]), HOSTILE)},
               ("events", "fields"), lambda res, a: _real(a["events"]) and 0 <= a["events"] <= params_module.MAX_EVENTS),
        *[Target(f"params.{name}", _get(p, name), {"name": st.just("argument"), "value": NUMBERS}, ("name", "value"),
                 valid, extra_names=("argument",))
          for name, valid in (("check_integer", lambda res, a: _integer(res)), ("check_real", lambda res, a: _real(res)),
                              ("check_flag", lambda res, a: isinstance(res, bool)),
                              ("check_text", lambda res, a: isinstance(res, str)),
                              ("check_callable", lambda res, a: callable(res)))],
        # compare
        Target("compare.Published", c.Published, {"table": Arg(st.sampled_from(["Table 1", "t"]), TEXT),
                                                  "row": Arg(st.just("r"), TEXT), "column": Arg(st.just("c"), TEXT),
                                                  "value": Arg(st.floats(-1e9, 1e9), NUMBERS)},
               ("table", "row", "column", "value"),
               lambda res, a: _real(res.value) and all(isinstance(x, str) and x.strip()
                                                       for x in (res.table, res.row, res.column))),
        Target("compare.Tolerance", c.Tolerance,
               {"value": st.one_of(st.just(0.1), NUMBERS), "kind": st.one_of(st.sampled_from(c.TOLERANCE_KINDS), TEXT),
                "ground": st.one_of(st.sampled_from(c.TOLERANCE_GROUNDS), TEXT), "reason": TEXT}, ("value",),
               lambda res, a: isinstance(res.value, float) and _real(res.value) and res.value >= 0),
        Target("compare.documented", c.documented,
               {"value": NUMBERS, "quote": TEXT, "kind": st.one_of(st.sampled_from(c.TOLERANCE_KINDS), TEXT)},
               ("value", "quote"), lambda res, a: _real(res.value) and res.value >= 0 and res.reason.strip(),
               extra_names=("Tolerance.value", "Tolerance.reason", "Tolerance.kind", "value", "reason", "kind")),
        Target("compare.resolution", c.resolution,
               {"value": NUMBERS, "reason": TEXT, "kind": st.one_of(st.sampled_from(c.TOLERANCE_KINDS), TEXT)},
               ("value", "reason"), lambda res, a: _real(res.value) and res.value >= 0 and res.reason.strip()),
        Target("compare.Cell", c.Cell,
               {"published": Arg(st.sampled_from([PUBLISHED, ZERO]), HOSTILE), "model": Arg(st.floats(-1e6, 1e6), NUMBERS),
                "role": Arg(st.sampled_from(c.ROLES), TEXT), "ci_half_width": Arg(st.floats(0, 10), NUMBERS),
                "baseline": Arg(st.floats(-1e6, 1e6), NUMBERS),
                "tolerance": Arg(st.sampled_from([c.DEFAULT, ONE]), HOSTILE), "note": Arg(st.just("why"), TEXT)},
               ("published", "model", "role"),
               lambda res, a: isinstance(res.model, float) and _real(res.model)
               and isinstance(res.ci_half_width, float) and (math.isnan(res.ci_half_width) or res.ci_half_width >= 0)
               and isinstance(res.baseline, float) and isinstance(res.tolerance, c.Tolerance)
               and res.role in c.ROLES and bool(res.row()),
               # arguments that are allowed alone but not together (a derived cell without a note, a prediction
               # without a baseline, a published zero under a relative tolerance): the refusal names note,
               # baseline or tolerance whichever one was drawn bad
               extra_names=("note", "baseline", "tolerance")),
        Target("compare.Tolerance.allowed_error", c.DEFAULT.allowed_error, {"published": NUMBERS}, ("published",),
               lambda res, a: _real(res) and res >= 0),
        Target("compare.comparison_table", c.comparison_table,
               {"cells": st.one_of(st.lists(st.sampled_from(CELLS), max_size=4, unique_by=id), HOSTILE),
                "study": TEXT, "document": TEXT}, ("cells", "study", "document"),
               lambda res, a: list(res.columns) == c.COLUMNS and len(res) > 0),
        Target("compare.scoreboard", c.scoreboard, {"table": TABLES}, ("table",),
               lambda res, a: isinstance(res, pd.DataFrame)),
        Target("compare.in_words", c.in_words, {"table": TABLES}, ("table",), lambda res, a: isinstance(res, str)),
        Target("compare.tolerances_off", c.tolerances_off, {"table": TABLES}, ("table",),
               lambda res, a: isinstance(res, pd.Series)),
        Target("compare.worst_cells", c.worst_cells,
               {"table": TABLES, "count": Arg(st.integers(1, 20), st.one_of(st.integers(-3, 0), HOSTILE)),
                "per_study": FLAGS}, ("table",),
               lambda res, a: isinstance(res, pd.DataFrame) and _integer(a.get("count", 10))
               and a.get("count", 10) >= 1 and _flag(a.get("per_study", False))),
        # reference
        Target("reference.queue_network", q.queue_network, {"p": st.one_of(st.just(POINT), HOSTILE)}, ("p",),
               lambda res, a: isinstance(res, ciw.network.Network)),
        Target("reference.erlang_c", q.erlang_c,
               {"servers": Arg(st.integers(1, 400), st.one_of(st.integers(-2, 0), st.just(10**9), HOSTILE)),
                "offered_load": Arg(st.floats(0, 0.99), st.one_of(st.floats(0, 500), NUMBERS))}, ("servers", "offered_load"),
               lambda res, a: _probability(res) and 0 <= a["offered_load"] < a["servers"]),
        Target("reference.mmc_mean_wait", q.mmc_mean_wait,
               {"arrival_rate": Arg(st.floats(0, 0.9), st.one_of(st.floats(0, 50), NUMBERS)),
                "service_rate": Arg(st.floats(1, 5), st.one_of(st.floats(0, 5), NUMBERS)),
                "servers": Arg(st.integers(1, 300), st.one_of(st.integers(-1, 0), HOSTILE))}, ("arrival_rate", "service_rate", "servers"),
               lambda res, a: _real(res) and res >= 0 and a["arrival_rate"] < a["servers"] * a["service_rate"]),
        Target("reference.mm1k_blocking", q.mm1k_blocking,
               {"arrival_rate": Arg(st.floats(0, 50), NUMBERS), "service_rate": Arg(st.floats(1e-3, 5), NUMBERS),
                "system_size": Arg(st.integers(1, 10**6), st.one_of(st.integers(-1, 0), HOSTILE))},
               ("arrival_rate", "service_rate", "system_size"),
               lambda res, a: _probability(res) and _integer(a["system_size"]) and a["system_size"] >= 1),
        # networks
        Target("networks.closed_population", n.closed_population,
               {"count": Arg(st.integers(1, 20_000),
                             st.one_of(st.integers(-3, 0), st.just(10**7 + 1), HOSTILE)),
                "gap": Arg(st.one_of(st.none(), st.floats(1e-6, 10)), NUMBERS)}, ("count",),
               lambda res, a: isinstance(res, n.Population)),
        Target("networks.gamma_by_mean", n.gamma_by_mean, {"mean": Arg(st.floats(1e-3, 1e3), NUMBERS),
                                                           "shape": Arg(st.floats(1e-2, 1e2), NUMBERS)}, ("mean", "shape"),
               lambda res, a: _real(res.scale) and res.scale > 0 and _real(res.shape) and res.shape > 0),
        Target("networks.with_state", n.with_state,
               {"node_class": st.one_of(st.sampled_from([FIFONode, ciw.Node, _Declared]), HOSTILE),
                "name": st.one_of(st.none(), TEXT), "log": HOSTILE}, ("node_class",),
               lambda res, a: isinstance(res, type) and (a.get("name") is None or res.__name__ == a["name"])
               and (a.get("name") is None or (isinstance(a["name"], str) and a["name"].isidentifier())),
               extra_names=("log",)),
        # data
        *[Target(f"data.{name}", _get(d, name), {argument: PATHS}, (argument,), valid,
                 errors=(ValueError, TypeError, OSError), value_names=(argument,))
          for name, argument, valid in (
              ("manifest_path", "csv_path", lambda res, a: isinstance(res, Path)),
              ("sha256", "path", lambda res, a: isinstance(res, str) and len(res) == 64),
              ("read_manifest", "csv_path", lambda res, a: isinstance(res, dict)),
              ("problems", "csv_path", lambda res, a: isinstance(res, list)))],
        Target("data.load", d.load,
               {"study": Arg(st.sampled_from(["vts", "spxtape"]),
                             st.one_of(st.sampled_from(["../data/vts", "nope", "vts/../spxtape"]), TEXT)),
                "name": Arg(st.sampled_from(["text_values", "table1"]),
                            st.one_of(st.sampled_from(["../spxtape/table1", "..", "/etc/passwd", "table1.csv"]), TEXT))},
               ("study", "name"),
               lambda res, a: isinstance(res, pd.DataFrame) and "/" not in a["name"] and ".." not in a["name"]
               and "/" not in a["study"] and ".." not in a["study"]),
        Target("data.all_data_files", d.all_data_files, {}, (), lambda res, a: isinstance(res, list) and res),
        Target("data.main", d.main,
               {"argv": st.one_of(st.sampled_from([["check"], [], ["check", "x"], ["help"]]),
                                  st.lists(st.text(max_size=6), max_size=2).filter(lambda v: v[:1] != ["refresh"]),
                                  HOSTILE)}, ("argv",), lambda res, a: res in (0, 1, 2), examples=25),
        # cache
        Target("cache.memoized", m.memoized,
               {"name": Arg(st.sampled_from(["demo", "demo-2.x"]),
                            st.one_of(st.sampled_from(["../escape", "a/b", "", ".hidden"]), TEXT)),
                "compute": Arg(st.sampled_from(list(_COMPUTES)[:4] + list(_COMPUTES)[6:]),
                               st.one_of(st.sampled_from(list(_COMPUTES)[4:6]), HOSTILE)),
                "n": NUMBERS}, ("name", "compute"),
               lambda res, a: cache.same(res, a["compute"]()) and isinstance(a["name"], str)
               and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", a["name"]), extra_names=("n",), examples=40),
        Target("cache.encode", _get(m, "encode"), {"value": st.one_of(_STORABLE, HOSTILE)}, ("value",),
               lambda res, a: json.dumps(res) is not None),
        Target("cache.decode", _get(m, "decode"), {"data": _DOCUMENTS}, ("data",), lambda res, a: True),
        Target("cache.dump", _get(m, "dump"), {"value": st.one_of(_STORABLE, HOSTILE)}, ("value",),
               lambda res, a: isinstance(res, bytes)),
        Target("cache.same", _get(m, "same"), {"first": st.one_of(_STORABLE, HOSTILE),
                                               "second": st.one_of(_STORABLE, HOSTILE)}, ("first", "second"),
               lambda res, a: isinstance(res, bool)),
        Target("cache.callable_digest", _get(m, "callable_digest"),
               {"compute": st.one_of(st.sampled_from([_stub, len, print, sum, POINT.replace, *list(_COMPUTES)]), HOSTILE)},
               ("compute",), lambda res, a: isinstance(res, str) and len(res) == 64),
        Target("cache.sources_digest", m.sources_digest, {}, (), lambda res, a: len(res) == 64),
        Target("cache.dependency_versions", _get(m, "dependency_versions"), {}, (), lambda res, a: len(res) > 5),
        # registry, scoreboard, context
        Target("studies.study_module", studies.study_module,
               {"key": st.one_of(st.sampled_from(["nope", "", "VTS", "models"]), HOSTILE)}, ("key",),
               lambda res, a: False, extra_names=("study",)),
        Target("accuracy.study_comparison", accuracy.study_comparison,
               {"key": st.one_of(st.sampled_from(["nope", ""]), HOSTILE)}, ("key",), lambda res, a: False,
               extra_names=("study",)),
        Target("accuracy.collect", accuracy.collect,
               {"keys": st.one_of(st.sampled_from([[], (), ["nope"], "vts", [3]]),
                                  HOSTILE.filter(lambda keys: keys is not None))}, ("keys",),  # None runs every study
               lambda res, a: isinstance(res, pd.DataFrame) and res.empty and isinstance(a.get("keys"), (list, tuple)),
               extra_names=("study",)),
        Target("accuracy.markdown_board", accuracy.markdown_board, {"table": TABLES}, ("table",),
               lambda res, a: isinstance(res, str)),
        Target("accuracy.readme_board", accuracy.readme_board,
               {"text": st.one_of(st.just(f"{accuracy.README_START}\n| a |\n{accuracy.README_END}"), TEXT)}, ("text",),
               lambda res, a: isinstance(res, str)),
        Target("context.building_book", context.building_book, {}, (), lambda res, a: isinstance(res, bool)),
    ]


class _Declared(FIFONode):
    log: list


def _declared_ok(field: dataclasses.Field) -> bool:
    """A declared field's default is itself allowed by its declaration, and its bounds are ordered numbers."""
    meta = field.metadata
    params_module.validate_value("param", "default", field.default, dict(meta))
    low, high = meta["low"], meta["high"]
    return all(b is None or _real(b) for b in (low, high)) and (low is None or high is None or low <= high)


_COMPUTES = {lambda: 1.5: None, lambda: {"a": [1, 2.5, None]}: None, lambda: RUNS: None, lambda: POINT: None,
             lambda: {1, 2}: None, lambda: _Opaque(): None, lambda: (np.float64(0.5), np.arange(3)): None}
_STORABLE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5),
              st.sampled_from([RUNS, SUMMARY, TABLE, POINT, REPLICATIONS, np.int64(3), np.arange(4.0)])),
    lambda children: st.one_of(st.lists(children, max_size=3), st.tuples(children, children),
                               st.dictionaries(st.text(max_size=3), children, max_size=3)),
    max_leaves=8)
_TAGS = ["list", "tuple", "dict", "numpy", "ndarray", "DataFrame", "Series", "Index", "RangeIndex", "MultiIndex",
         "record", "category", "object", "<f8", "|b1", "Int64", "str", "perfstudies.reference:QueueParams",
         "os:system", "builtins:eval"]
_DOCUMENTS = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(), st.sampled_from(_TAGS),
              st.text(max_size=5)),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.sampled_from(["__type__", "items", "dtype", "values", "shape", "class", "fields", "index",
                                         "columns", "data", "name", "start", "stop", "step", "levels", "names",
                                         "codes", "categories", "ordered", "value"]), children, max_size=5)),
    max_leaves=20)


def _demands_ok(demands, think=0.0) -> bool:
    return (isinstance(demands, dict) and 1 <= len(demands) <= mva.MAX_STATIONS
            and all(isinstance(k, str) and k and k != "total" for k in demands)
            and all(_real(v) and (v == 0 or mva.MIN_TIME <= v <= mva.MAX_TIME) for v in demands.values())
            and _real(think) and (think == 0 or mva.MIN_TIME <= think <= mva.MAX_TIME)
            and (sum(demands.values()) + think) > 0)


DEMANDS = Arg(st.dictionaries(st.sampled_from(["cpu", "disk A", "disk B"]),
                              st.one_of(st.floats(1e-3, 1e3), st.just(0.0)), min_size=1, max_size=3),
              st.one_of(st.dictionaries(st.one_of(st.sampled_from(["cpu", "total", ""]), KEYS), NUMBERS, max_size=3),
                        HOSTILE))
THINK = Arg(st.one_of(st.just(0.0), st.floats(1e-3, 100)), NUMBERS)
POPULATION = Arg(st.integers(1, 60), st.one_of(st.integers(-2, 0), st.sampled_from([10**7 + 1, 10**400]), HOSTILE))
SERIES = Arg(st.lists(st.floats(-1e6, 1e6), min_size=50, max_size=120),
             st.one_of(st.lists(NUMBERS, max_size=60), st.just([10**400] * 60), st.just([1e300] * 60), HOSTILE))
NODES = Arg(st.just([("a", 0, 0, "A"), ("b", 1, 0, "B\nqueue")]),
            st.one_of(st.sampled_from([[], [("a", math.inf, 0, "A")], [("a", 0, 0)], ["abcd"], [("a", 10**400, 0, "A")],
                                       [("a", 0, 0, "A"), ("a", 1, 0, "B")], [("a", 0, 0, "A"), ("b", 300, 0, "B")]]),
                      HOSTILE))
EDGES = Arg(st.sampled_from([[], [("a", "b", "route")], [("b", "a", "")]]),
            st.one_of(st.sampled_from([[("a", "z", "")], [("a", "b")], ["abc"]]), HOSTILE))
CENTRAL = centralserver.CentralServerParams()


def _finite_solution(res) -> bool:
    return math.isfinite(res.throughput) and res.throughput > 0 and math.isfinite(res.response_time)


def _theory_targets() -> list[Target]:
    """The modules the first fuzz left untargeted: mva, warmup, tables, charts, diagrams, centralserver."""
    single = {"demands": DEMANDS, "population": POPULATION, "think_time": THINK}
    ok = lambda a, high=mva.MAX_POPULATION: (_demands_ok(a["demands"], a.get("think_time", 0.0))
                                             and _integer(a["population"]) and 1 <= a["population"] <= high)
    return [
        Target("mva.exact", mva.exact, single, ("demands", "population"),
               lambda res, a: ok(a) and _finite_solution(res)),
        Target("mva.exact_path", mva.exact_path, single, ("demands", "population"),
               lambda res, a: ok(a) and len(res) == a["population"] and all(map(_finite_solution, res))),
        Target("mva.bard_schweitzer", mva.bard_schweitzer, single, ("demands", "population"),
               lambda res, a: ok(a, mva.MAX_APPROXIMATE_POPULATION) and _finite_solution(res)),
        Target("mva.bounds", mva.bounds, single, ("demands", "population"),
               lambda res, a: ok(a, mva.MAX_APPROXIMATE_POPULATION)
               and all(_real(v) or v == math.inf for v in res.asymptotic_throughput)),
        Target("mva.sweep", mva.sweep,
               {"demands": DEMANDS, "think_time": THINK,
                "populations": Arg(st.lists(st.integers(1, 50), min_size=1, max_size=5),
                                   st.one_of(st.sampled_from([[], range(1, 10**6), [0], [10**400], "12"]), HOSTILE)),
                "method": Arg(st.sampled_from(["exact", "bard-schweitzer"]), TEXT)}, ("demands", "populations"),
               lambda res, a: _demands_ok(a["demands"], a.get("think_time", 0.0)) and len(res) == len(a["populations"])
               and a.get("method", "exact") in ("exact", "bard-schweitzer"), examples=30),
        Target("mva.demands_from", mva.demands_from,
               {"visits": Arg(st.just({"cpu": 3.0, "disk": 2.0}), st.one_of(st.dictionaries(st.just("cpu"), NUMBERS), HOSTILE)),
                "service_times": Arg(st.just({"cpu": 0.5, "disk": 0.1}),
                                     st.one_of(st.dictionaries(st.just("cpu"), NUMBERS), HOSTILE))},
               ("visits", "service_times"),
               lambda res, a: isinstance(res, dict) and all(_real(v) and v >= 0 for v in res.values())
               and set(a["visits"]) == set(a["service_times"])),
        Target("warmup.mser", warmup.mser,
               {"values": SERIES, "batch": Arg(st.integers(1, 5), st.one_of(st.integers(-1, 0), st.just(1001), HOSTILE))},
               ("values",),
               lambda res, a: isinstance(res, warmup.Truncation) and 0 <= res.index < len(a["values"])
               and all(_real(v) and abs(v) <= warmup.MAX_VALUE for v in a["values"])),
        Target("warmup.mser5", warmup.mser5, {"values": SERIES}, ("values",),
               lambda res, a: isinstance(res, warmup.Truncation) and 0 <= res.index < len(a["values"])
               and all(_real(v) and abs(v) <= warmup.MAX_VALUE for v in a["values"])),
        *[Target(f"tables.{name}", getattr(tables, name),
                 {"value": Arg(st.floats(-1e12, 1e12), NUMBERS), "digits": Arg(st.integers(1, 6), st.one_of(
                     st.integers(-2, 0), st.just(16), HOSTILE))}, ("value",),
                 lambda res, a: isinstance(res, str) and "e" not in res.lower()
                 and (a["value"] is None or _real(a["value"]) or a["value"] != a["value"]
                      or abs(a["value"]) == math.inf))
          for name in ("number", "exact")],
        Target("tables.percent", tables.percent,
               {"fraction": Arg(st.floats(-10, 10), NUMBERS), "digits": Arg(st.integers(0, 6), st.one_of(
                   st.integers(-2, -1), st.just(7), HOSTILE)), "signed": FLAGS}, ("fraction",),
               lambda res, a: isinstance(res, str) and res.endswith("%") or res == tables.EMPTY
               and _flag(a.get("signed", False))),
        Target("charts.wrapped_title", charts.wrapped_title,
               {"text": Arg(st.text(max_size=200), HOSTILE), "width": Arg(st.floats(100, 2000), NUMBERS),
                "font_size": Arg(st.floats(1, 100), NUMBERS)}, ("text",),
               lambda res, a: isinstance(a["text"], str) and _real(a.get("width", 640))
               and _real(a.get("font_size", 15)) and a.get("font_size", 15) >= 1),
        Target("charts.panel_width", charts.panel_width,
               {"columns": Arg(st.integers(1, 4), st.one_of(st.integers(-1, 0), st.just(5), HOSTILE))}, ("columns",),
               lambda res, a: isinstance(res, int) and res > 0),
        Target("charts.axis_title", charts.axis_title, {"name": st.just("x_title"), "title": TEXT}, ("name", "title"),
               lambda res, a: isinstance(res, str) and res.strip() != ""),
        Target("diagrams.network_diagram", diagrams.network_diagram,
               {"nodes": NODES, "edges": EDGES, "title": Arg(st.text(max_size=20), HOSTILE)}, ("nodes", "edges"),
               lambda res, a: isinstance(a.get("title", ""), str), examples=30),
        Target("centralserver.solve", centralserver.solve, {"p": st.one_of(st.just(CENTRAL), HOSTILE)}, ("p",),
               lambda res, a: _finite_solution(res)),
        Target("centralserver.mva_metrics", centralserver.mva_metrics, {"p": st.one_of(st.just(CENTRAL), HOSTILE)},
               ("p",), lambda res, a: isinstance(res, dict)),
    ]


TARGETS = _core_targets() + _theory_targets()


def _split(argument) -> tuple:
    return (argument.valid, argument.bad) if isinstance(argument, Arg) else (argument, argument)


@st.composite
def _call_arguments(draw, arguments: dict, required: tuple):
    """Three kinds of call in equal shares: every argument allowed; all allowed but one bad; anything."""
    kind = draw(st.sampled_from(["allowed", "one bad", "anything"]))
    pick = (lambda a: st.one_of(*_split(a))) if kind == "anything" else (lambda a: _split(a)[0])
    drawn = draw(st.fixed_dictionaries({k: pick(arguments[k]) for k in required},
                                       optional={k: pick(v) for k, v in arguments.items() if k not in required}))
    bad = None
    if kind == "one bad" and arguments:
        bad = draw(st.sampled_from(sorted(arguments)))
        drawn[bad] = draw(_split(arguments[bad])[1])
    return drawn, bad


def _signature_names(function) -> tuple[set, bool]:
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return set(), True
    keywords = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    return {name for name, p in parameters.items() if p.kind is not inspect.Parameter.VAR_KEYWORD}, keywords


@pytest.mark.parametrize("target", TARGETS, ids=[t.label for t in TARGETS])
def test_core_function_returns_a_valid_result_or_names_the_bad_argument(target):
    _fuzz(target)


def _fuzz(target: Target) -> None:
    """Call ``target`` on generated arguments and fail on anything but valid results and named refusals."""
    if target.function is None:
        pytest.skip(f"{target.label} does not exist in this version of the code")
    names, keywords = _signature_names(target.function)
    # only the arguments this version of the function has (so the suite also measures older code)
    arguments = {k: v for k, v in target.arguments.items() if k in names or keywords}
    required = tuple(k for k in target.required if k in arguments)
    mentionable = names | set(arguments) | set(target.extra_names)

    @_settings(target.examples)
    @given(_call_arguments(arguments, required))
    def run(case):
        drawn, bad = case
        _RecordingPool.asked = []
        paths = {str(drawn[k]) for k in target.value_names if isinstance(drawn.get(k), (str, Path))}
        # one bad argument: a refusal counts as named only when it names that argument (or one whose
        # strategy has no allowed/bad split, so that it may be bad too)
        unsplit = {k for k, v in arguments.items() if not isinstance(v, Arg)}
        names = (mentionable | paths) if bad is None else \
            ({bad, *unsplit, *target.extra_names} | {p for p in paths if p == str(drawn.get(bad))}
             | {str(drawn[k]) for k in unsplit & set(target.value_names) if isinstance(drawn.get(k), (str, Path))})
        _attempt(target.label, lambda: target.function(**drawn), names,
                 lambda result: target.valid(result, drawn), target.errors, _short(drawn))

    # the limit reaches _attempt outside run(), whose source seeds the derandomized draws
    global _call_limit
    _call_limit = target.limit
    try:
        run()
    finally:
        _call_limit = TIME_LIMIT_S
    _check_target(target.label)


# --- the parameter records of every registered study -------------------------------------------------------------

def _record_classes() -> list:
    modules = [reference, centralserver]
    for key in STUDIES:
        try:
            modules.append(importlib.import_module(f"perfstudies.models.{key}.params"))
        except Exception as error:  # a study being restructured: say so, do not hide it
            modules.append(error.__class__(f"perfstudies.models.{key}.params: {error}"))
    found = []
    for module in modules:
        if isinstance(module, Exception):
            found.append(pytest.param(module, id=str(module).split(":")[0]))
            continue
        for _, klass in inspect.getmembers(module, inspect.isclass):
            if issubclass(klass, params_module.Params) and klass.__module__ == module.__name__:
                found.append(pytest.param(klass, id=f"{module.__name__}.{klass.__name__}"))
    return found


def _valid_values(meta: dict):
    """Values a field declares allowed (a record of them can still fail a cross-field check)."""
    kind, low, high = meta["kind"], meta["low"], meta["high"]
    if meta["choices"] is not None:
        return st.sampled_from(meta["choices"])
    if kind == "bool":
        return st.booleans()
    if kind == "int":
        return st.integers(int(low) if low is not None else -10**6, int(high) if high is not None else 10**6)
    if kind == "float":
        edges = [bound for bound, is_open in ((low, meta["low_open"]), (high, meta["high_open"]))
                 if bound is not None and not is_open]
        inside = st.floats(low if low is not None else -1e9, high if high is not None else 1e9,
                           exclude_min=meta["low_open"] and low is not None,
                           exclude_max=meta["high_open"] and high is not None)
        return st.one_of(inside, st.sampled_from(edges)) if edges else inside
    return st.text(max_size=8)


def _bad_values(meta: dict):
    """Values just outside a field's range, and hostile ones."""
    outside = [value for bound in (meta["low"], meta["high"]) if bound is not None
               for value in (bound - 1e-9 * max(1.0, abs(bound)), bound + 1e-9 * max(1.0, abs(bound)))]
    return st.one_of(st.sampled_from(outside), NUMBERS, HOSTILE) if outside else st.one_of(NUMBERS, HOSTILE)


@st.composite
def _record_arguments(draw, spec: dict):
    """Three kinds of input in equal shares: every field allowed; all allowed but one field
    (or an unknown keyword) bad; every field anything."""
    kind = draw(st.sampled_from(["allowed", "one bad", "anything"]))
    if kind == "anything":
        return draw(st.fixed_dictionaries({}, optional={name: st.one_of(_valid_values(meta), _bad_values(meta))
                                                        for name, meta in spec.items()})), None
    arguments = draw(st.fixed_dictionaries({}, optional={name: _valid_values(meta) for name, meta in spec.items()}))
    name = None
    if kind == "one bad":
        name = draw(st.sampled_from([*sorted(spec), "unknown_field"]))
        arguments[name] = draw(_bad_values(spec[name]) if name in spec else HOSTILE)
    return arguments, name


def _accepted(record, arguments) -> bool:
    try:
        with _time_limit(TIME_LIMIT_S):
            record(**arguments)
    except (Exception, _TimeLimit):
        return False
    return True


@pytest.mark.parametrize("record", _record_classes())
def test_parameter_record_is_valid_or_names_the_field(record):
    if isinstance(record, Exception):
        pytest.fail(f"cannot import {record}")
    spec = record.spec()
    label = f"record {record.__module__}.{record.__name__}"

    def valid(result) -> bool:
        return isinstance(result, record) and all(
            params_module.validate_value(record.__name__, name, getattr(result, name), meta) == getattr(result, name)
            for name, meta in spec.items())

    @_settings(EXAMPLES * 2)
    @given(_record_arguments(spec))
    def run(case):
        drawn, bad = case
        # one bad field: named only when the message names that field (the class alone does not count),
        # unless the other fields are refused without it too (then the culprit is among them)
        names = set(spec) | set(drawn)
        if bad is not None and _accepted(record, {k: v for k, v in drawn.items() if k != bad}):
            names = {bad}
        _attempt(label, lambda: record(**drawn), names, valid, shown=_short(drawn))

    run()
    _check_target(label)


# --- the studies' entry points, run on short accepted records ----------------------------------------------------

#: Most Ciw events a generated record's own estimate may ask for: a run of a few tenths of a second.
STUDY_EVENTS = 20_000
#: Wall-clock seconds one study call may take: its runs take a few tenths of a second of CPU, on a
#: machine shared with other work, and any accepted input is bounded by a minute of CPU anyway
#: (``tests/test_event_estimates.py``, ``tests/test_budget.py``).
STUDY_LIMIT_S = 20.0
#: Generated inputs per study target (each runs simulations).
STUDY_EXAMPLES = {"model": 10, "widget_run": 4, "closed form": 5, "sweep_points": 3}
#: Each record's run-length fields, held short (strategies), and the short record (changes from the
#: defaults) used in place of a generated one that the record refuses or that estimates more than
#: STUDY_EVENTS events; every other field takes any value its range allows.
SHORT = {
    "DiagParams": ({"max_time_us": st.floats(1e4, 2e5), "warmup_us": st.floats(0.0, 5e3)},
                   {"max_time_us": 1e5, "warmup_us": 0.0}),
    "DeviceParams": ({"max_time": st.floats(10.0, 60.0), "warmup": st.floats(0.0, 5.0)},
                     {"max_time": 60.0, "warmup": 5.0}),
    "ImsParams": ({"max_time": st.floats(10.0, 30.0), "warmup": st.floats(0.0, 5.0)}, {"max_time": 20.0, "warmup": 5.0}),
    "TsoParams": ({"max_time": st.floats(10.0, 60.0), "warmup": st.floats(0.0, 5.0)}, {"max_time": 60.0, "warmup": 5.0}),
    "SpxtapeParams": ({"total_pages": st.integers(1_000, 20_000)}, {"total_pages": 10_000}),
    "ConcurrentParams": ({"run_time": st.floats(10.0, 30.0), "warmup": st.floats(0.0, 5.0)},
                         {"run_time": 20.0, "warmup": 5.0}),
    "VTSParams": ({"completions": st.integers(50, 200)}, {"completions": 100}),
    "DumpParams": ({"dump_blocks": st.integers(10_000, 60_000)}, {"dump_blocks": 20_000}),
}


def _events(record) -> float:
    """A record's own estimate of one replication's events (0 for a record without one, e.g. a panel's)."""
    for name in ("events_estimate", "events_per_replication", "events"):
        value = getattr(record, name, None)
        if value is not None:
            return value() if callable(value) else value
    return 0.0


def _short_or_fallback(cls, fields: dict, short: dict, fallback: dict):
    try:
        record = cls(**fields, **short)
    except ValueError:
        return cls(**fallback)
    return record if _events(record) <= STUDY_EVENTS else cls(**fallback)


def _short_records(cls) -> st.SearchStrategy:
    """Accepted records of ``cls`` with short runs: any allowed value of every field, run lengths held short."""
    short, fallback = SHORT.get(cls.__name__, ({}, {}))
    fields = st.fixed_dictionaries({}, optional={name: _valid_values(meta) for name, meta in cls.spec().items()
                                                 if name not in short})
    return st.builds(_short_or_fallback, st.just(cls), fields, st.fixed_dictionaries(short), st.just(fallback))


def _record_classes_of(hint) -> tuple:
    """The Params classes a type hint names (a class, or a union of them, None aside)."""
    options = typing.get_args(hint) if typing.get_args(hint) else (hint,)
    return tuple(option for option in options if isinstance(option, type) and issubclass(option, params_module.Params))


def _metrics(result) -> bool:
    return isinstance(result, dict) and bool(result) and all(
        isinstance(name, str) and isinstance(value, numbers.Real) for name, value in result.items())


def _sweep_points_valid(result) -> bool:
    groups = result.values() if isinstance(result, dict) else [result]
    return all(isinstance(group, list) and group and all(isinstance(point, params_module.Params) for point in group)
               for group in groups)


#: The arguments of the sweep_points functions that take any (the others take none).
SWEEP_ARGUMENTS = {
    "rates": Arg(st.lists(st.sampled_from([5.0, 10.0, 25.0, 30.0]), min_size=1, max_size=3),
                 st.one_of(st.sampled_from([[], [0.0], [1e9], [math.nan]]), HOSTILE)),
    "parameters": Arg(st.lists(st.integers(1, 5), min_size=1, max_size=3),
                      st.one_of(st.sampled_from([[], [0], [6], [1.5]]), HOSTILE)),
    "channel_paths": Arg(st.lists(st.integers(1, 8), min_size=1, max_size=3).map(tuple),
                         st.one_of(st.sampled_from([(), (0,), (9,), (1.5,)]), HOSTILE)),
}


def _study_targets() -> list[Target]:
    """Each study's ``model``, ``widget_run`` and ``sweep_points``, and every public function of its
    ``__all__`` that takes one of its records (and a seed), e.g. the closed forms: called with short
    accepted records, wrong records (another study's, hostile values) and wrong seeds."""
    modules = {key: studies.study_module(key) for key in STUDIES}
    others = [module.STUDY.params() for module in modules.values()]
    seeds = Arg(st.integers(0, runner.MAX_SEED),
                st.one_of(st.sampled_from([-1, runner.MAX_SEED + 1, 1.5, True, "1", None]), HOSTILE))
    targets = []
    for key, module in modules.items():
        for name in module.__all__:
            function = getattr(module, name)
            if name == "sweep_points":
                names, _ = _signature_names(function)
                targets.append(Target(f"{key}.sweep_points", function,
                                      {arg: SWEEP_ARGUMENTS[arg] for arg in names}, (),
                                      lambda res, a: _sweep_points_valid(res), STUDY_EXAMPLES["sweep_points"],
                                      limit=STUDY_LIMIT_S))
                continue
            try:
                parameters = list(inspect.signature(function).parameters.values())
                hints = typing.get_type_hints(function)
            except (TypeError, ValueError, NameError):
                continue
            if not parameters or isinstance(function, type):
                continue
            first = parameters[0].name
            classes = _record_classes_of(hints.get(first))
            rest = [p.name for p in parameters[1:] if p.default is inspect.Parameter.empty]
            if not classes or rest not in ([], ["seed"]):
                continue
            wrong = st.one_of(HOSTILE, st.sampled_from([r for r in others if not isinstance(r, classes)]))
            records = st.one_of(*map(_short_records, classes))
            if parameters[0].default is None:
                records = st.one_of(st.none(), records)
            arguments = {first: Arg(records, wrong)}
            if rest:
                arguments["seed"] = seeds
            kind = "model" if name == "model" or rest else "widget_run" if name == "widget_run" else "closed form"
            valid = (lambda res, a: _metrics(res)) if name.endswith("model") else (lambda res, a: res is not None)
            targets.append(Target(f"{key}.{name}", function, arguments, (first, *rest), valid,
                                  STUDY_EXAMPLES[kind], limit=STUDY_LIMIT_S))
    return targets


STUDY_TARGETS = _study_targets()


@pytest.fixture(scope="module")
def _study_memo():
    """The studies' calibrations and panel defaults from the project's disk memo (the fuzz's own folder
    would recompute them), the defaults' panel runs done before any call is timed."""
    isolated, cache.CACHE = cache.CACHE, BUILD / "cache"
    try:
        for key in STUDIES:
            studies.study_module(key).STUDY.widget_run(None)
        yield
    finally:
        cache.CACHE = isolated


@pytest.mark.parametrize("target", STUDY_TARGETS, ids=[t.label for t in STUDY_TARGETS])
def test_study_entry_point_runs_short_records_or_names_the_bad_argument(target, _study_memo):
    _fuzz(target)


def test_outcomes_are_counted_and_reported():
    """The last test: total and per-target outcome counts, to ``_build/fuzz-outcomes.json`` and stdout."""
    totals = Counter()
    for counts in OUTCOMES.values():
        totals.update(counts)
    report = {"tried": sum(totals.values()), "accepted": totals["accepted"], "refused_named": totals["refused"],
              "other": sum(totals[kind] for kind in OTHER), "other_by_kind": {kind: totals[kind] for kind in OTHER},
              "targets": {target: dict(counts) for target, counts in sorted(OUTCOMES.items())}}
    BUILD.mkdir(exist_ok=True)
    OUTPUT.write_text(json.dumps(report, indent=1))
    print(f"\nfuzz: {report['tried']} inputs tried over {len(OUTCOMES)} targets: {report['accepted']} accepted, "
          f"{report['refused_named']} refused with a named error, {report['other']} other {report['other_by_kind']}")
    assert report["tried"] > 0
