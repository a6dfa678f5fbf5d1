"""A chapter's precomputed sweep, declared once; its values kept in the repository and used only when they reproduce.

A study declares the sweeps behind its chapter's kernel-free sliders as
:class:`Sweep` records (``SWEEPS`` in its ``explore.py``, ``Study.sweeps``),
and the book's theory pages theirs in :mod:`perfstudies.page_sweeps`: the
model, the points, the replications (a fixed number, or a first number and a
precision target per point, :func:`perfstudies.sweep.sweep_until`'s rule) and
the seed.  :meth:`Sweep.runs` returns :func:`perfstudies.sweep.run_sweep`'s
tidy rows, disk-memoized; on a cold memo it takes the values ``make runs``
stored in ``data/runs/sweep-<name>.json``, but only after two checks
(:func:`problems`):

1. **Replay.** The sweep runs again over the declared points with the stored
   values standing in for the model (with a precision target, its sequential
   rule decides again how many replications each point gets): it must find a
   stored replication for every task, and every stored replication must be
   asked for.
2. **Spot check.** One replication of every point, picked by the digest of the
   study's sources (so a code change moves the pick) and a different one from
   point to point, is simulated again with its seed and must give the stored
   metrics bit for bit.

A sweep that fails is simulated, with a :class:`StoredSweepWarning` naming
the first problem and ``make runs``; ``tests/test_stored_sweeps.py`` fails on
it.  The check costs one replication per point instead of all of them (a
third of a sweep of three replications).  What it cannot see is a change
that alters only replications the picks do not reach; ``python -m
perfstudies.stored_runs --full`` simulates every sweep and compares all of it.

Only the values are stored (``point, replication, metric, value``): the
points' fields and seeds come from the declaration when the file is replayed.

``make runs`` (``python -m perfstudies.stored_runs``, :func:`update`) rewrites
every sweep whose stored values are missing or do not reproduce; with
``--full`` it simulates every sweep and compares all of it (:func:`full_check`).
"""

import dataclasses
import hashlib
import warnings
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from perfstudies.cache import NAME, memoized, read_entry, same, sources_digest, write_entry_unless_same
from perfstudies.paths import RUNS
from perfstudies.runner import (DEFAULT_CAP, MAX_REPLICATIONS, MAX_SEED, missed_targets, model_metrics,
                                precision_targets, replication_seeds, summarize)
from perfstudies.sweep import MAX_WORKERS, run_sweep, sweep_until

#: The command that rewrites stale stored sweeps.
REFRESH = "make runs"
#: The columns a stored sweep keeps; the rest of run_sweep's rows come from the declaration.
STORED_COLUMNS = ["point", "replication", "metric", "value"]


class StoredSweepWarning(UserWarning):
    """A sweep's stored values are missing or do not reproduce, so it is simulated."""


class _Unstored(Exception):
    """The replay asked for a replication the store does not hold."""


