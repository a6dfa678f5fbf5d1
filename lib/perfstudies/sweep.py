"""Parameter sweeps: many points x replications, in parallel.

A sweep runs ``model(point, seed)`` for every parameter point and replication.
Replication *i* uses the same seed at every point (common random numbers), so
differences between points come from the parameters, not from noise, and the
result does not depend on where or in which order the tasks ran: local
processes, one process, or a Dask distributed cluster all give the same table.

Bounds: a sweep has at most :data:`MAX_TASKS` tasks (points x replications);
all its simulations together carry out at most ``max_events`` Ciw events
(:data:`MAX_SWEEP_EVENTS` unless the caller asks for more), counted where they
run, in-process, in local workers or on Dask (see :class:`SweepBudget`); it
starts at most ``min(max_workers, tasks, CPUs)`` local processes (the CPU
limit is lifted only by ``oversubscribe=True``, and ``max_workers`` is at most
:data:`MAX_WORKERS`); a scheduler address must answer Dask's handshake within
:data:`CONNECT_TIMEOUT_S`.
"""

import ast
import multiprocessing
import os
import pickle
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

import pandas as pd

from perfstudies.engine import MAX_EVENT_BUDGET, EventBudgetExceeded
from perfstudies.params import Params, check_callable, check_flag, check_integer
from perfstudies.runner import (DEFAULT_CAP, MAX_CALL_EVENTS, Model, check_sequential, event_budget, metric_rows,
                                missed_targets, model_metrics, precision_targets, progress_bar, replication_seeds,
                                summarize)

#: Most local worker processes any sweep may ask for, even with ``oversubscribe``.
MAX_WORKERS = 64
#: Most tasks (points x replications) one sweep may have; each is a full simulation.
MAX_TASKS = 100_000
#: Most Ciw events all the simulations of one sweep may carry out together (its default
#: ``max_events``): the bound of one :func:`perfstudies.runner.replicate` call, a minute or two of CPU
#: on this project's 2-core machine.  A longer sweep is one its caller asks for by passing ``max_events``.
MAX_SWEEP_EVENTS = MAX_CALL_EVENTS
#: Seconds a scheduler address has to accept a connection and send Dask's handshake
#: (and then for the Dask client to connect).
CONNECT_TIMEOUT_S = 10.0
#: Seconds to wait for a Dask cluster that has no worker yet to get one.
WORKER_TIMEOUT_S = 60.0
#: Largest first message accepted from a scheduler address (a Dask handshake is ~60 bytes).
HANDSHAKE_MAX_BYTES = 65_536
#: Characters of a failed chunk child's stderr quoted in the error.
STDERR_TAIL = 4_000
#: How local worker processes start.  Not by forking the caller: a Jupyter kernel runs threads
#: (ZMQ I/O, heartbeat, history), and a child forked while one of them holds a lock inherits it
#: held for ever.  A fork server is a clean single-threaded process that has imported this module
#: once, so workers still start in milliseconds.  (Python 3.14 makes it the default on Linux.)
START_METHOD = "forkserver"


def available_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def worker_count(tasks: int, max_workers: int | None = None, oversubscribe: bool = False) -> int:
    """Local processes a sweep of ``tasks`` tasks starts: ``min(max_workers, tasks, CPUs)``.

    ``max_workers`` defaults to the CPUs; ``oversubscribe=True`` drops the CPU
    limit (never the limit of one process per task).
    """
    check_integer("tasks", tasks, low=1, high=MAX_TASKS)
    _check_workers(max_workers)
    check_flag("oversubscribe", oversubscribe)
    cpus = available_cpus()
    wanted = cpus if max_workers is None else max_workers
    return min(wanted, tasks) if oversubscribe else min(wanted, tasks, cpus)


