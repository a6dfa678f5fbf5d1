"""A cell whose kernel sits idle fails within seconds, naming the cell and the kernel's state (book/_ext/stuck_cells.py).

The book build and the tests that run chapters in a kernel use nbclient with a
900 s per-cell timeout (cold computations take minutes); a kernel that waits
on nothing must not cost those 900 s.  A sleeping kernel is such a kernel: no
CPU, no output.  A kernel that computes, or whose worker processes compute, is
left alone however long it takes.
"""

import asyncio
import fcntl
import threading
import time
from queue import Empty

import nbformat
import pytest
from nbclient import NotebookClient

from conftest import book_extension
from perfstudies.paths import ROOT

stuck_cells = book_extension("stuck_cells")


def _run(*sources: str) -> nbformat.NotebookNode:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    NotebookClient(notebook, timeout=300, kernel_name="python3").execute()
    return notebook


#: The watchdog's threshold in these tests (s), and how long a cell computes in them: longer than the
#: threshold, so a watchdog that took the work for idleness would fail the cell.
STUCK_AFTER_S = 3.0
WORK_S = 4.5
#: How long another process holds a memo entry's lock from before the kernel starts (s): the kernel starts in
#: 1-2 s, and then waits on the lock for longer than the threshold.
LOCK_HELD_S = 2 * STUCK_AFTER_S


@pytest.fixture
def watched(monkeypatch):
    stuck_cells.install()
    monkeypatch.setattr(stuck_cells, "STUCK_AFTER_S", STUCK_AFTER_S)


def test_an_idle_kernel_fails_its_cell_in_seconds_with_the_cell_and_the_kernels_state(watched):
    started = time.monotonic()
    with pytest.raises(stuck_cells.StuckCellError) as raised:
        _run("x = 1", "import time\ntime.sleep(250)  # waits on nothing, like a lost request")
    assert time.monotonic() - started < 60, "the stuck cell waited for the 300 s timeout"
    message = str(raised.value)
    assert "cell 1 is stuck" in message and "time.sleep(250)" in message
    assert "status: busy" in message, "the kernel's last messages are missing"
    assert "ipykernel_launcher" in message and "threads" in message, "the kernel's processes are missing"
    assert "No message waits unread on the shell or iopub channel." in message  # a sleeping cell has no reply yet


def test_a_kernel_that_computes_or_waits_on_its_workers_is_left_alone(watched):
    busy = f"import time\nend = time.monotonic() + {WORK_S}\nwhile time.monotonic() < end:\n    pass\nprint('computed')"
    workers = ("import subprocess, sys\n"
               f"subprocess.run([sys.executable, '-c', 'import time\\nend = time.monotonic() + {WORK_S}\\n"
               "while time.monotonic() < end: pass'], check=True)\nprint('waited')")
    notebook = _run(busy, workers)
    assert [cell.outputs[0]["text"] for cell in notebook.cells] == ["computed\n", "waited\n"]


def test_a_kernel_waiting_for_another_process_to_compute_a_memo_entry_is_left_alone(watched, tmp_path):
    """It holds the entry's lock file open (perfstudies.cache): the wait is the other process's work."""
    lock = tmp_path / ".entry.lock"
    with lock.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        threading.Timer(LOCK_HELD_S, fcntl.flock, (held, fcntl.LOCK_UN)).start()
        notebook = _run(f"import fcntl\nwith open({str(lock)!r}, 'a') as lock:\n"
                        "    fcntl.flock(lock, fcntl.LOCK_EX)\nprint('computed by the other')")
    assert notebook.cells[0].outputs[0]["text"] == "computed by the other\n"


def test_kernels_started_by_nbclient_talk_over_unix_sockets_not_localhost_ports():
    """No ports for concurrent kernels (the book build's, the live widgets') to race for (book/_ext/ipc_kernels.py)."""
    book_extension("ipc_kernels").install()
    notebook = _run("import json\nfrom ipykernel import get_connection_info\n"
                    "info = json.loads(get_connection_info())\nprint(info['transport'], info['ip'])")
    transport, address = notebook.cells[0].outputs[0]["text"].split()
    assert transport == "ipc" and address.endswith("-ipc") and "/jupyter/runtime/kernel-" in address


def test_the_book_build_and_the_kernel_tests_watch_their_cells():
    config = (ROOT / "book" / "_config.yml").read_text()
    assert "stuck_cells: _ext" in config and "ipc_kernels: _ext" in config
    lab = (ROOT / "tests" / "test_lab_browser.py").read_text()
    assert "stuck_cells" in lab and "--KernelManager.transport=ipc" in lab


def test_a_wait_on_a_kernel_channel_looks_at_the_socket_again_every_slice(monkeypatch):
    # A message whose wake-up was missed: the first two waits end empty, the third finds it.
    monkeypatch.setattr(stuck_cells, "POLL_SLICE_S", 0.01)
    waits = []

    async def get_msg(channel, timeout=None):
        waits.append(timeout)
        if len(waits) < 3:
            raise Empty
        return {"msg_type": "execute_reply"}

    sliced = stuck_cells.sliced_get_msg(get_msg)
    assert asyncio.run(sliced(None, timeout=None)) == {"msg_type": "execute_reply"}
    assert waits == [0.01, 0.01, 0.01]


def test_a_wait_on_a_kernel_channel_still_ends_at_its_timeout(monkeypatch):
    monkeypatch.setattr(stuck_cells, "POLL_SLICE_S", 0.01)
    waits = []

    async def get_msg(channel, timeout=None):  # nothing ever comes
        waits.append(timeout)
        await asyncio.sleep(timeout)
        raise Empty

    started = time.monotonic()
    with pytest.raises(Empty):
        asyncio.run(stuck_cells.sliced_get_msg(get_msg)(None, timeout=0.05))
    assert 0.05 <= time.monotonic() - started < 1.0
    assert len(waits) >= 5 and max(waits) <= 0.01


def test_kernel_channels_wait_in_slices_once_installed():
    from jupyter_client.channels import AsyncZMQSocketChannel

    stuck_cells.install()
    assert getattr(AsyncZMQSocketChannel.get_msg, "__wrapped__", None) is not None
