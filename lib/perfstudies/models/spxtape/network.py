"""The Ciw networks of SPTAPE and SPXTAPE, and ``model(params, seed)``.

Four shapes, one per command and function:

* SPXTAPE DUMP: one node per spool volume (1 server each, reading in parallel)
  feeds the *tape drives* node (``drives`` servers) whose waiting room is the
  real-memory buffer; when the buffer is full a volume that finished a read is
  blocked (Ciw's blocking), which is the system going idle.
* SPXTAPE LOAD: the tape drives node feeds a *spool file creation* node (one
  server: CP builds spool files one at a time) whose waiting room is the buffer,
  which feeds the volume nodes that write the pages.
* SPTAPE DUMP and LOAD: a single one-server node that does everything for one
  file at a time (read, write, tape mark), so nothing overlaps anything.

Tape changes happen in :class:`TapeDriveNode` when a drive's cartridge is full
(or, loading, exhausted): the change is part of that drive's service, so it
takes that drive away while the other nodes carry on.
"""

import math
from dataclasses import dataclass, field

import ciw

from perfstudies.fifo import FIFONode
from perfstudies.models.spxtape.params import SpxtapeParams
from perfstudies.models.spxtape.workload import Chunk, interleave, workload
from perfstudies.networks import closed_population
from perfstudies.runner import run_ciw

#: Gap between the arrivals that put every chunk in place at time ~0 (s).
PLACE_GAP = 1e-9
#: Simulated-time limit; every run ends far sooner, when the last chunk leaves.
HORIZON = 1e7
#: States of a drive in the tape log.
TRANSFERRING = "transferring"
CHANGING = "changing tape"


class ChunkStream(ciw.dists.Distribution):
    """Service time of a first node: hands each arriving customer its chunk, in order.

    The first node serves its customers first come first served, so the *k*-th
    service is the *k*-th chunk; the chunk is attached to the customer for the
    nodes downstream.
    """

    def __init__(self, chunks: list[Chunk], per_page: float, per_file: float, log: "TapeLog"):
        self.chunks = iter(chunks)
        self.per_page, self.per_file = per_page, per_file
        self.log = log

    def __deepcopy__(self, memo):
        # Ciw copies every distribution per node; a stream serves one node only,
        # so sharing it is safe and saves copying thousands of chunks per run
        return self

    def sample(self, t=None, ind=None):
        ind.chunk = next(self.chunks)
        self.log.pages[ind.id_number] = ind.chunk.pages
        return ind.chunk.pages * self.per_page + ind.chunk.files * self.per_file


class PerChunk(ciw.dists.Distribution):
    """Service time proportional to the pages and files of the customer's chunk."""

    def __init__(self, per_page: float, per_file: float = 0.0):
        self.per_page, self.per_file = per_page, per_file

    def sample(self, t=None, ind=None):
        return ind.chunk.pages * self.per_page + ind.chunk.files * self.per_file


@dataclass
class TapeLog:
    """What the drives did: pages on each mounted cartridge, (drive, state, start, end) segments,
    and the pages each customer carries."""

    capacity: float
    mark_pages: float
    change_time: float
    used: dict = field(default_factory=dict)
    pages: dict = field(default_factory=dict)  # customer id -> pages of its chunk
    segments: list = field(default_factory=list)  # (drive, state, start, end)


class TapeDriveNode(FIFONode):
    """Tape drives that change cartridge when the mounted one is full.

    A chunk's service is its transfer time, cut wherever the drive's cartridge
    fills; at each cut the drive spends ``change_time`` changing cartridge
    before it transfers the rest.  Tape space per chunk is its pages plus
    ``mark_pages`` per file (SPTAPE's tape marks; zero for SPXTAPE).
    The class attribute ``log`` is set per run by :func:`tape_node_class`.
    """

    log: TapeLog

    def get_service_time(self, ind):
        transfer = super().get_service_time(ind)
        drive = ind.server.id_number
        space = ind.chunk.pages + ind.chunk.files * self.log.mark_pages
        seconds_per_space = transfer / space if space else 0.0
        used = self.log.used.get(drive, 0.0)
        clock, remaining = self.now, space
        while used + remaining > self.log.capacity:
            fits = self.log.capacity - used
            clock = self._segment(drive, TRANSFERRING, clock, fits * seconds_per_space)
            clock = self._segment(drive, CHANGING, clock, self.log.change_time)
            remaining -= fits
            used = 0.0
        clock = self._segment(drive, TRANSFERRING, clock, remaining * seconds_per_space)
        self.log.used[drive] = used + remaining
        return clock - self.now

    def _segment(self, drive: int, state: str, start: float, length: float) -> float:
        if length > 0 or state == CHANGING:  # a change counts even when it takes no time
            self.log.segments.append((drive, state, start, start + length))
        return start + length