def run_sweep(model: Model, points: Sequence, replications: int = 5, seed: int = 1,
              scheduler: str | None = None, max_workers: int | None = None,
              progress: bool = True, oversubscribe: bool = False, max_events: int | None = None) -> pd.DataFrame:
    """Run ``model`` at every point for ``replications`` seeds.

    Parameters
    ----------
    model : callable
        ``model(params, seed) -> {metric: value}``, defined at module level so
        that worker processes can import it.
    points : sequence of Params
        The parameter records to run (at most :data:`MAX_TASKS` tasks in all).
    replications, seed : int
        As in :func:`perfstudies.runner.replicate`.
    scheduler : str, optional
        Address of a Dask distributed scheduler (``"tcp://host:8786"``); when
        given, the tasks run on that cluster instead of local processes.  The
        address must answer Dask's handshake within :data:`CONNECT_TIMEOUT_S`.
    max_workers : int, optional
        Most local worker processes, 1 <= max_workers <= :data:`MAX_WORKERS`
        (default: the CPUs); ``1`` runs in-process.  The sweep never starts more
        processes than it has tasks, nor more than the CPUs (see :func:`worker_count`).
    progress : bool
        Show a tqdm bar when the sweep runs longer than a couple of seconds.
    oversubscribe : bool
        Allow more local processes than CPUs (up to ``max_workers``).
    max_events : int, optional
        Ciw events all the sweep's simulations may carry out together,
        1 <= max_events <= MAX_EVENT_BUDGET (None: :data:`MAX_SWEEP_EVENTS`).
        A sweep that would pass it stops with
        :class:`perfstudies.engine.EventBudgetExceeded` naming it, the points
        and the replications.

    Returns
    -------
    pandas.DataFrame
        Tidy rows: ``point``, the point's parameter fields, ``replication``,
        ``seed``, ``metric``, ``value``; ordered by point, replication, metric.
    """
    check_callable("model", model)
    points = _checked_points(points)
    seeds = replication_seeds(seed, replications)
    _check_task_count(len(points), replications)
    options = _checked_options(scheduler, max_workers, progress, oversubscribe)
    budget = SweepBudget.for_sweep(max_events, f"{len(points)} points x replications = {replications!r}")
    tasks = [(model, index, point, rep, rep_seed)
             for index, point in enumerate(points) for rep, rep_seed in enumerate(seeds)]
    return _execute(model, tasks, budget, **options)


