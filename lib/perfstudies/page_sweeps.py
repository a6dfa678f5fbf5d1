"""The book's theory pages' own sweeps, declared as the studies' are, so ``make runs`` stores them too.

* :data:`MMC` is the introduction's check of the simulation against Erlang C:
  M/M/c queues on 1 to 4 servers at utilisations 10% to 90%, eight
  replications each.
* :data:`CENTRAL_SERVER` is the queueing chapter's simulation beside MVA: the
  central-server example at 5, 15 and 30 terminals, ten replications each and
  more until the throughput's 95% half-width is under 0.03 jobs/s
  (:func:`perfstudies.sweep.sweep_until`'s rule).

Each page shows its declaration and reads ``runs()``; the values come from
``data/runs/sweep-<name>.json`` once checked (:mod:`perfstudies.stored_sweeps`).
"""

from perfstudies.centralserver import CentralServerParams, simulate
from perfstudies.reference import QueueParams, queue_model
from perfstudies.stored_sweeps import Sweep

#: The introduction's M/M/c sweep: customers per unit time per server, utilisations rho = lambda / (c mu),
#: server counts.
SERVICE_RATE = 1.0
UTILISATIONS = tuple(round(0.1 * step, 2) for step in range(1, 10))
SERVER_COUNTS = (1, 2, 3, 4)


def mmc_points() -> list[QueueParams]:
    """Every (servers, utilisation) of the introduction's sweep: 2,000 time units, the first 200 deleted."""
    return [QueueParams(arrival_rate=float(u * c * SERVICE_RATE), service_rate=SERVICE_RATE, servers=c,
                        max_time=2_000.0, warmup=200.0)
            for c in SERVER_COUNTS for u in UTILISATIONS]


MMC = Sweep(name="intro-mmc", scope=None, model=queue_model, points=mmc_points, replications=8, seed=2024,
            max_workers=2)

#: The queueing chapter's example (10 users, think 5 s, CPU 40 ms, disks 100/120 ms), the terminals it
#: simulates with Ciw, and the widest accepted 95% half-width of the throughput (jobs/s).
EXAMPLE = CentralServerParams()
SIMULATED_TERMINALS = (5, 15, 30)
THROUGHPUT_TARGET = 0.03


def central_server_points() -> list[CentralServerParams]:
    """The example at each simulated number of terminals."""
    return [EXAMPLE.replace(terminals=n) for n in SIMULATED_TERMINALS]


def central_server_targets() -> list[dict[str, float]]:
    """The throughput's half-width target at every point."""
    return [{"throughput": THROUGHPUT_TARGET}] * len(SIMULATED_TERMINALS)


CENTRAL_SERVER = Sweep(name="queueing-central-server", scope=None, model=simulate, points=central_server_points,
                       replications=10, seed=1984, max_workers=2, precision=central_server_targets)

#: Every page sweep, for ``make runs`` (:func:`perfstudies.stored_sweeps.declared`).
PAGE_SWEEPS = (MMC, CENTRAL_SERVER)
