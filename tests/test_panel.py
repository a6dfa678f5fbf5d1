"""The one panel re-run: levels, and changes from the default with paired (common random number) intervals."""

import pytest

from perfstudies.panel import COLUMNS, Panel, run_panel
from toy import mm1


def test_the_default_setting_has_no_change():
    table = run_panel(mm1.PANEL)
    assert list(table.columns) == COLUMNS
    row = table.iloc[0]
    assert (row["change"], row["change_half_width"]) == (0.0, 0.0) and row["mean"] == row["default"]
    assert row["replications"] == 3 and row["half_width"] > 0


def test_a_one_step_move_of_the_main_control_shows_through_the_noise():
    """rho 0.5 -> 0.6: W goes from 2 to 2.5 s (+25%); the paired interval excludes 0 with three replications."""
    row = run_panel(mm1.PANEL, mm1.QueueParams(arrival_rate=0.6)).iloc[0]
    assert row["change"] > row["change_half_width"] > 0
    assert row["change_half_width"] < row["half_width"], "pairing narrows the interval of the change"
    assert row["change"] == pytest.approx(0.5, abs=3 * row["change_half_width"])


def test_same_setting_same_numbers():
    setting = mm1.QueueParams(arrival_rate=0.7)
    assert run_panel(mm1.PANEL, setting).equals(run_panel(mm1.PANEL, setting))


def test_wrong_records_and_declarations_are_refused_by_name():
    with pytest.raises(TypeError, match="params = 'defaults' has the wrong type: allowed a QueueParams"):
        run_panel(mm1.PANEL, "defaults")
    with pytest.raises(ValueError, match="Panel.main = 'horizon_s'"):
        Panel(mm1.QueueParams, ("arrival_rate",), "horizon_s", mm1.QueueParams, mm1.model, {"x": "x"}, 1)
    with pytest.raises(ValueError, match="Panel.controls"):
        Panel(mm1.QueueParams, ("servers",), "servers", mm1.QueueParams, mm1.model, {"x": "x"}, 1)
    unknown = Panel(mm1.QueueParams, ("arrival_rate",), "arrival_rate", mm1.QueueParams, mm1.model,
                    {"queue_length": "queue"}, 1)
    with pytest.raises(ValueError, match="Panel.shown names 'queue_length'"):
        run_panel(unknown)
