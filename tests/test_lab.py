"""`make lab` has what live widgets and text notebooks need, offline, and saving a page changes nothing.

What a reader sees in the browser is checked by `test_lab_browser.py`; these
are the fast checks of the same set-up.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import altair as alt
import jupytext
import pandas as pd
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupytext.config import load_jupytext_config

from perfstudies import charts
from perfstudies.context import BOOK_BUILD_ENV

ROOT = Path(__file__).resolve().parents[1]
# Every page that is a notebook: the chapters and the book pages with a Jupytext header.
TEXT_NOTEBOOKS = sorted(p for p in [*(ROOT / "notebooks").glob("*.md"), *(ROOT / "book").glob("*.md")]
                        if p.read_text().startswith("---\njupytext:"))


def test_jupyterlab_has_widget_manager_and_jupytext():
    jupyter = Path(sys.executable).with_name("jupyter")
    listing = subprocess.run([str(jupyter), "labextension", "list"], capture_output=True, text=True)
    text = listing.stdout + listing.stderr
    assert "@jupyter-widgets/jupyterlab-manager" in text
    assert "jupyterlab-jupytext" in text


def test_markdown_chapters_open_as_notebooks_and_lab_fetches_no_news():
    overrides = json.loads((ROOT / "scripts" / "jupyterlab-overrides.json").read_text())
    viewers = overrides["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]
    assert viewers["markdown"] == "Jupytext Notebook"
    notification = overrides["@jupyterlab/apputils-extension:notification"]
    assert notification == {"fetchNews": "false", "checkForUpdates": False}
    # every cell attached and rendered from the start: jupyterlab-myst finds a cell's glued-value lookups in
    # its rendered MyST only, so a cell still off screen at "Run All" would keep its placeholders
    assert overrides["@jupyterlab/notebook-extension:tracker"] == {"windowingMode": "none"}


def test_make_lab_listens_on_localhost_with_a_token_and_opens_no_browser():
    command = subprocess.run(["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    lab = command[command.index("jupyter lab"):]
    assert "--ServerApp.ip=127.0.0.1" in lab and "--no-browser" in lab and "--notebook-dir=." in lab
    assert "token" not in lab, "the token is JupyterLab's own random one"
    assert ("--allow-root" in lab) == (os.getuid() == 0)
    # glued numbers show their values after Run All (tests/test_lab_glue.py)
    assert "--ServerApp.contents_manager_class=perfstudies.lab_glue.GlueContentsManager" in lab


def test_make_test_installs_chromium_or_names_the_command():
    recipe = subprocess.run(["make", "-n", "test"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "apt-get install -y -qq chromium" in recipe and recipe.index("chromium") < recipe.index("pytest")
    assert (ROOT / ".ci" / "run").read_text().rstrip().endswith("exec make test")


@pytest.mark.skipif(os.getuid() != 0 or not shutil.which("runuser"), reason="needs root to act as a plain user")
def test_without_root_or_sudo_make_test_stops_at_once_with_the_command():
    # The Makefile, copied to a folder the plain user can read (a clone made by `mktemp -d` is root's alone).
    readable = Path(tempfile.mkdtemp(prefix="as-nobody-"))
    try:
        readable.chmod(0o755)
        shutil.copy(ROOT / "Makefile", readable / "Makefile")
        (readable / "Makefile").chmod(0o644)
        result = subprocess.run(["runuser", "-u", "nobody", "--", "make", "-s", "browser",
                                 "CHROMIUM=/nonexistent/chromium"],
                                cwd=readable, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    finally:
        shutil.rmtree(readable)
    assert result.returncode != 0
    assert "/nonexistent/chromium is missing for the browser tests; run: sudo apt-get install -y chromium" \
        in result.stderr


def test_charts_use_the_front_ends_own_vega_outside_the_book(monkeypatch):
    monkeypatch.delenv(BOOK_BUILD_ENV, raising=False)
    assert charts.setup() == "mimetype"
    data, metadata = alt.Chart(pd.DataFrame({"x": [1, 2]})).mark_point().encode(x="x:Q")._repr_mimebundle_()
    assert "application/vnd.vegalite.v5+json" in data and "text/html" not in data  # no script from a CDN
    options = metadata["application/vnd.vegalite.v5+json"]["embed_options"]
    assert options["renderer"] == "svg" and options["actions"]["editor"] is False


@pytest.mark.parametrize("path", TEXT_NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_round_trip_through_jupytext_is_byte_identical(path):
    config = load_jupytext_config(str(path))
    assert config is not None and config.notebook_metadata_filter, "the project's jupytext.toml is not found"
    notebook = jupytext.read(path, config=config)
    assert jupytext.writes(notebook, fmt="md:myst", config=config) == path.read_text()


@pytest.mark.parametrize("path", TEXT_NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_kernelspec_header_is_the_one_jupyterlab_writes(path):
    """JupyterLab sets the kernelspec to {name, display_name, language} of the running kernel on every save."""
    spec = KernelSpecManager().get_kernel_spec("python3")
    expected = {"name": "python3", "display_name": spec.display_name, "language": spec.language}
    header = jupytext.read(path).metadata["kernelspec"]
    assert list(header.items()) == list(expected.items()), (
        f"{path.name}: the header's kernelspec {dict(header)} is rewritten on save to {expected} (in this order)")
