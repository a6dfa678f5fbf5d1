"""The SPXTAPE study: the mechanism's structural facts, calibration, regression values, comparison."""

import math

import numpy as np
import pandas as pd
import pytest

from perfstudies.accuracy import study_comparison
from perfstudies.data import load
from perfstudies.models.spxtape import (ConcurrentParams, SpxtapeParams, calibrate, model, volume_model,
                                        widget_defaults, widget_run)
from perfstudies.models.spxtape.calibration import CALIBRATION_CELLS, TABLE2_CELLS, calibrate_concurrent
from perfstudies.models.spxtape.metrics import CHANGING, work_intervals
from perfstudies.models.spxtape.network import simulate
from perfstudies.models.spxtape.metrics import covered
from perfstudies.models.spxtape.workload import file_sizes, pareto_mean, pareto_shape
from perfstudies.runner import replication_seeds

SEEDS = replication_seeds(7, 2)


@pytest.fixture(scope="module")
def coarse():
    """Calibrated parameters with coarse customers, for fast structural checks."""
    return calibrate().replace(chunk_pages=512)


@pytest.mark.parametrize("function", ["DUMP", "LOAD"])
def test_sptape_is_idle_for_every_tape_change(coarse, function):
    metrics = model(coarse.replace(command="SPTAPE", function=function, drives=1), SEEDS[0])
    assert metrics["tape_change_s"] > 0
    assert metrics["system_idle_s"] == pytest.approx(metrics["tape_change_s"], rel=1e-12)
    assert metrics["overlap_pct"] == 0.0


def test_two_drives_overlap_every_change_while_reading_is_the_bottleneck():
    p = calibrate().replace(drives=2)  # full-scale customers: 32 pages, four 32 KB blocks
    for seed in SEEDS:
        metrics = model(p, seed)
        assert metrics["tape_change_s"] > 0
        assert metrics["system_idle_s"] == 0.0, f"seed {seed}"


def test_with_four_drives_only_a_change_after_the_last_read_can_idle():
    p = calibrate().replace(drives=4)
    for seed in SEEDS:
        records, log, roles = simulate(p, seed)
        reads_end = records[records["node"].isin(roles["volumes"])]["service_end_date"].max()
        work = work_intervals(records, log, roles)
        for _, state, start, end in log.segments:
            if state == CHANGING and end <= reads_end:
                assert covered((start, end), work) == pytest.approx(end - start)


def test_one_drive_idles_once_the_buffer_is_full(coarse):
    one = coarse.replace(drives=1)
    small, large = (model(one.replace(buffer_mb=mb), SEEDS[0]) for mb in (4.0, 512.0))
    assert small["system_idle_s"] > model(one, SEEDS[0])["system_idle_s"] > large["system_idle_s"]
    assert large["system_idle_s"] == 0.0  # 512 MB outlasts a one-minute change


@pytest.mark.parametrize("drives", [1, 2, 4, 8])
def test_n_drives_use_at_least_n_tapes(coarse, drives):
    metrics = model(coarse.replace(drives=drives), SEEDS[0])
    assert metrics["tapes"] >= drives
    assert metrics["tapes"] == drives + round(metrics["tape_change_s"] / coarse.change_time)


def test_sptape_tape_marks_cost_tapes(coarse):
    sptape = model(coarse.replace(command="SPTAPE", drives=1), SEEDS[0])
    spxtape = model(coarse.replace(drives=1), SEEDS[0])
    assert sptape["tapes"] > spxtape["tapes"]
    assert sptape["elapsed_s"] > 5 * spxtape["elapsed_s"]


def test_file_sizes_have_the_stated_range_and_mean():
    shape = pareto_shape(10.4)
    assert pareto_mean(shape) == pytest.approx(10.4, rel=1e-9)
    sizes = file_sizes(34_000, 353_000, 10.4, np.random.default_rng(1))
    assert sizes.sum() == pytest.approx(353_000)
    assert sizes.max() <= 600_000 * 80 / 4096 * 1.01


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


def test_same_seed_same_numbers(coarse):
    assert model(coarse, 11) == model(coarse, 11)
    assert model(coarse, 11) != model(coarse, 12)
    assert volume_model(ConcurrentParams(), 3) == volume_model(ConcurrentParams(), 3)


def test_calibration_inverts_the_named_cells():
    p = calibrate()
    published = load("spxtape", "table1").set_index(["command", "function", "drives"])
    assert p.tape_capacity_pages == pytest.approx(353_000 / (published.loc[("SPXTAPE", "DUMP", 1), "tapes"] - 0.5))
    assert p.cpu_per_page * p.total_pages == pytest.approx(published.loc[("SPXTAPE", "DUMP", 2), "processor_s"])
    assert p.file_create_time * p.files == pytest.approx(published.loc[("SPXTAPE", "LOAD", 1), "elapsed_s"])


def test_seeded_regression_values():
    metrics = model(widget_defaults(), 123)
    assert metrics["elapsed_s"] == pytest.approx(PINNED["elapsed_s"], rel=1e-9)
    assert metrics["system_idle_s"] == pytest.approx(PINNED["system_idle_s"], rel=1e-9)
    assert metrics["tapes"] == PINNED["tapes"]
    volume = volume_model(calibrate_concurrent(300.0), 123)
    assert volume["dump_pages_per_s"] == pytest.approx(PINNED["dump_pages_per_s"], rel=1e-9)
    assert volume["user_io_response_s"] == pytest.approx(PINNED["user_io_response_s"], rel=1e-9)


PINNED = {"elapsed_s": 1110.3860212554014, "system_idle_s": 30.338203620438435, "tapes": 7.0,
          "dump_pages_per_s": 225.95455868586956, "user_io_response_s": 3.4147477997862197}


def test_widget_run_gives_intervals_and_a_timeline():
    result = widget_run()
    assert (result.summary["n"] == 3).all()
    assert {"transferring", "changing tape", "spool I/O"} <= set(result.timeline["state"])
    # the buffer holds a whole number of chunks of the mean size, so its peak is near, not at, the setting
    assert 0.75 * result.params.buffer_mb <= result.buffer["buffer_mb"].max() <= 1.25 * result.params.buffer_mb


@pytest.fixture(scope="module")
def table():
    return study_comparison("spxtape")


def test_comparison_has_every_published_table1_cell(table):
    published = load("spxtape", "table1")
    compared = set(zip(table["row"], table["column"]))
    for _, row in published.iterrows():
        column = f"{row['command']} {row['function']} {row['drives']}"
        for name in published.columns[4:]:
            if not pd.isna(row[name]):
                assert (name, column) in compared, (name, column)
    assert set(table["role"]) <= {"calibration", "prediction"}
    assert (table["role"] == "calibration").sum() == len(CALIBRATION_CELLS) + 2


def test_comparison_has_the_table2_headline_rows(table):
    rows = set(table[table["table"] == "Table 2"]["row"])
    assert {metric for metric, _, _ in TABLE2_CELLS} <= rows
    assert "SPXTAPE pages/s (text)" in rows


def test_calibrated_cells_hit_their_targets(table):
    calibrated = table[table["role"] == "calibration"]
    assert calibrated["within_tolerance"].all(), calibrated
    assert (calibrated["rel_error"].abs() <= 0.05).all()
    assert table["model"].map(math.isfinite).all()


def test_an_instant_tape_change_still_uses_a_new_cartridge(coarse):
    instant = model(coarse.replace(drives=1, change_time=0.0), SEEDS[0])
    assert instant["tapes"] == model(coarse.replace(drives=1), SEEDS[0])["tapes"] > 1
    assert instant["system_idle_s"] == 0.0
