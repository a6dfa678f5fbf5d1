"""The held-interrupt mechanism: the schedule, the Ciw classes of ``mechanism.py`` and the seeded records."""

import ciw
import numpy as np
import pytest

from perfstudies.models.mdf.mechanism import (DATABASE_IO, FRONT_END, INPUT_QUEUE, PROCESSORS, TERMINALS,
                                              DomainArrivals, DomainWork, FrontEndRouting, HeldCompletion, Windows,
                                              domain_windows, windows_of)
from perfstudies.models.mdf.network import build_network, ims_model, ims_network, ims_node_classes, model, tso_model
from perfstudies.models.mdf.params import DeviceParams, ImsParams, TsoParams
from perfstudies.runner import run_ciw

SEED = 20261123
SHORT_DEVICE = dict(max_time=200.0, warmup=10.0)
SMALL_IMS = dict(terminals=200, max_time=60.0, warmup=10.0)
SMALL_TSO = dict(users=90, max_time=100.0, warmup=10.0)


# --- the schedule the mechanism reads -------------------------------------------------------------

def test_windows_alternate_and_switch_costs_time():
    ims, tso = domain_windows(1, 0.5, 0.5, switch=0.001)  # 30 ms slices, 1 ms switch
    assert (ims.cycle, ims.slice, tso.offset) == pytest.approx((0.060, 0.030, 0.030))
    assert ims.next_dispatch(0.010) == pytest.approx(0.010)     # inside its slice
    assert ims.next_dispatch(0.0005) == pytest.approx(0.001)    # during its switch-in
    assert ims.next_dispatch(0.045) == pytest.approx(0.061)     # during the TSO slice
    assert tso.next_dispatch(0.010) == pytest.approx(0.031)
    assert ims.fraction == pytest.approx(29 / 60)


def test_stretch_pauses_work_while_the_other_domain_runs():
    ims, _ = domain_windows(1, 0.5, 0.5, switch=0.0)
    assert ims.stretch(0.020, 0.005) == pytest.approx(0.025)
    assert ims.stretch(0.020, 0.015) == pytest.approx(0.065)    # 10 ms now, 5 ms next slice
    assert ims.stretch(0.040, 0.060) == pytest.approx(0.150)    # waits to 60 ms, then two whole slices
    assert Windows.always().stretch(1.0, 0.5) == 1.5


def test_windows_refuse_impossible_slices():
    with pytest.raises(ValueError, match="Windows.slice = 0.07 is out of range"):
        Windows(cycle=0.06, slice=0.07)


def test_a_records_windows_are_its_domains_and_the_domain_name_is_checked():
    setup = DeviceParams(scheduling_parameter=3, ims_share=0.75, tso_share=0.25, switch_ms=0.5)
    assert windows_of(setup, "IMS") == domain_windows(3, 0.75, 0.25, 0.0005)[0]
    assert windows_of(setup, "TSO") == domain_windows(3, 0.75, 0.25, 0.0005)[1]
    assert windows_of(setup.replace(sliced=False), "TSO") == Windows.always()
    with pytest.raises(ValueError, match="domain = 'CICS'"):
        windows_of(setup, "CICS")


# --- the Ciw classes -----------------------------------------------------------------------------

class _Fixed(ciw.dists.Distribution):
    def __init__(self, value):
        self.value = value

    def sample(self, t=None, ind=None):
        return self.value


def test_held_completion_keeps_the_device_busy_until_its_domain_returns():
    ims, _ = domain_windows(1, 0.5, 0.5, 0.0)
    held = HeldCompletion(_Fixed(0.018), ims)
    assert held.sample(t=0.020) == pytest.approx(0.040)     # transfer ends at 38 ms, IMS back at 60 ms
    assert held.sample(t=0.005) == pytest.approx(0.018)     # ends inside the slice: cleared at once
    assert held.sample(t=0.045) == pytest.approx(0.033)     # started at 60 ms, ends at 78 ms


def test_domain_work_and_arrivals_advance_only_in_the_domains_slices():
    ims, _ = domain_windows(1, 0.5, 0.5, 0.0)
    assert DomainWork(_Fixed(0.015), ims).sample(t=0.020) == pytest.approx(0.045)
    arrivals = DomainArrivals(10.0, ims)
    assert arrivals.inner.rate == pytest.approx(20.0)       # issued at twice the rate, half the time
    ciw.seed(1)
    gaps = [arrivals.sample(t=0.040)]
    assert 0.040 + gaps[0] >= 0.060                          # nothing issued during the TSO slice


