"""Theory first: the closed forms of :mod:`perfstudies.models.mdf.analytic`, and the simulation held to them."""

import ciw
import pytest

from perfstudies.models.mdf import analytic
from perfstudies.models.mdf.analytic import held_busy_time, mean_hold
from perfstudies.models.mdf.mechanism import DomainArrivals, HeldCompletion, Windows, domain_windows, windows_of
from perfstudies.models.mdf.network import build_network, check_stable, model
from perfstudies.models.mdf.params import SEED, DeviceParams
from perfstudies.networks import gamma_by_mean
from perfstudies.runner import replicate, run_ciw

SHORT_DEVICE = dict(max_time=200.0, warmup=10.0)


def test_mean_hold_is_a_quarter_slice_for_two_equal_slices_and_grows_with_the_slice():
    holds = [analytic.mean_hold(domain_windows(p, 0.5, 0.5, 0.0)[0]) for p in (1, 2, 3, 4, 5)]
    assert holds == pytest.approx([0.030 / 4, 0.025 / 4, 0.020 / 4, 0.015 / 4, 0.010 / 4])
    assert analytic.mean_hold(Windows.always()) == 0.0


def test_hold_moments_of_unequal_slices():
    # 75/25 at parameter 1: the IMS domain is away for 15 ms of every 60, the TSO domain for 45
    ims, tso = domain_windows(1, 0.75, 0.25, 0.0)
    assert analytic.hold_moments(ims) == pytest.approx((0.015**2 / 0.120, 0.015**3 / 0.180))
    assert analytic.mean_hold(tso) == pytest.approx(0.045**2 / 0.120)


def test_pollaczek_khinchine_inversions_round_trip():
    rate, service, scv = 30.0, 0.018, 0.6
    wait = analytic.pollaczek_khinchine_wait(rate, service, service**2 * (1 + scv))
    assert analytic.scv_from_wait(rate, service, wait) == pytest.approx(scv)
    assert analytic.rate_from_wait(service, scv, wait) == pytest.approx(rate)


def test_pollaczek_khinchine_refuses_a_saturated_queue():
    with pytest.raises(ValueError, match="rate \\* mean = 1.2 is out of range"):
        analytic.pollaczek_khinchine_wait(60.0, 0.02, 0.001)


def test_frontend_capacity_rises_as_slices_shorten_and_inverts():
    capacities = [analytic.frontend_capacity(domain_windows(p, 0.5, 0.5, 0.0)[0], 0.006) for p in (1, 3, 5)]
    assert capacities[0] < capacities[1] < capacities[2]
    windows = domain_windows(3, 0.5, 0.5, 0.00005)[0]
    assert analytic.frontend_time_for_capacity(windows, analytic.frontend_capacity(windows, 0.006)) == \
        pytest.approx(0.006)


def test_ims_bounds_move_the_bottleneck_from_the_4705_to_the_processors():
    from perfstudies.models.mdf.calibration import ims_calibration

    ims = ims_calibration()
    bottlenecks = [analytic.ims_bounds(ims.replace(scheduling_parameter=p))["bottleneck"] for p in (1, 3, 5)]
    assert bottlenecks == ["4705", "4705", "processors"]


# --- held completions: a device's capacity, and the refusal of a rate at or above it -------------

def _no_run(*args, **kwargs):
    raise AssertionError("a simulation started")


def test_a_device_its_held_completions_make_unstable_is_refused_before_it_runs(monkeypatch):
    # Issue 16: a 3350 at 35 I/O per s is 85% busy unsliced, but diverges at scheduling parameter 1.
    # Issue 24: the record checks its own fields; the network (so the model) refuses the load
    params = DeviceParams(device="3350", rate=35.0)
    assert 35.0 * params.hardware_s == pytest.approx(0.852, abs=0.001)
    monkeypatch.setattr("perfstudies.models.mdf.network.run_ciw", _no_run)
    for run in (build_network, lambda p: model(p, SEED)):
        with pytest.raises(ValueError, match="^params.rate = 35.0 is out of range: with completions held .* "
                                             "utilisation including the hold is 1.11 >= 1"):
            run(params)
    build_network(params.replace(sliced=False))              # BASE: no hold, 85% busy, fine
    build_network(params.replace(scheduling_parameter=5))    # 10 ms slices: busy 26.9 ms, 94%
    with pytest.raises(ValueError, match="^params.rate = 59.5 is out of range: the device saturates even "
                                         "without slicing; allowed rate < 1 / transfer = 58.8 I/O per s"):
        build_network(DeviceParams(rate=59.5))                 # a 17 ms device


