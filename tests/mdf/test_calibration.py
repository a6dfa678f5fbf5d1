"""Calibration: each parameter set from its named published cells, and the fit takes."""

import pytest

from perfstudies.accuracy import study_comparison
from perfstudies.models.mdf import analytic
from perfstudies.models.mdf.calibration import (CALIBRATION_PARAMETER, calibrate, channel_ios_per_message, device,
                                                device_calibrations, device_table, devices, ims_calibration,
                                                nearest_rule, rmf_rule, rule_candidates, rule_cell, rule_table,
                                                published_tables, switch_calibration, switch_from_etr_ratio, tso_calibrated)
from perfstudies.models.mdf.mechanism import windows_of
from perfstudies.models.mdf.params import RMF_RULES, DeviceParams


def test_device_service_is_base_resp_minus_iosq_and_variability_gives_base_iosq():
    devices = published_tables()["device_activity"].set_index(["device", "scheduling_parameter"])
    for device in device_calibrations():
        if device.name.endswith("average"):
            continue
        base = devices.loc[(device.name, "BASE")]
        assert device.service_ms == pytest.approx(base["resp_ms"] - base["iosq_ms"])
        service = device.service_ms / 1000
        wait = analytic.pollaczek_khinchine_wait(base["rate_per_s"], service, service**2 * (1 + device.scv))
        assert 1000 * wait == pytest.approx(base["iosq_ms"])
        assert [cell.column for cell in device.cells] == ["BASE"] * 3 + ["3"]     # the parameter-3 rate: load


def test_representative_devices_take_their_domains_mean_variability():
    found = {d.name: d for d in device_calibrations()}
    for domain, peers in (("IMS", ("IMS-C23", "IMS-8C2")), ("TSO", ("TSO-CC1", "TSO-CC2"))):
        average = found[f"{domain} average"]
        assert average.scv == pytest.approx(sum(found[p].scv for p in peers) / 2)
        assert {cell.table for cell in average.cells} == {"Table 1"}


def test_ims_4705_time_carries_the_published_etr_at_parameter_3():
    ims = ims_calibration()
    row = published_tables()["ims_front_end"].set_index("scheduling_parameter").loc[CALIBRATION_PARAMETER]
    capacity = analytic.frontend_capacity(windows_of(ims, "IMS"), ims.frontend_ms / 1000)
    assert capacity == pytest.approx(2 * row["ims_etr_per_s"])
    assert ims.think_s == pytest.approx(16.0) and ims.terminals == 1000
    assert channel_ios_per_message() == pytest.approx(row["rate_4705_per_s"] / (2 * row["ims_etr_per_s"]))


def test_calibrate_returns_the_study_record_with_every_calibrated_device_value():
    """calibrate() is the device model's record: the IMS representative device at parameter 3, its load,
    the switch and RMF's rule; the other calibrated records are functions of their own."""
    calibrated, average = calibrate(), device("IMS average")
    assert isinstance(calibrated, DeviceParams)
    assert calibrated.scheduling_parameter == CALIBRATION_PARAMETER and calibrated.domain == "IMS"
    assert (calibrated.service_ms, calibrated.scv, calibrated.rate) == (average.service_ms, average.scv,
                                                                        average.anchor_rate)
    assert calibrated.switch_ms == switch_calibration() and calibrated.rmf_rule == rmf_rule()
    assert [d.name for d in devices()][-2:] == ["IMS average", "TSO average"]
    assert tso_calibrated().scheduling_parameter == CALIBRATION_PARAMETER
    assert device_table()["set from"].str.contains("BASE").all()
    with pytest.raises(ValueError, match="name = 'IMS-XYZ' is not a calibrated device"):
        device("IMS-XYZ")


def test_calibrated_cells_hit_their_targets():
    table = study_comparison("mdf")
    calibrated = table[table["role"] == "calibration"]
    assert calibrated["within_tolerance"].all(), calibrated
    device_tables = table[table["table"].isin(["Table 1", "Table 2"])]
    assert set(device_tables[device_tables["role"] == "calibration"]["column"]) == {"BASE", "3"}
    domains = table[table["table"].isin(["Table 3", "Table 4"]) & (table["role"] == "calibration")]
    assert set(domains["column"]) == {"3"}


def test_switch_overhead_from_the_stated_etr_fall():
    # Section 7.0: TSO's ETR falls 2% from parameter 1 (30 ms slices) to 5 (10 ms)
    d = switch_from_etr_ratio(0.98, 10.0, 30.0)
    assert d == pytest.approx(0.297, abs=0.001)
    assert (1 - d / 10) / (1 - d / 30) == pytest.approx(0.98)
    assert switch_calibration() == pytest.approx(d)
    assert switch_from_etr_ratio(1.0, 10.0, 20.0) == 0.0
    with pytest.raises(ValueError, match="ratio, slice_ms, reference_slice_ms"):
        switch_from_etr_ratio(1.2, 10.0, 20.0)
    with pytest.raises(ValueError, match="slice_ms < reference_slice_ms"):
        switch_from_etr_ratio(0.9, 20.0, 10.0)


def test_rmf_rule_is_the_nearest_on_its_named_cell():
    assert rule_cell().where.startswith("Table 1") and rule_cell().value == 6.54
    assert set(rule_candidates()) == set(RMF_RULES)
    assert rmf_rule() == nearest_rule(rule_candidates(), 6.54)
    table = rule_table()
    assert table["rule"].tolist() == list(RMF_RULES) and table.loc[table["chosen"], "rule"].tolist() == [rmf_rule()]
    assert nearest_rule({"a": 1.0, "b": 5.0}, 4.0) == "b"
