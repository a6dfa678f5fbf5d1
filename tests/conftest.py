"""Shared fixtures: the built book (built once per test session) and its server; the headless browser's settings."""

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
    result = build_book(ROOT, ROOT / "book" / "_config.yml", ROOT / "book" / "_toc.yml")
    assert result.returncode == 0, f"book build failed:\n{result.stdout[-6000:]}\n{result.stderr[-6000:]}"
    return HTML


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

