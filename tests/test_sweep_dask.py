"""Dask sweeps, hardened (issue 27): a chunk whose child dies is retried once on another worker,
and a scheduler that answers the handshake and then goes silent is a ValueError naming it."""

import contextlib
import os
import signal
import socket
import struct
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from perfstudies import sweep
from perfstudies.reference import QueueParams
from perfstudies.sweep import run_sweep

distributed = pytest.importorskip("distributed")

POINTS = [QueueParams(arrival_rate=rate, max_time=300.0, warmup=30.0) for rate in (0.3, 0.6)]
MARKER = "PERFSTUDIES_TEST_DIES_ONCE"


def dies_once(params, seed):
    """Kill its own process the first time any chunk runs it (a marker file says it happened)."""
    marker = Path(os.environ[MARKER])
    try:
        marker.touch(exist_ok=False)
    except FileExistsError:
        return {"x": float(seed % 7)}
    os.kill(os.getpid(), signal.SIGKILL)


def always_dies(params, seed):
    os.kill(os.getpid(), signal.SIGKILL)


def steady(params, seed):
    return {"x": float(seed % 7)}


@pytest.fixture
def cluster(monkeypatch):
    here = str(Path(__file__).parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=None) as local:
        yield local.scheduler_address


def test_a_chunk_whose_child_dies_is_retried_on_another_worker(cluster, tmp_path, monkeypatch):
    monkeypatch.setenv(MARKER, str(tmp_path / "died"))
    rows = run_sweep(dies_once, POINTS, replications=1, seed=3, scheduler=cluster, progress=False)
    assert (tmp_path / "died").exists()  # a child did die
    expected = run_sweep(steady, POINTS, replications=1, seed=3, max_workers=1, progress=False)
    pd.testing.assert_frame_equal(rows, expected)


def test_a_chunk_that_dies_twice_is_reported_with_its_exit_status(cluster):
    with pytest.raises(sweep.ChunkFailed, match=r"(?s)killed by SIGKILL \(signal 9\).* on worker .*retried once on "
                                                r"another worker, and it failed again: .*killed by SIGKILL"):
        run_sweep(always_dies, POINTS, replications=1, seed=3, scheduler=cluster, progress=False)


def _handshake() -> bytes:
    import msgpack

    info = msgpack.packb({"compression": None, "python": (3, 11, 7), "pickle-protocol": 5})
    body = struct.pack("Q", 1) + struct.pack("Q", len(info)) + info
    return struct.pack("Q", len(body)) + body


@contextlib.contextmanager
def _silent_after_handshake():
    """A TCP server that sends a valid Dask handshake on each connection, then nothing."""
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
            connection.sendall(_handshake())

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


def test_a_scheduler_silent_after_the_handshake_is_a_value_error_naming_it(monkeypatch):
    """Issue 27: such a server gave a bare ``TimeoutError`` with an empty message."""
    monkeypatch.setattr(sweep, "CONNECT_TIMEOUT_S", 2.0)
    with _silent_after_handshake() as address:
        start = time.monotonic()
        with pytest.raises(ValueError, match=rf"^scheduler = '{address}' answered Dask's handshake but .* within the "
                                             r"timeout of 2 s"):
            run_sweep(steady, POINTS, replications=1, scheduler=address, progress=False)
        assert time.monotonic() - start < 30
