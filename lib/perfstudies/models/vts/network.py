"""The Ciw networks of the VTS and the two simulation models built on them.

:func:`model` (the study's model) runs a closed network: ``streams`` virtual
drives each keep one customer (a chunk of ``chunk_mb`` host MB, or a whole
volume for a recall) circulating through the resources of the workload's path
(:data:`~perfstudies.models.vts.params.PATHS`), in data-flow order:

* peak write:      channels -> processors -> cache
* sustained write: channels -> processors -> cache -> tape (copy-out)
* read hit:        cache -> processors -> channels
* read recall:     tape (mount, search, read) -> cache -> processors -> channels

A chunk of a sustained write goes back to its stream only after its copy-out, so
host writes and copy-out run at the same rate, as they do in the steady state
the VTS holds by throttling its input (Sec. 5).  Service times are those of
:mod:`.mechanism` (:class:`~.mechanism.WorkService` everywhere,
:class:`~.mechanism.CopyService` for a chunk copied out at a drive, and
:class:`~.mechanism.RecallService` for a recall at a drive), with the demands
of :func:`.analytic.stations`.

:func:`recall_model` is Fig. 6: ``recall_queue + 1`` recalls arrive one after
the other, a microsecond apart, at the ``drives`` tape drives; the metric is the
last one's mount response.

The cache is striped (Sec. 2): each chunk is spread over all disk arms, so the
``cache`` node is one server whose service time is the chunk's arm time divided
by the number of arms.  A chunk uses one channel, one processor and one drive.
"""

import ciw

from perfstudies.models.vts.analytic import STRIPED, Station, bound, customer_mb, stations
from perfstudies.models.vts.mechanism import CopyService, RecallService, WorkService
from perfstudies.models.vts.metrics import recall_metrics, throughput_metrics
from perfstudies.models.vts.params import PATHS, WARMUP_SHARE, VTSParams, warmup_customers
from perfstudies.networks import closed_population
from perfstudies.params import check_record
from perfstudies.runner import check_seed, run_ciw

#: Gap between the customers put in place at the start to make a closed population (s).
INJECTION_GAP = 1e-6
#: A recall run lasts until every recall is served; this only has to be longer (s).
RECALL_HORIZON_S = 1e7

def service(resource: str, station: Station, size_mb: float, speedup: float = 1.0,
            volume_mb: float | None = None) -> ciw.dists.Distribution:
    """Service time of a customer of ``size_mb`` host MB at one resource.

    The per-MB work is a :class:`~.mechanism.WorkService`.  A resource with a
    per-volume overhead (a mount at a drive) is a
    :class:`~.mechanism.RecallService` when the customer is a whole volume
    (``volume_mb`` None or equal to ``size_mb``: a recall's mount and search),
    and a :class:`~.mechanism.CopyService` when it is a chunk of a volume of
    ``volume_mb`` host MB (its share of the copy's mount).  ``speedup`` divides
    the time (a striped resource working with all servers at once).
    """
    if station.s_per_volume == 0:
        return WorkService(resource, station.s_per_mb * size_mb, speedup)
    if volume_mb is None or volume_mb == size_mb:
        return RecallService(station.s_per_mb * size_mb / speedup, station.s_per_volume / speedup)
    return CopyService(station.s_per_mb * size_mb / speedup, station.s_per_volume * size_mb / volume_mb / speedup)


def build_network(params: VTSParams) -> ciw.Network:
    """The closed Ciw network of the workload's resources, in data-flow order."""
    path = PATHS[params.workload]
    found = stations(params)
    size = customer_mb(params)
    servers = [1 if name in STRIPED else found[name].servers for name in path]
    services = [service(name, found[name], size, found[name].servers / c, params.volume_mb)
                for name, c in zip(path, servers)]
    last = len(path)
    population = closed_population(params.streams, gap=INJECTION_GAP)
    return ciw.create_network(
        arrival_distributions=[population.arrivals] + [None] * (last - 1),
        batching_distributions=[population.batches] + [None] * (last - 1),
        service_distributions=services,
        number_of_servers=servers,
        routing=ciw.routing.NetworkRouting([ciw.routing.Direct(to=(i % last) + 1) for i in range(1, last + 1)]),
    )


def warmup_s(params: VTSParams) -> float:
    """Simulated seconds deleted before the measurement window opens (see :func:`~.params.warmup_customers`)."""
    return warmup_customers(params.completions, params.streams) * customer_mb(params) / bound(params)


def run_length_s(params: VTSParams) -> float:
    """Simulated seconds: the warm-up, then ``(1 - WARMUP_SHARE) * completions`` customers at the bound rate."""
    return warmup_s(params) + (1 - WARMUP_SHARE) * params.completions * customer_mb(params) / bound(params)


def model(params: VTSParams, seed: int) -> dict[str, float]:
    """One replication of the throughput model: host MB/s and each resource's utilisation after the warm-up
    (:func:`.metrics.throughput_metrics`)."""
    params, seed = check_record("params", params, VTSParams), check_seed(seed)
    horizon = run_length_s(params)
    simulation, records = run_ciw(build_network(params), seed, horizon)
    servers = [simulation.nodes[index].c for index in range(1, len(PATHS[params.workload]) + 1)]
    return throughput_metrics(params, records, servers, warmup_s(params), horizon)


def build_recall_network(params: VTSParams) -> ciw.Network:
    """``recall_queue + 1`` recalls arriving one after the other at the tape drives an import/export task
    leaves free (``drives - import_export_drives``: Sec. 7's task holds its source and destination drives)."""
    population = closed_population(params.recall_queue + 1, gap=INJECTION_GAP)
    tape = stations(params.replace(workload="read_recall"))["tape"]
    return ciw.create_network(
        arrival_distributions=[population.arrivals],
        batching_distributions=[population.batches],
        service_distributions=[service("tape", tape, params.volume_mb)],
        number_of_servers=[params.drives - params.import_export_drives],
    )


def recall_model(params: VTSParams, seed: int) -> dict[str, float]:
    """One replication of Fig. 6: the last recall's mount response, in seconds (:func:`.metrics.recall_metrics`)."""
    params, seed = check_record("params", params, VTSParams), check_seed(seed)
    _, records = run_ciw(build_recall_network(params), seed, RECALL_HORIZON_S)
    return recall_metrics(records)
