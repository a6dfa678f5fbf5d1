"""Calibration: each named cell sets its service time in closed form, and the record's defaults are its output."""


import pytest

from perfstudies.compare import Published
from perfstudies.models.vts import calibrate
from perfstudies.models.vts.analytic import bottleneck, bound
from perfstudies.models.vts.calibration import (
    CALIBRATED, LIMITED_BY, calibrated_params, calibration_cells, calibration_table, check_bottlenecks,
    check_defaults, contention_slowdown, with_calibration,
)
from perfstudies.models.vts.params import VTSParams


def test_calibration_inverts_the_bound_on_each_named_cell():
    calibrated = calibrated_params()
    check_bottlenecks(calibrated)
    for key, cell in calibration_cells().items():
        assert isinstance(cell.published, Published)
        params = with_calibration(cell.params, calibrated)
        assert bottleneck(params) == LIMITED_BY[key]
        assert bound(params) == pytest.approx(cell.published.value, rel=1e-9)


def test_calibrate_returns_the_study_record_whose_defaults_are_its_service_times_to_the_last_digit():
    """calibrate() is the study's own record, and it is the record's defaults: nothing but the eight times moved."""
    assert isinstance(calibrate(), VTSParams) and calibrate() == VTSParams()
    assert set(CALIBRATED) <= set(VTSParams.spec())


def test_drifted_defaults_are_refused_by_name():
    drifted = calibrate().replace(mount_s=calibrate().mount_s + 1.0)
    with pytest.raises(ValueError, match=r"VTSParams defaults differ from calibrate\(\): mount_s = "):
        check_defaults(drifted)


def test_a_calibration_needing_a_negative_time_is_refused():
    with pytest.raises(ValueError, match="VTSParams.mount_s = -1.0 is out of range"):
        calibrate().replace(mount_s=-1.0)


def test_the_calibration_table_names_every_cell_once():
    table = calibration_table()
    assert len(table) == 8 and table["cell"].is_unique
    assert set(table["limited by"]) == {"channels", "processors", "cache", "tape"}


def test_contention_slowdown_reproduces_the_export_elongation():
    assert contention_slowdown() > 1.0



def test_the_mount_is_solved_on_the_six_drive_machine_of_table_1():
    cell = calibration_cells()["mount_s"]
    assert cell.params.drives == 6
    assert bottleneck(with_calibration(cell.params, calibrated_params())) == "tape"
    # the copy-out of PAF sustained write at CF 1 is not what limits the calibrated cell
    paf_sustained = calibration_cells()["cpu_paf_sustained"].params
    assert bottleneck(with_calibration(paf_sustained, calibrated_params())) == "processors"
