"""Sweeps give the same table in-process, over local processes and on Dask."""

import pandas as pd
import pytest

from perfstudies.engine import EventBudgetExceeded
from perfstudies.reference import QueueParams, queue_model
from perfstudies.runner import summarize
from perfstudies.sweep import run_sweep, sweep_until
from timeouts import within

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
    # Workers as threads of this process (each chunk still runs in a child process of its own,
    # sweep._run_chunk_isolated), behind a real TCP scheduler: 5.8 s here against 15.4 s with worker processes.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://",
                                  dashboard_address=None) as cluster:
        on_dask = run_sweep(queue_model, POINTS, replications=2, seed=3, scheduler=cluster.scheduler_address)
        # the sweep's event budget holds on Dask too: each chunk's child runs within its grant
        with pytest.raises(EventBudgetExceeded, match=r"the sweep.s max_events = 300 over all its runs \(1 points"):
            run_sweep(queue_model, POINTS[:1], replications=1, seed=3, scheduler=cluster.scheduler_address,
                      max_events=300)
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


# --- hardening: worker counts, failed children, scheduler addresses -------------------------------------------

import concurrent.futures
import contextlib
import os
import signal
import socket
import threading
import time
from pathlib import Path

from perfstudies import sweep
from perfstudies.sweep import MAX_WORKERS, available_cpus, worker_count


class _RecordingPool:
    """Stands in for ProcessPoolExecutor: records how many workers a sweep asked for, runs in-process."""

    asked: list = []

    def __init__(self, max_workers, mp_context=None):
        _RecordingPool.asked.append(max_workers)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def submit(self, function, *arguments):
        done = concurrent.futures.Future()
        done.set_result(function(*arguments))
        return done


def _constant(params, seed):
    return {"x": float(seed % 7)}


def _parent(params, seed):
    return {"parent": float(os.getppid())}


def test_local_workers_are_not_forks_of_the_caller():
    """A kernel's threads may hold locks when it forks; workers come from a clean fork server."""
    if available_cpus() < 2:
        pytest.skip("one CPU: the sweep runs in-process")
    runs = run_sweep(_parent, POINTS, replications=2, max_workers=2, progress=False)
    assert os.getpid() not in set(runs["value"].astype(int)), "a worker was forked from the caller"


@pytest.fixture
def recording_pool(monkeypatch):
    _RecordingPool.asked = []
    monkeypatch.setattr(sweep, "ProcessPoolExecutor", _RecordingPool)
    return _RecordingPool.asked


def test_a_sweep_starts_no_more_processes_than_tasks_or_cpus(recording_pool):
    run_sweep(_constant, POINTS[:1], replications=2, max_workers=40, progress=False)  # 2 tasks
    run_sweep(_constant, POINTS, replications=50, max_workers=40, progress=False)     # 100 tasks
    cpus = available_cpus()
    assert recording_pool == [workers for workers in (min(2, cpus), min(40, cpus)) if workers > 1]
    assert worker_count(2, 40) == min(2, available_cpus())
    assert worker_count(3, 40, oversubscribe=True) == 3 and worker_count(100, 8, oversubscribe=True) == 8


@pytest.mark.parametrize(("arguments", "name"), [
    ({"max_workers": 10**9}, "max_workers"), ({"max_workers": MAX_WORKERS + 1}, "max_workers"),
    ({"max_workers": 2.0}, "max_workers"), ({"max_workers": True}, "max_workers"),
    ({"oversubscribe": "yes"}, "oversubscribe"), ({"progress": None}, "progress"),
    ({"replications": 10**9}, "replications"), ({"points": [{"rate": 1}]}, r"points\[0\]"),
    ({"points": QueueParams()}, "points"), ({"model": "queue_model"}, "model"),
    ({"scheduler": 8786}, "scheduler"), ({"scheduler": "http://localhost:8786"}, "scheduler"),
])
def test_bad_sweep_arguments_are_refused_before_anything_starts(recording_pool, arguments, name):
    with within(10), pytest.raises(ValueError, match=rf"^{name}.* allowed"):
        run_sweep(**({"model": _constant, "points": POINTS, "replications": 2, "progress": False} | arguments))
    assert recording_pool == []


def _dies(params, seed):
    os.kill(os.getpid(), signal.SIGKILL)


def _raises(params, seed):
    raise RuntimeError("the model exploded at this point")


@pytest.fixture
def child_can_import_this_module(monkeypatch):
    here = str(Path(__file__).parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])))


@pytest.mark.parametrize(("model", "expected"), [
    (_dies, r"killed by SIGKILL \(signal 9\)\); the end of its stderr:\n\(its stderr is empty\)"),
    (_raises, r"exit code 1\); the end of its stderr:\n(.|\n)*RuntimeError: the model exploded at this point"),
])
def test_a_failed_chunk_child_reports_its_exit_status_and_stderr(child_can_import_this_module, model, expected):
    chunk = [(model, 0, POINTS[0], 0, 1)]
    with pytest.raises(RuntimeError, match=r"sweep chunk of 1 tasks failed in its child process \(" + expected):
        sweep._run_chunk_isolated(chunk, 10**6, ("max_events",))


@contextlib.contextmanager
def _tcp_server(reply: bytes | None):
    """A plain TCP server that is not Dask: it sends ``reply`` to each connection (or nothing) and keeps it open."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    connections, stop = [], threading.Event()

    def serve():
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                continue
            connections.append(connection)
            if reply is not None:
                connection.sendall(reply)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for connection in connections:
            connection.close()
        listener.close()


@pytest.mark.parametrize(("reply", "expected"), [
    (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", "is not a Dask scheduler: its first 8 bytes"),
    (b"SSH-2.0-OpenSSH_9.6\r\n", "is not a Dask scheduler: its first 8 bytes"),
    ((100).to_bytes(8, "little") + b"\x01" + b"\x00" * 7 + (84).to_bytes(8, "little") + b"\x00" * 84,
     "is not a Dask scheduler: its first message"),
    (None, "did not connect and send a Dask handshake within 1 s"),
])
def test_a_service_that_is_not_a_dask_scheduler_is_refused_quickly(monkeypatch, reply, expected):
    monkeypatch.setattr(sweep, "CONNECT_TIMEOUT_S", 1.0)
    with _tcp_server(reply) as address:
        start = time.monotonic()
        with within(20), pytest.raises(ValueError, match=rf"^scheduler = '{address}' {expected}"):
            run_sweep(_constant, POINTS, replications=1, scheduler=address, progress=False)
        assert time.monotonic() - start < 5


def test_a_closed_port_is_refused_with_the_reason():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{probe.getsockname()[1]}"
    with within(20), pytest.raises(ValueError, match=rf"^scheduler = '{address}' cannot be reached \(Connection refused\)"):
        run_sweep(_constant, POINTS, replications=1, scheduler=address, progress=False)
