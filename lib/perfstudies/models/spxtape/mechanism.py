"""Every Ciw subclass of the SPXTAPE study: the mechanisms the report names, one class each.

==================  ===============================================  ==========================================
class               mechanism                                        passage of *SPXTAPE Performance*
==================  ===============================================  ==========================================
``ChunkStream``     the spool files, read (or re-created) in order   Measurement Discussion (34,000 files on
                    by a first node                                  four spool volumes)
``PerChunk``        device time proportional to pages and files      Measurement Discussion; Table 1
``FileCreation``    CP creating each loaded spool file, one at a     Measurement Discussion (the files were
                    time, at a processor cost per file               purged, then loaded back); Table 1's
                                                                     LOAD processor time
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
    segments, the pages each customer carries, and the processor time spent creating spool files."""

    capacity: float
    mark_pages: float
    change_time: float
    created_cpu_s: float = 0.0  # processor seconds CP spent creating spool files (a load)
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
    When it creates the files (SPTAPE's load), each costs ``cpu_per_file``
    processor seconds, added to the log as :class:`FileCreation` adds them.
    """

    def __init__(self, chunks: list[Chunk], per_page: float, per_file: float, log: TapeLog,
                 cpu_per_file: float = 0.0):
        self.count = len(chunks)
        self.chunks = iter(chunks)
        self.per_page, self.per_file = per_page, per_file
        self.cpu_per_file = cpu_per_file
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
        self.log.created_cpu_s += ind.chunk.files * self.cpu_per_file
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


class FileCreation(PerChunk):
    """CP creating the spool files of a loaded chunk, one file at a time.

    SPXTAPE LOAD puts back 34,000 spool files that were purged before the load
    (Measurement Discussion), so CP builds each one again: ``per_file``
    seconds of the creation node per file (the load's pacing, calibrated on
    its elapsed time) of which ``cpu_per_file`` are processor time (calibrated
    on the load's processor time, 902 s against the 2-drive dump's 79 s for
    the same pages: the dump reads files that exist, the load makes them).
    Each service adds its files' processor time to the run's
    :class:`TapeLog`, which :func:`.metrics.run_metrics` reports beside the
    per-page processor time every dump and load pays.
    """

    def __init__(self, per_file: float, cpu_per_file: float, log: TapeLog):
        super().__init__(0.0, per_file)
        self.cpu_per_file, self.log = cpu_per_file, log

    def __repr__(self):
        return f"FileCreation(per_file={self.per_file!r}, cpu_per_file={self.cpu_per_file!r})"

    def __deepcopy__(self, memo):
        # Ciw copies every distribution per node; this one serves the creation node only and must
        # write to the run's own log, not to a copy of it
        return self

    def sample(self, t=None, ind=None):
        self.log.created_cpu_s += ind.chunk.files * self.cpu_per_file
        return super().sample(t, ind)


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
