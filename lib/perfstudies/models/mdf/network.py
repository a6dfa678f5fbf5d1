"""The Ciw networks of the 580/MDF study and their one-replication models.

Three small networks, each answering some of the document's tables:

``model``       one DASD volume (Tables 1 and 2), the study's main model: requests
                issued while the owning domain runs queue in IOS (IOSQ), transfer,
                and keep the device busy until the domain clears the interrupt.
                The comparison, the live panel and the slider sweep all run it.
``ims_model``   the IMS domain (Table 3): 1,000 terminals think, send a message
                through the 4705 front end, wait for a processor of the IMS
                domain, do their database I/O, and get the reply back through
                the same 4705.  The 4705's exchanges are held like a device's,
                which is what makes messages travel in surges.
``tso_model``   the TSO domain (Table 4): 450 users think and run CPU-bound
                commands on the TSO domain's slices.

:func:`build_network` builds the network of any of the three records.  Each
model returns ``{metric: value}`` for one seeded replication, so
:func:`perfstudies.runner.replicate` and :func:`perfstudies.sweep.run_sweep`
can run it.  Times in the metrics are in the unit their name says.
"""

import ciw

from perfstudies.delay import DelayNode
from perfstudies.models.mdf.mechanism import (DATABASE_IO, FRONT_END, PROCESSORS, TERMINALS, DomainArrivals,
                                              DomainWork, FrontEndRouting, HeldCompletion)
from perfstudies.models.mdf.params import DeviceParams, ImsParams, TsoParams
from perfstudies.networks import closed_population, gamma_by_mean
from perfstudies.runner import run_ciw

INFINITE = float("inf")


def build_network(params: DeviceParams | ImsParams | TsoParams) -> ciw.Network:
    """The Ciw network of a device, the IMS domain or the TSO domain, by the record's type."""
    builders = {DeviceParams: device_network, ImsParams: ims_network, TsoParams: tso_network}
    if type(params) not in builders:
        raise ValueError(f"params = {params!r} has the wrong type: allowed DeviceParams, ImsParams or TsoParams")
    return builders[type(params)](params)


def device_network(params: DeviceParams) -> ciw.Network:
    """One device: domain-issued Poisson requests, one server with held completions."""
    windows = params.windows(params.domain)
    return ciw.create_network(
        arrival_distributions=[DomainArrivals(params.rate, windows)],
        service_distributions=[HeldCompletion(gamma_by_mean(params.hardware_s, shape=1.0 / params.scv), windows)],
        number_of_servers=[1],
    )


def model(params: DeviceParams, seed: int) -> dict:
    """One replication of a device: IOSQ and RESP as RMF computes them, and the hold.

    RMF's AVG RESP is IOSQ plus the measured PEND + DISC + CONN; the hold after
    the transfer is measured nowhere (Section 4.0), so it shows up only as the
    IOSQ of the requests queued behind it.
    """
    _, records = run_ciw(device_network(params), seed, params.max_time, params.warmup)
    iosq_ms = 1000.0 * float(records["waiting_time"].mean())
    return {
        "iosq_ms": iosq_ms,
        "resp_ms": iosq_ms + 1000.0 * params.hardware_s,
        "held_ms": 1000.0 * (float(records["service_time"].mean()) - params.hardware_s),
        "rate_per_s": len(records) / (params.max_time - params.warmup),
    }


def ims_network(params: ImsParams) -> ciw.Network:
    """Terminals -> 4705 -> IMS processors -> database I/O -> 4705 -> terminals."""
    windows = params.windows("IMS")
    population = closed_population(params.terminals)
    io_time = params.io_per_transaction * params.io_response_ms / 1000.0
    return ciw.create_network(
        arrival_distributions=[population.arrivals, None, None, None],
        batching_distributions=[population.batches, None, None, None],
        service_distributions=[
            ciw.dists.Exponential(1.0 / params.think_s),
            HeldCompletion(ciw.dists.Exponential(1000.0 / params.frontend_ms), windows),
            DomainWork(ciw.dists.Exponential(1000.0 / params.cpu_ms), windows),
            ciw.dists.Exponential(1.0 / io_time) if io_time > 0 else ciw.dists.Deterministic(0.0),
        ],
        number_of_servers=[INFINITE, 1, params.processors, INFINITE],
        routing=ciw.routing.NetworkRouting([
            ciw.routing.Direct(to=FRONT_END), FrontEndRouting(),
            ciw.routing.Direct(to=DATABASE_IO), ciw.routing.Direct(to=FRONT_END)]),
    )


def ims_model(params: ImsParams, seed: int) -> dict:
    """One replication of the IMS domain: Table 3's columns.

    The TPNS and output queue times are the inbound and outbound messages'
    times at the 4705 (queue plus exchange); the input queue is the wait for
    an IMS processor; execution is the CPU work (stretched over the IMS
    slices) plus the database I/O.  CPU busy follows from the utilisation law,
    as a share of the processors' time the domain is given.
    """
    _, records = run_ciw(ims_network(params), seed, params.max_time, params.warmup, node_class=DelayNode)
    span = params.max_time - params.warmup
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
    windows = params.windows("IMS")
    return {
        **parts,
        "ims_response_s": sum(parts.values()),
        "ims_etr_per_s": etr,
        "frontend_messages_per_s": len(front) / span,
        "cpu_busy_pct": 100.0 * etr * params.cpu_ms / 1000.0 / (params.processors * windows.fraction),
    }


def tso_network(params: TsoParams) -> ciw.Network:
    """Users -> TSO processors -> users."""
    population = closed_population(params.users)
    return ciw.create_network(
        arrival_distributions=[population.arrivals, None],
        batching_distributions=[population.batches, None],
        service_distributions=[ciw.dists.Exponential(1.0 / params.think_s),
                               DomainWork(ciw.dists.Exponential(1000.0 / params.cpu_ms), params.windows("TSO"))],
        number_of_servers=[INFINITE, params.processors],
        routing=ciw.routing.NetworkRouting([ciw.routing.Direct(to=2), ciw.routing.Direct(to=1)]),
    )


def tso_model(params: TsoParams, seed: int) -> dict:
    """One replication of the TSO domain: Table 4's response time and ETR."""
    _, records = run_ciw(tso_network(params), seed, params.max_time, params.warmup, node_class=DelayNode)
    cpu = records[records["node"] == 2]
    etr = len(cpu) / (params.max_time - params.warmup)
    return {
        "tso_response_s": float((cpu["waiting_time"] + cpu["service_time"]).mean()),
        "tso_etr_per_s": etr,
        "cpu_busy_pct": 100.0 * etr * params.cpu_ms / 1000.0 / (params.processors * params.windows("TSO").fraction),
    }