def test_every_mechanism_class_says_what_it_is():
    ims, _ = domain_windows(3, 0.5, 0.5, 0.0)
    assert repr(DomainArrivals(2.0, ims)).startswith("DomainArrivals(rate=2.0, windows=Windows(cycle=0.04")
    assert repr(HeldCompletion(ciw.dists.Exponential(50.0), ims)).startswith(
        "HeldCompletion(hardware=Exponential(rate=50.0), windows=Windows(")
    assert repr(DomainWork(ciw.dists.Exponential(50.0), ims)).startswith("DomainWork(work=Exponential(rate=50.0)")
    assert repr(FrontEndRouting()) == "FrontEndRouting()"


def test_front_end_routing_sends_a_message_in_then_its_reply_out():
    routing = FrontEndRouting()
    routing.simulation = type("Simulation", (), {"nodes": {TERMINALS: "terminals", INPUT_QUEUE: "input queue"}})()
    customer = type("Customer", (), {})()
    assert [routing.next_node(customer) for _ in range(4)] == ["input queue", "terminals"] * 2
    assert FRONT_END == 2


def test_build_network_builds_each_record_and_refuses_others():
    assert build_network(DeviceParams()).number_of_nodes == 2     # the device and RMF's sampler
    assert build_network(ImsParams()).number_of_nodes == 5     # terminals, 4705, input queue, processors, I/O
    assert build_network(TsoParams()).number_of_nodes == 2
    with pytest.raises(TypeError, match="params = 3 has the wrong type: allowed a DeviceParams, ImsParams or TsoParams "
                                        "record, given a int"):
        build_network(3)


# --- what the mechanism does ---------------------------------------------------------------------

def test_iosq_falls_from_parameter_1_to_5_in_both_domains():
    from perfstudies.models.mdf.params import SEED as STUDY_SEED
    from perfstudies.runner import replicate

    for domain, rate in (("IMS", 25.0), ("TSO", 11.0)):
        iosq = [replicate(model, DeviceParams(scheduling_parameter=p, domain=domain, rate=rate, **SHORT_DEVICE),
                          3, STUDY_SEED, progress=False).mean("iosq_ms")
                for p in (1, 3, 5)]
        assert iosq[0] > iosq[1] > iosq[2], (domain, iosq)


def test_pend_disc_conn_are_not_changed_by_slicing():
    # RMF's RESP - IOSQ is the transfer time whatever the slices (Section 4.0)
    for p in (1, 5):
        metrics = model(DeviceParams(scheduling_parameter=p, **SHORT_DEVICE), SEED)
        assert metrics["resp_ms"] - metrics["rmf_iosq_ms"] == pytest.approx(17.0)


def test_front_end_queues_shrink_as_slices_shorten():
    queues = [ims_model(ImsParams(scheduling_parameter=p, terminals=1000, max_time=120.0, warmup=40.0),
                        SEED)["tpns_queue_s"] for p in (1, 5)]
    assert queues[0] > 5 * queues[1]


def _region_occupancy(records) -> np.ndarray:
    """Transactions holding a region after each entry or exit: in at the processors, out after the database I/O."""
    entries = records.loc[records["node"] == PROCESSORS, "arrival_date"].to_numpy(float)
    exits = records.loc[records["node"] == DATABASE_IO, "exit_date"].to_numpy(float)
    times = np.concatenate([exits, entries])
    steps = np.concatenate([-np.ones(len(exits)), np.ones(len(entries))])  # an exit first at a tie
    return np.cumsum(steps[np.argsort(times, kind="stable")])


@pytest.mark.parametrize("regions", [3, 12])
def test_region_gate_holds_at_most_regions_transactions_first_come_first_served(regions):
    """Section 6.0's sixty regions as a gate: never more transactions in the processors and the database I/O than
    regions (the cap is reached), messages leave the input queue in arrival order, and the engine's dates stay
    right with a node whose next event follows other nodes' customers (``check_events``)."""
    params = ImsParams(scheduling_parameter=5, regions=regions, **SMALL_IMS)
    _, records = run_ciw(ims_network(params), SEED, params.max_time, 0.0, node_class=ims_node_classes(params),
                         check_events=True)
    occupancy = _region_occupancy(records)
    assert occupancy.max() == regions
    # messages released at one moment (completions cleared at one dispatch free several regions) in arrival order
    gate = records[records["node"] == INPUT_QUEUE].sort_values(["exit_date", "arrival_date"])
    assert np.all(np.diff(gate["arrival_date"].to_numpy(float)) >= 0)
    assert (gate["exit_date"] - gate["arrival_date"]).max() > 0     # some messages did wait for a region


