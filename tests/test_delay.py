"""The heap-based infinite-server node gives exactly the records stock Ciw gives."""

import ciw
import pytest

from perfstudies.delay import DelayNode
from perfstudies.networks import closed_population


def _terminals(count: int) -> ciw.Network:
    """``count`` terminals thinking (infinite servers) and queueing for one processor."""
    population = closed_population(count)
    return ciw.create_network(
        arrival_distributions=[population.arrivals, None], batching_distributions=[population.batches, None],
        service_distributions=[ciw.dists.Exponential(0.2), ciw.dists.Exponential(3.0)],
        number_of_servers=[float("inf"), 1],
        routing=ciw.routing.NetworkRouting([ciw.routing.Direct(2), ciw.routing.Direct(1)]))


def _records(node_class, seed: int, count: int):
    ciw.seed(seed)
    simulation = ciw.Simulation(_terminals(count), node_class=node_class)
    simulation.simulate_until_max_time(200.0)
    return simulation.get_all_records()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_records_match_stock_ciw_in_a_closed_terminal_loop(seed):
    assert _records(DelayNode, seed, 30) == _records(ciw.Node, seed, 30)