@dataclasses.dataclass(frozen=True)
class Sweep:
    """One precomputed sweep of a chapter, declared.

    Fields
    ------
    name : str
        ``<study>-<what>`` (letters, digits, ``_.-``): its memo entry and its
        file ``data/runs/sweep-<name>.json``.
    scope : str or None
        The study's key: the sources and data its values depend on
        (:func:`perfstudies.cache.sources_digest`); None for a book page's
        sweep (every source and data file).
    model : callable
        ``model(params, seed) -> {metric: number}``, at module level (worker
        processes import it).
    points : callable
        ``points()``: the parameter records swept, in the chapter's order.
    replications, seed : int
        As in :func:`perfstudies.sweep.run_sweep` (replication *i* of every
        point has seed ``replication_seeds(seed, replications)[i]``); with
        ``precision``, the first number of replications of every point.
    max_workers : int
        Local worker processes when the sweep is simulated (1: in-process).
    precision : callable or None
        ``precision()``: one ``{metric: largest 95% half-width}`` per point, the
        targets :func:`perfstudies.sweep.sweep_until` replicates each point
        until, up to ``cap`` replications (None: ``replications`` each).
    cap : int
        Most replications of a point under ``precision``.
    """

    name: str
    scope: str | None
    model: Callable
    points: Callable
    replications: int
    seed: int
    max_workers: int = 1
    precision: Callable | None = None
    cap: int = DEFAULT_CAP

    def __post_init__(self):
        if not isinstance(self.name, str) or not NAME.fullmatch(self.name):
            raise ValueError(f"Sweep.name = {self.name!r} is not allowed: allowed 1-121 letters, digits, '_', '.' "
                             "or '-', starting with a letter or digit")
        if self.scope is not None and (not isinstance(self.scope, str) or not self.scope.isidentifier()):
            raise ValueError(f"Sweep.scope = {self.scope!r} is not allowed: allowed a study's key (an identifier) "
                             "or None")
        for field in ("model", "points"):
            if not callable(getattr(self, field)):
                raise ValueError(f"Sweep.{field} = {getattr(self, field)!r} has the wrong type: allowed a callable")
        if self.precision is not None and not callable(self.precision):
            raise ValueError(f"Sweep.precision = {self.precision!r} has the wrong type: allowed a callable or None")
        for field, low, high in (("replications", 1, 1_000), ("seed", 0, MAX_SEED), ("max_workers", 1, MAX_WORKERS),
                                 *([("cap", self.replications, MAX_REPLICATIONS)] if self.precision else [])):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"Sweep.{field} = {value!r} is not allowed: allowed an integer from {low} to {high}")

    def runs(self) -> pd.DataFrame:
        """:func:`~perfstudies.sweep.run_sweep`'s tidy rows of this sweep: stored when they reproduce, else simulated.

        Disk-memoized on the study's sources, like the comparison's runs.
        """
        return memoized(f"sweep-{self.name}", self._stored_or_simulated, scope=self.scope,
                        replications=self.replications, seed=self.seed, cap=self.cap)

    def simulate(self) -> pd.DataFrame:
        """Every replication of every point, simulated by this code (no memo, nothing stored read)."""
        return self.run_with(self.model, self.max_workers)

    def seeds(self) -> list[int]:
        """The seed of each replication a point may get (``replications``, or ``cap`` with ``precision``)."""
        return replication_seeds(self.seed, self.cap if self.precision else self.replications)

    def missed(self, runs: pd.DataFrame) -> list[tuple[int, str]]:
        """The ``(point, metric)`` precision targets ``runs`` still miss (at the cap); [] without ``precision``."""
        if self.precision is None:
            return []
        summary = summarize(runs, by=["point", "metric"])
        return [(index, metric) for index, target in enumerate(self.precision()) if target
                for metric in missed_targets(summary.loc[index], precision_targets(target))]

    def run_with(self, model: Callable, max_workers: int) -> pd.DataFrame:
        """run_sweep's rows of ``model`` over the points, with this sweep's replication rule (a replay's stand-in
        for the model, or the model itself)."""
        if self.precision is None:
            return run_sweep(model, self.points(), replications=self.replications, seed=self.seed,
                             max_workers=max_workers, progress=False)
        return sweep_until(model, self.points(), self.precision(), seed=self.seed, initial=self.replications,
                           cap=self.cap, max_workers=max_workers)[0]

    def _stored_or_simulated(self) -> pd.DataFrame:
        stored = reproduced(self)
        return stored if stored is not None else self.simulate()


def path(sweep: Sweep) -> Path:
    """Where ``sweep``'s values are stored."""
    return RUNS / f"sweep-{sweep.name}.json"


def load(sweep: Sweep) -> pd.DataFrame | None:
    """``sweep``'s stored values (:data:`STORED_COLUMNS`), or None when none are stored (ValueError if unusable)."""
    if not path(sweep).exists():
        return None
    values = read_entry(path(sweep), f"sweep-{sweep.name}")[1]
    if not isinstance(values, pd.DataFrame) or list(values.columns) != STORED_COLUMNS:
        raise ValueError(f"{path(sweep)} holds no table of columns {STORED_COLUMNS}")
    return values


def stored_values(runs: pd.DataFrame) -> pd.DataFrame:
    """The part of run_sweep's rows that is stored: :data:`STORED_COLUMNS`."""
    return runs[STORED_COLUMNS].reset_index(drop=True)


def replay(sweep: Sweep, values: pd.DataFrame) -> pd.DataFrame:
    """run_sweep's rows of ``sweep`` with ``values`` standing in for its model (:class:`_Unstored` if one is missing)."""
    index_of = {}
    for index, point in enumerate(sweep.points()):
        index_of.setdefault(point, index)
    seeds = sweep.seeds()
    groups = {key: frame for key, frame in values.groupby(["point", "replication"], sort=False)}
    asked = set()

    def stored_model(params, seed):
        key = (index_of[params], seeds.index(seed))
        if key not in groups:
            raise _Unstored(f"point {key[0]} ({params!r}) replication {key[1] + 1} is not stored")
        asked.add(key)
        frame = groups[key]
        return dict(zip(frame["metric"], frame["value"].to_numpy()))

    runs = sweep.run_with(stored_model, max_workers=1)
    unasked = set(groups) - asked
    if unasked:
        point, replication = min(unasked)
        raise _Unstored(f"point {point} replication {replication + 1} is stored but not part of the sweep")
    return runs


