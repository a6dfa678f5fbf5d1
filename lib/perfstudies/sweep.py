"""Parameter sweeps: many points x replications, in parallel.

A sweep runs ``model(point, seed)`` for every parameter point and replication.
Replication *i* uses the same seed at every point (common random numbers), so
differences between points come from the parameters, not from noise, and the
result does not depend on where or in which order the tasks ran: local
processes, one process, or a Dask distributed cluster all give the same table.
"""

import os
import pickle
import subprocess
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor

import pandas as pd

from perfstudies.runner import (DEFAULT_CAP, Model, check_sequential, metric_rows, missed_targets,
                                precision_targets, progress_bar, replication_seeds, summarize)


def run_sweep(model: Model, points: Sequence, replications: int = 5, seed: int = 1,
              scheduler: str | None = None, max_workers: int | None = None,
              progress: bool = True) -> pd.DataFrame:
    """Run ``model`` at every point for ``replications`` seeds.

    Parameters
    ----------
    model : callable
        ``model(params, seed) -> {metric: value}``, defined at module level so
        that worker processes can import it.
    points : sequence of Params
        The parameter records to run.
    replications, seed : int
        As in :func:`perfstudies.runner.replicate`.
    scheduler : str, optional
        Address of a Dask distributed scheduler (``"tcp://host:8786"``); when
        given, the tasks run on that cluster instead of local processes.
    max_workers : int, optional
        Local worker processes (default: all cores); ``1`` runs in-process.
    progress : bool
        Show a tqdm bar when the sweep runs longer than a couple of seconds.

    Returns
    -------
    pandas.DataFrame
        Tidy rows: ``point``, the point's parameter fields, ``replication``,
        ``seed``, ``metric``, ``value``; ordered by point, replication, metric.
    """
    points = _checked_points(points)
    if max_workers is not None and (isinstance(max_workers, bool) or not isinstance(max_workers, int)
                                    or max_workers < 1):
        raise ValueError(f"max_workers = {max_workers!r} is out of range: allowed an integer >= 1 or None")
    seeds = replication_seeds(seed, replications)
    tasks = [(model, index, point, rep, rep_seed)
             for index, point in enumerate(points) for rep, rep_seed in enumerate(seeds)]
    return _execute(model, tasks, scheduler, max_workers, progress)


