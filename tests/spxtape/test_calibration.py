"""Calibration: each named published cell sets its parameter, and the seeded records stay pinned."""

import pytest

from perfstudies.compare import Published
from perfstudies.data import load
from perfstudies.models.spxtape import calibrate, calibrate_concurrent, model, volume_model, widget_defaults
from perfstudies.models.spxtape.calibration import (TABLE1_CALIBRATION, TABLE2_CALIBRATION, calibration_cells,
                                                    calibration_table, table1_cell)


def test_calibration_inverts_the_named_cells(calibrated):
    published = load("spxtape", "table1").set_index(["command", "function", "drives"])
    assert calibrated.tape_capacity_pages == pytest.approx(
        353_000 / (published.loc[("SPXTAPE", "DUMP", 1), "tapes"] - 0.5))
    assert calibrated.cpu_per_page * calibrated.total_pages == pytest.approx(
        published.loc[("SPXTAPE", "DUMP", 2), "processor_s"])
    assert calibrated.file_create_time * calibrated.files == pytest.approx(
        published.loc[("SPXTAPE", "LOAD", 1), "elapsed_s"])
    assert calibrated.cpu_per_page * calibrated.total_pages + calibrated.cpu_per_file * calibrated.files \
        == pytest.approx(published.loc[("SPXTAPE", "LOAD", 1), "processor_s"])


def test_the_calibration_cells_are_published_cells_read_from_the_data():
    cells = calibration_cells()
    assert len(cells) == len(TABLE1_CALIBRATION) + len(TABLE2_CALIBRATION) == 10
    assert all(isinstance(cell, Published) for cell in cells)
    published = Published("Table 1", "Elapsed Time (sec)", "SPTAPE DUMP 1", 12279)
    assert table1_cell(("SPTAPE", "DUMP", 1), "elapsed_s") == published
    assert set(cells.values()) == {"page_io_time", "tape_capacity_pages", "mark_pages", "mark_time", "buffer_mb",
                                   "file_create_time", "cpu_per_page", "cpu_per_file", "user_io_rate", "dump_reads_queued"}
    assert list(calibration_table()["sets"]) == list(TABLE1_CALIBRATION.values())


def test_the_concurrent_queue_is_set_by_avg_last(calibrated):
    p = calibrate_concurrent(300.0)
    assert p.page_io_time == calibrated.page_io_time
    assert p.user_io_rate * p.page_io_time == pytest.approx(1 - 237 / 303)
    assert p.dump_reads_queued == 235


#: Seeded records of the calibrated model (from before the study moved onto the skeleton; unchanged by it).
PINNED = {"elapsed_s": 1110.3860212554014, "system_idle_s": 30.338203620438435, "tapes": 7.0,
          "dump_pages_per_s": 225.95455868586956, "user_io_response_s": 3.4147477997862197,
          "buffer_mb": 25.615064585648923}


def test_seeded_regression_values():
    assert calibrate().buffer_mb == pytest.approx(PINNED["buffer_mb"], rel=1e-12)
    metrics = model(widget_defaults(), 123)
    assert metrics["elapsed_s"] == pytest.approx(PINNED["elapsed_s"], rel=1e-9)
    assert metrics["system_idle_s"] == pytest.approx(PINNED["system_idle_s"], rel=1e-9)
    assert metrics["tapes"] == PINNED["tapes"]
    volume = volume_model(calibrate_concurrent(300.0), 123)
    assert volume["dump_pages_per_s"] == pytest.approx(PINNED["dump_pages_per_s"], rel=1e-9)
    assert volume["user_io_response_s"] == pytest.approx(PINNED["user_io_response_s"], rel=1e-9)
