"""Calibration: named published cells set the model's constants, and the pinned defaults are its output."""

import pytest

from perfstudies.compare import Published
from perfstudies.models.diag44 import CALIBRATED_FIELDS, DiagParams, calibrate
from perfstudies.models.diag44.calibration import (CALIBRATION_CELLS, accounting_ratio, calibration_cells,
                                                   measurements, run_values)


def test_pinned_constants_are_what_calibration_returns():
    calibrated, pinned = calibrate(), DiagParams()
    for field in CALIBRATED_FIELDS:
        assert getattr(calibrated, field) == pytest.approx(getattr(pinned, field), rel=1e-5), field


def test_calibration_cells_are_named_published_cells():
    cells = calibration_cells()
    assert len(cells) == len(CALIBRATION_CELLS) and all(isinstance(cell, Published) for cell in cells)
    assert Published("9-way fast path", "Tx rate", "No (EXPT5200)", 76.994) in cells


def test_the_accounting_ratio_is_the_base_runs_utilization_over_charged_time():
    base = run_values(measurements(), "EXPT5200")
    assert accounting_ratio(base, 9) == pytest.approx(0.847 * 9 / (76.994 * 110252e-6))
    assert DiagParams().accounting_ratio == pytest.approx(accounting_ratio(base, 9), rel=1e-5)
