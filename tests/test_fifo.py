"""FIFONode makes exactly the choices stock Ciw makes."""

import ciw
import pandas as pd
import pytest

from perfstudies import engine
from perfstudies.fifo import FIFONode
from perfstudies.runner import records_frame


def _two_node_network():
    # a busy 2-server node feeding a finite 1-server node: queues, blocking, routing
    return ciw.create_network(
        arrival_distributions=[ciw.dists.Exponential(1.8), ciw.dists.Exponential(0.3)],
        service_distributions=[ciw.dists.Exponential(1.0), ciw.dists.Exponential(1.6)],
        number_of_servers=[2, 1],
        queue_capacities=[float("inf"), 3],
        routing=[[0.0, 0.6], [0.1, 0.0]],
    )


def _records(node_class, simulation_class=ciw.Simulation):
    ciw.seed(7)
    simulation = simulation_class(_two_node_network(), node_class=node_class)
    simulation.simulate_until_max_time(400.0)
    return records_frame(simulation).sort_values(["id_number", "arrival_date", "node"]).reset_index(drop=True)


@pytest.mark.parametrize("simulation_class", [ciw.Simulation, engine.Simulation])
def test_fifo_node_records_equal_stock_ciw(simulation_class):
    stock, fast = _records(None), _records(FIFONode, simulation_class)
    assert len(stock) > 500
    pd.testing.assert_frame_equal(stock, fast)


@pytest.mark.parametrize("simulation_class", [ciw.Simulation, engine.Simulation])
def test_other_disciplines_fall_back_to_stock(simulation_class):
    network = ciw.create_network(
        arrival_distributions=[ciw.dists.Exponential(2.0)],
        service_distributions=[ciw.dists.Exponential(1.0)],
        number_of_servers=[1],
        service_disciplines=[ciw.disciplines.LIFO],
    )
    frames = []
    for node_class, build in ((None, ciw.Simulation), (FIFONode, simulation_class)):
        ciw.seed(3)
        simulation = build(network, node_class=node_class)
        simulation.simulate_until_max_time(100.0)
        frames.append(records_frame(simulation))
    pd.testing.assert_frame_equal(*frames)
