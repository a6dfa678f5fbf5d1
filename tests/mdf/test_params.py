"""The parameter records refuse what the model cannot run, naming the field and saying why.

A record checks its own fields; the refusal of a device its held completions would make unstable needs
the schedule and the theory, so it is made where the record runs (``tests/mdf/test_analytic.py``).
"""

import time

import pytest

from perfstudies.data import load
from perfstudies.models.mdf.calibration import COLUMNS, PARAMETERS, devices, ims_calibrated, tso_calibrated
from perfstudies.models.mdf.comparison import device_point
from perfstudies.models.mdf.explore import check_panel_load, device_by_parameter_points, panel_defaults, sweep_points
from perfstudies.models.mdf.network import check_stable
from perfstudies.models.mdf.params import DeviceParams, ImsParams, PanelParams, TsoParams
from perfstudies.params import MAX_EVENTS


@pytest.mark.parametrize(("record", "changes", "field"), [
    (DeviceParams, {"scheduling_parameter": 0}, "scheduling_parameter"),
    (DeviceParams, {"scheduling_parameter": 6}, "scheduling_parameter"),
    (ImsParams, {"ims_share": 0.7, "tso_share": 0.5}, "ims_share \\+ tso_share"),
    (DeviceParams, {"rate": -1.0}, "rate"),
    (DeviceParams, {"device": "2314"}, "device"),
    (TsoParams, {"scheduling_parameter": 5, "ims_share": 0.1, "switch_ms": 2.0}, "switch_ms"),
    (ImsParams, {"terminals": -5}, "terminals"),
    (TsoParams, {"warmup": 2000.0}, "warmup"),
    (PanelParams, {"device_rate": 0.0}, "device_rate"),
])
def test_invalid_parameters_are_refused_by_name(record, changes, field):
    with pytest.raises(ValueError, match=f"{record.__name__}.{field}"):
        record(**changes)


# --- records that refuse what cannot finish (issue 16, items 3 and 4) ------------------------------

@pytest.mark.parametrize("record", [DeviceParams, ImsParams, TsoParams])
def test_a_run_of_many_minutes_is_refused_at_once_naming_its_fields(record):
    started = time.perf_counter()
    with pytest.raises(ValueError, match=f"{record.__name__}.* is out of range: with .*max_time = 100000.0.* "
                                         "simulated events; allowed at most 3,000,000 \\(reduce max_time or "):
        record(max_time=1e5)
    assert time.perf_counter() - started < 1.0


def test_the_defaults_and_every_configuration_the_chapter_runs_are_accepted():
    records = [DeviceParams(), ImsParams(), TsoParams(), PanelParams(), panel_defaults(), *sweep_points(),
               *device_by_parameter_points()]
    records += [ims_calibrated().replace(scheduling_parameter=p) for p in PARAMETERS]
    records += [tso_calibrated().replace(scheduling_parameter=p) for p in PARAMETERS]
    published = load("mdf", "device_activity").set_index(["device", "scheduling_parameter"])
    for device in devices():
        for column in COLUMNS:
            name = "IMS-C23" if device.name == "IMS average" else "TSO-CC1" if device.name == "TSO average" \
                else device.name
            load_ratio = published.loc[(name, column), "rate_per_s"] / published.loc[(name, "BASE"), "rate_per_s"]
            records.append(device_point(device, column, 1.1 * device.base_rate * load_ratio))
    assert all(record.events() <= MAX_EVENTS for record in records if hasattr(record, "events"))
    # and every device and panel setting among them is one its held completions leave stable
    for record in records:
        if isinstance(record, DeviceParams):
            check_stable(record)
        elif isinstance(record, PanelParams):
            check_panel_load(record)
