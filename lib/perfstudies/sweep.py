"""Parameter sweeps: many points x replications, in parallel.

A sweep runs ``model(point, seed)`` for every parameter point and replication.
Replication *i* uses the same seed at every point (common random numbers), so
differences between points come from the parameters, not from noise, and the
result does not depend on where or in which order the tasks ran: local
processes, one process, or a Dask distributed cluster all give the same table.
"""

import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import pandas as pd
from tqdm.auto import tqdm

from perfstudies.runner import PROGRESS_DELAY_S, Model, metric_rows, replication_seeds


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
    points = list(points)
    if not points:
        raise ValueError("points is empty: allowed a non-empty sequence of parameter records")
    if max_workers is not None and (isinstance(max_workers, bool) or not isinstance(max_workers, int)
                                    or max_workers < 1):
        raise ValueError(f"max_workers = {max_workers!r} is out of range: allowed an integer >= 1 or None")
    seeds = replication_seeds(seed, replications)
    tasks = [(model, index, point, rep, rep_seed)
             for index, point in enumerate(points) for rep, rep_seed in enumerate(seeds)]
    bar = dict(total=len(tasks), desc=f"sweep {getattr(model, '__name__', 'model')}",
               delay=PROGRESS_DELAY_S, disable=not progress, leave=False)
    if scheduler is not None:
        results = _run_on_dask(tasks, scheduler, bar)
    elif max_workers == 1 or len(tasks) == 1:
        results = [_run_task(task) for task in tqdm(tasks, **bar)]
    else:
        workers = max_workers or os.cpu_count() or 1
        with ProcessPoolExecutor(max_workers=workers) as pool:
            chunk = max(1, len(tasks) // (4 * workers))
            results = list(tqdm(pool.map(_run_task, tasks, chunksize=chunk), **bar))
    return pd.DataFrame([row for rows in results for row in rows])


def _run_task(task) -> list[dict]:
    model, index, point, rep, rep_seed = task
    keys = {"point": index, **point.as_dict(), "replication": rep, "seed": rep_seed}
    return metric_rows(model(point, rep_seed), **keys)


def _run_on_dask(tasks, scheduler: str, bar: dict) -> list[list[dict]]:
    from distributed import Client, as_completed

    with Client(scheduler) as client:
        futures = client.map(_run_task, tasks, pure=False)
        order = {future.key: position for position, future in enumerate(futures)}
        results = [None] * len(futures)
        for future in tqdm(as_completed(futures), **bar):
            results[order[future.key]] = future.result()
    return results
