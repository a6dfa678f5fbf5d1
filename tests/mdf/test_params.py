"""The parameter records refuse what the model cannot run, naming the field and saying why."""

import time

import ciw
import pytest

from perfstudies.data import load
from perfstudies.models.mdf.analytic import mean_hold
from perfstudies.models.mdf.calibration import COLUMNS, PARAMETERS, devices, ims_calibrated, tso_calibrated
from perfstudies.models.mdf.comparison import device_point
from perfstudies.models.mdf.explore import device_by_parameter_points, panel_defaults, sweep_points
from perfstudies.models.mdf.mechanism import DomainArrivals, HeldCompletion
from perfstudies.models.mdf.params import (DeviceParams, ImsParams, PanelParams, TsoParams, Windows,
                                           domain_windows, held_busy_time)
from perfstudies.networks import gamma_by_mean
from perfstudies.params import MAX_EVENTS
from perfstudies.runner import run_ciw


@pytest.mark.parametrize(("record", "changes", "field"), [
    (DeviceParams, {"scheduling_parameter": 0}, "scheduling_parameter"),
    (DeviceParams, {"scheduling_parameter": 6}, "scheduling_parameter"),
    (ImsParams, {"ims_share": 0.7, "tso_share": 0.5}, "ims_share \\+ tso_share"),
    (DeviceParams, {"rate": -1.0}, "rate"),
    (DeviceParams, {"rate": 59.5}, "rate"),          # saturates a 17 ms device
    (DeviceParams, {"device": "2314"}, "device"),
    (TsoParams, {"scheduling_parameter": 5, "ims_share": 0.1, "switch_ms": 2.0}, "switch_ms"),
    (ImsParams, {"terminals": -5}, "terminals"),
    (TsoParams, {"warmup": 2000.0}, "warmup"),
    (PanelParams, {"device_rate": 0.0}, "device_rate"),
])
def test_invalid_parameters_are_refused_by_name(record, changes, field):
    with pytest.raises(ValueError, match=f"{record.__name__}.{field}"):
        record(**changes)


def test_domain_name_is_checked():
    with pytest.raises(ValueError, match="domain = 'CICS'"):
        DeviceParams().windows("CICS")


# --- records that refuse what cannot finish (issue 16, items 3 and 4) ------------------------------

@pytest.mark.parametrize("record", [DeviceParams, ImsParams, TsoParams])
def test_a_run_of_many_minutes_is_refused_at_once_naming_its_fields(record):
    started = time.perf_counter()
    with pytest.raises(ValueError, match=f"{record.__name__}.* is out of range: with .*max_time = 100000.0.* "
                                         "simulated events; allowed at most 3,000,000 \\(reduce max_time or "):
        record(max_time=1e5)
    assert time.perf_counter() - started < 1.0


def test_a_device_its_held_completions_make_unstable_is_refused_with_the_reason():
    # Issue 16: a 3350 at 35 I/O per s is 85% busy unsliced, but diverges at scheduling parameter 1
    assert 35.0 * DeviceParams(device="3350", rate=1.0).hardware_s == pytest.approx(0.852, abs=0.001)
    with pytest.raises(ValueError, match="DeviceParams.rate = 35.0 is out of range: with completions held .* "
                                         "utilisation including the hold is 1.11 >= 1"):
        DeviceParams(device="3350", rate=35.0)
    DeviceParams(device="3350", rate=35.0, sliced=False)        # BASE: no hold, 85% busy, fine
    DeviceParams(device="3350", rate=35.0, scheduling_parameter=5)  # 10 ms slices: busy 26.9 ms, 94%


def test_the_refusal_sits_exactly_at_the_held_capacity():
    params = DeviceParams(device="3350", rate=1.0)
    capacity = 1.0 / held_busy_time(params.windows("IMS"), params.hardware_s, params.scv)
    assert capacity == pytest.approx(31.52, abs=0.05)   # 0.30 ms switch (Section 7.0)
    DeviceParams(device="3350", rate=0.995 * capacity)
    with pytest.raises(ValueError, match="allowed rate < 31.5 I/O per s"):
        DeviceParams(device="3350", rate=1.005 * capacity)
    with pytest.raises(ValueError, match="PanelParams.device_rate = 45.0 is out of range: with completions held"):
        PanelParams(device_rate=45.0)


def _saturated_throughput(windows, mean, scv, busy, seed=7, span=(50.0, 650.0)):
    """Completions per second of a device whose queue never empties (arrivals at twice its capacity)."""
    network = ciw.create_network(arrival_distributions=[DomainArrivals(2.0 / busy, windows)],
                                 service_distributions=[HeldCompletion(gamma_by_mean(mean, 1.0 / scv), windows)],
                                 number_of_servers=[1])
    simulation, _ = run_ciw(network, seed, span[1])
    ends = [record.exit_date for record in simulation.get_all_records() if span[0] <= record.exit_date < span[1]]
    return len(ends) / (span[1] - span[0])


@pytest.mark.parametrize(("parameter", "mean", "scv"), [(1, 0.02434, 0.7), (1, 0.030, 0.05), (5, 0.012, 2.0)])
def test_held_busy_time_is_the_simulated_capacity_of_a_saturated_device(parameter, mean, scv):
    windows = domain_windows(parameter, 0.5, 0.5, 0.00005)[0]
    busy = held_busy_time(windows, mean, scv)
    assert _saturated_throughput(windows, mean, scv, busy) == pytest.approx(1.0 / busy, rel=0.02)


def test_held_busy_time_is_more_than_the_random_moment_hold_for_nearly_constant_transfers():
    # 30 ms transfers that start with the IMS slice end just after it and wait for the whole TSO slice,
    # so a device busy all the time holds far longer than a completion at a random moment would
    windows = domain_windows(1, 0.5, 0.5, 0.00005)[0]
    assert held_busy_time(windows, 0.030, 0.05) > 1.05 * (0.030 + mean_hold(windows))
    assert held_busy_time(Windows.always(), 0.02, 0.5) == 0.02   # no slicing, no hold


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
