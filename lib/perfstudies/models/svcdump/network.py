"""The Ciw networks of an SVC dump and of its IPCS initialization, and the model functions.

Customers are *chunks* of the dump (``DumpParams.chunk_blocks`` blocks each),
all present when the dump starts.  The dump network::

    page-in (page data sets) --> capture (CPU) --> volume of stripe k --> channel paths --> done
    resident chunks ----------^

* **page-in**: ``page_data_sets`` servers; only paged-out chunks visit it.
* **capture**: one server, the dump task on a processor the workload keeps
  about 90% busy; its time per block is calibrated.
* **volume k**: one server per stripe; chunk *i* goes to stripe ``i mod stripes``
  (SMS striping spreads consecutive tracks over the volumes).  A visit lasts
  the chunk's I/Os one after another (turnaround, positioning, transfer).
* **channel**: ``channel_paths`` servers; a visit lasts the chunk's connect time.

The queue in front of each volume is the dump buffer: captured data waits in
virtual storage until its volume can take it.  A real I/O holds its volume and
a path at the same time; the tandem volume -> channel keeps each resource's
busy time exact, so the channel caps the throughput once the stripes together
need more connect time than the paths offer, which is the bottleneck effect
the chapter is about (the overlap is a modelling simplification).

IPCS initialization reads the same chunks back: volume k -> channel -> IPCS (CPU).
A read is assumed to cost what a write costs (on ESS, sequential reads are
staged into cache ahead of the reader), and IPCS to spend as much processor
time per block as the capture (plus decompression, costed like compression).
"""

import math

import ciw

from perfstudies.models.svcdump import analytic
from perfstudies.models.svcdump.params import (BLOCK_BYTES, BLOCKS_PER_IO, CPU_CHUNK_CV, PAGE_BLOCKS_PER_IO,
                                               PAGED_FRACTION, DumpParams)
from perfstudies.runner import run_ciw

#: Arrival time of the whole dump (Ciw needs a positive first arrival), in s.
START_S = 1e-9
#: Per-I/O coefficient of variation of a random page-in (seek and rotation vary; an assumption).
PAGE_IO_CV = 0.5

PAGE, CAPTURE = 1, 2  # node numbers of the dump network; volumes follow, then the channel


def _varying(mean: float, cv: float) -> ciw.dists.Gamma:
    """A gamma distribution with the given mean and (positive) coefficient of variation."""
    shape = 1.0 / cv**2
    return ciw.dists.Gamma(shape, mean / shape)


def _all_at_start(count: int) -> tuple:
    """Arrival and batch distributions that bring ``count`` customers at ``START_S`` and no more."""
    if count == 0:
        return None, ciw.dists.Deterministic(1)
    return ciw.dists.Sequential([START_S, math.inf]), ciw.dists.Deterministic(count)


def _chunk_services(p: DumpParams) -> dict[str, ciw.dists.Distribution]:
    """Service-time distributions of one chunk at each resource, in s."""
    blocks = p.dump_blocks / p.chunks                      # dumped blocks per chunk
    ios = blocks * analytic.written_blocks(p) / p.dump_blocks / BLOCKS_PER_IO
    page_ios = blocks / PAGE_BLOCKS_PER_IO
    return {
        "page": _varying(page_ios * analytic.page_io_ms(p) / 1e3, PAGE_IO_CV / math.sqrt(page_ios)),
        "cpu": _varying(blocks * analytic.cpu_us_per_block(p) / 1e6, CPU_CHUNK_CV),
        "volume": _varying(ios * analytic.io_ms(p) / 1e3, analytic.io_cv(p) / math.sqrt(ios)),
        "channel": ciw.dists.Deterministic(ios * analytic.connect_ms(p.device, p.channel, BLOCKS_PER_IO) / 1e3),
    }


def paged_chunks(p: DumpParams) -> int:
    """Chunks that are paged out when the dump starts."""
    return round(p.chunks * PAGED_FRACTION[p.storage_constrained])


