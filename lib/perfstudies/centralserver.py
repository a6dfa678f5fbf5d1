"""The central-server model: terminals, a CPU and two disks, solved by MVA and simulated with Ciw.

The worked example of the chapter "Queueing in one page" and the yardstick of
``tests/test_mva.py``.  ``terminals`` users each think for an exponential time
with mean ``think_time`` (an infinite-server node), then submit a job.  The job
alternates between the CPU and the disks: after each CPU burst it goes to disk
1 or disk 2 or, its work done, back to its terminal, with probabilities that
give it ``disk1_ios`` and ``disk2_ios`` disk visits on average (and one more
CPU burst than disk visits).  Every service time is exponential and every queue
first-come-first-served, so the network is product form and exact MVA
(:mod:`perfstudies.mva`) gives its mean values; the simulation checks it.

Examples
--------
>>> p = CentralServerParams(terminals=10)
>>> demands(p)
{'cpu': 0.2, 'disk 1': 0.30000000000000004, 'disk 2': 0.12}
>>> round(solve(p).throughput, 2)
1.68
"""

import dataclasses
import math

import ciw
import numpy as np
import pandas as pd

from perfstudies import mva
from perfstudies.delay import DelayNode
from perfstudies.networks import closed_population
from perfstudies.params import Params, param
from perfstudies.runner import run_ciw

#: Ciw node numbers.
TERMINALS, CPU, DISK1, DISK2 = 1, 2, 3, 4
STATIONS = {CPU: "cpu", DISK1: "disk 1", DISK2: "disk 2"}


#: Smallest non-zero time or I/O count of a record (smaller ones make MVA's throughput overflow).
MIN_AMOUNT = 1e-6


@dataclasses.dataclass(frozen=True)
class CentralServerParams(Params):
    """Terminals, a CPU and two disks (a textbook central-server model; values are illustrative)."""

    terminals: int = param(10, low=1, high=200, doc="terminals N (jobs in the network)")
    think_time: float = param(5.0, low=0.0, high=100.0, unit="s", doc="mean think time Z", step=0.5)
    cpu_s: float = param(0.04, low=MIN_AMOUNT, high=1.0, unit="s", doc="CPU time per burst",
                         step=0.005)
    disk1_s: float = param(0.10, low=MIN_AMOUNT, high=1.0, unit="s", doc="disk 1 time per I/O",
                           step=0.005)
    disk2_s: float = param(0.12, low=MIN_AMOUNT, high=1.0, unit="s", doc="disk 2 time per I/O",
                           step=0.005)
    disk1_ios: float = param(3.0, low=0.0, high=50.0, doc="disk 1 I/Os per job", step=0.5)
    disk2_ios: float = param(1.0, low=0.0, high=50.0, doc="disk 2 I/Os per job", step=0.5)
    max_time: float = param(1_000.0, low=10.0, high=1e6, unit="s", doc="simulated time")
    warmup: float = param(100.0, low=0.0, high=1e5, unit="s", doc="records of earlier arrivals are deleted")

    def __post_init__(self):
        super().__post_init__()
        self.check_warmup()
        for name in ("cpu_s", "disk1_s", "disk2_s", "disk1_ios", "disk2_ios"):
            value = getattr(self, name)
            if 0 < value < MIN_AMOUNT:  # a denormal demand overflows MVA's throughput
                raise ValueError(f"{type(self).__name__}.{name} = {value!r} is out of range: allowed 0 "
                                 f"(I/O counts only) or at least {MIN_AMOUNT:g}")
        visits = 2.0 + 2.0 * (self.disk1_ios + self.disk2_ios)   # think + CPU bursts + I/Os
        bound = mva.bounds(demands(self), self.terminals, self.think_time).asymptotic_throughput[1]
        self.check_event_budget(visits * bound * self.max_time, ("max_time", "terminals"))


def _check_params(p) -> None:
    if not isinstance(p, CentralServerParams):
        raise TypeError(f"p = {p!r} has the wrong type: allowed a CentralServerParams record")


def demands(p: CentralServerParams) -> dict[str, float]:
    """Service demand per job at each station (s): visits times time per visit."""
    _check_params(p)
    return mva.demands_from({"cpu": 1.0 + p.disk1_ios + p.disk2_ios, "disk 1": p.disk1_ios,
                             "disk 2": p.disk2_ios},
                            {"cpu": p.cpu_s, "disk 1": p.disk1_s, "disk 2": p.disk2_s})


