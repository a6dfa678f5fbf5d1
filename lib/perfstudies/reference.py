"""Textbook queues with closed forms: the yardstick for the simulation layer.

The M/M/c queue (and M/M/1 as ``c = 1``) and the M/M/1/K queue are simulated
with the same machinery the studies use, and their closed-form results are
given beside them, so the tests and the introduction can check the simulation
against queueing theory rather than against itself.
"""

import math
from dataclasses import dataclass

import ciw

from perfstudies.params import Params, param
from perfstudies.runner import run_ciw


@dataclass(frozen=True)
class QueueParams(Params):
    """An M/M/c/K queue; ``capacity = 0`` means an unlimited waiting room."""

    arrival_rate: float = param(0.8, low=0.0, low_open=True, high=1000.0, unit="1/time",
                                doc="Poisson arrival rate lambda")
    service_rate: float = param(1.0, low=0.0, low_open=True, high=1000.0, unit="1/time",
                                doc="service rate mu of one server")
    servers: int = param(1, low=1, high=64, doc="number of servers c")
    capacity: int = param(0, low=0, high=10_000, doc="waiting-room size K-c; 0 means unlimited")
    max_time: float = param(5_000.0, low=1.0, high=1e7, unit="time", doc="simulated time")
    warmup: float = param(500.0, low=0.0, high=1e6, unit="time", doc="records before this are deleted")

    def __post_init__(self):
        super().__post_init__()
        self.check_warmup()
        if self.capacity == 0 and self.arrival_rate >= self.servers * self.service_rate:
            raise ValueError(
                f"QueueParams.arrival_rate = {self.arrival_rate!r} is out of range: an unlimited queue "
                f"needs arrival_rate < servers * service_rate = {self.servers * self.service_rate}")


def queue_network(p: QueueParams) -> ciw.Network:
    """The Ciw network of a single M/M/c/K node."""
    limit = float("inf") if p.capacity == 0 else p.capacity
    return ciw.create_network(
        arrival_distributions=[ciw.dists.Exponential(p.arrival_rate)],
        service_distributions=[ciw.dists.Exponential(p.service_rate)],
        number_of_servers=[p.servers],
        queue_capacities=[limit],
    )


def queue_model(p: QueueParams, seed: int) -> dict:
    """One replication: mean wait, mean time in system and blocking probability."""
    simulation, records = run_ciw(queue_network(p), seed, p.max_time, p.warmup)
    served = records[records["record_type"] == "service"]
    rejected = records[records["record_type"] == "rejection"]
    return {
        "mean_wait": served["waiting_time"].mean(),
        "mean_response": (served["waiting_time"] + served["service_time"]).mean(),
        "blocking_probability": len(rejected) / max(1, len(served) + len(rejected)),
    }


def erlang_c(servers: int, offered_load: float) -> float:
    """Probability that an arrival waits in M/M/c, with ``offered_load = lambda/mu``."""
    c, a = servers, offered_load
    if a >= c:
        raise ValueError(f"offered_load = {a!r} is out of range: allowed 0 <= offered_load < servers ({c})")
    top = a**c / math.factorial(c) * c / (c - a)
    return top / (sum(a**k / math.factorial(k) for k in range(c)) + top)


def mmc_mean_wait(arrival_rate: float, service_rate: float, servers: int) -> float:
    """Mean time in queue of M/M/c: ``C(c, a) / (c mu - lambda)``."""
    return erlang_c(servers, arrival_rate / service_rate) / (servers * service_rate - arrival_rate)


def mm1k_blocking(arrival_rate: float, service_rate: float, system_size: int) -> float:
    """Blocking probability of M/M/1/K with ``system_size = K`` (queue + server)."""
    rho, k = arrival_rate / service_rate, system_size
    if math.isclose(rho, 1.0):
        return 1.0 / (k + 1)
    return (1 - rho) * rho**k / (1 - rho ** (k + 1))
