"""Textbook queues with closed forms: the yardstick for the simulation layer.

The M/M/c queue (and M/M/1 as ``c = 1``) and the M/M/1/K queue are simulated
with the same machinery the studies use, and their closed-form results are
given beside them, so the tests and the introduction can check the simulation
against queueing theory rather than against itself.
"""

import math
from dataclasses import dataclass

import ciw

from perfstudies.params import Params, check_integer, check_real, param
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


#: Most servers the closed forms accept (their recursions are linear in the servers).
MAX_SERVERS = 100_000
#: Up to this many servers Erlang C is the textbook sum (it overflows beyond).
TEXTBOOK_SERVERS = 100
#: Largest system size M/M/1/K's closed form accepts.
MAX_SYSTEM_SIZE = 10**9


def queue_network(p: QueueParams) -> ciw.Network:
    """The Ciw network of a single M/M/c/K node."""
    _check_params(p)
    limit = float("inf") if p.capacity == 0 else p.capacity
    return ciw.create_network(
        arrival_distributions=[ciw.dists.Exponential(p.arrival_rate)],
        service_distributions=[ciw.dists.Exponential(p.service_rate)],
        number_of_servers=[p.servers],
        queue_capacities=[limit],
    )


def queue_model(p: QueueParams, seed: int) -> dict:
    """One replication: mean wait, mean time in system and blocking probability."""
    _check_params(p)
    simulation, records = run_ciw(queue_network(p), seed, p.max_time, p.warmup)
    served = records[records["record_type"] == "service"]
    rejected = records[records["record_type"] == "rejection"]
    return {
        "mean_wait": served["waiting_time"].mean(),
        "mean_response": (served["waiting_time"] + served["service_time"]).mean(),
        "blocking_probability": len(rejected) / max(1, len(served) + len(rejected)),
    }


def _check_params(p) -> None:
    if not isinstance(p, QueueParams):
        raise ValueError(f"p = {p!r} has the wrong type: allowed a QueueParams record")


def erlang_c(servers: int, offered_load: float) -> float:
    """Probability that an arrival waits in M/M/c, with ``offered_load = lambda/mu``.

    Up to :data:`TEXTBOOK_SERVERS` servers the textbook sum; beyond it, where
    ``a**c / c!`` overflows, the Erlang B recursion ``B_k = a B_{k-1} / (k + a B_{k-1})``
    and ``C = c B_c / (c - a (1 - B_c))`` (1 <= servers <= :data:`MAX_SERVERS`,
    0 <= offered_load < servers).
    """
    c = check_integer("servers", servers, low=1, high=MAX_SERVERS)
    a = check_real("offered_load", offered_load, low=0.0)
    if a >= c:
        raise ValueError(f"offered_load = {offered_load!r} is out of range: allowed 0 <= offered_load < servers ({c})")
    if c <= TEXTBOOK_SERVERS:
        top = a**c / math.factorial(c) * c / (c - a)
        return top / (sum(a**k / math.factorial(k) for k in range(c)) + top)
    blocking = 1.0
    for k in range(1, c + 1):
        blocking = a * blocking / (k + a * blocking)
    return c * blocking / (c - a * (1.0 - blocking))


def mmc_mean_wait(arrival_rate: float, service_rate: float, servers: int) -> float:
    """Mean time in queue of M/M/c: ``C(c, a) / (c mu - lambda)`` (stable: ``arrival_rate < servers * service_rate``)."""
    arrival_rate = check_real("arrival_rate", arrival_rate, low=0.0)
    service_rate = check_real("service_rate", service_rate, low=0.0, low_open=True)
    servers = check_integer("servers", servers, low=1, high=MAX_SERVERS)
    if arrival_rate >= servers * service_rate:
        raise ValueError(f"arrival_rate = {arrival_rate!r} is out of range: allowed arrival_rate < "
                         f"servers * service_rate = {servers * service_rate} (a stable M/M/c)")
    return erlang_c(servers, arrival_rate / service_rate) / (servers * service_rate - arrival_rate)


def mm1k_blocking(arrival_rate: float, service_rate: float, system_size: int) -> float:
    """Blocking probability of M/M/1/K with ``system_size = K`` (queue + server), 1 <= K <= :data:`MAX_SYSTEM_SIZE`."""
    arrival_rate = check_real("arrival_rate", arrival_rate, low=0.0)
    service_rate = check_real("service_rate", service_rate, low=0.0, low_open=True)
    k = check_integer("system_size", system_size, low=1, high=MAX_SYSTEM_SIZE)
    rho = arrival_rate / service_rate
    if not math.isfinite(rho):
        raise ValueError(f"arrival_rate = {arrival_rate!r} is out of range: allowed a finite "
                         f"arrival_rate / service_rate (service_rate = {service_rate!r})")
    if math.isclose(rho, 1.0):
        return 1.0 / (k + 1)
    if rho < 1:
        return (1 - rho) * rho**k / (1 - rho ** (k + 1))
    return (1 - 1 / rho) / (1 - rho ** -(k + 1))  # the same formula divided through by rho^(K+1): no overflow