def solve(p: CentralServerParams) -> mva.Solution:
    """Exact MVA of the model for ``p.terminals`` jobs."""
    _check_params(p)
    return mva.exact(demands(p), p.terminals, p.think_time)


def network(p: CentralServerParams) -> ciw.Network:
    """The Ciw network: terminals (infinite servers) -> CPU -> disk 1, disk 2 or terminals."""
    _check_params(p)
    population = closed_population(p.terminals)
    bursts = 1.0 + p.disk1_ios + p.disk2_ios
    think = ciw.dists.Exponential(1.0 / p.think_time) if p.think_time > 0 else ciw.dists.Deterministic(0.0)
    return ciw.create_network(
        arrival_distributions=[population.arrivals, None, None, None],
        batching_distributions=[population.batches, None, None, None],
        service_distributions=[think, ciw.dists.Exponential(1.0 / p.cpu_s),
                               ciw.dists.Exponential(1.0 / p.disk1_s), ciw.dists.Exponential(1.0 / p.disk2_s)],
        number_of_servers=[math.inf, 1, 1, 1],
        routing=ciw.routing.NetworkRouting([
            ciw.routing.Direct(to=CPU),
            ciw.routing.Probabilistic(destinations=[TERMINALS, DISK1, DISK2],
                                      probs=[1.0 / bursts, p.disk1_ios / bursts, p.disk2_ios / bursts]),
            ciw.routing.Direct(to=CPU),
            ciw.routing.Direct(to=CPU)]),
    )


def measure(records: pd.DataFrame, span: float) -> dict[str, float]:
    """The model's mean values from Ciw records of a measurement window ``span`` long.

    ``throughput`` counts jobs returning to their terminals; ``response_time``
    is measured job by job, from leaving the terminal to coming back; per
    station, ``residence_<station>`` is the mean time per visit times the
    visits per job, ``utilisation_<station>`` the busy time over the window
    and ``queue_<station>`` the mean number present (Little's law on the
    station's visits).
    """
    cpu = records[records["node"] == CPU]
    completions = int((cpu["destination"] == TERMINALS).sum())
    throughput = completions / span
    terminal = records[records["node"] == TERMINALS].sort_values(["id_number", "arrival_date"])
    nxt = terminal.groupby("id_number")["arrival_date"].shift(-1)
    response = (nxt - terminal["exit_date"]).dropna()
    metrics = {"throughput": throughput, "response_time": float(response.mean())}
    for node, name in STATIONS.items():
        here = records[records["node"] == node]
        per_visit = float((here["waiting_time"] + here["service_time"]).mean()) if len(here) else 0.0
        metrics[f"residence_{name}"] = per_visit * len(here) / max(completions, 1)
        metrics[f"utilisation_{name}"] = float(here["service_time"].sum()) / span
        metrics[f"queue_{name}"] = per_visit * len(here) / span
    return metrics


def simulate(p: CentralServerParams, seed: int) -> dict[str, float]:
    """One seeded replication: the :func:`measure` metrics after ``p.warmup``."""
    _check_params(p)
    _, records = run_ciw(network(p), seed, p.max_time, p.warmup, node_class=DelayNode)
    return measure(records, p.max_time - p.warmup)


def mva_metrics(p: CentralServerParams) -> dict[str, float]:
    """The exact MVA values of every metric :func:`simulate` returns, under the same names."""
    _check_params(p)
    solution = solve(p)
    values = {"throughput": solution.throughput, "response_time": solution.response_time}
    for name in STATIONS.values():
        values[f"residence_{name}"] = solution.residence_time[name]
        values[f"utilisation_{name}"] = solution.utilisation[name]
        values[f"queue_{name}"] = solution.queue_length[name]
    return values


def population_curves(p: CentralServerParams, populations, **changes) -> pd.DataFrame:
    """Per-station residence times for each population, tidy (population, station, residence_time, ...).

    ``changes`` override fields of ``p`` first (e.g. ``disk1_s=0.05``).
    """
    _check_params(p)
    q = p.replace(**changes) if changes else p
    path = mva.exact_path(demands(q), int(np.max(populations)), q.think_time)
    rows = []
    for n in populations:
        table = path[n - 1].table().drop(index="total").reset_index()
        rows.append(table.assign(population=n, throughput=path[n - 1].throughput,
                                 response_time=path[n - 1].response_time))
    return pd.concat(rows, ignore_index=True)
