"""Calibration: named published cells set the model's constants, and the pinned defaults are its output."""

import pytest

from perfstudies.cache import memoized
from perfstudies.compare import Published
from perfstudies.models.diag44 import CALIBRATED_FIELDS, FIVE_WAY, DiagParams, calibrate_machines
from perfstudies.models.diag44.calibration import (CALIBRATION_CELLS, accounting_ratio, calibration_cells,
                                                   calibrated_constants, measurements, run_config, run_values)


def test_pinned_constants_are_what_calibration_returns():
    # The full calibration (14 rounds of 3 runs x 8 replications, half a minute), through the disk memo:
    # its key covers every source file of the package (the pins in params.py, the calibration, the
    # model), the data and the installed versions, so any change there calibrates afresh; unchanged,
    # the result is the one the same code computed before (the calibration is seeded, deterministic).
    nine, five = memoized("diag44-calibrate-machines", calibrate_machines)
    pinned = DiagParams()
    for field in CALIBRATED_FIELDS:
        assert getattr(nine, field) == pytest.approx(getattr(pinned, field), rel=1e-5), field
    assert five == pytest.approx(FIVE_WAY, rel=1e-5)


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
