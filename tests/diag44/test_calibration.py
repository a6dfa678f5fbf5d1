"""Calibration: named published cells set the model's constants, and the pinned defaults are its output."""

import pytest

from perfstudies.cache import same, sources_digest
from perfstudies.compare import Published
from perfstudies.models.diag44 import CALIBRATED_FIELDS, FIVE_WAY, DiagParams
from perfstudies.models.diag44.calibration import (CALIBRATION_CELLS, CALIBRATION_ROUNDS, accounting_ratio, averaged,
                                                   calibrated_constants, calibration_cells, calibration_round,
                                                   calibration_start, measurements, run_config, run_values,
                                                   stored_iterates)
from perfstudies.models.diag44.params import KEY


def test_pinned_constants_are_the_stored_calibrations_result():
    """The pins in params.py are the mean of the last rounds of the stored calibration (make runs rewrites it)."""
    nine, five = averaged(stored_iterates())
    pinned = DiagParams()
    for field in CALIBRATED_FIELDS:
        assert getattr(nine, field) == pytest.approx(getattr(pinned, field), rel=1e-5), field
    assert five == pytest.approx(FIVE_WAY, rel=1e-5)


def test_the_stored_calibration_is_what_this_code_computes_replayed_one_round_at_a_time():
    """Its start is this code's start, and one round, picked by the digest of the study's sources (so a code
    change moves the pick, as stored_runs' spot check does), replays from the state before it bit for bit:
    the whole calibration (14 rounds, about a minute) checked at the cost of one round."""
    states = stored_iterates()
    assert len(states) == CALIBRATION_ROUNDS + 1
    assert same(states[0], calibration_start())
    picked = 1 + int(sources_digest(KEY)[:8], 16) % CALIBRATION_ROUNDS
    assert same(calibration_round(states[picked - 1]), states[picked]), f"round {picked} does not replay"


def test_a_calibration_round_moves_every_iterated_constant():
    """A round is not the identity: replayed from the start, each constant the iteration sets changes."""
    start, first = stored_iterates()[:2]
    moved = {name for name in CALIBRATED_FIELDS if first[0][name] != start[0][name]}
    assert moved == set(CALIBRATED_FIELDS) - {"accounting_ratio"}, set(CALIBRATED_FIELDS) - moved
    assert first[1]["contention"] != start[1]["contention"]


def test_calibration_cells_are_named_published_cells():
    cells = calibration_cells()
    assert len(cells) == len(CALIBRATION_CELLS) == 17 and all(isinstance(cell, Published) for cell in cells)
    assert Published("9-way fast path", "Total Util/Proc", "No (EXPT5200)", 84.7) in cells
    assert Published("5-way fast path", "Total Util/Proc", "No (EXPT5209)", 92.8) in cells
    assert Published("9-way virtual processors", "Sched Spin Lock Rate", "3 (EXPTD440)", 13735.0) in cells
    assert Published("9-way fast path", "System Util/Proc", "Yes (EXPTD440)", 1.7) in cells


def test_every_calibrated_constant_names_the_cells_that_set_it():
    named = " ".join(CALIBRATION_CELLS.values())
    for constant in ("contention", "client_share", "off_processor_us", "fast_diags_per_yield", "sched_hold_us",
                     "sched_other_per_tx", "system_per_normal_us", "system_per_fast_us", "accounting ratio", "cost fit"):
        assert constant in named, constant
    assert set(calibrated_constants()["machine"]) == {"both", "9-way", "5-way"}


def test_the_accounting_ratio_is_the_base_runs_utilization_over_charged_time():
    base = run_values(measurements(), "EXPT5200")
    assert accounting_ratio(base, 9) == pytest.approx(0.847 * 9 / (76.994 * 110252e-6))
    assert DiagParams().accounting_ratio == pytest.approx(accounting_ratio(base, 9), rel=1e-5)


def test_the_5_way_runs_take_the_5_way_constants():
    table = measurements()
    assert run_config(table, "EXPT5209")["contention"] == run_config(table, "EXPTD442")["contention"] \
        == FIVE_WAY["contention"]
    assert "contention" not in run_config(table, "EXPT5200")
