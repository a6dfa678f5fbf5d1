"""The Ciw networks of SPTAPE and SPXTAPE, ``model(params, seed)``, and the Table 2 volume model.

Four shapes, one per command and function (Table 1):

* SPXTAPE DUMP: one node per spool volume (1 server each, reading in parallel)
  feeds the *tape drives* node (``drives`` servers,
  :class:`~.mechanism.TapeDriveNode`) whose waiting room is the real-memory
  buffer; when the buffer is full a volume that finished a read is blocked
  (Ciw's blocking), which is the system going idle.
* SPXTAPE LOAD: the tape drives node feeds a *spool file creation* node (one
  server: CP builds spool files one at a time, :class:`~.mechanism.FileCreation`,
  which also charges each file's processor time) whose waiting room is the buffer,
  which feeds the volume nodes that write the pages
  (:class:`~.mechanism.ToChunkVolume`).
* SPTAPE DUMP and LOAD: a single one-server node that does everything for one
  file at a time (read, write, tape mark), so nothing overlaps anything.

Table 2 (the dump beside 5,500 CMS users): one of the four dump volumes as one
first-come-first-served server with two customer classes, the dump's queued
page reads (a closed loop) and the users' Poisson spool I/Os
(:func:`volume_network`, :func:`volume_model`).
"""

import math
from typing import NamedTuple

import ciw
import pandas as pd

from perfstudies.fifo import FIFONode
from perfstudies.models.spxtape.mechanism import (ChunkStream, FileCreation, PerChunk, TapeDriveNode, TapeLog,
                                                  ToChunkVolume)
from perfstudies.models.spxtape.metrics import COLUMNS, run_metrics
from perfstudies.models.spxtape.params import ConcurrentParams, SpxtapeParams
from perfstudies.models.spxtape.workload import Chunk, interleave, workload
from perfstudies.networks import closed_population, with_state
from perfstudies.params import check_record
from perfstudies.runner import check_seed, run_ciw

#: Gap between the arrivals that put the Table 2 dump's queued reads in place at time ~0 (s).
PLACE_GAP = 1e-9
#: Simulated-time limit; every run ends far sooner, when the last chunk leaves.
HORIZON = 1e7


class Built(NamedTuple):
    """One run's Ciw network, its node classes, the drives' tape log, and which nodes play which role.

    ``roles`` maps ``"volumes"``, ``"tape"`` and ``"create"`` to node numbers
    (1-based), so results can be read back by role.
    """

    network: ciw.Network
    node_classes: list
    log: TapeLog
    roles: dict


def _placed(counts: list[int]) -> dict:
    """Arrival and batch distributions that put each node's ``counts`` chunks in place in one batch at ~0.

    One arrival event per node instead of one per chunk.  A batch's customers
    join the node's queue in the order they are created, which is the order the
    node's :class:`~.mechanism.ChunkStream` hands out the chunks anyway.  A node
    whose chunks all come from another node (a count of 0) gets no arrivals.
    """
    populations = [closed_population(count) if count else None for count in counts]
    return {"arrival_distributions": [pop.arrivals if pop else None for pop in populations],
            "batching_distributions": [pop.batches if pop else ciw.dists.Deterministic(1) for pop in populations]}