def test_region_gate_gives_stock_ciws_records():
    """The gate under stock :class:`ciw.Simulation`, which re-dates every node after every event, gives the same
    records as under the engine, which re-dates the gate because it is untracked."""
    params = ImsParams(scheduling_parameter=5, regions=5, **SMALL_IMS)
    _, engine_records = run_ciw(ims_network(params), SEED, params.max_time, 0.0, node_class=ims_node_classes(params))
    ciw.seed(SEED)
    stock = ciw.Simulation(ims_network(params), node_class=ims_node_classes(params))
    stock.simulate_until_max_time(params.max_time)
    assert [tuple(r) for r in engine_records.itertuples(index=False)] == [tuple(r) for r in stock.get_all_records()]


def test_enough_regions_make_no_input_queue():
    """With a region for every terminal no message waits: IMS IN Q is zero and the time is all execution."""
    metrics = ims_model(ImsParams(regions=200, **SMALL_IMS), SEED)
    assert metrics["ims_input_queue_s"] == 0.0
    assert metrics["ims_exec_s"] > 0.0


# --- reproducibility -------------------------------------------------------------------------------

def test_same_seed_same_numbers():
    params = ImsParams(**SMALL_IMS)
    assert ims_model(params, SEED) == ims_model(params, SEED)
    assert model(DeviceParams(**SHORT_DEVICE), 3) == model(DeviceParams(**SHORT_DEVICE), 3)


PINNED = {  # computed once with Ciw 3.2.7 and pinned; a change means the model's numbers changed
    "device_iosq_ms": 29.16667230193672,
    "device_rmf_iosq_ms": 26.286291151343608,
    "ims_response_s": 0.5681476981915038,
    "ims_etr_per_s": 12.56,
    "tso_response_s": 0.12612108782055556,
}


def test_seeded_regression_values():
    device = model(DeviceParams(**SHORT_DEVICE), SEED)
    ims = ims_model(ImsParams(**SMALL_IMS), SEED)
    tso = tso_model(TsoParams(**SMALL_TSO), SEED)
    assert device["iosq_ms"] == pytest.approx(PINNED["device_iosq_ms"], rel=1e-9)
    assert device["rmf_iosq_ms"] == pytest.approx(PINNED["device_rmf_iosq_ms"], rel=1e-9)
    assert ims["ims_response_s"] == pytest.approx(PINNED["ims_response_s"], rel=1e-9)
    assert ims["ims_etr_per_s"] == pytest.approx(PINNED["ims_etr_per_s"], rel=1e-9)
    assert tso["tso_response_s"] == pytest.approx(PINNED["tso_response_s"], rel=1e-9)


# --- RMF's sampler (issue 18) ------------------------------------------------------------------------

@pytest.mark.parametrize("rule", ["missed", "after clearing"])
def test_the_sampler_reports_on_average_what_the_expected_estimate_says(rule):
    from perfstudies.runner import replicate

    params = DeviceParams(scheduling_parameter=1, rate=25.0, rmf_rule=rule, **SHORT_DEVICE)
    runs = replicate(model, params, 6, SEED, progress=False)
    sampled, expected = runs.mean("rmf_sampled_iosq_ms"), runs.mean("rmf_iosq_ms")
    assert sampled == pytest.approx(expected, rel=0.1)


def test_rmf_under_slicing_is_below_the_true_iosq_unless_it_samples_every_moment_alike():
    metrics = model(DeviceParams(scheduling_parameter=1, rate=25.0, **SHORT_DEVICE), SEED)
    # 'before clearing' samples the frozen queue: Little's law, the true mean up to the run's edges
    assert metrics["rmf_before_clearing_ms"] == pytest.approx(metrics["iosq_ms"], rel=0.02)
    assert metrics["rmf_missed_ms"] < metrics["iosq_ms"] and metrics["rmf_after_clearing_ms"] < metrics["iosq_ms"]
    unsliced = model(DeviceParams(sliced=False, rate=25.0, **SHORT_DEVICE), SEED)
    assert unsliced["rmf_missed_ms"] == unsliced["rmf_after_clearing_ms"] == unsliced["rmf_before_clearing_ms"]


def test_rmf_records_refuse_bad_input():
    with pytest.raises(ValueError, match="rmf_cycle_ms"):
        DeviceParams(rmf_cycle_ms=100.0)
    with pytest.raises(ValueError, match="rmf_rule"):
        DeviceParams(rmf_rule="sometimes")