def test_the_refusal_sits_exactly_at_the_held_capacity():
    params = DeviceParams(device="3350", rate=1.0)
    capacity = 1.0 / held_busy_time(windows_of(params, "IMS"), params.hardware_s, params.scv)
    assert capacity == pytest.approx(31.52, abs=0.05)   # 0.30 ms switch (Section 7.0)
    check_stable(params.replace(rate=0.995 * capacity))
    with pytest.raises(ValueError, match="allowed rate < 31.5 I/O per s"):
        check_stable(params.replace(rate=1.005 * capacity))


# --- the simulation against the closed forms --------------------------------------------------

def test_single_domain_iosq_matches_mm1():
    # no slicing, exponential transfer: M/M/1 with rho = 0.6, Wq = rho S / (1 - rho) = 30 ms
    # (a 99% interval, so that one test in a hundred seeds, not one in twenty, misses by chance)
    params = DeviceParams(sliced=False, rate=30.0, service_ms=20.0, scv=1.0, max_time=400.0, warmup=20.0)
    result = replicate(model, params, 12, SEED, progress=False, confidence=0.99)
    summary = result.summary().loc["iosq_ms"]
    theory = 1000.0 * analytic.pollaczek_khinchine_wait(30.0, 0.020, 2 * 0.020**2)
    assert theory == pytest.approx(30.0)
    assert summary["low"] <= theory <= summary["high"]
    assert summary["half_width"] < 3.0


def test_hold_grows_with_slice_length_and_matches_theory():
    held = {}
    for p in (1, 3, 5):
        params = DeviceParams(scheduling_parameter=p, rate=20.0, **SHORT_DEVICE)
        held[p] = replicate(model, params, 3, SEED, progress=False).mean("held_ms")
        theory = 1000.0 * analytic.mean_hold(windows_of(params, "IMS"))
        assert held[p] == pytest.approx(theory, rel=0.2)
    assert held[1] > held[3] > held[5] > 0


# --- warm-up deletion against MSER-5 (issue 20) ----------------------------------------------------------

def test_warmup_is_at_least_what_mser5_finds_on_a_pilot_run():
    """Each configuration family the comparison runs deletes at least MSER-5's transient.

    MSER-5 (White, K. P. 1997, "An effective truncation heuristic for bias reduction in simulation
    output", Simulation 69(6), 323-334) on one pilot replication without deletion, at the most loaded
    configuration of each family: the device (IMS representative device at parameter 1, its
    parameter-3 load raised 5% as the IMS ETR there allows), the IMS domain at parameter 1 (the
    4705 bottleneck, the slowest to fill) and the TSO domain at parameter 3.
    """
    from perfstudies.delay import DelayNode
    from perfstudies.models.mdf.calibration import calibrate, ims_calibrated, tso_calibrated
    from perfstudies.models.mdf.mechanism import DEVICE, PROCESSORS
    from perfstudies.models.mdf.network import (device_network, device_node_classes, ims_network, ims_node_classes,
                                                tso_network)
    from perfstudies.warmup import pilot_warmup

    calibrated = calibrate()
    device = calibrated.replace(scheduling_parameter=1, rate=1.05 * calibrated.rate)
    found = pilot_warmup(device_network(device), SEED, device.max_time, metric="waiting_time", node=DEVICE,
                         node_class=device_node_classes(device))
    assert device.warmup >= found.time, found
    ims = ims_calibrated().replace(scheduling_parameter=1)
    found = pilot_warmup(ims_network(ims), SEED, ims.max_time, node=PROCESSORS,
                         node_class=ims_node_classes(ims))
    assert ims.warmup >= found.time, found
    tso = tso_calibrated()
    found = pilot_warmup(tso_network(tso), SEED, tso.max_time, node=2, node_class=DelayNode)
    assert tso.warmup >= found.time, found


# --- held_busy_time against a saturated device's simulated capacity ----------------------------------

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
