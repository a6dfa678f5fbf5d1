"""Shared fixtures: the built book (built once per test session) and its server; the headless browser's settings."""

import contextlib
import fcntl
import functools
import http.server
import importlib.util
import os
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[1]
JUPYTER_BOOK = Path(sys.executable).with_name("jupyter-book")
HTML = ROOT / "_build" / "html"
#: Debian's Chromium, driven headless by both browser suites (``make test`` installs it).
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _as_given_by_make(path: Path) -> str:
    """``path`` as `make book` spells it: relative to the repository root when inside it."""
    path = Path(path)
    try:
        return os.path.relpath(path, ROOT) if path.resolve().is_relative_to(ROOT) else str(path)
    except ValueError:
        return str(path)


def build_book(source: Path, config: Path, toc: Path, output: Path | None = None) -> subprocess.CompletedProcess:
    """Run the book build exactly as `make book` does; return the finished process.

    The paths are spelled as `make book` spells them (``. --config book/_config.yml --toc
    book/_toc.yml``): jupyter-book hands the ``--toc`` path to Sphinx as the config value
    ``external_toc_path``, and a different spelling of the same file is a changed config to
    Sphinx, which then re-reads and re-executes every page.  Spelled alike, the test's build
    and `make book` share one build environment and a build with nothing changed is a no-op.
    """
    return subprocess.run(book_command(source, config, toc, output), cwd=ROOT, capture_output=True, text=True)


def book_command(source: Path, config: Path, toc: Path, output: Path | None = None) -> list[str]:
    """The command line of :func:`build_book` (run from the repository root)."""
    command = [str(JUPYTER_BOOK), "build", _as_given_by_make(source), "--config", _as_given_by_make(config),
               "--toc", _as_given_by_make(toc), "-W", "--keep-going"]
    if output is not None:
        command += ["--path-output", str(output)]
    return command


def book_extension(name: str):
    """The book's Sphinx extension ``book/_ext/<name>.py``, imported once per test process as ``name``."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "book" / "_ext" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


#: Set to the ``html`` folder of a book already built (``--path-output``) to test it as it is,
#: e.g. a small book of a few pages, instead of building the whole book first.
BUILT_BOOK_ENV = "PERFSTUDIES_BUILT_BOOK"


@pytest.fixture(scope="session")
def built_book() -> Path:
    """The whole book, built with warnings as errors and every notebook executed."""
    if os.environ.get(BUILT_BOOK_ENV):
        return Path(os.environ[BUILT_BOOK_ENV])
    with book_lock():  # an edition's build in the other worker waits for this one (and the rebuild)
        ensure_comparisons(WARM_ORDER)  # the Accuracy page and every chapter read them
        result = build_book(ROOT, ROOT / "book" / "_config.yml", ROOT / "book" / "_toc.yml")
        assert result.returncode == 0, f"book build failed:\n{result.stdout[-6000:]}\n{result.stderr[-6000:]}"
        # The same build again at once, nothing changed (test_book checks it executed nothing).
        BOOK_BUILDS["rebuild"] = build_book(ROOT, ROOT / "book" / "_config.yml", ROOT / "book" / "_toc.yml")
    return HTML


#: The session's builds of this tree's book, by name ("rebuild": the build repeated with nothing changed).
BOOK_BUILDS: dict[str, subprocess.CompletedProcess] = {}


@pytest.fixture(scope="session")
def book_url(built_book):
    """Serve the built HTML on a free localhost port for the session."""
    handler = functools.partial(_QuietHandler, directory=str(built_book))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def only_localhost(route, blocked: list) -> None:
    """A Playwright route handler: let localhost, data: and blob: through, abort the rest and record it."""
    host = urlparse(route.request.url).hostname
    if route.request.url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
        return route.continue_()
    blocked.append(route.request.url)
    return route.abort()


# --- using both cores (`make test` runs pytest -n 2 --dist loadfile --no-loadscope-reorder, see the Makefile) ---

#: The tests that run chapters in kernels (JupyterLab in Chromium): the second worker starts them at
#: once, beside the first worker's book build.  They write no chapter file (autosave off, the save check
#: saves a copy), and what both need from the disk memo is computed once (its per-entry locks).
KERNEL_MODULES = ("test_lab_browser.py",)
#: Tests that build an edition of the book: next, so that the worker done with the kernels builds them
#: (after the reader's build, which they wait for and whose executed notebooks they reuse) while the other
#: is still rendering the book in Chromium.
EDITION_MODULES = ("test_editions.py",)


#: Held (exclusively) while the session's book build runs.
BOOK_LOCK = ROOT / "_build" / ".book-build.lock"


@contextlib.contextmanager
def book_lock():
    """Held while a build of this tree's book runs: the reader's and each edition's, one at a time."""
    BOOK_LOCK.parent.mkdir(parents=True, exist_ok=True)
    with BOOK_LOCK.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def pytest_collection_modifyitems(config, items):
    """Order the tests for xdist: the book build, the chapters in kernels, the editions, then the rest.

    xdist (``--dist loadfile --no-loadscope-reorder``) hands out whole files in this order, so the first
    worker starts on test_book.py (the book build, then the Chromium pass over it) and the second on the
    chapters in JupyterLab at the same time: the two longest chains of the run start at once, and the
    study comparisons both need are computed once, each by the worker that reaches it first
    (:func:`ensure_comparisons`, mdf's first).  The editions come next (they wait for the book build and
    reuse its executed notebooks), so the worker done with JupyterLab builds them while the other renders
    the book.  The rest fills both workers to the end: the tests that read no comparison first, the
    study tests after them.
    """
    book, middle, editions, kernels = [], [], [], []
    for item in items:
        if item.path.name in KERNEL_MODULES:
            kernels.append(item)
        elif item.path.name in EDITION_MODULES:
            editions.append(item)
        elif {"built_book", "rendered"} & set(getattr(item, "fixturenames", ())):
            book.append(item)
        else:
            middle.append(item)
    def stage(item):  # tests that read no comparison first, mdf's (computed first, by the book build) last
        keys = _comparisons_of(item)
        return 0 if not keys else 3 if len(keys) > 1 else 2 if keys == [WARM_ORDER[0]] else 1

    items[:] = book + kernels + editions + sorted(middle, key=stage)