def tape_node_class(log: TapeLog) -> type:
    """A :class:`TapeDriveNode` subclass bound to this run's ``log``."""
    return type("TapeDrives", (TapeDriveNode,), {"log": log})


class ToChunkVolume(ciw.routing.NodeRouting):
    """Send a loaded chunk to the node of the spool volume its pages belong on."""

    def __init__(self, first_volume_node: int):
        self.first_volume_node = first_volume_node

    def next_node(self, ind):
        return self.simulation.nodes[self.first_volume_node + ind.chunk.volume]


def _arrivals(count: int):
    """All ``count`` customers of a node arrive at once (PLACE_GAP apart), then none."""
    return closed_population(count, PLACE_GAP).arrivals if count else None


def _buffer_chunks(p: SpxtapeParams, per_volume: list[list[Chunk]]) -> int:
    """The buffer as a number of chunks of this run's mean size (Ciw counts customers, not pages)."""
    chunks = [chunk.pages for chunks in per_volume for chunk in chunks]
    return int(p.buffer_pages // (sum(chunks) / len(chunks)))


def build(p: SpxtapeParams, seed: int) -> tuple[ciw.Network, list, TapeLog, dict]:
    """The Ciw network, node classes, tape log and node roles of one run.

    The roles map ``"volumes"``, ``"tape"`` and ``"create"`` to node numbers
    (1-based), so results can be read back by role.
    """
    per_volume = workload(p, seed)
    mark_pages = p.mark_pages if p.command == "SPTAPE" else 0.0
    log = TapeLog(p.tape_capacity_pages, mark_pages, p.change_time)
    tape = tape_node_class(log)
    if p.command == "SPTAPE":
        chunks = [chunk for chunks in per_volume for chunk in chunks]  # one volume at a time
        # dumping ends each file with a tape mark; loading creates each file in CP
        per_file = p.mark_time if p.function == "DUMP" else p.file_create_time
        stream = ChunkStream(chunks, p.page_io_time + p.tape_page_time, per_file, log)
        network = ciw.create_network(arrival_distributions=[_arrivals(len(chunks))],
                                     service_distributions=[stream], number_of_servers=[1],
                                     routing=ciw.routing.NetworkRouting([ciw.routing.Leave()]))
        return network, [tape], log, {"tape": [1], "volumes": [], "create": []}
    volumes = range(1, p.volumes + 1)
    if p.function == "DUMP":
        network = ciw.create_network(
            arrival_distributions=[_arrivals(len(c)) for c in per_volume] + [None],
            service_distributions=[ChunkStream(c, p.page_io_time, 0.0, log) for c in per_volume]
            + [PerChunk(p.tape_page_time)],
            number_of_servers=[1] * p.volumes + [p.drives],
            queue_capacities=[math.inf] * p.volumes + [_buffer_chunks(p, per_volume)],
            routing=ciw.routing.NetworkRouting([ciw.routing.Direct(p.volumes + 1) for _ in volumes]
                                               + [ciw.routing.Leave()]))
        return network, [FIFONode] * p.volumes + [tape], log, {
            "volumes": list(volumes), "tape": [p.volumes + 1], "create": []}
    on_tape = interleave(per_volume)
    network = ciw.create_network(
        arrival_distributions=[_arrivals(len(on_tape)), None] + [None] * p.volumes,
        service_distributions=[ChunkStream(on_tape, p.tape_page_time, 0.0, log), PerChunk(0.0, p.file_create_time)]
        + [PerChunk(p.page_io_time) for _ in volumes],
        number_of_servers=[p.drives, 1] + [1] * p.volumes,
        queue_capacities=[math.inf, _buffer_chunks(p, per_volume)] + [math.inf] * p.volumes,
        routing=ciw.routing.NetworkRouting([ciw.routing.Direct(2), ToChunkVolume(3)]
                                           + [ciw.routing.Leave() for _ in volumes]))
    return network, [tape, FIFONode] + [FIFONode] * p.volumes, log, {
        "tape": [1], "create": [2], "volumes": [v + 2 for v in volumes]}


def simulate(p: SpxtapeParams, seed: int):
    """Run one replication; return ``(records, tape log, roles)``."""
    network, node_classes, log, roles = build(p, seed)
    _, records = run_ciw(network, seed, HORIZON, node_class=node_classes)
    return records, log, roles
