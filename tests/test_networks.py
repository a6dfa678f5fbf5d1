"""The network building blocks every study shares: populations, Gamma by mean, per-run state."""

import math

import ciw
import pytest

from perfstudies.fifo import FIFONode
from perfstudies.networks import BATCH_AT, closed_population, gamma_by_mean, with_state


def test_a_staggered_population_arrives_one_at_a_time_and_then_nobody():
    population = closed_population(3, gap=0.5)
    assert [population.arrivals.sample() for _ in range(4)] == [0.5, 0.5, 0.5, math.inf]
    assert population.batches.sample() == 1


def test_a_batch_population_arrives_at_once():
    population = closed_population(40)
    assert [population.arrivals.sample() for _ in range(2)] == [BATCH_AT, math.inf]
    assert population.batches.sample() == 40


def test_a_closed_loop_keeps_its_population():
    population = closed_population(5, gap=1e-6)
    network = ciw.create_network(arrival_distributions=[population.arrivals],
                                 batching_distributions=[population.batches],
                                 service_distributions=[ciw.dists.Exponential(1.0)], number_of_servers=[2],
                                 routing=ciw.routing.NetworkRouting([ciw.routing.Direct(1)]))
    ciw.seed(1)
    simulation = ciw.Simulation(network, node_class=FIFONode)
    simulation.simulate_until_max_time(50.0)
    assert len(simulation.nodes[1].all_individuals) == 5


@pytest.mark.parametrize(("call", "name"), [
    (lambda: closed_population(0), "count"), (lambda: closed_population(2.5), "count"),
    (lambda: closed_population(True), "count"), (lambda: closed_population(2, gap=0), "gap"),
    (lambda: closed_population(2, gap=math.inf), "gap"), (lambda: gamma_by_mean(0.0, 2.0), "mean"),
    (lambda: gamma_by_mean(1.0, math.nan), "shape"),
])
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name} = .*allowed"):
        call()


def test_gamma_by_mean_has_the_mean_and_shape_asked_for():
    dist = gamma_by_mean(3.0, shape=4.0)
    assert (dist.shape, dist.scale) == (4.0, 0.75)
    ciw.seed(2)
    draws = [dist.sample() for _ in range(20_000)]
    assert sum(draws) / len(draws) == pytest.approx(3.0, rel=0.02)


def test_with_state_binds_declared_attributes_only():
    class Logged(FIFONode):
        log: list

    first, second = with_state(Logged, log=[1]), with_state(Logged, log=[2])
    assert (first.log, second.log, Logged.__dict__.get("log")) == ([1], [2], None)
    assert issubclass(first, Logged) and first.__name__ == "Logged"
    with pytest.raises(ValueError, match=r"state names \['lgo'\] that Logged does not declare"):
        with_state(Logged, lgo=[])


@pytest.mark.parametrize(("call", "name"), [
    (lambda: gamma_by_mean(1e308, 1e-308), "mean"), (lambda: gamma_by_mean(1e-320, 1e10), "mean"),
    (lambda: with_state(FIFONode, name="not a name"), "name"), (lambda: with_state(FIFONode, name=3), "name"),
    (lambda: with_state("FIFONode"), "node_class"),
])
def test_more_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name} = .*allowed"):
        call()
