"""The Ciw networks of the 580/MDF study and their one-replication models.

Three small networks, each answering one of the document's tables:

``device_model``   one DASD volume (Tables 1 and 2): requests issued while the
                   owning domain runs, queue in IOS (IOSQ), transfer, and keep
                   the device busy until the domain clears the interrupt.
``ims_model``      the IMS domain (Table 3): 1,000 terminals think, send a
                   message through the 4705 front end, wait for a processor of
                   the IMS domain, do their database I/O, and get the reply back
                   through the same 4705.  The 4705's exchanges are held like a
                   device's, which is what makes messages travel in surges.
``tso_model``      the TSO domain (Table 4): 450 users think and run
                   CPU-bound commands on the TSO domain's slices.

Each returns ``{metric: value}`` for one seeded replication, so
:func:`perfstudies.runner.replicate` and :func:`perfstudies.sweep.run_sweep`
can run it.  Times in the metrics are in the unit their name says.
"""

import ciw

from perfstudies.delay import DelayNode
from perfstudies.models.mdf.dists import DomainArrivals, DomainWork, HeldCompletion
from perfstudies.models.mdf.params import DeviceParams, ImsParams, TsoParams
from perfstudies.runner import run_ciw

INFINITE = float("inf")

#: Node numbers of the IMS network (Ciw counts from 1).
TERMINALS, FRONT_END, PROCESSORS, DATABASE_IO = 1, 2, 3, 4


def gamma_with(mean: float, scv: float) -> ciw.dists.Gamma:
    """A Gamma distribution with the given mean and squared coefficient of variation."""
    return ciw.dists.Gamma(shape=1.0 / scv, scale=mean * scv)


def device_network(p: DeviceParams) -> ciw.Network:
    """One device: domain-issued Poisson requests, one server with held completions."""
    windows = p.windows(p.domain)
    return ciw.create_network(
        arrival_distributions=[DomainArrivals(p.rate, windows)],
        service_distributions=[HeldCompletion(gamma_with(p.hardware_s, p.scv), windows)],
        number_of_servers=[1],
    )


def device_model(p: DeviceParams, seed: int) -> dict:
    """One replication of a device: IOSQ and RESP as RMF computes them, and the hold.

    RMF's AVG RESP is IOSQ plus the measured PEND + DISC + CONN; the hold after
    the transfer is measured nowhere (Section 4.0), so it shows up only as the
    IOSQ of the requests queued behind it.
    """
    _, records = run_ciw(device_network(p), seed, p.max_time, p.warmup)
    iosq_ms = 1000.0 * float(records["waiting_time"].mean())
    return {
        "iosq_ms": iosq_ms,
        "resp_ms": iosq_ms + 1000.0 * p.hardware_s,
        "held_ms": 1000.0 * (float(records["service_time"].mean()) - p.hardware_s),
        "rate_per_s": len(records) / (p.max_time - p.warmup),
    }


class FrontEndRouting(ciw.routing.NodeRouting):
    """At the 4705 a message goes on to IMS; the reply that comes back goes to its terminal."""

    def next_node(self, ind):
        outbound = getattr(ind, "mdf_outbound", False)
        ind.mdf_outbound = not outbound
        return self.simulation.nodes[TERMINALS if outbound else PROCESSORS]


def closed_population(count: int) -> dict:
    """Arrival settings that put ``count`` customers at node 1 at time ~0, and no more."""
    return dict(arrival_distributions=[ciw.dists.Sequential([1e-9, INFINITE])],
                batching_distributions=[ciw.dists.Deterministic(count)])


def ims_network(p: ImsParams) -> ciw.Network:
    """Terminals -> 4705 -> IMS processors -> database I/O -> 4705 -> terminals."""
    windows = p.windows("IMS")
    population = closed_population(p.terminals)
    io_time = p.io_per_transaction * p.io_response_ms / 1000.0
    return ciw.create_network(
        arrival_distributions=population["arrival_distributions"] + [None] * 3,
        batching_distributions=population["batching_distributions"] + [None] * 3,
        service_distributions=[
            ciw.dists.Exponential(1.0 / p.think_s),
            HeldCompletion(ciw.dists.Exponential(1000.0 / p.frontend_ms), windows),
            DomainWork(ciw.dists.Exponential(1000.0 / p.cpu_ms), windows),
            ciw.dists.Exponential(1.0 / io_time) if io_time > 0 else ciw.dists.Deterministic(0.0),
        ],
        number_of_servers=[INFINITE, 1, p.processors, INFINITE],
        routing=ciw.routing.NetworkRouting([
            ciw.routing.Direct(to=FRONT_END), FrontEndRouting(),
            ciw.routing.Direct(to=DATABASE_IO), ciw.routing.Direct(to=FRONT_END)]),
    )


def ims_model(p: ImsParams, seed: int) -> dict:
    """One replication of the IMS domain: Table 3's columns.

    The TPNS and output queue times are the inbound and outbound messages'
    times at the 4705 (queue plus exchange); the input queue is the wait for
    an IMS processor; execution is the CPU work (stretched over the IMS
    slices) plus the database I/O.  CPU busy follows from the utilisation law,
    as a share of the processors' time the domain is given.
    """
    _, records = run_ciw(ims_network(p), seed, p.max_time, p.warmup, node_class=DelayNode)
    span = p.max_time - p.warmup
    front = records[records["node"] == FRONT_END]
    at_front = front["waiting_time"] + front["service_time"]
    cpu = records[records["node"] == PROCESSORS]
    io = records[records["node"] == DATABASE_IO]
    parts = {
        "tpns_queue_s": float(at_front[front["destination"] == PROCESSORS].mean()),
        "ims_input_queue_s": float(cpu["waiting_time"].mean()),
        "ims_exec_s": float(cpu["service_time"].mean() + io["service_time"].mean()),
        "ims_output_queue_s": float(at_front[front["destination"] == TERMINALS].mean()),
    }
    etr = len(cpu) / span
    windows = p.windows("IMS")
    return {
        **parts,
        "ims_response_s": sum(parts.values()),
        "ims_etr_per_s": etr,
        "frontend_messages_per_s": len(front) / span,
        "cpu_busy_pct": 100.0 * etr * p.cpu_ms / 1000.0 / (p.processors * windows.fraction),
    }


def tso_network(p: TsoParams) -> ciw.Network:
    """Users -> TSO processors -> users."""
    population = closed_population(p.users)
    return ciw.create_network(
        arrival_distributions=population["arrival_distributions"] + [None],
        batching_distributions=population["batching_distributions"] + [None],
        service_distributions=[ciw.dists.Exponential(1.0 / p.think_s),
                               DomainWork(ciw.dists.Exponential(1000.0 / p.cpu_ms), p.windows("TSO"))],
        number_of_servers=[INFINITE, p.processors],
        routing=ciw.routing.NetworkRouting([ciw.routing.Direct(to=2), ciw.routing.Direct(to=1)]),
    )


def tso_model(p: TsoParams, seed: int) -> dict:
    """One replication of the TSO domain: Table 4's response time and ETR."""
    _, records = run_ciw(tso_network(p), seed, p.max_time, p.warmup, node_class=DelayNode)
    cpu = records[records["node"] == 2]
    etr = len(cpu) / (p.max_time - p.warmup)
    return {
        "tso_response_s": float((cpu["waiting_time"] + cpu["service_time"]).mean()),
        "tso_etr_per_s": etr,
        "cpu_busy_pct": 100.0 * etr * p.cpu_ms / 1000.0 / (p.processors * p.windows("TSO").fraction),
    }