def sweep_until(model: Model, points: Sequence, precision: Sequence[Mapping[str, float]], seed: int = 1,
                initial: int = 5, cap: int = DEFAULT_CAP, scheduler: str | None = None,
                max_workers: int | None = None, progress: bool = False, oversubscribe: bool = False,
                max_events: int | None = None) -> tuple[pd.DataFrame, list[tuple[int, str]]]:
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
        point that needs only ``initial`` replications); a target may also be
        a callable of the metric's current mean at that point (see
        :func:`perfstudies.runner.missed_targets`).
    max_events : int, optional
        As in :func:`run_sweep`, over every round of replications together.

    Returns
    -------
    (pandas.DataFrame, list of (point, metric))
        The tidy rows, ordered as :func:`run_sweep` orders them, and the
        targets still missed at the cap.
    """
    check_callable("model", model)
    points = _checked_points(points)
    if isinstance(precision, (str, bytes, Mapping)) or not isinstance(precision, Sequence):
        raise ValueError(f"precision = {precision!r} has the wrong type: allowed a sequence of "
                         "{metric: largest half-width} mappings, one per point")
    if len(precision) != len(points):
        raise ValueError(f"precision has {len(precision)} entries: allowed one per entry of points ({len(points)})")
    targets = []
    for index, target in enumerate(precision):
        if not isinstance(target, Mapping):
            raise ValueError(f"precision[{index}] = {target!r} has the wrong type: allowed a "
                             "{metric: largest half-width} mapping ({} for none)")
        targets.append(precision_targets(target) if target else {})
    check_sequential(initial, cap)
    seeds = replication_seeds(seed, cap)
    _check_task_count(len(points), cap)
    options = _checked_options(scheduler, max_workers, progress, oversubscribe)
    budget = SweepBudget.for_sweep(max_events, f"{len(points)} points x up to cap = {cap!r} replications")
    done = [0] * len(points)
    wanted = [initial] * len(points)
    frames, missed = [], []
    while True:
        tasks = [(model, index, point, rep, seeds[rep]) for index, point in enumerate(points)
                 for rep in range(done[index], wanted[index])]
        if tasks:
            frames.append(_execute(model, tasks, budget, **options))
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


class SweepBudget:
    """The events a sweep may still carry out, shared out among the tasks it starts.

    A task (or a Dask chunk of tasks) starts with a grant: an equal share of
    what is neither spent by finished tasks nor granted to running ones, split
    among the free worker slots, so the running tasks' grants never add up to
    more than the budget.  It runs inside :func:`perfstudies.runner.event_budget`
    of its grant in whatever process runs it, and gives back the events it
    carried out.  A task that passes its grant stops with
    :class:`perfstudies.engine.EventBudgetExceeded` naming the sweep's
    ``max_events``; so does the sweep when nothing is left to grant.
    """

    def __init__(self, events: int, names: tuple[str, ...]):
        self.events, self.names = events, names
        self.used = self.granted = self.finished = 0

    @classmethod
    def for_sweep(cls, max_events, size: str) -> "SweepBudget":
        """The budget of a sweep of ``size`` (its points and replications, for the message)."""
        events = MAX_SWEEP_EVENTS if max_events is None else max_events
        events = check_integer("max_events", events, low=1, high=MAX_EVENT_BUDGET)
        return cls(events, (f"the sweep's max_events = {events:,} over all its runs ({size})",))

    def grant(self, free_slots: int = 1) -> int:
        """Events the next task may carry out, ``free_slots`` tasks being about to start."""
        share = (self.events - self.used - self.granted) // free_slots
        if share < 1:
            raise EventBudgetExceeded(f"the sweep's event budget of {self.events:,} events is spent after "
                                      f"{self.finished} tasks: it is set by {', '.join(self.names)}: allowed "
                                      "sweeps within it (fewer points or replications, or a larger max_events)",
                                      events=self.used, time=0.0)
        self.granted += share
        return share

    def settle(self, granted: int, used: int, tasks: int = 1) -> None:
        """A task (or chunk of ``tasks``) that had ``granted`` events finished, carrying out ``used``."""
        self.granted -= granted
        self.used += used
        self.finished += tasks


def _checked_points(points: Sequence) -> list:
    if isinstance(points, (str, bytes, Mapping, Params)) or not hasattr(points, "__iter__"):
        raise ValueError(f"points = {points!r} has the wrong type: allowed a non-empty sequence of parameter records")
    points = list(points)
    if not points:
        raise ValueError("points = [] is empty: allowed a non-empty sequence of parameter records")
    if len(points) > MAX_TASKS:
        raise ValueError(f"points has {len(points):,} records: allowed at most {MAX_TASKS:,}")
    for index, point in enumerate(points):
        if not isinstance(point, Params):
            raise ValueError(f"points[{index}] = {point!r} has the wrong type: allowed a parameter record (Params)")
    return points


def _check_task_count(points: int, replications: int) -> None:
    if points * replications > MAX_TASKS:
        raise ValueError(f"replications = {replications!r} is out of range: {points} points x {replications} "
                         f"replications is {points * replications:,} tasks; allowed at most {MAX_TASKS:,}")


def _check_workers(max_workers) -> None:
    if max_workers is not None:
        check_integer("max_workers", max_workers, low=1, high=MAX_WORKERS, none=True)


def _checked_options(scheduler, max_workers, progress, oversubscribe) -> dict:
    _check_workers(max_workers)
    check_flag("progress", progress)
    check_flag("oversubscribe", oversubscribe)
    if scheduler is not None:
        scheduler = check_scheduler(scheduler)
    return dict(scheduler=scheduler, max_workers=max_workers, progress=progress, oversubscribe=oversubscribe)


def _execute(model: Model, tasks: list, budget: SweepBudget, scheduler: str | None, max_workers: int | None,
             progress: bool, oversubscribe: bool = False) -> pd.DataFrame:
    """Run ``tasks`` within ``budget`` on Dask, in one process, or on local worker processes; return the tidy rows."""
    name = f"sweep {getattr(model, '__name__', 'model')}"
    bar = dict(description=name, enabled=progress, total=len(tasks))
    workers = worker_count(len(tasks), max_workers, oversubscribe)
    if scheduler is not None:
        results = _run_on_dask(tasks, budget, scheduler, {**bar, "description": f"{name} (on Dask at {scheduler})"})
        return pd.DataFrame([row for rows in results for row in rows])
    method, reason = start_method() if workers > 1 else (None, "one worker")
    if method is None:
        bar["description"] = f"{name} (in-process: {reason})"
        results = _run_in_windows(lambda chunk, granted: _finished(_run_budgeted(chunk, granted, budget.names)), list,
                                  [[task] for task in tasks], 1, budget, bar)
    else:
        bar["description"] = f"{name} ({workers} {method} workers{': ' + reason if reason else ''})"
        with ProcessPoolExecutor(max_workers=workers, mp_context=_start_context(method)) as pool:
            results = _run_in_windows(lambda chunk, granted: pool.submit(_run_budgeted, chunk, granted, budget.names),
                                      lambda futures: wait(futures, return_when=FIRST_COMPLETED).done,
                                      [[task] for task in tasks], workers, budget, bar)
    return pd.DataFrame([row for rows in results for row in rows])


def _run_in_windows(start, wait_first, chunks: list, slots: int, budget: SweepBudget, bar: dict,
                    retry=None) -> list[list[dict]]:
    """Run ``chunks`` with at most ``slots`` running at a time, each within its grant of ``budget``.

    ``start(chunk, granted)`` starts a chunk and returns its future (a process
    pool's or a Dask client's), ``wait_first(futures)`` the ones that have
    finished once at least one has; ``retry(position, error, granted)``, when
    given, returns what a chunk whose future failed gives when run again, or
    raises.  After a failure no further chunk starts.
    """
    results, running = [None] * len(chunks), {}
    with progress_bar(range(sum(map(len, chunks))), **bar) as shown:
        for position, chunk in enumerate(chunks):
            granted = budget.grant(slots - len(running))
            running[start(chunk, granted)] = (position, granted)
            while len(running) == slots or (running and position == len(chunks) - 1):
                for future in wait_first(list(running)):
                    place, granted = running.pop(future)
                    try:
                        rows, used = future.result()
                    except Exception as error:
                        if retry is None:
                            raise
                        rows, used = retry(place, error, granted)
                    budget.settle(granted, used, len(chunks[place]))
                    results[place] = rows
                    shown.update(len(chunks[place]))
    return [rows for chunk in results for rows in chunk]


def start_method() -> tuple[str | None, str]:
    """How local workers start from here: ``(method, why)``, or ``(None, why)`` to run in-process.

    * :data:`START_METHOD` (a fork server) as a rule: it re-imports the
      caller's main module in each worker, which is harmless where the call
      sits under an ``if __name__ == "__main__":`` guard, in a notebook, a
      ``python -c`` command or an interactive session;
    * ``"fork"`` when the caller is a plain script that calls the sweep
      without that guard (a fork server would run the script again in every
      worker, and fail in its bootstrapping phase) and this process runs no
      other thread (a fork copies held locks with it);
    * in-process (``None``) for such a script that does run other threads,
      and in a daemonic process (a Dask worker, a pool worker), which may not
      start children.
    """
    if multiprocessing.current_process().daemon:
        return None, "a daemonic process (a Dask or pool worker) may not start worker processes"
    script = _unguarded_main_script()
    if script is None:
        return START_METHOD, ""
    if threading.active_count() > 1 or "fork" not in multiprocessing.get_all_start_methods():
        return None, f"{script} calls the sweep without an if __name__ == '__main__' guard"
    return "fork", f"{script} calls the sweep without an if __name__ == '__main__' guard"


def _unguarded_main_script() -> str | None:
    """The main script's path when a worker re-importing it would call the sweep again, else None."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or not isinstance(path, str) or not path.endswith(".py") or not os.path.isfile(path):
        return None  # a notebook, python -c, stdin, an interactive session: nothing to re-import
    try:
        tree = ast.parse(Path(path).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return path
    guards = [node for node in ast.walk(tree) if isinstance(node, ast.If) and _is_main_guard(node.test)]
    frame = sys._getframe()
    while frame is not None and not (frame.f_globals is vars(main) and frame.f_code.co_name == "<module>"):
        frame = frame.f_back
    if frame is None:  # the script's top level is not running this call: guarded if it has a guard at all
        return None if guards else path
    line = frame.f_lineno
    inside = any(guard.body[0].lineno <= line <= (guard.body[-1].end_lineno or line) for guard in guards)
    return None if inside else path


def _is_main_guard(test) -> bool:
    """Whether ``test`` is ``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    names = [side for side in sides if isinstance(side, ast.Name) and side.id == "__name__"]
    texts = [side for side in sides if isinstance(side, ast.Constant) and side.value == "__main__"]
    return len(names) == 1 and len(texts) == 1


def _start_context(method: str = START_METHOD):
    """The multiprocessing context of local workers (a fork server preloads this module)."""
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload([__name__])
    return context


def _run_task(task) -> list[dict]:
    model, index, point, rep, rep_seed = task
    keys = {"point": index, **point.as_dict(), "replication": rep, "seed": rep_seed}
    return metric_rows(model_metrics(model, point, rep_seed), **keys)


def _finished(value) -> Future:
    """A future that already holds ``value``: an in-process task's, for :func:`_run_in_windows`."""
    future = Future()
    future.set_result(value)
    return future


def _run_budgeted(chunk, granted: int, names: tuple) -> tuple[list[list[dict]], int]:
    """Each task's rows, and the Ciw events all of them carried out, within ``granted`` events."""
    with event_budget(granted, names) as grant:
        rows = [_run_task(task) for task in chunk]
    return rows, grant.used


def _run_chunk_isolated(chunk, granted: int, names: tuple) -> tuple[list[list[dict]], int]:
    """Run a chunk in a fresh Python process started by the Dask worker.

    Ciw draws from the global :mod:`random` stream, and a Dask worker's own
    threads (heartbeats, retries with jitter) draw from it too, so running in
    the worker would change a replication's random numbers.  The child process
    runs nothing else, so its streams depend on the seed alone.  (Dask workers
    are daemonic and may not use multiprocessing, hence a plain subprocess.)
    The chunk runs within ``granted`` events: a run that passes them raises
    the child's :class:`perfstudies.engine.EventBudgetExceeded` here, as it
    is.  A child that fails otherwise is reported with its exit code or signal
    and the end of its stderr.
    """
    child = subprocess.run([sys.executable, "-m", "perfstudies.sweep"], input=pickle.dumps((chunk, granted, names)),
                           capture_output=True, check=False)
    worker = _worker_address()
    if child.returncode != 0:
        raise ChunkFailed(f"sweep chunk of {len(chunk)} tasks failed in its child process "
                          f"({_exit_status(child.returncode)}){' on worker ' + worker if worker else ''}; "
                          f"the end of its stderr:\n{_tail(child.stderr)}", worker)
    try:
        outcome = pickle.loads(child.stdout)
    except Exception as error:
        raise ChunkFailed(f"sweep chunk of {len(chunk)} tasks: its child process exited 0 but its output "
                          f"({len(child.stdout)} bytes) does not load ({error!r}); the end of its stderr:\n"
                          f"{_tail(child.stderr)}", worker) from error
    if isinstance(outcome, EventBudgetExceeded):
        raise outcome
    return outcome


class ChunkFailed(RuntimeError):
    """A sweep chunk's child process failed; ``worker`` is the Dask worker it ran on ("" outside Dask)."""

    def __init__(self, message: str, worker: str = ""):
        super().__init__(message)
        self.worker = worker

    def __reduce__(self):
        return type(self), (str(self), self.worker)


def _worker_address() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return ""


def _exit_status(returncode: int) -> str:
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"killed by {name} (signal {-returncode})"
    return f"exit code {returncode}"


def _tail(stderr: bytes) -> str:
    text = stderr.decode(errors="replace").strip()
    return text[-STDERR_TAIL:] if text else "(its stderr is empty)"


_ADDRESS = re.compile(r"(?:tcp://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>[0-9]{1,5})")


def check_scheduler(scheduler) -> str:
    """The scheduler address as ``tcp://host:port`` once it has answered Dask's handshake, or a ValueError.

    The address gets :data:`CONNECT_TIMEOUT_S` to accept a TCP connection and
    send its first message, which must be a Dask handshake (a framed msgpack
    map of at most :data:`HANDSHAKE_MAX_BYTES` bytes with the keys a Dask
    comm sends); a closed port, a silent service or any other protocol is
    refused here, before the Dask client would wait on it or read a garbage
    length.  The handshake is answered in kind, so the scheduler sees an
    ordinary short-lived connection.
    """
    allowed = "allowed the address of a running Dask scheduler, 'tcp://host:port'"
    if not isinstance(scheduler, str):
        raise ValueError(f"scheduler = {scheduler!r} has the wrong type: {allowed} or None")
    match = _ADDRESS.fullmatch(scheduler.strip())
    if match is None or not 1 <= int(match["port"]) <= 65_535:
        raise ValueError(f"scheduler = {scheduler!r} is not allowed: {allowed}")
    host, port = match["host"].strip("[]"), int(match["port"])
    deadline = time.monotonic() + CONNECT_TIMEOUT_S
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S) as connection:
            message = _read_handshake(connection, deadline)
            connection.sendall(message)
    except _NotDask as error:
        raise ValueError(f"scheduler = {scheduler!r} is not a Dask scheduler: {error}; {allowed}") from None
    except TimeoutError:
        raise ValueError(f"scheduler = {scheduler!r} did not connect and send a Dask handshake within "
                         f"{CONNECT_TIMEOUT_S:g} s: {allowed}") from None
    except OSError as error:
        raise ValueError(f"scheduler = {scheduler!r} cannot be reached ({error.strerror or error}): "
                         f"{allowed}") from None
    bracketed = f"[{host}]" if ":" in host else host
    return f"tcp://{bracketed}:{port}"


