"""Sphinx extension (and test helper): a cell whose kernel sits idle fails in seconds, with the state.

A wait for a kernel's message (nbclient's wait for a cell's reply, for its
output) is cut into waits of :data:`POLL_SLICE_S` seconds, each ending with a
look at the socket itself (:func:`sliced_get_msg`): asyncio learns that a
ZeroMQ socket has a message from an edge-triggered file descriptor, and a
wake-up that is missed (pyzmq#2173 describes one way) left nbclient waiting on
a reply already in the socket while the kernel sat idle.  This happened in CI
about once a run under ipykernel 7 and 6 alike (a chapter's panel cell, its
last message "status: idle"); with the slices such a reply is read within a
second.

A cell that runs is either computing (its kernel, or the worker processes the
kernel started, use CPU), sending output, or waiting for another process to
compute a disk-memo entry it needs (it holds that entry's lock file open,
``perfstudies.cache``).  A cell whose kernel does neither
for :data:`STUCK_AFTER_S` seconds waits on nothing that will ever come: a
request the kernel never read, a reply that was lost.  nbclient would wait for
the whole per-cell timeout (``execute: timeout`` in ``book/_config.yml``,
900 s, there for cold computations that really take minutes); this watchdog
fails such a cell after :data:`STUCK_AFTER_S` seconds instead, with
:class:`StuckCellError` naming the cell, the kernel's last messages and its
processes (state, CPU time, threads, children) and, where ``py-spy`` is
installed, the kernel's Python stacks.

:func:`install` patches nbclient's :class:`~nbclient.NotebookClient` in this
process: the book build (``setup``, as a Sphinx extension) calls it.
``tests/test_lab_browser.py`` watches JupyterLab's kernels with
:func:`tree_cpu_seconds` and :func:`process_report` the same way.
"""

import asyncio
import os
import shutil
import subprocess
import sys
import time
from queue import Empty

import psutil
from nbclient.exceptions import CellTimeoutError

#: Seconds without CPU use by the kernel's processes and without output before a cell counts as stuck.
STUCK_AFTER_S = float(os.environ.get("PERFSTUDIES_STUCK_AFTER_S", "45"))
#: CPU seconds the kernel's processes may use in that window and still count as idle: an idle kernel's
#: heartbeat and I/O threads use about 0.01 s in 20 s; a computing one, even at a twentieth of a core
#: on a crowded machine, 1.5 s in 30 s.
IDLE_CPU_S = 0.1
#: Seconds between two looks at the kernel.
POLL_S = 1.0
#: Characters of the stuck cell's source quoted in the error.
SOURCE_CHARS = 600
#: Longest single wait on a kernel channel before it looks at the socket again (s).
POLL_SLICE_S = 1.0


