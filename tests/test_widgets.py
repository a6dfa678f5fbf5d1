"""Widgets offer only valid values and report invalid combinations instead of running."""

from dataclasses import dataclass

import ipywidgets as widgets
import pytest

from perfstudies.context import BOOK_BUILD_ENV
from perfstudies.params import Params, param
from perfstudies.widgets import controls, live_panel


@dataclass(frozen=True)
class Demo(Params):
    drives: int = param(2, low=1, high=4, doc="tape drives")
    load: float = param(0.5, low=0.0, low_open=True, high=2.0, unit="1/s", doc="load")
    device: str = param("ESS", choices=("ESS", "3390-3"), doc="device")
    size: float = param(10.0, low=0.0, unit="GB", doc="size")

    def __post_init__(self):
        super().__post_init__()
        if self.load > self.drives / 2:
            raise ValueError(f"Demo.load = {self.load!r} is out of range: allowed load <= drives / 2")


def test_controls_follow_the_field_metadata():
    boxes = controls(Demo, ["drives", "load", "device", "size"], ranges={"size": (1.0, 100.0)})
    assert isinstance(boxes["drives"], widgets.IntSlider)
    assert (boxes["drives"].min, boxes["drives"].max, boxes["drives"].value) == (1, 4, 2)
    assert boxes["load"].min > 0.0 and boxes["load"].max == 2.0  # open lower bound is excluded
    assert list(boxes["device"].options) == ["ESS", "3390-3"]
    assert (boxes["size"].min, boxes["size"].max) == (1.0, 100.0)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"names": ["size"]}, r"ranges\['size'\] is required"),
    ({"names": ["drives"], "ranges": {"drives": (0, 3)}}, r"ranges\['drives'\] = \(0, 3\) is not allowed"),
    ({"names": ["speed"]}, r"names = \['speed'\] are not fields of Demo"),
])
def test_bad_control_requests(kwargs, message):
    with pytest.raises(ValueError, match=message):
        controls(Demo, **kwargs)


def test_live_panel_reruns_and_reports_invalid_combinations():
    calls = []
    panel = live_panel(Demo, ["drives", "load"], run=lambda p: calls.append(p) or p.drives,
                       render=lambda result: f"{result} drives")
    drives, load, status = panel.controls["drives"], panel.controls["load"], panel.status
    assert [p.drives for p in calls] == [2] and "model ran in" in status.value
    drives.value = 3
    assert calls[-1].drives == 3 and "model re-ran in" in status.value
    drives.value = 1
    load.value = 1.5  # more than drives / 2: the record refuses it, the model does not run
    assert "Invalid input" in status.value and "Demo.load" in status.value
    assert calls[-1].load != 1.5
    assert not panel.output.outputs, "a stale output stays beside the error"
    assert not any(box.disabled for box in panel.controls.values())


def test_a_setting_the_panels_check_refuses_is_invalid_input_and_never_runs():
    """A record the model cannot run (Panel.check, e.g. mdf's unstable device) reads like a refused value."""
    calls = []

    def check(params):
        if params.drives > 2:
            raise ValueError(f"params.drives = {params.drives} is out of range: allowed drives <= 2 here")
        return params

    panel = live_panel(Demo, ["drives", "load"], run=lambda p: calls.append(p) or p.drives,
                       render=lambda result: f"{result} drives", check=check)
    panel.controls["drives"].value = 3
    assert "Invalid input" in panel.status.value and "params.drives = 3" in panel.status.value
    assert [p.drives for p in calls] == [2], "the model ran at a setting its check refuses"
    with pytest.raises(TypeError, match="^check = 1 is not allowed"):
        live_panel(Demo, ["drives"], run=len, render=str, check=1)


def test_live_panel_labels_sit_above_their_controls_in_full():
    panel = live_panel(Demo, ["load", "device"], run=lambda p: p, render=str)
    labels = [child.value for child in panel.children if isinstance(child, widgets.HTML)]
    assert "load (1/s)" in labels[0] and "device" in labels[1]
    assert panel.controls["load"].description == "" and panel.controls["load"].tooltip == "load (1/s)"
    assert panel.children[1] is panel.controls["load"] and "perfstudies-live-panel" in panel._dom_classes


