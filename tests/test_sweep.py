"""Sweeps give the same table in-process, over local processes and on Dask."""

import pandas as pd
import pytest

from perfstudies.reference import QueueParams, queue_model
from perfstudies.runner import summarize
from perfstudies.sweep import run_sweep, sweep_until

POINTS = [QueueParams(arrival_rate=rate, max_time=300.0, warmup=30.0) for rate in (0.3, 0.6)]


def test_local_processes_match_in_process_run():
    serial = run_sweep(queue_model, POINTS, replications=2, seed=3, max_workers=1)
    parallel = run_sweep(queue_model, POINTS, replications=2, seed=3, max_workers=2)
    pd.testing.assert_frame_equal(serial, parallel)
    assert set(serial["arrival_rate"]) == {0.3, 0.6}
    assert len(serial) == 2 * 2 * 3  # points x replications x metrics


def test_dask_local_cluster_matches_local_run():
    distributed = pytest.importorskip("distributed")
    local = run_sweep(queue_model, POINTS, replications=2, seed=3, max_workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        on_dask = run_sweep(queue_model, POINTS, replications=2, seed=3, scheduler=cluster.scheduler_address)
    pd.testing.assert_frame_equal(local, on_dask)


@pytest.mark.parametrize(("arguments", "name"), [({"points": []}, "points"), ({"max_workers": 0}, "max_workers")])
def test_bad_sweep_arguments(arguments, name):
    with pytest.raises(ValueError, match=rf"^{name}"):
        run_sweep(queue_model, **({"points": POINTS} | arguments))


def test_sweep_until_gives_each_point_the_replications_it_needs():
    points = [QueueParams(arrival_rate=0.3, max_time=300.0, warmup=30.0),
              QueueParams(arrival_rate=0.9, max_time=300.0, warmup=30.0)]
    first = run_sweep(queue_model, points, replications=3, seed=4, max_workers=1, progress=False)
    wide = summarize(first, by=["point", "metric"]).loc[(1, "mean_wait"), "half_width"]
    runs, missed = sweep_until(queue_model, points, [{}, {"mean_wait": wide / 3}], seed=4, initial=3, cap=12,
                               max_workers=1)
    counts = runs.groupby("point")["replication"].nunique()
    assert counts[0] == 3 and 3 < counts[1] <= 12
    # exactly the rows run_sweep gives each point for its count (common random numbers)
    again = run_sweep(queue_model, points[1:], replications=int(counts[1]), seed=4, max_workers=1, progress=False)
    mine = runs[runs["point"] == 1].drop(columns="point").reset_index(drop=True)
    pd.testing.assert_frame_equal(mine, again.drop(columns="point"))
    assert missed in ([], [(1, "mean_wait")])
