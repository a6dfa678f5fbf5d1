"""Every chapter's live panel works in a real kernel: each control moves and the model re-runs.

The chapter runs in a Jupyter kernel as in `make lab`; an extra cell then moves
every control of every panel to its maximum, its minimum and back (or through
every option), which is what a reader does.  The panel reports a model that
raises in its status line ("The model failed ..."), so the cell records every
status after every move: a failure at any of those values fails the test, and
each status line must end on "re-ran", not on an invalid-input message, once
the defaults are restored.  What a browser shows is `test_lab_browser.py`'s job.
"""

import jupytext
import nbformat
import pytest
from nbclient import NotebookClient

from conftest import book_extension
from perfstudies.paths import ROOT
from perfstudies.studies import STUDIES

pytestmark = pytest.mark.book

# A cell whose kernel sits idle (no CPU, no output) fails in seconds, with the kernel's state,
# instead of at the 900 s timeout that is there for cold computations (book/_ext/stuck_cells.py).
stuck_cells = book_extension("stuck_cells")
stuck_cells.install()
# Its kernels on Unix sockets: no localhost ports to race for with the other worker's kernels and servers.
book_extension("ipc_kernels").install()

MOVE_EVERY_CONTROL = """
import ipywidgets as widgets
from ipywidgets.widgets.widget import _instances  # every live widget of this kernel

statuses = [w for w in list(_instances.values())
            if isinstance(w, widgets.HTML) and "perfstudies-panel-status" in w._dom_classes]
moved, failures = [], []
for control in list(_instances.values()):
    if isinstance(control, (widgets.IntSlider, widgets.FloatSlider)):
        values = [control.max, control.min]
    elif isinstance(control, widgets.Checkbox):
        values = [not control.value]
    elif isinstance(control, (widgets.Dropdown, widgets.ToggleButtons, widgets.RadioButtons)):
        values = list(control._options_values)
    else:
        continue
    default = control.value
    for value in [*values, default]:
        control.value = value
        failures += [f"{control.tooltip} = {value!r}: {s.value}" for s in statuses if "model failed" in s.value]
    moved.append(control.tooltip)
print(len(moved), len(statuses), repr(failures), repr([s.value for s in statuses]), sep="\\n")
"""


@pytest.mark.parametrize("key", list(STUDIES))
def test_every_control_of_the_live_panel_reruns_the_model(key):
    notebook = jupytext.read(ROOT / "notebooks" / f"{key}.md")
    notebook.cells.append(nbformat.v4.new_code_cell(MOVE_EVERY_CONTROL))
    NotebookClient(notebook, timeout=900, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    printed = "".join(output.get("text", "") for output in notebook.cells[-1].outputs)
    count, panels, failures, statuses = printed.rstrip("\n").split("\n")
    assert int(count) >= 4, f"{key}: only {count} controls found"
    assert int(panels) >= 1, f"{key}: no live panel"
    assert failures == "[]", f"{key}: the model failed at values a control offers: {failures}"
    assert "Invalid input" not in statuses and statuses.count("re-ran in") == int(panels), statuses
