"""The Ciw networks of the 580/MDF study and their one-replication models.

Three small networks, each answering some of the document's tables:

``model``       one DASD volume (Tables 1 and 2), the study's main model: requests
                issued while the owning domain runs queue in IOS (IOSQ), transfer,
                and keep the device busy until the domain clears the interrupt;
                beside it RMF's sampler, which measures IOSQ the way RMF does.
                The comparison, the live panel and the slider sweep all run it.
``ims_model``   the IMS domain (Table 3): 1,000 terminals think, send a message
                through the 4705 front end, wait for one of sixty message-processing
                regions, in it wait for a processor of the IMS domain, run and do
                their database I/O, and get the reply back through the same 4705.
                The 4705's exchanges are held like a device's, which is what
                makes messages travel in surges.
``tso_model``   the TSO domain (Table 4): 450 users think and run CPU-bound
                commands on the TSO domain's slices.

:func:`build_network` builds the network of any of the three records; a
device's refuses, before anything runs, a rate its held completions would make
unstable (:func:`check_stable`: the record checks only its own fields).  Each
model returns ``{metric: value}`` for one seeded replication, so
:func:`perfstudies.runner.replicate` and :func:`perfstudies.sweep.run_sweep`
can run it.  Times in the metrics are in the unit their name says.
"""

import ciw
import numpy as np

from perfstudies.delay import DelayNode
from perfstudies.fifo import FIFONode
from perfstudies.models.mdf import metrics
from perfstudies.models.mdf.analytic import check_device_load
from perfstudies.models.mdf.mechanism import (DATABASE_IO, DEVICE, FRONT_END, INPUT_QUEUE, PROCESSORS, RMF,
                                              TERMINALS, BlockExponential, BlockGamma, DatabaseIO, DomainWork,
                                              FrontEndRouting, HeldCompletion, RegionGate, RmfDelay, RmfSampler,
                                              RmfTimer, device_arrivals, windows_of)
from perfstudies.models.mdf.params import RMF_RULES, DeviceParams, ImsParams, TsoParams
from perfstudies.networks import closed_population, with_state
from perfstudies.params import check_record
from perfstudies.runner import check_seed, run_ciw

INFINITE = float("inf")


def build_network(params: DeviceParams | ImsParams | TsoParams) -> ciw.Network:
    """The Ciw network of a device, the IMS domain or the TSO domain, by the record's type."""
    builders = {DeviceParams: device_network, ImsParams: ims_network, TsoParams: tso_network}
    check_record("params", params, tuple(builders))
    return next(build for cls, build in builders.items() if isinstance(params, cls))(params)


def check_stable(params: DeviceParams, name: str = "params") -> DeviceParams:
    """``params`` if its device can take its rate with completions held, else a ValueError naming ``name.rate``.

    Whether it can needs the schedule and the theory
    (:func:`~perfstudies.models.mdf.analytic.check_device_load`), which a
    record below them cannot use, so the device's network checks it before
    anything runs: at or above one over the busy time per I/O, holds
    included, IOSQ would grow without bound and no steady state exists.
    """
    check_device_load(name, "rate", params.rate, params.hardware_s, params.scv, windows_of(params, params.domain),
                      params.scheduling_parameter)
    return params


def device_network(params: DeviceParams) -> ciw.Network:
    """One device (node 1): requests issued as ``params.arrivals`` says (the study's: Poisson, only while the
    domain runs), one server with held completions;
    and RMF's sampler (node 2): a timer pop every RMF cycle, served when RMF may look at the queue.
    A rate the device cannot take is refused first (:func:`check_stable`)."""
    windows = windows_of(check_stable(params), params.domain)
    return ciw.create_network(
        arrival_distributions=[device_arrivals(params.arrivals, params.rate, windows),
                               RmfTimer(params.rmf_cycle_ms / 1000.0)],
        service_distributions=[HeldCompletion(BlockGamma(params.hardware_s, params.scv), windows),
                               RmfDelay(windows, params.rmf_rule)],
        number_of_servers=[1, 1],
        routing=ciw.routing.NetworkRouting([ciw.routing.Leave(), ciw.routing.Leave()]),
    )


def device_node_classes(params: DeviceParams) -> list:
    """The node classes of one run of :func:`device_network`: the device, and a sampler with fresh state."""
    sampler = with_state(RmfSampler, windows=windows_of(params, params.domain), rule=params.rmf_rule, device=DEVICE,
                         samples=[])
    return [FIFONode, sampler]


#: The model's metric for each RMF rule's expected estimate.
RULE_METRICS = {rule: f"rmf_{rule.replace(' ', '_')}_ms" for rule in RMF_RULES}


