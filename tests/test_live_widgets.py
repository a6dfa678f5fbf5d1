"""Every chapter's live panel works in a real kernel: each control moves and the model re-runs.

The chapter runs in a Jupyter kernel as in `make lab`; an extra cell then moves
every control of every panel to its maximum, its minimum and back (or through
every option), which is what a reader does.  A model that raises on any of
those values fails the cell and the test; the panel's status line must end on
"re-ran", not on an invalid-input message, once the defaults are restored.
"""

import jupytext
import nbformat
import pytest
from nbclient import NotebookClient

from perfstudies.paths import ROOT
from perfstudies.studies import STUDIES

pytestmark = pytest.mark.book

MOVE_EVERY_CONTROL = """
import ipywidgets as widgets
from ipywidgets.widgets.widget import _instances  # every live widget of this kernel

moved = []
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
    moved.append(control.description)
statuses = [w.value for w in _instances.values()
            if isinstance(w, widgets.HTML) and ("model re-ran" in w.value or "Invalid input" in w.value)]
print(len(moved), statuses)
"""


@pytest.mark.parametrize("key", list(STUDIES))
def test_every_control_of_the_live_panel_reruns_the_model(key):
    notebook = jupytext.read(ROOT / "notebooks" / f"{key}.md")
    notebook.cells.append(nbformat.v4.new_code_cell(MOVE_EVERY_CONTROL))
    NotebookClient(notebook, timeout=900, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    printed = "".join(output.get("text", "") for output in notebook.cells[-1].outputs)
    count, statuses = printed.split(" ", 1)
    assert int(count) >= 4, f"{key}: only {count} controls found"
    assert "model re-ran" in statuses and "Invalid input" not in statuses, statuses
