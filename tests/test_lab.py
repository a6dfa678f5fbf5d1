"""`make lab` has what live widgets and text notebooks need."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_jupyterlab_has_widget_manager_and_jupytext():
    jupyter = Path(sys.executable).with_name("jupyter")
    listing = subprocess.run([str(jupyter), "labextension", "list"], capture_output=True, text=True)
    text = listing.stdout + listing.stderr
    assert "@jupyter-widgets/jupyterlab-manager" in text
    assert "jupyterlab-jupytext" in text


def test_markdown_chapters_open_as_notebooks():
    overrides = json.loads((ROOT / "scripts" / "jupyterlab-overrides.json").read_text())
    viewers = overrides["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]
    assert viewers["markdown"] == "Jupytext Notebook"
