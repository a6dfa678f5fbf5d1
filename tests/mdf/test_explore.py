"""The chapter's interactive parts: the live panel's re-run, the slider sweep's points, the theory tables."""

import pytest

from perfstudies.models.mdf.explore import (ALL_PARAMETERS, SLIDER_RATES, capacity_table, held_iosq_table,
                                            PANEL, hold_table, ims_bounds_table, panel_defaults, slice_table,
                                            sweep_points, widget_run, widget_theory)
from perfstudies.panel import COLUMNS, shows_through
from perfstudies.models.mdf.params import DeviceParams, PanelParams


def test_widget_run_reports_simulation_with_intervals_and_theory():
    table = widget_run(PanelParams(device_rate=15.0))
    assert list(table.columns) == COLUMNS and len(table) == 4     # true IOSQ, RMF IOSQ, RESP, hold
    assert (table["half_width"] > 0).all() and table["change"].notna().all()
    theory = widget_theory(PanelParams(device_rate=15.0))
    assert theory["theory"].notna().all() and len(theory) == 5


def test_widget_run_without_params_runs_the_defaults():
    assert widget_run().equals(widget_run(panel_defaults()))


def test_one_step_of_the_scheduling_parameter_shows_through_the_noise():
    """The main control, one step from the default (parameter 1 -> 2, shorter slices): the true IOSQ
    falls by about a quarter, and the paired interval of the change excludes zero."""
    assert PANEL.main == "scheduling_parameter"
    row = widget_run(panel_defaults().replace(scheduling_parameter=2)).set_index("metric").loc["iosq_ms"]
    assert row["change"] <= -0.05 * row["default"] and shows_through(row)


def test_the_calibration_comes_from_the_disk_memo(monkeypatch):
    """A process that finds the calibration's simulated parts on disk (the RMF rule's candidates, the TSO
    root-find) does not simulate them again."""
    from perfstudies.models.mdf import calibration
    cached = (calibration.calibrate, calibration.rule_candidates, calibration.tso_calibrated)
    expected = calibration.calibrate(), calibration.tso_calibrated()
    for function in cached:
        function.cache_clear()
    monkeypatch.setattr(calibration, "replicate", lambda *args, **kwargs: pytest.fail("the calibration simulated"))
    try:
        assert (calibration.calibrate(), calibration.tso_calibrated()) == expected
    finally:
        for function in cached:
            function.cache_clear()


def test_sweep_points_cover_every_parameter_and_rate_with_the_calibrated_device():
    points = sweep_points()
    assert len(points) == len(SLIDER_RATES) * len(ALL_PARAMETERS)
    assert all(isinstance(p, DeviceParams) and p.domain == "IMS" for p in points)
    assert {(p.rate, p.scheduling_parameter) for p in points} == {(r, s) for r in SLIDER_RATES for s in ALL_PARAMETERS}
    assert len({(p.service_ms, p.scv) for p in points}) == 1


def test_the_chapters_theory_tables():
    assert slice_table()["source"].tolist() == ["document", "interpolated", "document", "interpolated", "document"]
    holds = hold_table()["mean hold E[H] (ms)"]
    assert holds.is_monotonic_decreasing and holds.iloc[0] == pytest.approx(7.649, abs=0.001)   # 30 ms slices, 0.30 ms switch
    c23 = held_iosq_table("IMS-C23").set_index("column")
    assert c23.loc["BASE", "M/G/1 with hold (ms)"] == pytest.approx(15.0)    # BASE calibrates the device
    assert (c23["M/G/1 with hold (ms)"] >= c23["M/G/1 without hold (ms)"] - 1e-9).all()
    assert ims_bounds_table()["bottleneck"].tolist() == ["4705", "4705", "4705", "processors", "processors"]


def test_the_capacity_table_falls_with_longer_slices_and_slower_devices():
    table = capacity_table().set_index("scheduling parameter")
    for device in ("3380", "3350"):
        capacity = table[f"{device}: capacity (I/O per s)"]
        assert capacity["BASE"] > capacity[5] > capacity[3] > capacity[1]
    assert (table["3350: capacity (I/O per s)"] < table["3380: capacity (I/O per s)"]).all()
    assert table.loc["BASE", "3350: capacity (I/O per s)"] > 35.0 > table.loc[5, "3350: capacity (I/O per s)"]


def test_the_panel_refuses_a_device_rate_its_held_completions_make_unstable_before_it_runs(monkeypatch):
    """45 I/O per s is an allowed PanelParams.device_rate, beyond what the calibrated device can take at
    parameter 1 with its completions held; the panel's model refuses it naming the argument's field
    before any simulation (issue 24: the record checks only its own fields)."""
    from perfstudies.models.mdf import explore

    def no_run(*args):
        raise AssertionError("a simulation started")

    monkeypatch.setattr(explore, "model", no_run)
    with pytest.raises(ValueError, match="^params.device_rate = 45.0 is out of range: with completions held"):
        explore.panel_model(PanelParams(device_rate=45.0), 1)
    # the panel declares the same check, so a move there is refused as invalid input before any replication
    assert explore.PANEL.check is explore.check_panel_load
    with pytest.raises(ValueError, match="^params.device_rate = 45.0 is out of range"):
        explore.widget_run(PanelParams(device_rate=45.0))


def test_a_rate_the_device_cannot_sustain_is_refused_naming_the_sweeps_arguments():
    """45 I/O per s is an allowed DeviceParams.rate, but with completions held until the IMS domain runs
    again (parameter 1) the calibrated device would be busy more than all the time."""
    with pytest.raises(ValueError, match=r"^rates = .*45\.0.* with parameters = .*is not allowed for the "
                                         r"calibrated IMS device: DeviceParams\.rate = 45\.0 is out of range"):
        sweep_points(rates=[45.0], parameters=[1])
