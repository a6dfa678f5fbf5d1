"""The Ciw network of the DIAG X'44' study and its one-replication model.

Two nodes (the classes are in :mod:`.mechanism`)::

    REAL_PROCESSORS (RealProcessorNode, real_processors servers sharing one queue;
                     DispatchVectorNode, a queue each, with ``dispatch_vectors``)
        -> REAL_PROCESSORS                a normal-path yield or a time slice puts the VP at the back
                                          of the queue; or client work done (server work next)
        -> IDLE (IdleNode, infinite)      server work done; away from the processors, then the next transaction

Every connection is injected into ``IDLE`` just after time 0, one every
nanosecond (:func:`perfstudies.networks.closed_population` with a gap), and
loops for ever: a closed population of ``connections``.
"""

import math

import ciw

from perfstudies.networks import closed_population, with_state
from perfstudies.params import check_record
from perfstudies.runner import check_seed, run_ciw

from .mechanism import (IDLE, REAL_PROCESSORS, SERVER, DispatchVectorNode, FollowNodeDecision, IdleNode,
                        OffProcessorTime, RealProcessorNode, client_class)
from .metrics import metrics
from .params import DiagParams

#: Time between two injected connections at the start of a run (us).
INJECTION_GAP_US = 1e-3


def connections_per_client(params: DiagParams) -> dict[str, int]:
    """Number of connections of each client guest (round robin over the guests)."""
    return {client_class(g): len(range(g, params.connections, params.client_guests))
            for g in range(params.client_guests)}


def build_network(params: DiagParams) -> ciw.Network:
    """The two-node Ciw network; every connection is injected into ``IDLE`` just after time 0.

    The real-processor node decides every burst itself
    (:meth:`.mechanism.RealProcessorNode.get_service_time`), so its service
    distribution is a placeholder that is never sampled.
    """
    params = check_record("params", params, DiagParams)
    counts = {name: n for name, n in connections_per_client(params).items() if n > 0}
    classes = [*counts, SERVER]
    never = ciw.dists.Sequential([math.inf])

    def inject(count):
        return closed_population(count, gap=INJECTION_GAP_US).arrivals if count else never

    return ciw.create_network(
        arrival_distributions={c: [never, inject(counts.get(c, 0))] for c in classes},
        service_distributions={c: [ciw.dists.Deterministic(0.0), OffProcessorTime(params.off_processor_us)]
                               for c in classes},
        number_of_servers=[params.real_processors, math.inf],
        routing={c: ciw.routing.NetworkRouting(routers=[FollowNodeDecision(), ciw.routing.Direct(to=REAL_PROCESSORS)])
                 for c in classes},
    )


def node_classes(params: DiagParams) -> list[type]:
    """The node class of each node, each given this run's parameters (:func:`with_state`).

    The real processors share one dispatch queue, or have one each when ``params.dispatch_vectors`` is set.
    """
    processors = DispatchVectorNode if params.dispatch_vectors else RealProcessorNode
    return [with_state(processors, params=params), with_state(IdleNode, params=params)]


def model(params: DiagParams, seed: int) -> dict[str, float]:
    """One replication: the document's measured quantities, in the document's units."""
    params, seed = check_record("params", params, DiagParams), check_seed(seed)
    simulation, _ = run_ciw(build_network(params), seed, params.max_time_us, params.warmup_us,
                            node_class=node_classes(params))
    return metrics(params, simulation.nodes[REAL_PROCESSORS].totals)