def _buffer_chunks(p: SpxtapeParams, per_volume: list[list[Chunk]]) -> int:
    """The buffer as a number of chunks of this run's mean size (Ciw counts customers, not pages)."""
    chunks = [chunk.pages for chunks in per_volume for chunk in chunks]
    return int(p.buffer_pages // (sum(chunks) / len(chunks)))


def build_network(params: SpxtapeParams, seed: int) -> Built:
    """The Ciw network of one run of ``params``, with the spool files drawn from ``seed``.

    The files (and so every service time) depend on the seed, so the network of
    a run is built from both.
    """
    p = check_record("params", params, SpxtapeParams)
    seed = check_seed(seed)
    per_volume = workload(p, seed)
    mark_pages = p.mark_pages if p.command == "SPTAPE" else 0.0
    log = TapeLog(p.tape_capacity_pages, mark_pages, p.change_time)
    tape = with_state(TapeDriveNode, log=log)
    if p.command == "SPTAPE":
        chunks = [chunk for chunks in per_volume for chunk in chunks]  # one volume at a time
        # dumping ends each file with a tape mark; loading creates each file in CP
        per_file = p.mark_time if p.function == "DUMP" else p.file_create_time
        creates = p.cpu_per_file if p.function == "LOAD" else 0.0
        stream = ChunkStream(chunks, p.page_io_time + p.tape_page_time, per_file, log, creates)
        network = ciw.create_network(**_placed([len(chunks)]),
                                     service_distributions=[stream], number_of_servers=[1],
                                     routing=ciw.routing.NetworkRouting([ciw.routing.Leave()]))
        return Built(network, [tape], log, {"tape": [1], "volumes": [], "create": []})
    volumes = range(1, p.volumes + 1)
    if p.function == "DUMP":
        network = ciw.create_network(
            **_placed([len(c) for c in per_volume] + [0]),
            service_distributions=[ChunkStream(c, p.page_io_time, 0.0, log) for c in per_volume]
            + [PerChunk(p.tape_page_time)],
            number_of_servers=[1] * p.volumes + [p.drives],
            queue_capacities=[math.inf] * p.volumes + [_buffer_chunks(p, per_volume)],
            routing=ciw.routing.NetworkRouting([ciw.routing.Direct(p.volumes + 1) for _ in volumes]
                                               + [ciw.routing.Leave()]))
        return Built(network, [FIFONode] * p.volumes + [tape], log,
                     {"volumes": list(volumes), "tape": [p.volumes + 1], "create": []})
    on_tape = interleave(per_volume)
    network = ciw.create_network(
        **_placed([len(on_tape), 0] + [0] * p.volumes),
        service_distributions=[ChunkStream(on_tape, p.tape_page_time, 0.0, log),
                               FileCreation(p.file_create_time, p.cpu_per_file, log)]
        + [PerChunk(p.page_io_time) for _ in volumes],
        number_of_servers=[p.drives, 1] + [1] * p.volumes,
        queue_capacities=[math.inf, _buffer_chunks(p, per_volume)] + [math.inf] * p.volumes,
        routing=ciw.routing.NetworkRouting([ciw.routing.Direct(2), ToChunkVolume(3)]
                                           + [ciw.routing.Leave() for _ in volumes]))
    return Built(network, [tape, FIFONode] + [FIFONode] * p.volumes, log,
                 {"tape": [1], "create": [2], "volumes": [v + 2 for v in volumes]})


def simulate(params: SpxtapeParams, seed: int) -> tuple[pd.DataFrame, TapeLog, dict]:
    """Run one replication; return ``(records, tape log, roles)``.

    ``records`` holds the columns of Ciw's records that the metrics and the
    chapter's frames read (:data:`.metrics.COLUMNS`): the same numbers
    as the full records frame, at a sixth of a panel replication less.
    """
    params, seed = check_record("params", params, SpxtapeParams), check_seed(seed)
    built = build_network(params, seed)
    _, records = run_ciw(built.network, seed, HORIZON, node_class=built.node_classes, columns=COLUMNS)
    return records, built.log, built.roles


def model(params: SpxtapeParams, seed: int) -> dict[str, float]:
    """One seeded replication of a dump or load: the Table 1 quantities (:func:`.metrics.run_metrics`)."""
    params, seed = check_record("params", params, SpxtapeParams), check_seed(seed)
    records, log, roles = simulate(params, seed)
    return run_metrics(records, log, roles, params)


def volume_network(params: ConcurrentParams) -> ciw.Network:
    """One spool volume of the Table 2 run: the dump's queued reads (a closed loop) and the users' Poisson I/Os.

    * ``dump``: SPXTAPE keeps ``dump_reads_queued`` page reads waiting on the
      volume; each completed read is replaced at once, so the dump takes
      whatever time the users leave it;
    * ``users``: the users' spool I/Os to that volume, a Poisson stream, each
      with an exponential service time of the same mean as a page read.
    """
    p = check_record("params", params, ConcurrentParams)
    reads = closed_population(p.dump_reads_queued, gap=PLACE_GAP).arrivals
    users = ciw.dists.Exponential(p.user_io_rate) if p.user_io_rate > 0 else None
    return ciw.create_network(
        arrival_distributions={"dump": [reads], "users": [users]},
        service_distributions={"dump": [ciw.dists.Deterministic(p.page_io_time)],
                               "users": [ciw.dists.Exponential(1 / p.page_io_time)]},
        number_of_servers=[1],
        routing={"dump": ciw.routing.NetworkRouting([ciw.routing.Direct(1)]),
                 "users": ciw.routing.NetworkRouting([ciw.routing.Leave()])},
    )


def volume_model(params: ConcurrentParams, seed: int) -> dict[str, float]:
    """One replication of the Table 2 volume: the dump's page rate and the users' I/O response time.

    The dump's rate is the dedicated rate scaled by the share of the volume
    the dump still gets (its reads per second times the page time), so the
    slow-down applies to the whole dump, volume imbalance included.
    """
    p, seed = check_record("params", params, ConcurrentParams), check_seed(seed)
    _, records = run_ciw(volume_network(p), seed, p.run_time, p.warmup)
    done = records[records["service_end_date"] <= p.run_time]
    dump = done[done["customer_class"] == "dump"]
    users = done[done["customer_class"] == "users"]
    response = (users["waiting_time"] + users["service_time"]).mean() if len(users) else 0.0
    share = len(dump) * p.page_io_time / (p.run_time - p.warmup)
    return {"dump_pages_per_s": p.dedicated_rate * share, "user_io_response_s": float(response)}