def model(params: DeviceParams, seed: int) -> dict:
    """One replication of a device: the true IOSQ, the IOSQ and RESP RMF reports, and the hold.

    ``iosq_ms`` is the true mean time requests queued in IOS (from the
    records); ``rmf_iosq_ms`` what RMF reports under the record's rule, on
    average over where its pops fall (:func:`metrics.expected_iosq_ms`), and
    ``rmf_sampled_iosq_ms`` what this run's own sampler reported; the
    ``rmf_<rule>_ms`` give every rule's expected estimate from the same run.
    RMF's AVG RESP is its IOSQ plus the measured PEND + DISC + CONN; the hold
    after the transfer is measured nowhere (Section 4.0), so it shows up only
    as the IOSQ of the requests queued behind it.  A rate the device cannot
    take is refused before the run (:func:`check_stable`, by :func:`device_network`).
    """
    params, seed = check_record("params", params, DeviceParams), check_seed(seed)
    classes = device_node_classes(params)
    simulation, records = run_ciw(device_network(params), seed, params.max_time, 0.0, node_class=classes)
    device = records[records["node"] == DEVICE]
    waiting = [ind for ind in simulation.nodes[DEVICE].all_individuals if not ind.server]
    arrivals = np.concatenate([device["arrival_date"].to_numpy(float), [ind.arrival_date for ind in waiting]])
    starts = np.concatenate([device["service_start_date"].to_numpy(float), np.full(len(waiting), np.inf)])
    measured = device[device["arrival_date"] >= params.warmup]
    span = params.max_time - params.warmup
    rate = len(device[device["exit_date"] >= params.warmup]) / span      # RMF's activity rate: completions
    windows = windows_of(params, params.domain)
    rules = {RULE_METRICS[rule]: metrics.expected_iosq_ms(arrivals, starts, windows, rule, params.warmup,
                                                          params.max_time, rate) for rule in RMF_RULES}
    rmf_iosq_ms = rules[RULE_METRICS[params.rmf_rule]]
    return {
        "iosq_ms": 1000.0 * float(measured["waiting_time"].mean()),
        "rmf_iosq_ms": rmf_iosq_ms,
        "resp_ms": rmf_iosq_ms + 1000.0 * params.hardware_s,
        "rmf_sampled_iosq_ms": metrics.sampled_iosq_ms(classes[1].samples, params.warmup, rate),
        **rules,
        "held_ms": 1000.0 * (float(measured["service_time"].mean()) - params.hardware_s),
        "rate_per_s": rate,
    }


def ims_network(params: ImsParams) -> ciw.Network:
    """Terminals -> 4705 -> input queue (a region) -> IMS processors -> database I/O -> 4705 -> terminals."""
    windows = windows_of(params, "IMS")
    population = closed_population(params.terminals)
    return ciw.create_network(
        arrival_distributions=[population.arrivals, None, None, None, None],
        batching_distributions=[population.batches, None, None, None, None],
        service_distributions=[
            BlockExponential(1.0 / params.think_s),
            HeldCompletion(BlockExponential(1000.0 / params.frontend_ms), windows),
            ciw.dists.Deterministic(0.0),
            DomainWork(BlockExponential(1000.0 / params.cpu_ms), windows),
            DatabaseIO(params.io_per_transaction, params.io_response_ms / 1000.0, windows),
        ],
        number_of_servers=[INFINITE, 1, INFINITE, params.processors, INFINITE],
        routing=ciw.routing.NetworkRouting([
            ciw.routing.Direct(to=FRONT_END), FrontEndRouting(), ciw.routing.Direct(to=PROCESSORS),
            ciw.routing.Direct(to=DATABASE_IO), ciw.routing.Direct(to=FRONT_END)]),
    )


def ims_node_classes(params: ImsParams) -> list:
    """The node classes of one run of :func:`ims_network`: the input queue a gate on ``params.regions``
    regions, every other node a :class:`~perfstudies.delay.DelayNode`."""
    gate = with_state(RegionGate, regions=params.regions)
    return [DelayNode, DelayNode, gate, DelayNode, DelayNode]


def ims_model(params: ImsParams, seed: int) -> dict:
    """One replication of the IMS domain: Table 3's columns.

    The TPNS and output queue times are the inbound and outbound messages'
    times at the 4705 (queue plus exchange); the input queue is the wait for
    a message-processing region (:class:`~perfstudies.models.mdf.mechanism.RegionGate`);
    execution is the time in the region: the wait for an IMS processor, the
    CPU work (stretched over the IMS slices) and the database I/O.  CPU busy
    follows from the utilisation law, as a share of the processors' time the
    domain is given.
    """
    params, seed = check_record("params", params, ImsParams), check_seed(seed)
    _, records = run_ciw(ims_network(params), seed, params.max_time, params.warmup,
                         node_class=ims_node_classes(params))
    span = params.max_time - params.warmup
    front = records[records["node"] == FRONT_END]
    at_front = front["waiting_time"] + front["service_time"]
    gate = records[records["node"] == INPUT_QUEUE]
    cpu = records[records["node"] == PROCESSORS]
    io = records[records["node"] == DATABASE_IO]
    parts = {
        "tpns_queue_s": float(at_front[front["destination"] == INPUT_QUEUE].mean()),
        "ims_input_queue_s": float((gate["exit_date"] - gate["arrival_date"]).mean()),
        "ims_exec_s": float((cpu["waiting_time"] + cpu["service_time"]).mean() + io["service_time"].mean()),
        "ims_output_queue_s": float(at_front[front["destination"] == TERMINALS].mean()),
    }
    etr = len(cpu) / span
    windows = windows_of(params, "IMS")
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
        service_distributions=[BlockExponential(1.0 / params.think_s),
                               DomainWork(BlockExponential(1000.0 / params.cpu_ms), windows_of(params, "TSO"))],
        number_of_servers=[INFINITE, params.processors],
        routing=ciw.routing.NetworkRouting([ciw.routing.Direct(to=2), ciw.routing.Direct(to=1)]),
    )


def tso_model(params: TsoParams, seed: int) -> dict:
    """One replication of the TSO domain: Table 4's response time and ETR."""
    params, seed = check_record("params", params, TsoParams), check_seed(seed)
    _, records = run_ciw(tso_network(params), seed, params.max_time, params.warmup, node_class=DelayNode)
    cpu = records[records["node"] == 2]
    etr = len(cpu) / (params.max_time - params.warmup)
    return {
        "tso_response_s": float((cpu["waiting_time"] + cpu["service_time"]).mean()),
        "tso_etr_per_s": etr,
        "cpu_busy_pct": 100.0 * etr * params.cpu_ms / 1000.0 / (params.processors * windows_of(params, "TSO").fraction),
    }
