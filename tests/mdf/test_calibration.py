"""Calibration: each parameter set from its named published cells, and the fit takes."""

import pytest

from perfstudies.accuracy import study_comparison
from perfstudies.models.mdf import analytic
from perfstudies.models.mdf.calibration import (CALIBRATION_PARAMETER, Calibration, calibrate, channel_ios_per_message,
                                                device_calibrations, ims_calibration, tables)


def test_device_service_is_base_resp_minus_iosq_and_variability_gives_base_iosq():
    devices = tables()["device_activity"].set_index(["device", "scheduling_parameter"])
    for device in device_calibrations():
        if device.name.endswith("average"):
            continue
        base = devices.loc[(device.name, "BASE")]
        assert device.service_ms == pytest.approx(base["resp_ms"] - base["iosq_ms"])
        service = device.service_ms / 1000
        wait = analytic.pollaczek_khinchine_wait(base["rate_per_s"], service, service**2 * (1 + device.scv))
        assert 1000 * wait == pytest.approx(base["iosq_ms"])
        assert [cell.column for cell in device.cells] == ["BASE"] * 3


def test_representative_devices_take_their_domains_mean_variability():
    found = {d.name: d for d in device_calibrations()}
    for domain, peers in (("IMS", ("IMS-C23", "IMS-8C2")), ("TSO", ("TSO-CC1", "TSO-CC2"))):
        average = found[f"{domain} average"]
        assert average.scv == pytest.approx(sum(found[p].scv for p in peers) / 2)
        assert {cell.table for cell in average.cells} == {"Table 1"}


def test_ims_4705_time_carries_the_published_etr_at_parameter_3():
    ims = ims_calibration()
    row = tables()["ims_front_end"].set_index("scheduling_parameter").loc[CALIBRATION_PARAMETER]
    capacity = analytic.frontend_capacity(ims.windows("IMS"), ims.frontend_ms / 1000)
    assert capacity == pytest.approx(2 * row["ims_etr_per_s"])
    assert ims.think_s == pytest.approx(16.0) and ims.terminals == 1000
    assert channel_ios_per_message() == pytest.approx(row["rate_4705_per_s"] / (2 * row["ims_etr_per_s"]))


def test_calibrate_gathers_every_parameter():
    calibration = calibrate()
    assert isinstance(calibration, Calibration)
    assert [d.name for d in calibration.devices][-2:] == ["IMS average", "TSO average"]
    assert calibration.tso.scheduling_parameter == CALIBRATION_PARAMETER
    assert calibration.device_table()["set from"].str.contains("BASE").all()
    with pytest.raises(ValueError, match="name = 'IMS-XYZ' is not a calibrated device"):
        calibration.device("IMS-XYZ")


def test_calibrated_cells_hit_their_targets():
    table = study_comparison("mdf")
    calibrated = table[table["role"] == "calibration"]
    assert calibrated["within_tolerance"].all(), calibrated
    device_tables = table[table["table"].isin(["Table 1", "Table 2"])]
    assert set(device_tables[device_tables["role"] == "calibration"]["column"]) == {"BASE", "3"}
    domains = table[table["table"].isin(["Table 3", "Table 4"]) & (table["role"] == "calibration")]
    assert set(domains["column"]) == {"3"}
