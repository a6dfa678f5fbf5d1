"""Calibration: each named cell sets its service time in closed form, and the record's defaults are its output."""

import dataclasses

import pytest

from perfstudies.compare import Published
from perfstudies.models.vts import calibrate
from perfstudies.models.vts.analytic import bottleneck, bound
from perfstudies.models.vts.calibration import (
    LIMITED_BY, Rates, calibrated_rates, calibration_cells, calibration_table, check_bottlenecks, check_defaults,
    contention_slowdown, default_rates, with_rates,
)
from perfstudies.models.vts.params import VTSParams


def test_calibration_inverts_the_bound_on_each_named_cell():
    rates = calibrated_rates()
    check_bottlenecks(rates)
    for key, cell in calibration_cells().items():
        assert isinstance(cell.published, Published)
        params = with_rates(cell.params, rates)
        assert bottleneck(params) == LIMITED_BY[key]
        assert bound(params) == pytest.approx(cell.published.value, rel=1e-9)


def test_the_records_defaults_are_the_calibrated_service_times_to_the_last_digit():
    assert default_rates() == calibrate()
    assert set(dataclasses.asdict(calibrate())) <= set(VTSParams.spec())


def test_drifted_defaults_are_refused_by_name():
    drifted = dataclasses.replace(calibrate(), mount_s=calibrate().mount_s + 1.0)
    with pytest.raises(ValueError, match=r"VTSParams defaults differ from calibrate\(\): mount_s = "):
        check_defaults(drifted)


def test_a_calibration_needing_a_negative_time_is_refused():
    values = dataclasses.asdict(calibrate())
    with pytest.raises(ValueError, match="Rates.mount_s = -1.0 is out of range"):
        Rates(**{**values, "mount_s": -1.0})


def test_the_calibration_table_names_every_cell_once():
    table = calibration_table()
    assert len(table) == 8 and table["cell"].is_unique
    assert set(table["limited by"]) == {"channels", "processors", "cache", "tape"}


def test_contention_slowdown_reproduces_the_export_elongation():
    assert contention_slowdown() > 1.0



def test_the_mount_is_solved_on_the_six_drive_machine_of_table_1():
    cell = calibration_cells()["mount_s"]
    assert cell.params.drives == 6
    assert bottleneck(with_rates(cell.params, calibrated_rates())) == "tape"
    # the copy-out of PAF sustained write at CF 1 is not what limits the calibrated cell
    paf_sustained = calibration_cells()["cpu_paf_sustained"].params
    assert bottleneck(with_rates(paf_sustained, calibrated_rates())) == "processors"