def test_live_panel_shows_a_running_state_while_the_model_runs():
    seen, panel = [], None

    def run(params):  # records what a front end shows while the model runs
        if panel is not None:
            seen.append(([box.disabled for box in panel.controls.values()], panel.status.value))
        return params.drives

    panel = live_panel(Demo, ["drives"], run=run, render=str)
    panel.controls["drives"].value = 3
    (disabled, status), = seen
    assert disabled == [True] and "running the model for drives = 3" in status and "previous values" in status
    assert not panel.controls["drives"].disabled and "re-ran" in panel.status.value


@pytest.mark.parametrize(("run", "render", "words"), [
    (lambda p: 1 / 0 if p.drives == 3 else 1, str, "ZeroDivisionError: division by zero"),
    (lambda p: p.drives, lambda r: (_ for _ in ()).throw(ValueError("no chart for 3")) if r == 3 else str(r),
     "ValueError: no chart for 3"),
])
def test_live_panel_reports_model_and_render_failures_in_words(run, render, words):
    panel = live_panel(Demo, ["drives"], run=run, render=render)
    panel.controls["drives"].value = 3
    assert "The model failed" in panel.status.value and words in panel.status.value
    assert "Traceback" not in panel.status.value and not panel.output.outputs
    assert not panel.controls["drives"].disabled
    panel.controls["drives"].value = 2
    assert "re-ran" in panel.status.value


def test_live_panel_is_a_snapshot_in_the_static_book(monkeypatch):
    monkeypatch.setenv(BOOK_BUILD_ENV, "1")
    calls = []
    panel = live_panel(Demo, ["drives", "load"], run=lambda p: calls.append(p) or p.drives, render=str)
    assert all(box.disabled for box in panel.controls.values())
    assert "run this page live to move these controls" in panel.status.value
    assert "ran in" not in panel.status.value and len(calls) == 1
    panel.controls["drives"].value = 3  # nothing listens in the static book
    assert len(calls) == 1


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"params_cls": dict}, TypeError, r"params_cls = <class 'dict'> is not allowed: a Params subclass"),
    ({"names": "drives"}, TypeError, r"names = 'drives' is not allowed"),
    ({"names": []}, TypeError, r"names = \[\] is not allowed"),
    ({"names": ["drives", "drives"]}, ValueError, r"each field at most once"),
    ({"defaults": 3}, TypeError, r"defaults = 3 is not allowed: None or a Demo record"),
    ({"run": None}, TypeError, r"run = None is not allowed: a callable"),
    ({"render": "chart"}, TypeError, r"render = 'chart' is not allowed: a callable"),
    ({"ranges": {"load": (1.0, 0.5)}}, ValueError, r"ranges\['load'\] = \(1.0, 0.5\) is not allowed: low < high"),
])
def test_live_panel_validates_its_arguments(kwargs, error, message):
    arguments = dict(params_cls=Demo, names=["drives", "load"], run=lambda p: p, render=str) | kwargs
    with pytest.raises(error, match=message):
        live_panel(**arguments)


def _parser_built_at_import_and_iri_checks(first_import: str) -> list[str]:
    """In a fresh process of this environment: whether importing ``first_import`` and jsonschema built the
    RFC 3987 parser (lark imported), then a valid and an invalid iri checked."""
    import subprocess
    import sys

    code = (f"import sys, {first_import}, jsonschema; before = 'lark' in sys.modules; "
            "checker = jsonschema.Draft7Validator.FORMAT_CHECKER; "
            "print(before, checker.conforms('http://example.com/ä', 'iri'), "
            "checker.conforms('http://exa mple.com', 'iri'))")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()


def test_a_chapters_first_import_builds_no_rfc3987_parser_yet_keeps_the_iri_check():
    """jsonschema (through Altair) would build an RFC 3987 Lark parser at import, seconds that no chart
    uses (the Vega-Lite schema has no iri formats); it is built on the first iri check instead."""
    assert _parser_built_at_import_and_iri_checks("perfstudies.models.spxtape") == ["False", "True", "False"]


def test_every_process_of_the_environment_defers_the_rfc3987_parser():
    """`make env` installs ``perfstudies_lazy.pth``: a process that imports nbformat first (Sphinx, JupyterLab,
    nbclient, pytest) defers the parser too, and an iri check still builds and runs it."""
    assert _parser_built_at_import_and_iri_checks("nbformat") == ["False", "True", "False"]