class _NotDask(Exception):
    pass


def _receive(connection: socket.socket, count: int, deadline: float) -> bytes:
    data = bytearray()
    while len(data) < count:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        connection.settimeout(remaining)
        block = connection.recv(count - len(data))
        if not block:
            raise _NotDask(f"it closed the connection after {len(data)} of {count} bytes of a handshake")
        data.extend(block)
    return bytes(data)


def _read_handshake(connection: socket.socket, deadline: float) -> bytes:
    """The raw first message of a Dask comm (length, frame count, frame lengths, frames), checked."""
    import msgpack

    prefix = _receive(connection, 8, deadline)
    (length,) = struct.unpack("Q", prefix)
    if not 16 <= length <= HANDSHAKE_MAX_BYTES:
        raise _NotDask(f"its first 8 bytes {prefix!r} are not the length of a Dask handshake")
    body = _receive(connection, length, deadline)
    (frames,) = struct.unpack_from("Q", body)
    if not 1 <= frames <= 16 or 8 + 8 * frames > length:
        raise _NotDask(f"its first message announces {frames} frames")
    sizes = struct.unpack_from(f"{frames}Q", body, 8)
    start = 8 + 8 * frames
    if start + sum(sizes) != length:
        raise _NotDask("its first message's frame lengths do not add up")
    try:
        info = msgpack.unpackb(body[start:start + sizes[0]], raw=False, strict_map_key=False)
    except Exception as error:
        raise _NotDask(f"its first message is not msgpack ({error})") from None
    if not isinstance(info, dict) or not {"compression", "python", "pickle-protocol"} <= set(info):
        raise _NotDask(f"its first message {info!r} is not a Dask handshake")
    return prefix + body


