"""The chapter's interactive parts: the widget re-run, the traced run and the sweep points."""

import pandas as pd

from perfstudies.models.spxtape import (SEED, SpxtapeParams, WIDGET_CONTROLS, WIDGET_RANGES, model, one_drive_trace,
                                        sweep_points, widget_defaults, widget_run)
from perfstudies.models.spxtape.explore import SWEEP_DRIVES, SWEEP_VOLUMES, WIDGET_REPLICATIONS
from perfstudies.runner import replicate


def test_widget_run_gives_intervals_and_a_timeline():
    result = widget_run()
    assert (result.summary["n"] == WIDGET_REPLICATIONS).all()
    assert {"transferring", "changing tape", "spool I/O"} <= set(result.timeline["state"])
    # the buffer holds a whole number of chunks of the mean size, so its peak is near, not at, the setting
    assert 0.75 * result.params.buffer_mb <= result.buffer["buffer_mb"].max() <= 1.25 * result.params.buffer_mb


def test_widget_run_is_replicate_from_the_study_seed():
    p = widget_defaults().replace(drives=1, chunk_pages=512)
    shown = widget_run(p).summary["mean"]
    expected = replicate(model, p, WIDGET_REPLICATIONS, seed=SEED, progress=False).summary()["mean"]
    pd.testing.assert_series_equal(shown.sort_index(), expected.sort_index(), check_names=False)


def test_the_traced_run_is_the_one_drive_dump():
    result = one_drive_trace()
    assert result.params.drives == 1
    assert "blocked: buffer full" in set(result.timeline["state"])


def test_sweep_points_cover_the_slider():
    points = sweep_points()
    assert {(p.drives, p.volumes) for p in points} == {(d, v) for d in SWEEP_DRIVES for v in SWEEP_VOLUMES}
    assert {p.command for p in points} == {"SPXTAPE"} and {p.function for p in points} == {"DUMP"}


def test_the_widget_controls_are_fields_with_ranges_inside_the_record():
    spec = SpxtapeParams.spec()
    assert set(WIDGET_CONTROLS) <= set(spec)
    for name, (low, high) in WIDGET_RANGES.items():
        SpxtapeParams(**{name: low}), SpxtapeParams(**{name: high})
