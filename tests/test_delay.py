"""The heap-based infinite-server node gives exactly the records stock Ciw gives, blocking included."""

import random
import signal

import ciw
import pytest

from perfstudies.delay import DelayNode
from perfstudies.networks import closed_population

#: Wall-clock seconds one simulation of these small networks may take (a hang fails instead of stalling).
TIME_LIMIT_S = 20


def _terminals(count: int) -> ciw.Network:
    """``count`` terminals thinking (infinite servers) and queueing for one processor."""
    population = closed_population(count)
    return ciw.create_network(
        arrival_distributions=[population.arrivals, None], batching_distributions=[population.batches, None],
        service_distributions=[ciw.dists.Exponential(0.2), ciw.dists.Exponential(3.0)],
        number_of_servers=[float("inf"), 1],
        routing=ciw.routing.NetworkRouting([ciw.routing.Direct(2), ciw.routing.Direct(1)]))


def _timed_out(signum, frame):
    raise TimeoutError(f"simulation ran longer than {TIME_LIMIT_S} s of wall-clock time")


def _records(node_class, seed: int, network: ciw.Network, max_time: float = 200.0):
    ciw.seed(seed)
    simulation = ciw.Simulation(network, node_class=node_class)
    previous = signal.signal(signal.SIGALRM, _timed_out)
    signal.alarm(TIME_LIMIT_S)
    try:
        simulation.simulate_until_max_time(max_time)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return simulation.get_all_records()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_records_match_stock_ciw_in_a_closed_terminal_loop(seed):
    assert _records(DelayNode, seed, _terminals(30)) == _records(ciw.Node, seed, _terminals(30))


def test_a_blocked_customer_waits_at_the_delay_node_as_in_stock_ciw():
    """The issue's minimal case: Poisson -> infinite server -> one server with room for one, Direct routing.

    Before the fix the delay node finished a blocked customer again at the same
    instant for ever (the run never ended).
    """
    network = ciw.create_network(
        arrival_distributions=[ciw.dists.Exponential(2.0), None],
        service_distributions=[ciw.dists.Exponential(1.0), ciw.dists.Exponential(0.5)],
        number_of_servers=[float("inf"), 1], queue_capacities=[float("inf"), 1],
        routing=ciw.routing.NetworkRouting([ciw.routing.Direct(2), ciw.routing.Leave()]))
    stock = _records(ciw.Node, 1, network, max_time=50.0)
    assert any(record.time_blocked > 0 for record in stock if record.node == 1)  # blocking does happen
    assert _records(DelayNode, 1, network, max_time=50.0) == stock


def _random_network(rng: random.Random) -> ciw.Network:
    """An open network whose node 1 has infinite servers and whose other nodes have finite queues.

    Half the delay nodes have deterministic service times and arrivals, so that
    several customers end service at the same instant (Ciw's tie rule matters);
    a third of the networks have two priority classes.
    """
    nodes = rng.randint(2, 4)
    infinite = {0} | ({rng.randrange(1, nodes)} if rng.random() < 0.3 else set())
    ties = rng.random() < 0.5

    def service(node):
        if node in infinite and ties:
            return ciw.dists.Deterministic(rng.choice([0.5, 1.0, 1.5]))
        return ciw.dists.Exponential(rng.uniform(0.4, 3.0))

    def arrivals(node):
        if node == 0:
            return ciw.dists.Deterministic(0.25) if ties else ciw.dists.Exponential(rng.uniform(0.5, 3.0))
        return ciw.dists.Exponential(rng.uniform(0.1, 1.0)) if rng.random() < 0.3 else None

    def routing():
        matrix = []
        for _ in range(nodes):
            weights = [rng.random() for _ in range(nodes + 1)]  # the last one is leaving
            total = sum(weights)
            matrix.append([weight / total for weight in weights[:nodes]])
        return matrix

    servers = [float("inf") if node in infinite else rng.randint(1, 2) for node in range(nodes)]
    capacities = [float("inf") if node in infinite else rng.choice([0, 1, 2, float("inf")])
                  for node in range(nodes)]
    classes = ["A", "B"] if rng.random() < 1 / 3 else ["A"]
    return ciw.create_network(
        arrival_distributions={c: [arrivals(node) for node in range(nodes)] for c in classes},
        service_distributions={c: [service(node) for node in range(nodes)] for c in classes},
        routing={c: routing() for c in classes},
        number_of_servers=servers, queue_capacities=capacities,
        **({"priority_classes": {"A": 0, "B": 1}} if len(classes) == 2 else {}))


@pytest.mark.parametrize("case", range(60))
def test_random_networks_with_finite_queues_after_the_delay_node_match_stock_ciw(case):
    network = _random_network(random.Random(case))
    assert _records(DelayNode, case, network, max_time=60.0) == _records(ciw.Node, case, network, max_time=60.0)