def dump_network(p: DumpParams) -> ciw.Network:
    """The dump network: page-in, capture, one node per stripe volume, channel paths."""
    services = _chunk_services(p)
    volumes = list(range(CAPTURE + 1, CAPTURE + 1 + p.stripes))
    channel = CAPTURE + 1 + p.stripes

    def route(individual, simulation):
        volume = volumes[(individual.id_number - 1) % p.stripes]
        after_capture = [volume, channel]
        return [CAPTURE, *after_capture] if individual.starting_node == PAGE else after_capture

    paged = paged_chunks(p)
    page_arrival, page_batch = _all_at_start(paged)
    resident_arrival, resident_batch = _all_at_start(p.chunks - paged)
    return ciw.create_network(
        arrival_distributions=[page_arrival, resident_arrival] + [None] * (p.stripes + 1),
        batching_distributions=[page_batch, resident_batch] + [ciw.dists.Deterministic(1)] * (p.stripes + 1),
        service_distributions=[services["page"], services["cpu"]] + [services["volume"]] * p.stripes
        + [services["channel"]],
        number_of_servers=[p.page_data_sets, 1] + [1] * p.stripes + [p.channel_paths],
        routing=ciw.routing.ProcessBased(route),
    )


def ipcs_network(p: DumpParams) -> ciw.Network:
    """IPCS initialization: every stripe volume reads its chunks, over the channel, into IPCS (CPU)."""
    services = _chunk_services(p)
    n = p.stripes
    per_volume = [p.chunks // n + (1 if k < p.chunks % n else 0) for k in range(n)]
    starts = [_all_at_start(count) for count in per_volume]
    channel, cpu = n, n + 1  # zero-based rows of the routing matrix
    matrix = [[0.0] * (n + 2) for _ in range(n + 2)]
    for k in range(n):
        matrix[k][channel] = 1.0
    matrix[channel][cpu] = 1.0
    return ciw.create_network(
        arrival_distributions=[arrival for arrival, _ in starts] + [None, None],
        batching_distributions=[batch for _, batch in starts] + [ciw.dists.Deterministic(1)] * 2,
        service_distributions=[services["volume"]] * n + [services["channel"], services["cpu"]],
        number_of_servers=[1] * n + [p.channel_paths, 1],
        routing=ciw.routing.TransitionMatrix(matrix),
    )


def _horizon(p: DumpParams) -> float:
    """A simulated-time limit far beyond any finish: ten times the sum of all demands."""
    return 10.0 * sum(analytic.demands(p).values()) + 10.0


def _busy(records, node: int) -> float:
    return float(records.loc[records["node"] == node, "service_time"].sum())


def dump_model(p: DumpParams, seed: int) -> dict[str, float]:
    """One replication of the dump alone.

    Returns
    -------
    dict
        ``elapsed_s`` (dump start to last chunk written), ``data_rate_mb_s``
        (dumped MB per elapsed second), ``io_response_ms`` (mean time of one
        dump I/O at its volume), and the utilizations ``cpu_util``,
        ``volume_util`` (mean over stripes), ``channel_util`` (per path) and
        ``page_util`` (per page data set).
    """
    _, dump = run_ciw(dump_network(p), seed, _horizon(p))
    channel = CAPTURE + 1 + p.stripes
    written = dump[dump["node"] == channel]
    if len(written) != p.chunks:
        raise RuntimeError(f"only {len(written)} of {p.chunks} chunks were written before the horizon")
    elapsed = float(written["exit_date"].max()) - START_S
    volumes = dump[dump["node"].between(CAPTURE + 1, CAPTURE + p.stripes)]
    ios_per_chunk = analytic.written_blocks(p) / p.chunks / BLOCKS_PER_IO
    return {
        "elapsed_s": elapsed,
        "data_rate_mb_s": p.dump_blocks * BLOCK_BYTES / 1e6 / elapsed,
        "io_response_ms": float(volumes["service_time"].mean()) / ios_per_chunk * 1e3,
        "cpu_util": _busy(dump, CAPTURE) / elapsed,
        "volume_util": float(volumes["service_time"].sum()) / (p.stripes * elapsed),
        "channel_util": _busy(dump, channel) / (p.channel_paths * elapsed),
        "page_util": _busy(dump, PAGE) / (p.page_data_sets * elapsed),
    }


def ipcs_model(p: DumpParams, seed: int) -> dict[str, float]:
    """One replication of IPCS initialization alone: ``{"ipcs_s": elapsed time}``."""
    _, ipcs = run_ciw(ipcs_network(p), seed, _horizon(p))
    done = ipcs[ipcs["node"] == p.stripes + 2]
    if len(done) != p.chunks:
        raise RuntimeError(f"only {len(done)} of {p.chunks} chunks were read before the horizon")
    return {"ipcs_s": float(done["exit_date"].max()) - START_S}


def model(p: DumpParams, seed: int) -> dict[str, float]:
    """One replication of the dump and of its IPCS initialization, both with ``seed``.

    The metrics of :func:`dump_model` plus ``ipcs_s`` of :func:`ipcs_model`.
    """
    return {**dump_model(p, seed), **ipcs_model(p, seed)}
