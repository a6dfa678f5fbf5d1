"""Sphinx extension (and test helper): nbclient's kernels talk over Unix sockets, not localhost TCP ports.

A kernel started over TCP gets five ports that jupyter_client picks by binding
port 0 and closing the socket again; the kernel binds them a moment later.
Two processes starting kernels at once (the book build in one pytest worker,
the live-widget kernels in the other; every browser and HTTP connection
taking ephemeral ports meanwhile) race for those ports (jupyter_client issue
487): a kernel that lost its port, or a client connected to another kernel's
port, dies or waits for a reply that never comes.  Over ``ipc`` each kernel's
sockets are files of its own in Jupyter's runtime directory: nothing to race
for.  :func:`install` makes every ``NotebookClient`` of this process start its
kernel so; the book build loads it as a Sphinx extension and the tests that
run chapters in kernels call it.
"""

import os
import uuid

from jupyter_core.paths import jupyter_runtime_dir


def ipc_address() -> str:
    """A fresh path prefix for one kernel's sockets (``<prefix>-<n>``), in Jupyter's runtime directory."""
    runtime = jupyter_runtime_dir()
    os.makedirs(runtime, exist_ok=True)
    return os.path.join(runtime, f"kernel-{uuid.uuid4().hex}-ipc")


def use_ipc(km):
    """Set a kernel manager whose kernel has not started to Unix sockets; return it."""
    if km.transport == "tcp" and not km.has_kernel:
        km.transport = "ipc"
        km.ip = ipc_address()
    return km


def install() -> None:
    """Start every kernel of nbclient's ``NotebookClient`` in this process over ``ipc`` (idempotent)."""
    from nbclient import NotebookClient

    if getattr(NotebookClient, "_perfstudies_ipc", False):
        return
    create = NotebookClient.create_kernel_manager

    def create_kernel_manager(self):
        return use_ipc(create(self))

    NotebookClient.create_kernel_manager = create_kernel_manager
    NotebookClient._perfstudies_ipc = True


def setup(app):
    install()
    return {"parallel_read_safe": True, "parallel_write_safe": True}
