"""The Ciw networks of an SVC dump and of its IPCS initialization, and the model functions.

Customers are *chunks* of the dump (``DumpParams.chunk_blocks`` blocks each),
all present when the dump starts (:func:`perfstudies.networks.closed_population`,
one batch).  The dump network (:func:`build_network`)::

    page-in (page data sets) --> capture (CPU) --> volume of stripe k --> channel paths --> done
    resident chunks ----------^

* **page-in**: ``page_data_sets`` servers; only paged-out chunks visit it
  (:class:`~.mechanism.PageInTime`).
* **capture**: one server, the dump task on a processor the workload keeps
  about 90% busy; its time per block is calibrated (:class:`~.mechanism.CaptureTime`).
* **volume k**: one server per stripe; chunk *i* goes to stripe ``i mod stripes``
  (:class:`~.mechanism.StripedRoute`).  A visit lasts the chunk's I/Os one
  after another (:class:`~.mechanism.StripeVolumeTime`).
* **channel**: ``channel_paths`` servers; a visit lasts the chunk's connect
  time (:class:`~.mechanism.ChannelConnectTime`).

The queue in front of each volume is the dump buffer: captured data waits in
virtual storage until its volume can take it.  A real I/O holds its volume and
a path at the same time; the tandem volume -> channel keeps each resource's
busy time exact, so the channel caps the throughput once the stripes together
need more connect time than the paths offer, which is the bottleneck effect
the chapter is about (the overlap is a modelling simplification).

IPCS initialization (:func:`ipcs_network`) reads the same chunks back:
volume k -> channel -> IPCS (CPU).  A read is assumed to cost what a write
costs (on ESS, sequential reads are staged into cache ahead of the reader),
and IPCS to spend as much processor time per block as the capture (plus
decompression, costed like compression).
"""

import ciw

from perfstudies.models.svcdump import analytic
from perfstudies.models.svcdump.mechanism import (CaptureTime, ChannelConnectTime, PageInTime, StripedRoute,
                                                  StripeVolumeTime)
from perfstudies.models.svcdump.metrics import CAPTURE, PAGE, channel_node, dump_metrics, ipcs_metrics
from perfstudies.models.svcdump.params import (BLOCKS_PER_IO, CPU_CHUNK_CV, PAGE_BLOCKS_PER_IO, PAGE_IO_CV,
                                               PAGED_FRACTION, DumpParams)
from perfstudies.networks import closed_population
from perfstudies.params import check_record
from perfstudies.runner import check_seed, run_ciw

def chunk_services(params: DumpParams) -> dict[str, ciw.dists.Distribution]:
    """What one chunk costs at each resource (the :mod:`.mechanism` distributions), in s."""
    blocks = params.dump_blocks / params.chunks                  # dumped blocks per chunk
    ios = blocks * analytic.written_blocks(params) / params.dump_blocks / BLOCKS_PER_IO
    return {
        "page": PageInTime(blocks / PAGE_BLOCKS_PER_IO, analytic.page_io_ms(params), PAGE_IO_CV),
        "cpu": CaptureTime(blocks, analytic.cpu_us_per_block(params), CPU_CHUNK_CV),
        "volume": StripeVolumeTime(ios, analytic.io_ms(params), analytic.io_cv(params)),
        "channel": ChannelConnectTime(ios, analytic.connect_ms(params.device, params.channel, BLOCKS_PER_IO)),
    }


def paged_chunks(params: DumpParams) -> int:
    """Chunks that are paged out when the dump starts."""
    return round(params.chunks * PAGED_FRACTION[params.storage_constrained])


def _start(count: int) -> tuple:
    """Arrival and batch distributions of a node that holds ``count`` chunks at the start (none: no arrivals)."""
    if count == 0:
        return None, ciw.dists.Deterministic(1)
    population = closed_population(count)
    return population.arrivals, population.batches


def build_network(params: DumpParams) -> ciw.Network:
    """The dump network: page-in, capture, one node per stripe volume, channel paths."""
    services = chunk_services(params)
    channel = channel_node(params)
    paged = paged_chunks(params)
    page_arrival, page_batch = _start(paged)
    resident_arrival, resident_batch = _start(params.chunks - paged)
    return ciw.create_network(
        arrival_distributions=[page_arrival, resident_arrival] + [None] * (params.stripes + 1),
        batching_distributions=[page_batch, resident_batch] + [ciw.dists.Deterministic(1)] * (params.stripes + 1),
        service_distributions=[services["page"], services["cpu"]] + [services["volume"]] * params.stripes
        + [services["channel"]],
        number_of_servers=[params.page_data_sets, 1] + [1] * params.stripes + [params.channel_paths],
        routing=StripedRoute(params.stripes, page=PAGE, capture=CAPTURE, first_volume=CAPTURE + 1,
                             channel=channel),
    )


def ipcs_network(params: DumpParams) -> ciw.Network:
    """IPCS initialization: every stripe volume reads its chunks, over the channel, into IPCS (CPU)."""
    services = chunk_services(params)
    n = params.stripes
    per_volume = [params.chunks // n + (1 if k < params.chunks % n else 0) for k in range(n)]
    starts = [_start(count) for count in per_volume]
    channel, cpu = n, n + 1  # zero-based rows of the routing matrix
    matrix = [[0.0] * (n + 2) for _ in range(n + 2)]
    for k in range(n):
        matrix[k][channel] = 1.0
    matrix[channel][cpu] = 1.0
    return ciw.create_network(
        arrival_distributions=[arrival for arrival, _ in starts] + [None, None],
        batching_distributions=[batch for _, batch in starts] + [ciw.dists.Deterministic(1)] * 2,
        service_distributions=[services["volume"]] * n + [services["channel"], services["cpu"]],
        number_of_servers=[1] * n + [params.channel_paths, 1],
        routing=ciw.routing.TransitionMatrix(matrix),
    )


def _horizon(params: DumpParams) -> float:
    """A simulated-time limit far beyond any finish: ten times the sum of all demands."""
    return 10.0 * sum(analytic.demands(params).values()) + 10.0


def dump_model(params: DumpParams, seed: int) -> dict[str, float]:
    """One replication of the dump alone: the quantities of :func:`.metrics.dump_metrics`."""
    params, seed = check_record("params", params, DumpParams), check_seed(seed)
    _, records = run_ciw(build_network(params), seed, _horizon(params))
    return dump_metrics(params, records)


def ipcs_model(params: DumpParams, seed: int) -> dict[str, float]:
    """One replication of IPCS initialization alone: ``{"ipcs_s": elapsed time}`` (:func:`.metrics.ipcs_metrics`)."""
    params, seed = check_record("params", params, DumpParams), check_seed(seed)
    _, records = run_ciw(ipcs_network(params), seed, _horizon(params))
    return ipcs_metrics(params, records)


def model(params: DumpParams, seed: int) -> dict[str, float]:
    """One replication of the dump and of its IPCS initialization, both with ``seed``.

    The metrics of :func:`dump_model` plus ``ipcs_s`` of :func:`ipcs_model`.
    """
    params, seed = check_record("params", params, DumpParams), check_seed(seed)
    return {**dump_model(params, seed), **ipcs_model(params, seed)}
