"""Calibration: three named statements set three costs, in closed form from the bottleneck bound."""

import dataclasses

import pytest

from perfstudies.models.svcdump import DumpParams, analytic, calibrate, calibrated_params
from perfstudies.models.svcdump.calibration import BASE, CALIBRATED_ON, documented_dump_blocks, published_cells


def test_record_defaults_are_the_rounded_calibration_and_the_documented_dump():
    calibrated, defaults = calibrate(), DumpParams()
    for name in CALIBRATED_ON:
        assert getattr(defaults, name) == pytest.approx(getattr(calibrated, name), rel=2e-3), name
    assert defaults.dump_blocks == calibrated.dump_blocks == documented_dump_blocks() == 490_000


def test_calibrate_returns_the_study_record_changed_only_in_its_calibrated_costs():
    """calibrate() is the study's own record: the base configuration with the three calibrated fields set."""
    calibrated = calibrate()
    assert isinstance(calibrated, DumpParams) and calibrated == calibrated_params()
    base = DumpParams(dump_blocks=documented_dump_blocks(), **BASE)
    changed = {f.name for f in dataclasses.fields(DumpParams) if getattr(calibrated, f.name) != getattr(base, f.name)}
    assert changed == set(CALIBRATED_ON)


def test_each_calibrated_cost_names_a_published_statement():
    assert set(CALIBRATED_ON) <= {field.name for field in dataclasses.fields(DumpParams)}
    assert set(CALIBRATED_ON.values()) <= set(published_cells())


def test_calibration_meets_its_statements_in_the_bound():
    published = {key: cell.value for key, cell in published_cells().items()}
    params = calibrated_params()
    one_3390, one_ess = params.replace(stripes=1), params.replace(device="ESS", stripes=1)
    assert analytic.io_ms(one_ess) / analytic.io_ms(one_3390) == pytest.approx(published["ess_vs_3390_response"])
    recommended = params.replace(device="ESS", stripes=2)
    ratio = analytic.bound_elapsed_s(recommended.replace(channel="FICON")) / analytic.bound_elapsed_s(recommended)
    assert ratio == pytest.approx(published["ficon_vs_escon"])
    ratio = analytic.bound_elapsed_s(recommended.replace(compression=True)) / analytic.bound_elapsed_s(recommended)
    assert ratio == pytest.approx(published["compression"])


def test_impossible_statements_are_refused():
    cells = published_cells()
    changed = dict(cells, ess_vs_3390_response=dataclasses.replace(cells["ess_vs_3390_response"], value=0.1))
    with pytest.raises(ValueError, match="ess_vs_3390_response = 0.1 needs a negative turnaround"):
        calibrate(changed)
    changed = dict(cells, ficon_vs_escon=dataclasses.replace(cells["ficon_vs_escon"], value=0.3))
    with pytest.raises(ValueError, match="ficon_vs_escon = 0.3 is out of range"):
        calibrate(changed)
