"""The chapter's interactive parts: the widget re-run and its view, the traced run and the sweep points."""

import json

import pandas as pd

from perfstudies import charts
from perfstudies.models.spxtape import (PANEL, SEED, SpxtapeParams, WIDGET_CONTROLS, WIDGET_RANGES, model,
                                        one_drive_trace, sweep_points, trace, widget_defaults, widget_run, widget_view)
from perfstudies.models.spxtape.explore import SWEEP_DRIVES, SWEEP_VOLUMES, WIDGET_REPLICATIONS
from perfstudies.models.spxtape.figures import stepped_intervals
from perfstudies.panel import COLUMNS, shows_through
from perfstudies.runner import replicate, replication_seeds


def test_widget_run_gives_intervals_and_a_timeline():
    result = widget_run()
    assert list(result.table.columns) == COLUMNS and (result.table["replications"] == WIDGET_REPLICATIONS).all()
    assert (result.table["change"] == 0).all(), "the default's change from itself"
    timeline, buffer = result.traces["timeline"], result.traces["buffer"]
    assert {"transferring", "changing tape", "spool I/O"} <= set(timeline["state"])
    # the buffer holds a whole number of chunks of the mean size, so its peak is near, not at, the setting
    assert 0.75 * result.params.buffer_mb <= buffer["buffer_mb"].max() <= 1.25 * result.params.buffer_mb


def test_widget_run_is_replicate_from_the_study_seed():
    p = widget_defaults().replace(drives=1, volumes=6)
    shown = widget_run(p).table.set_index("metric")["mean"]
    expected = replicate(model, p, WIDGET_REPLICATIONS, seed=SEED, progress=False).summary()["mean"]
    pd.testing.assert_series_equal(shown, expected.loc[shown.index], check_names=False)


def test_the_trace_is_the_models_replication():
    p = widget_defaults().replace(volumes=3)
    seed = replication_seeds(SEED, 1)[0]
    assert trace(p, seed)[0] == model(p, seed)


def test_one_drive_less_shows_through_the_noise():
    """The main control, one step from the default (2 -> 1 drive): elapsed time rises by about a sixth,
    and the paired interval of the change excludes zero."""
    assert PANEL.main == "drives"
    row = widget_run(widget_defaults().replace(drives=1)).table.set_index("metric").loc["elapsed_s"]
    assert row["change"] >= 0.05 * row["default"] and shows_through(row)


def test_the_traced_run_is_the_one_drive_dump():
    result = one_drive_trace()
    assert result.params.drives == 1
    assert "blocked: buffer full" in set(result.traces["timeline"]["state"])


def test_sweep_points_cover_the_slider():
    points = sweep_points()
    assert {(p.drives, p.volumes) for p in points} == {(d, v) for d in SWEEP_DRIVES for v in SWEEP_VOLUMES}
    assert {p.command for p in points} == {"SPXTAPE"} and {p.function for p in points} == {"DUMP"}


def test_the_widget_controls_are_fields_with_ranges_inside_the_record():
    spec = SpxtapeParams.spec()
    assert set(WIDGET_CONTROLS) <= set(spec)
    for name, (low, high) in WIDGET_RANGES.items():
        SpxtapeParams(**{name: low}), SpxtapeParams(**{name: high})


def test_a_lane_shows_the_state_it_spent_most_of_each_step_in():
    frame = pd.DataFrame({"lane": ["volume 1"] * 3, "state": ["spool I/O", "blocked: buffer full", "spool I/O"],
                          "start": [0.0, 0.7, 2.0], "end": [0.7, 1.0, 4.0]})
    bars = stepped_intervals(frame, 1.0)
    assert bars[["state", "start", "end"]].values.tolist() == [["spool I/O", 0.0, 1.0], ["spool I/O", 2.0, 4.0]]


def test_the_live_view_stays_small_whatever_the_run():
    """The panel's output is one message; a lane switching state every tenth of a second must not make it big."""
    charts.setup()
    worst = widget_defaults().replace(volumes=16, drives=1, change_time=0.0)  # volumes blocked behind one drive
    table, chart = widget_view(widget_run(worst))
    assert "change from the chapter's default" in table.to_html()
    bundle = chart._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert len(json.dumps(data)) < 48_000