#: Studies in the order the book build computes their comparisons (longest first: mdf's takes over four
#: CPU-minutes cold), so the other worker, reaching the study tests later, finds the short ones to do.
WARM_ORDER = ("mdf", "spxtape", "vts", "diag44", "svcdump")
COMPARISON_LOCKS = ROOT / "_build" / "locks"
#: Test modules (outside tests/<study>/) that read every study's comparison.
EVERY_COMPARISON = ("test_studies.py", "test_stored_runs.py", *KERNEL_MODULES)


def ensure_comparisons(keys) -> None:
    """Every study comparison of ``keys`` in the disk memo, each computed by one process only.

    The study tests, the chapters, the Accuracy page and the live panels all read the comparisons
    through the disk memo (``perfstudies.accuracy.study_comparison``).  With two workers, both would
    compute a cold one at the same time; here each study's comparison is computed under a lock of its
    own, the free ones first, then the ones another worker is computing are waited for (and read).
    A comparison that raises is left to the tests that read it, which report the error.
    """
    from perfstudies.accuracy import study_comparison
    from perfstudies.studies import STUDIES

    pending = [key for key in WARM_ORDER if key in keys] + [key for key in keys if key not in WARM_ORDER]
    pending = [key for key in pending if key in STUDIES and key not in ENSURED]
    COMPARISON_LOCKS.mkdir(parents=True, exist_ok=True)
    for blocking in (False, True):
        for key in list(pending):
            with (COMPARISON_LOCKS / f"comparison-{key}.lock").open("a") as handle:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
                except BlockingIOError:
                    continue  # another worker computes it: first do the free ones
                try:
                    study_comparison(key)
                except Exception:  # noqa: BLE001 - the study's own tests call it again and report it
                    pass
                finally:
                    fcntl.flock(handle, fcntl.LOCK_UN)
            pending.remove(key)
            ENSURED.add(key)


#: Studies whose comparison this process has put in (or found in) the disk memo: once per process is
#: enough (the sources do not change during a session), and tabulating a comparison again before each of
#: a study's tests cost spxtape's tests alone minutes of CPU.
ENSURED: set[str] = set()


def _comparisons_of(item) -> list[str]:
    from perfstudies.studies import STUDIES

    try:
        parts = item.path.relative_to(ROOT / "tests").parts
    except ValueError:
        return []
    if len(parts) > 1 and parts[0] in STUDIES:
        return [parts[0]]
    return list(STUDIES) if item.path.name in EVERY_COMPARISON else []


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before a test that reads study comparisons, they are in the disk memo (ensure_comparisons)."""
    keys = _comparisons_of(item)
    if keys:
        ensure_comparisons(keys)


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, config):
    """`make test` (or `make check`) says how long it took, the environment included (the five slowest tests are above)."""
    started = os.environ.get("PERFSTUDIES_MAKE_STARTED")
    if started and not hasattr(config, "workerinput"):
        import time

        minutes, seconds = divmod(round(time.time() - float(started)), 60)  # 479.6 s is "8 min 0 s"
        target = os.environ.get("PERFSTUDIES_MAKE_TARGET", "test")
        terminalreporter.write_sep("=", f"make {target}: {minutes} min {seconds} s wall since "
                                        "make started (environment, memo, tests); the slowest tests are listed above")