def sweep_until(model: Model, points: Sequence, precision: Sequence[Mapping[str, float]], seed: int = 1,
                initial: int = 5, cap: int = DEFAULT_CAP, scheduler: str | None = None,
                max_workers: int | None = None, progress: bool = False) -> tuple[pd.DataFrame, list[tuple[int, str]]]:
    """:func:`run_sweep` with sequential replications: each point until its targets are met.

    The rule of :func:`perfstudies.runner.replicate_until`, point by point:
    every point starts with ``initial`` replications, and the points that miss
    a target get more (half as many again, at least one) until they meet it or
    reach ``cap``.  Replication *i* has the same seed at every point (common
    random numbers) whatever the final counts, so the table holds exactly the
    rows :func:`run_sweep` would give each point for its count.

    Parameters
    ----------
    precision : sequence of mappings
        One ``{metric: largest allowed CI half-width}`` per point (``{}`` for a
        point that needs only ``initial`` replications).

    Returns
    -------
    (pandas.DataFrame, list of (point, metric))
        The tidy rows, ordered as :func:`run_sweep` orders them, and the
        targets still missed at the cap.
    """
    points = _checked_points(points)
    if len(precision) != len(points):
        raise ValueError(f"precision has {len(precision)} entries: allowed one per point ({len(points)})")
    targets = [precision_targets(target) if target else {} for target in precision]
    check_sequential(initial, cap)
    seeds = replication_seeds(seed, cap)
    done = [0] * len(points)
    wanted = [initial] * len(points)
    frames, missed = [], []
    while True:
        tasks = [(model, index, point, rep, seeds[rep]) for index, point in enumerate(points)
                 for rep in range(done[index], wanted[index])]
        if tasks:
            frames.append(_execute(model, tasks, scheduler, max_workers, progress))
        done = list(wanted)
        runs = pd.concat(frames, ignore_index=True)
        summary = summarize(runs, by=["point", "metric"])
        missed = [(index, metric) for index, target in enumerate(targets)
                  for metric in missed_targets(summary.loc[index], target)]
        short = sorted({index for index, _ in missed if done[index] < cap})
        if not short:
            ordered = runs.sort_values(["point", "replication"], kind="stable").reset_index(drop=True)
            return ordered, missed
        for index in short:
            wanted[index] = min(cap, done[index] + max(1, done[index] // 2))


def _checked_points(points: Sequence) -> list:
    points = list(points)
    if not points:
        raise ValueError("points is empty: allowed a non-empty sequence of parameter records")
    return points


def _execute(model: Model, tasks: list, scheduler: str | None, max_workers: int | None,
             progress: bool) -> pd.DataFrame:
    """Run ``tasks`` on Dask, in one process, or on local worker processes; return the tidy rows."""
    bar = dict(description=f"sweep {getattr(model, '__name__', 'model')}", enabled=progress, total=len(tasks))
    if scheduler is not None:
        results = _run_on_dask(tasks, scheduler, bar)
    elif max_workers == 1 or len(tasks) == 1:
        results = [_run_task(task) for task in progress_bar(tasks, **bar)]
    else:
        workers = max_workers or os.cpu_count() or 1
        with ProcessPoolExecutor(max_workers=workers) as pool:
            chunk = max(1, len(tasks) // (4 * workers))
            results = list(progress_bar(pool.map(_run_task, tasks, chunksize=chunk), **bar))
    return pd.DataFrame([row for rows in results for row in rows])


def _run_task(task) -> list[dict]:
    model, index, point, rep, rep_seed = task
    keys = {"point": index, **point.as_dict(), "replication": rep, "seed": rep_seed}
    return metric_rows(model(point, rep_seed), **keys)


def _run_chunk(chunk) -> list[list[dict]]:
    return [_run_task(task) for task in chunk]


def _run_chunk_isolated(chunk) -> list[list[dict]]:
    """Run a chunk in a fresh Python process started by the Dask worker.

    Ciw draws from the global :mod:`random` stream, and a Dask worker's own
    threads (heartbeats, retries with jitter) draw from it too, so running in
    the worker would change a replication's random numbers.  The child process
    runs nothing else, so its streams depend on the seed alone.  (Dask workers
    are daemonic and may not use multiprocessing, hence a plain subprocess.)
    """
    child = subprocess.run([sys.executable, "-m", "perfstudies.sweep"], input=pickle.dumps(chunk),
                           capture_output=True, check=False)
    if child.returncode != 0:
        raise RuntimeError(f"sweep chunk failed in its child process:\n{child.stderr.decode()[-4000:]}")
    return pickle.loads(child.stdout)


def _run_on_dask(tasks, scheduler: str, bar: dict) -> list[list[dict]]:
    from distributed import Client, as_completed

    with Client(scheduler) as client:
        workers = max(1, sum(client.nthreads().values()))
        size = -(-len(tasks) // (2 * workers))  # two chunks per worker thread
        chunks = [tasks[start:start + size] for start in range(0, len(tasks), size)]
        futures = client.map(_run_chunk_isolated, chunks, pure=False)
        order = {future.key: position for position, future in enumerate(futures)}
        results = [None] * len(futures)
        for future in progress_bar(as_completed(futures), **{**bar, "total": len(chunks)}):
            results[order[future.key]] = future.result()
    return [rows for chunk in results for rows in chunk]


if __name__ == "__main__":
    # the child side of _run_chunk_isolated: a pickled chunk in, pickled rows out
    results_stream, sys.stdout = sys.stdout.buffer, sys.stderr  # stray prints must not corrupt the pickle
    results_stream.write(pickle.dumps(_run_chunk(pickle.loads(sys.stdin.buffer.read()))))
