"""The mechanisms of the DIAG X'44' model: the fast/normal path decision, VP limits, time slices, records."""

import pytest

from perfstudies.models.diag44 import WIDGET_DEFAULTS, DiagParams, build_network, model
from perfstudies.models.diag44.mechanism import (REAL_PROCESSORS, SCHEDULER_LOCK, BurstTime, FollowNodeDecision,
                                                 IdleNode, Latency, RealProcessorNode)
from perfstudies.models.diag44.network import node_classes
from perfstudies.runner import replicate, run_ciw

SHORT = dict(max_time_us=1.0e6, warmup_us=1.0e5)


def simulate(**fields):
    """Run the network and return the simulation (for looking inside the nodes)."""
    p = DiagParams(**SHORT).replace(**fields)
    simulation, _ = run_ciw(build_network(p), 3, p.max_time_us, p.warmup_us, node_class=node_classes(p))
    return p, simulation


def mean(metric, replications=2, **fields):
    p = DiagParams(**SHORT).replace(**fields)
    return replicate(model, p, replications=replications, seed=5, progress=False).mean(metric)


def test_a_time_slice_sends_a_virtual_processor_to_the_back_of_the_queue():
    assert mean("tx_rate", time_slice_us=500.0) != mean("tx_rate")
    _, simulation = simulate(time_slice_us=200.0, real_processors=12)
    node = simulation.nodes[REAL_PROCESSORS]
    serving = [server.cust for server in node.servers if server.busy and server.cust.customer_class == "server"]
    assert serving, "some server guest is running"
    assert all(ind.service_end_date - ind.service_start_date <= 200.0 for ind in serving)


def test_fast_path_off_gives_no_fast_path_diagnoses():
    p = DiagParams(fast_path=False, **SHORT)
    metrics = model(p, 1)
    assert metrics["diag_normal"] > 0, "the clients do yield"
    assert metrics["diag_fast"] == 0 and metrics["pct_fast"] == 0


def test_a_lone_virtual_processor_never_finds_a_sibling_queued():
    p, simulation = simulate(client_vps=1, real_processors=2)
    node = simulation.nodes[REAL_PROCESSORS]
    clients = [ind for queue in node.individuals for ind in queue if ind.customer_class.startswith("client")]
    assert clients, "some client connections are at the real processors"
    assert all(node.queued_siblings(ind) == 0 and node.takes_fast_path(ind) for ind in clients)
    assert model(p, 2)["diag_normal"] == 0


def test_a_queued_sibling_forces_the_normal_path():
    _, simulation = simulate(client_vps=8, real_processors=5)
    node = simulation.nodes[REAL_PROCESSORS]
    clients = [ind for queue in node.individuals for ind in queue if ind.customer_class.startswith("client")]
    blocked = [ind for ind in clients if node.queued_siblings(ind) > 0]
    assert blocked and not any(node.takes_fast_path(ind) for ind in blocked)


def test_a_guest_never_has_more_connections_on_vps_than_it_has_vps():
    p, simulation = simulate(client_vps=3)
    present = [ind for node in (simulation.nodes[REAL_PROCESSORS], simulation.nodes[SCHEDULER_LOCK])
               for queue in node.individuals for ind in queue]
    for guest in ("client0", "client1"):
        assert sum(ind.guest == guest for ind in present) <= p.client_vps
    assert simulation.nodes[REAL_PROCESSORS].parked["client0"], "work waits inside the guest for a VP"


def test_percent_fast_path_falls_as_virtual_processors_rise():
    shares = [mean("pct_fast", client_vps=v) for v in (3, 6, 8)]
    assert shares[0] > shares[1] > shares[2]


def test_the_fast_path_cuts_normal_diagnoses_and_cp_time():
    assert mean("diag_normal", fast_path=True) < 0.2 * mean("diag_normal", fast_path=False)
    assert mean("cp_us_per_tx", fast_path=True) < mean("cp_us_per_tx", fast_path=False)


def test_per_run_state_reaches_the_nodes_through_with_state_not_the_network():
    p, simulation = simulate(client_vps=4)
    assert not hasattr(simulation.network, "diag44_params")
    node = simulation.nodes[REAL_PROCESSORS]
    assert isinstance(node, RealProcessorNode) and node.params is p
    assert isinstance(simulation.nodes[3], IdleNode) and simulation.nodes[3].params is p
    assert simulation.nodes[3].injected == p.connections
    # each run gets its own classes: a second run's parameters do not leak into the first
    other, _ = simulate(client_vps=2)
    assert node.params.client_vps == 4 and other.client_vps == 2


def test_every_ciw_class_says_what_it_is():
    p, simulation = simulate()
    assert repr(BurstTime(p)) == "BurstTime(client_slice_us=470.14, time_slice_us=5000)"
    assert repr(Latency(250.0)) == "Latency(mean_us=250)"
    assert repr(FollowNodeDecision()) == "FollowNodeDecision()"
    assert repr(simulation.nodes[REAL_PROCESSORS]) == \
        "RealProcessorNode(real_processors=9, client_vps=3, fast_path=True)"
    assert repr(simulation.nodes[3]) == "IdleNode(connections=40, injected=40)"


def test_same_seed_same_numbers():
    p = DiagParams(**SHORT)
    assert model(p, 7) == model(p, 7)


def test_seeded_regression_values():
    metrics = model(WIDGET_DEFAULTS, 1)
    assert metrics["tx_rate"] == pytest.approx(105.33333333333331, rel=1e-9)
    assert metrics["diag_total"] == pytest.approx(516790.6762962678, rel=1e-9)
    assert metrics["cp_us_per_tx"] == pytest.approx(38235.40047655977, rel=1e-9)
    assert metrics["diag_normal"] == pytest.approx(8296.296296296296, rel=1e-9)
