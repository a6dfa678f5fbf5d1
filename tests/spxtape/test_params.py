"""The parameter records refuse what the model cannot run, naming the field, and what would run for minutes."""

import time

import pytest

from perfstudies.models.spxtape import ConcurrentParams, SpxtapeParams
from perfstudies.params import MAX_EVENTS


@pytest.mark.parametrize(("field", "value"), [
    ("drives", 0), ("drives", 9), ("volumes", 0), ("volumes", 17), ("change_time", -1.0),
    ("buffer_mb", 0.0), ("command", "TAPE"), ("function", "COPY"), ("mean_file_pages", 1.0),
    ("spread_skew", 0.95),
])
def test_invalid_parameters_are_refused_by_name(field, value):
    with pytest.raises(ValueError, match=f"SpxtapeParams.{field} = "):
        SpxtapeParams(**{field: value})


def test_sptape_with_two_drives_is_refused():
    with pytest.raises(ValueError, match="SpxtapeParams.drives = 2 .*SPTAPE"):
        SpxtapeParams(command="SPTAPE", drives=2)


def test_concurrent_parameters_are_refused_by_name():
    with pytest.raises(ValueError, match="ConcurrentParams.user_io_rate"):
        ConcurrentParams(page_io_time=0.01, user_io_rate=150.0)
    with pytest.raises(ValueError, match="ConcurrentParams.dump_reads_queued"):
        ConcurrentParams(dump_reads_queued=0)


# Issue 16, item 3: in-range values that multiply into a run of many minutes are refused at once.
REFUSED = [
    (ConcurrentParams, dict(page_io_time=1e-9), "page_io_time"),  # the example of issue 16: ran for minutes
    (ConcurrentParams, dict(page_io_time=1e-4, run_time=3_600.0), "page_io_time"),
    (SpxtapeParams, dict(total_pages=2_000_000, chunk_pages=8, mean_file_pages=2.5, function="LOAD", drives=1),
     "chunk_pages"),  # Ciw's blocked-queue scans make a fine-grained load quadratic in its chunks
    (SpxtapeParams, dict(total_pages=2_000_000, chunk_pages=8, volumes=16, drives=1), "chunk_pages"),
]


@pytest.mark.parametrize(("record", "values", "field"), REFUSED)
def test_runs_of_many_minutes_are_refused_quickly(record, values, field):
    started = time.perf_counter()
    grows = {ConcurrentParams: "run_time", SpxtapeParams: "total_pages"}[record]  # the message leads with it
    with pytest.raises(ValueError, match=rf"{record.__name__}\.{grows} = .*{field} = .*simulated events; "
                                         rf"allowed at most.*reduce {grows}, or raise {field}"):
        record(**values)
    assert time.perf_counter() - started < 0.1


def test_the_defaults_and_every_configuration_the_chapter_runs_are_accepted(calibrated):
    from perfstudies.models.spxtape import WIDGET_CONTROLS, WIDGET_RANGES, calibrate_concurrent, sweep_points
    from perfstudies.models.spxtape.calibration import CONFIGURATIONS, comparison_run
    from perfstudies.models.spxtape.comparison import concurrent_dump
    from perfstudies.models.spxtape.explore import widget_defaults

    accepted = [SpxtapeParams(), ConcurrentParams(), calibrated, calibrate_concurrent(300.0),
                concurrent_dump(calibrated), *sweep_points(), *(comparison_run(calibrated, *key) for key in CONFIGURATIONS)]
    widget = widget_defaults()
    for name in WIDGET_CONTROLS:  # every control of the live panel at both ends of its range
        meta = SpxtapeParams.spec()[name]
        values = meta["choices"] or WIDGET_RANGES.get(name, (meta["low"], meta["high"]))
        for value in values:
            sptape = {"drives": 1} if value == "SPTAPE" else {}  # the record refuses SPTAPE with 2 drives
            accepted.append(widget.replace(**{name: value}, **sptape))
    accepted.append(widget.replace(command="SPTAPE", drives=1, function="LOAD"))
    accepted.append(widget.replace(function="LOAD", volumes=16, drives=8, mean_file_pages=3.0))
    for record in accepted:
        assert record.events_estimate() <= MAX_EVENTS, record


def test_the_estimate_follows_the_run(calibrated):
    """The estimate grows with the customers and, for a load, with their square (Ciw's scans)."""
    load = calibrated.replace(function="LOAD", drives=1, chunk_pages=128)
    finer = load.replace(chunk_pages=64)
    assert finer.events_estimate() > 2 * load.events_estimate()
    assert SpxtapeParams(command="SPTAPE", drives=1).events_estimate() < SpxtapeParams().events_estimate()