def _run_on_dask(tasks, budget: SweepBudget, scheduler: str, bar: dict) -> list[list[dict]]:
    """Run the tasks in chunks on Dask; a chunk whose child process fails is retried once on another worker."""
    from distributed import Client

    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT_S)
    except (TimeoutError, OSError) as error:
        raise ValueError(f"scheduler = {scheduler!r} answered Dask's handshake but the Dask client could not "
                         f"connect within the timeout of {CONNECT_TIMEOUT_S:g} s "
                         f"({type(error).__name__}{': ' + str(error) if str(error) else ''}): allowed the "
                         "address of a running Dask scheduler that answers") from None
    with client:
        return _run_on_client(client, tasks, budget, scheduler, bar)


def _run_on_client(client, tasks, budget: SweepBudget, scheduler: str, bar: dict) -> list[list[dict]]:
    import distributed

    if not client.nthreads():
        try:
            client.wait_for_workers(1, timeout=WORKER_TIMEOUT_S)
        except TimeoutError:
            raise ValueError(f"scheduler = {scheduler!r} has no workers and got none within "
                             f"{WORKER_TIMEOUT_S:g} s: allowed a scheduler with at least one worker") from None
    workers = max(1, sum(client.nthreads().values()))
    size = -(-len(tasks) // (2 * workers))  # two chunks per worker thread
    chunks = [tasks[start:start + size] for start in range(0, len(tasks), size)]

    def retry(position, error, granted):
        if not isinstance(error, ChunkFailed):
            raise error
        return _retry_chunk(client, chunks[position], error, granted, budget.names)

    return _run_in_windows(
        lambda chunk, granted: client.submit(_run_chunk_isolated, chunk, granted, budget.names, pure=False),
        lambda futures: distributed.wait(futures, return_when="FIRST_COMPLETED").done,
        chunks, workers, budget, bar, retry)


def _retry_chunk(client, chunk, first: "ChunkFailed", granted: int, names: tuple) -> tuple[list[list[dict]], int]:
    """Run a failed chunk once more, on another worker when there is one; report both failures if it fails again."""
    others = [address for address in client.nthreads() if address != first.worker]
    where = dict(workers=others, allow_other_workers=False) if others else {}
    retry = client.submit(_run_chunk_isolated, chunk, granted, names, pure=False, **where)
    try:
        return retry.result()
    except ChunkFailed as second:
        place = "on another worker" if others else "on the same worker (the cluster has no other)"
        raise ChunkFailed(f"{first}\nretried once {place}, and it failed again: {second}", second.worker) from None


if __name__ == "__main__":
    # the child side of _run_chunk_isolated: a pickled (chunk, grant, names) in, pickled (rows, events) out
    results_stream, sys.stdout = sys.stdout.buffer, sys.stderr  # stray prints must not corrupt the pickle
    try:
        outcome = _run_budgeted(*pickle.loads(sys.stdin.buffer.read()))
    except EventBudgetExceeded as over:  # the same on any worker: sent back whole, for the caller, never retried
        outcome = over
    results_stream.write(pickle.dumps(outcome))
