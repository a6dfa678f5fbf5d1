"""A time bound for a test block: fail with TimeoutError instead of running on (shared by the test modules)."""

import contextlib
import signal


@contextlib.contextmanager
def within(seconds: int):
    """Fail with TimeoutError instead of running on when the block takes longer than ``seconds``."""
    def expire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