def problems(sweep: Sweep, values: pd.DataFrame) -> list[str]:
    """What stops ``values`` from being ``sweep``'s values under this code (empty: none); see the module docstring."""
    try:
        runs = replay(sweep, values)
    except _Unstored as reason:
        return [str(reason)]
    pick = int(sources_digest(sweep.scope)[:8], 16)
    seeds = sweep.seeds()
    counts = runs.groupby("point")["replication"].nunique()
    for index, point in enumerate(sweep.points()):
        replication = spot_checked(pick, index, int(counts[index]))
        fresh = model_metrics(sweep.model, point, seeds[replication])
        rows = runs[(runs["point"] == index) & (runs["replication"] == replication)]
        stored = dict(zip(rows["metric"], rows["value"]))
        if list(fresh) != list(stored) or not all(_identical(fresh[name], stored[name]) for name in fresh):
            return [f"point {index} replication {replication + 1} simulates to {dict(fresh)} with this code; "
                    f"stored: {stored}"]
    return []


def spot_checked(pick: int, position: int, replications: int) -> int:
    """The replication a spot check simulates again, of ``replications``, at the point (or configuration) at
    ``position``: ``pick`` (from the sources' digest) moves it with every code change, ``position`` from one
    point to the next, so the checks of successive changes reach every replication."""
    return (pick + position) % replications


def _identical(fresh, stored) -> bool:
    return float(fresh) == float(stored) or (float(fresh) != float(fresh) and float(stored) != float(stored))


def reproduced(sweep: Sweep) -> pd.DataFrame | None:
    """``sweep``'s rows from its stored values if they reproduce (:func:`problems`), else None.

    None without a word when nothing is stored; with a :class:`StoredSweepWarning`
    when the file cannot be read or does not reproduce.  The verdict is
    disk-memoized on the study's sources and the file's sha256.
    """
    try:
        values = load(sweep)
    except ValueError as reason:
        warnings.warn(f"{reason}; simulating instead ({REFRESH} rewrites it)", StoredSweepWarning, stacklevel=2)
        return None
    if values is None:
        return None
    found = verdict(sweep, values, hashlib.sha256(path(sweep).read_bytes()).hexdigest())
    if found:
        warnings.warn(f"{path(sweep)} does not reproduce: {found[0]}; simulating instead ({REFRESH} rewrites it)",
                      StoredSweepWarning, stacklevel=2)
        return None
    return replay(sweep, values)


def verdict(sweep: Sweep, values: pd.DataFrame, digest: str) -> list[str]:
    """:func:`problems` of ``values``, disk-memoized on the study's sources and ``digest`` (the file's sha256)."""
    return memoized(f"stored-sweep-check-{sweep.name}", lambda: problems(sweep, values), scope=sweep.scope,
                    stored=digest, replications=sweep.replications, seed=sweep.seed)


def declared(keys, pages: bool = True) -> list[Sweep]:
    """Every sweep the studies of ``keys`` declare, in their order, after the book pages' (unless not ``pages``)."""
    from perfstudies.page_sweeps import PAGE_SWEEPS
    from perfstudies.studies import study as study_of

    return [*(PAGE_SWEEPS if pages else ()), *(sweep for key in keys for sweep in study_of(key).sweeps.values())]


def update(keys, pages: bool = True) -> list[str]:
    """Write the values of every sweep of ``keys`` (and of the pages) that are missing or do not reproduce."""
    lines = []
    for sweep in declared(keys, pages):
        values = stored_values(sweep.runs())
        if not write_entry_unless_same(path(sweep), f"sweep-{sweep.name}", sources_digest(sweep.scope)[:24], values):
            lines.append(f"{sweep.name}: {path(sweep)} reproduces; unchanged")
            continue
        lines.append(f"{sweep.name}: wrote {path(sweep)} ({values['point'].nunique()} points, "
                     f"{len(values.groupby(['point', 'replication']))} replications)")
    return lines


def full_check(keys, pages: bool = True) -> list[str]:
    """Simulate every sweep of ``keys`` (and of the pages) from scratch and compare all of it with the stored values."""
    lines = []
    for sweep in declared(keys, pages):
        stored = load(sweep)
        fresh = stored_values(sweep.simulate())
        lines.append(f"{sweep.name}: {'identical' if stored is not None and same(fresh, stored) else 'DIFFERENT'}")
    return lines
