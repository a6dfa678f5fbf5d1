"""Widgets offer only valid values and report invalid combinations instead of running."""

from dataclasses import dataclass

import ipywidgets as widgets
import pytest

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
    drives, load, status = panel.children[0], panel.children[1], panel.children[2]
    assert [p.drives for p in calls] == [2]
    drives.value = 3
    assert calls[-1].drives == 3 and "re-ran" in status.value
    drives.value = 1
    load.value = 1.5  # more than drives / 2: the record refuses it, the model does not run
    assert "Invalid input" in status.value and "Demo.load" in status.value
    assert calls[-1].load != 1.5