def sliced_get_msg(get_msg):
    """``get_msg(channel, timeout)`` made of waits of at most :data:`POLL_SLICE_S` s until ``timeout``.

    Each wait ends, on a message or on its slice's timeout, with pyzmq polling
    the socket directly, so a message whose wake-up was missed is found at the
    next slice.  ``timeout=None`` waits for ever, as before; an expired
    ``timeout`` raises ``queue.Empty``, as before.
    """

    async def get_msg_in_slices(self, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = POLL_SLICE_S if deadline is None else min(POLL_SLICE_S, max(0.0, deadline - time.monotonic()))
            try:
                return await get_msg(self, timeout=left)
            except Empty:
                if deadline is not None and time.monotonic() >= deadline:
                    raise

    get_msg_in_slices.__wrapped__ = get_msg
    return get_msg_in_slices


def tree_cpu_seconds(pids) -> float:
    """CPU seconds used so far by the processes ``pids``, their children, and the children they reaped."""
    total = 0.0
    seen = set()
    for pid in pids:
        try:
            process = psutil.Process(pid)
            family = [process, *process.children(recursive=True)]
        except psutil.Error:
            continue
        for member in family:
            if member.pid in seen:
                continue
            seen.add(member.pid)
            try:
                times = member.cpu_times()
            except psutil.Error:
                continue
            total += times.user + times.system + times.children_user + times.children_system
    return total


def process_report(pids) -> str:
    """The processes ``pids`` and their children: state, CPU time, threads, command; then py-spy's stacks."""
    lines = []
    for pid in pids:
        try:
            process = psutil.Process(pid)
            family = [(0, process), *((1, child) for child in process.children(recursive=True))]
        except psutil.Error as error:
            lines.append(f"  pid {pid}: gone ({error})")
            continue
        for depth, member in family:
            try:
                with member.oneshot():
                    times = member.cpu_times()
                    command = " ".join(member.cmdline())[:160]
                    lines.append(f"  {'  ' * depth}pid {member.pid} {member.status()}, CPU {times.user:.1f} s user "
                                 f"+ {times.system:.1f} s system, {member.num_threads()} threads: {command}")
            except psutil.Error as error:
                lines.append(f"  {'  ' * depth}pid {member.pid}: {error}")
    spy = shutil.which("py-spy") or shutil.which("py-spy", path=os.path.dirname(sys.executable))
    if spy:
        for pid in pids:
            try:
                dumped = subprocess.run([spy, "dump", "--pid", str(pid)], capture_output=True, text=True,
                                        timeout=20)
                lines.append(f"py-spy dump of pid {pid}:\n{(dumped.stdout + dumped.stderr).strip()[-4000:]}")
            except (OSError, subprocess.TimeoutExpired) as error:
                lines.append(f"py-spy dump of pid {pid} failed: {error}")
    return "\n".join(lines)


def _cell_source(cell) -> str:
    source = cell.get("source", "") if cell is not None else ""
    source = "".join(source) if isinstance(source, list) else source
    return source if len(source) <= SOURCE_CHARS else source[:SOURCE_CHARS] + " ..."


class Watch:
    """When did the kernel's processes last use CPU or send a message: the clock of one cell."""

    def __init__(self, pids):
        self.pids = list(pids)
        self.started = self.active = time.monotonic()
        self.cpu = tree_cpu_seconds(self.pids)
        self.messages: list[str] = []

    def message(self, description: str) -> None:
        """A message from the kernel about this cell arrived."""
        self.active = time.monotonic()
        self.messages = [*self.messages[-7:], description]

    def idle_seconds(self) -> float:
        """Seconds since the kernel's processes last used CPU (more than :data:`IDLE_CPU_S`), sent a message or
        waited for a lock (:func:`waiting_on_a_lock`)."""
        now, cpu = time.monotonic(), tree_cpu_seconds(self.pids)
        if cpu - self.cpu > IDLE_CPU_S or waiting_on_a_lock(self.pids):
            self.cpu, self.active = cpu, now
        return now - self.active


def waiting_on_a_lock(pids) -> bool:
    """Whether one of the processes ``pids`` has a ``.lock`` file open: it holds or waits for a disk-memo entry's
    lock while another process computes that entry, so its wait is the other's work, not a lost message."""
    for pid in pids:
        try:
            if any(opened.path.endswith(".lock") for opened in psutil.Process(pid).open_files()):
                return True
        except psutil.Error:
            continue
    return False


def _kernel_pids(client) -> list[int]:
    provisioner = getattr(client.km, "provisioner", None)
    pid = getattr(provisioner, "pid", None) or getattr(getattr(provisioner, "process", None), "pid", None)
    return [pid] if pid else []




async def _waiting_messages(client) -> str:
    """Which of the client's channels hold a message nobody read: a reply there was missed, not lost."""
    try:
        waiting = [name for name in ("shell", "iopub")
                   if await getattr(client.kc, f"{name}_channel").msg_ready()]
    except Exception as error:  # noqa: BLE001 - a diagnosis, never a reason to fail differently
        return f" (Could not look at the channels: {type(error).__name__}: {error}.)"
    return f" Messages waiting unread on the {' and '.join(waiting)} channel." if waiting else \
        " No message waits unread on the shell or iopub channel."


class StuckCellError(CellTimeoutError):
    """A cell's kernel used no CPU and sent nothing for :data:`STUCK_AFTER_S` seconds."""


def stuck_message(what: str, cell, watch: Watch, client_state: str = "") -> str:
    """Why ``what`` (e.g. "cell 3") counts as stuck, the kernel's messages and processes, and the cell."""
    return (f"{what} is stuck: its kernel used no CPU and sent no message for {STUCK_AFTER_S:g} s "
            f"({time.monotonic() - watch.started:.0f} s after the cell was sent), so it is waiting for something "
            f"that will not come.{client_state}\n"
            f"The kernel's last messages about this cell, oldest first: {watch.messages or 'none'}\n"
            f"The kernel's processes:\n{process_report(watch.pids)}"
            + (f"\nThe cell:\n{_cell_source(cell)}" if cell is not None else ""))


def install() -> None:
    """Watch every cell nbclient runs in this process, and wait on kernel channels in slices (idempotent)."""
    from jupyter_client.channels import AsyncZMQSocketChannel
    from nbclient import NotebookClient

    if getattr(NotebookClient, "_perfstudies_watched", False):
        return
    AsyncZMQSocketChannel.get_msg = sliced_get_msg(AsyncZMQSocketChannel.get_msg)
    execute_cell = NotebookClient.async_execute_cell
    poll_kernel_alive = NotebookClient._async_poll_kernel_alive
    process_message = NotebookClient.process_message

    async def async_execute_cell(self, cell, cell_index, execution_count=None, store_history=True):
        self._perfstudies_watch = Watch(_kernel_pids(self)) if cell.get("cell_type") == "code" else None
        self._perfstudies_stuck = None
        try:
            return await execute_cell(self, cell, cell_index, execution_count, store_history)
        except Exception as error:
            if self._perfstudies_stuck is not None:
                raise StuckCellError(self._perfstudies_stuck) from error
            raise
        finally:
            self._perfstudies_watch = None

    async def _async_poll_kernel_alive(self):
        # nbclient runs this beside every cell, once a second, and ends the cell when the kernel died;
        # it now also ends the cell when the kernel is stuck.
        watcher = asyncio.ensure_future(poll_kernel_alive(self))
        try:
            while not watcher.done():
                await asyncio.sleep(POLL_S)
                watch = getattr(self, "_perfstudies_watch", None)
                if watch is not None and watch.idle_seconds() >= STUCK_AFTER_S:
                    self._perfstudies_stuck = stuck_message(f"cell {getattr(self, '_perfstudies_index', '?')}",
                                                            getattr(self, "_perfstudies_cell", None), watch,
                                                            await _waiting_messages(self))
                    self.log.error(self._perfstudies_stuck)
                    if self.task_poll_for_reply is not None:
                        self.task_poll_for_reply.cancel()
                    return
        finally:
            watcher.cancel()

    def watched_process_message(self, msg, cell, cell_index):
        watch = getattr(self, "_perfstudies_watch", None)
        if watch is not None:
            content = msg.get("content", {})
            state = f": {content['execution_state']}" if "execution_state" in content else ""
            watch.message(f"{msg.get('msg_type')}{state}")
        self._perfstudies_cell, self._perfstudies_index = cell, cell_index
        return process_message(self, msg, cell, cell_index)

    async def remembering_execute_cell(self, cell, cell_index, execution_count=None, store_history=True):
        self._perfstudies_cell, self._perfstudies_index = cell, cell_index
        return await async_execute_cell(self, cell, cell_index, execution_count, store_history)

    NotebookClient.async_execute_cell = remembering_execute_cell
    NotebookClient._async_poll_kernel_alive = _async_poll_kernel_alive
    NotebookClient.process_message = watched_process_message
    NotebookClient._perfstudies_watched = True


def setup(app):
    install()
    return {"parallel_read_safe": True, "parallel_write_safe": True}
