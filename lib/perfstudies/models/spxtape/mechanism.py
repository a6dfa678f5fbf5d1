"""Every Ciw subclass of the SPXTAPE study: the mechanisms the report names, one class each.

==================  ===============================================  ==========================================
class               mechanism                                        passage of *SPXTAPE Performance*
==================  ===============================================  ==========================================
``ChunkStream``     the spool files, read (or re-created) in order   Measurement Discussion (34,000 files on
                    by a first node                                  four spool volumes)
``PerChunk``        device time proportional to pages and files      Measurement Discussion; Table 1
``TapeDriveNode``   drives that change cartridge when one is full,   "Tape change time was observed to require
                    losing that drive for the change                 about 1 minute"; factors 1 and 2 of the
                                                                     System Idle Time discussion
``ToChunkVolume``   a loaded chunk goes back to its own spool volume Measurement Discussion (LOAD onto the same
                                                                     four spool volumes)
==================  ===============================================  ==========================================

The memory buffer (factor 3 of the same discussion) is no class of its own: it
is the finite waiting room of the node behind it (:mod:`.network`), and Ciw's
blocking is the system falling idle.  :class:`TapeLog` is the per-run state
the drives write to; :func:`perfstudies.networks.with_state` binds it to
:class:`TapeDriveNode` for one run.
"""

from dataclasses import dataclass, field

import ciw

from perfstudies.fifo import FIFONode
from perfstudies.models.spxtape.workload import Chunk

#: States of a drive in the tape log.
TRANSFERRING = "transferring"
CHANGING = "changing tape"


@dataclass
class TapeLog:
    """What the drives did in one run: pages on each mounted cartridge, (drive, state, start, end)
    segments, and the pages each customer carries."""

    capacity: float
    mark_pages: float
    change_time: float
    used: dict = field(default_factory=dict)
    pages: dict = field(default_factory=dict)  # customer id -> pages of its chunk
    segments: list = field(default_factory=list)  # (drive, state, start, end)


class ChunkStream(ciw.dists.Distribution):
    """Service time of a first node that hands each arriving customer its chunk, in order.

    The spool files of the Measurement Discussion (34,000 files, 353,000 pages
    on four spool volumes), cut into chunks by :mod:`.workload`.  The first
    node serves its customers first come first served, so the *k*-th service
    is the *k*-th chunk; the chunk is attached to the customer for the nodes
    downstream.  Its time is ``per_page`` per page plus ``per_file`` per file
    that starts in the chunk (SPTAPE's tape mark, or a spool file's creation).
    """

    def __init__(self, chunks: list[Chunk], per_page: float, per_file: float, log: TapeLog):
        self.count = len(chunks)
        self.chunks = iter(chunks)
        self.per_page, self.per_file = per_page, per_file
        self.log = log

    def __repr__(self):
        return f"ChunkStream(chunks={self.count}, per_page={self.per_page!r}, per_file={self.per_file!r})"

    def __deepcopy__(self, memo):
        # Ciw copies every distribution per node; a stream serves one node only,
        # so sharing it is safe and saves copying thousands of chunks per run
        return self

    def sample(self, t=None, ind=None):
        ind.chunk = next(self.chunks)
        self.log.pages[ind.id_number] = ind.chunk.pages
        return ind.chunk.pages * self.per_page + ind.chunk.files * self.per_file


class PerChunk(ciw.dists.Distribution):
    """Service time proportional to the pages and files of the customer's chunk.

    A spool volume's page I/O, a drive's 3 MB/s transfer and CP's creation of
    a spool file per file loaded (Measurement Discussion; Table 1's SPXTAPE
    LOAD, paced by creating the files one at a time).
    """

    def __init__(self, per_page: float, per_file: float = 0.0):
        self.per_page, self.per_file = per_page, per_file

    def __repr__(self):
        return f"PerChunk(per_page={self.per_page!r}, per_file={self.per_file!r})"

    def sample(self, t=None, ind=None):
        return ind.chunk.pages * self.per_page + ind.chunk.files * self.per_file


class TapeDriveNode(FIFONode):
    """Tape drives that change cartridge when the mounted one is full.

    The report's tape change ("observed to require about 1 minute", Measurement
    Discussion) and its first two factors of the System Idle Time discussion:
    fewer tapes mean fewer changes, and with two or more drives the others go
    on while one changes.  A chunk's service is its transfer time, cut
    wherever the drive's cartridge fills; at each cut the drive spends
    ``change_time`` changing cartridge before it transfers the rest.  Tape
    space per chunk is its pages plus ``mark_pages`` per file (SPTAPE's tape
    marks, "SPTAPE writes a tape mark between each backed up spool file";
    zero for SPXTAPE).  The run's :class:`TapeLog` is bound with
    ``networks.with_state(TapeDriveNode, log=log)``.
    """

    log: TapeLog

    def __repr__(self):
        return (f"TapeDriveNode(drives={self.c!r}, capacity_pages={self.log.capacity!r}, "
                f"change_time={self.log.change_time!r})")

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


class ToChunkVolume(ciw.routing.NodeRouting):
    """Send a loaded chunk to the node of the spool volume its pages belong on.

    SPXTAPE LOAD writes each file back to the spool volumes (Measurement
    Discussion: the files were loaded onto the same four volumes they were
    dumped from), so each volume node gets its own files' pages.
    """

    def __init__(self, first_volume_node: int):
        self.first_volume_node = first_volume_node

    def __repr__(self):
        return f"ToChunkVolume(first_volume_node={self.first_volume_node!r})"

    def next_node(self, ind):
        return self.simulation.nodes[self.first_volume_node + ind.chunk.volume]
