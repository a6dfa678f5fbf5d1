"""The Ciw pieces of an SVC dump: what one chunk costs at each resource, and where striping sends it.

The model cuts the dump into *chunks* of ``DumpParams.chunk_blocks`` blocks.
Each resource the document varies is one Ciw node, and what a chunk costs
there is one distribution class below:

* :class:`PageInTime`: the page-in node, one server per page data set
  (the document's number of page data sets);
* :class:`CaptureTime`: the capture node, one busy processor (the 90%-busy
  workload; SMS compression adds to it);
* :class:`StripeVolumeTime`: volume *k*, one server per stripe (ESS vs
  3390-3; the number of stripes);
* :class:`ChannelConnectTime`: the channel node, one server per path (ESCON
  vs FICON);
* :class:`StripedRoute`: the routing, SMS striping over the volumes.

The random times are Gamma distributions given by their mean and coefficient
of variation (:func:`perfstudies.networks.gamma_by_mean`); a chunk's time is
the sum of many I/Os, so its variation shrinks with the square root of their
number.  The means come from the per-I/O and per-block costs of
:mod:`.analytic`; the network builder computes them and passes them in.
"""

import math
import numbers

import ciw

from perfstudies.networks import gamma_by_mean


def _positive(owner: str, name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 < value < math.inf:
        raise ValueError(f"{owner}.{name} = {value!r} is out of range: allowed 0 < {name} < inf")
    return float(value)


def _non_negative(owner: str, name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value < math.inf:
        raise ValueError(f"{owner}.{name} = {value!r} is out of range: allowed 0 <= {name} < inf")
    return float(value)


class PageInTime(ciw.dists.Distribution):
    """Page-in of one paged-out chunk from a page data set: its page-in I/Os one after another.

    Mechanism: a chunk that was paged out must be read back before the dump
    can capture it; each page data set is one server, so extra page data sets
    let page-ins run in parallel.  Each page-in I/O is a random access to a
    3390-3 (seek, half a turn, the transfer of ``PAGE_BLOCKS_PER_IO`` blocks).
    Document: *Multiple Page Data sets, SMS Compression, ESCON vs FICON*
    (page data sets barely used with 13 GB of central storage, and possibly
    useful when storage is constrained).

    Parameters
    ----------
    page_ios : float
        Page-in I/Os per chunk.
    io_ms : float
        Mean time of one page-in I/O, in ms.
    io_cv : float
        Coefficient of variation of one page-in I/O.
    """

    def __init__(self, page_ios: float, io_ms: float, io_cv: float):
        self.page_ios = _positive("PageInTime", "page_ios", page_ios)
        self.io_ms = _positive("PageInTime", "io_ms", io_ms)
        self.io_cv = _positive("PageInTime", "io_cv", io_cv)
        self.cv = self.io_cv / math.sqrt(self.page_ios)
        self._gamma = gamma_by_mean(self.page_ios * self.io_ms / 1e3, 1.0 / self.cv**2)

    def __repr__(self):
        return f"PageInTime(page_ios={self.page_ios:g}, io_ms={self.io_ms:.4g}, io_cv={self.io_cv:g})"

    def sample(self, t=None, ind=None):
        return self._gamma.sample(t, ind)

    @property
    def mean(self) -> float:
        """Mean page-in time of one chunk, in s."""
        return self._gamma.mean


class CaptureTime(ciw.dists.Distribution):
    """Processor time of one chunk: the dump task capturing it (and compressing it, when SMS compression is on).

    Mechanism: the dump task copies each block into its buffers on a processor
    the workload keeps about 90% busy, so the time per block is a cost of its
    own (calibrated) and varies from chunk to chunk.  SMS compression adds
    processor time per block.  IPCS initialization is assumed to spend the
    same time per block, so its processor node uses this class too.
    Document: *Introduction* (the CICS/DB2 workload at about 90% busy) and
    *Multiple Page Data sets, SMS Compression, ESCON vs FICON* (compression;
    FICON, whose calibration sets the capture cost).

    Parameters
    ----------
    blocks : float
        Blocks in one chunk.
    us_per_block : float
        Processor time per block, in microseconds.
    cv : float
        Coefficient of variation of one chunk's processor time.
    """

    def __init__(self, blocks: float, us_per_block: float, cv: float):
        self.blocks = _positive("CaptureTime", "blocks", blocks)
        self.us_per_block = _positive("CaptureTime", "us_per_block", us_per_block)
        self.cv = _positive("CaptureTime", "cv", cv)
        self._gamma = gamma_by_mean(self.blocks * self.us_per_block / 1e6, 1.0 / self.cv**2)

    def __repr__(self):
        return f"CaptureTime(blocks={self.blocks:g}, us_per_block={self.us_per_block:.4g}, cv={self.cv:g})"

    def sample(self, t=None, ind=None):
        return self._gamma.sample(t, ind)

    @property
    def mean(self) -> float:
        """Mean processor time of one chunk, in s."""
        return self._gamma.mean


class StripeVolumeTime(ciw.dists.Distribution):
    """One stripe's volume writing (or, for IPCS, reading) one chunk: its I/Os one after another.

    Mechanism: SMS striping gives each stripe its own volume, one server
    each; a visit lasts the chunk's track I/Os, each a fixed turnaround, the
    wait for the data to come under the head (3390-3 only, uniform over one
    revolution) and the transfer.  An ESS write lands in its cache: no
    rotation, a link-speed transfer.  Document: *SMS Data set Striping
    Performance and IBM ESS vs IBM 3390-3* (two stripes, ESS vs 3390-3,
    the I/O response time ratio); *IPCS Initialization Time* (read back
    through the same volumes, assumed to cost what a write costs).

    Parameters
    ----------
    ios : float
        Track I/Os per chunk (fewer with compression).
    io_ms : float
        Mean time of one I/O, in ms.
    io_cv : float
        Coefficient of variation of one I/O.
    """

    def __init__(self, ios: float, io_ms: float, io_cv: float):
        self.ios = _positive("StripeVolumeTime", "ios", ios)
        self.io_ms = _positive("StripeVolumeTime", "io_ms", io_ms)
        self.io_cv = _positive("StripeVolumeTime", "io_cv", io_cv)
        self.cv = self.io_cv / math.sqrt(self.ios)
        self._gamma = gamma_by_mean(self.ios * self.io_ms / 1e3, 1.0 / self.cv**2)

    def __repr__(self):
        return f"StripeVolumeTime(ios={self.ios:.4g}, io_ms={self.io_ms:.4g}, io_cv={self.io_cv:.3g})"

    def sample(self, t=None, ind=None):
        return self._gamma.sample(t, ind)

    @property
    def mean(self) -> float:
        """Mean time of one chunk at its volume, in s."""
        return self._gamma.mean


class ChannelConnectTime(ciw.dists.Deterministic):
    """The time one chunk keeps a channel path busy (its connect time), the same for every chunk.

    Mechanism: every I/O crosses one of the channel paths shared by all the
    stripes.  ESCON is circuit switched: it holds its path for the whole
    transfer, at the pace of the slower end (a 3390-3's medium, or the link).
    FICON multiplexes frames: a path is busy only while the bytes cross the
    link.  Once the stripes together need more connect time than the paths
    offer, the channel sets the pace and more stripes stop helping.
    Document: *SMS Data set Striping Performance and IBM ESS vs IBM 3390-3*
    (the flattening beyond two stripes) and *Multiple Page Data sets, SMS
    Compression, ESCON vs FICON* (FICON vs ESCON).

    Parameters
    ----------
    ios : float
        Track I/Os per chunk.
    connect_ms : float
        Path-busy time of one I/O, in ms.
    """

    def __init__(self, ios: float, connect_ms: float):
        self.ios = _positive("ChannelConnectTime", "ios", ios)
        self.connect_ms = _non_negative("ChannelConnectTime", "connect_ms", connect_ms)
        super().__init__(self.ios * self.connect_ms / 1e3)

    def __repr__(self):
        return f"ChannelConnectTime(ios={self.ios:.4g}, connect_ms={self.connect_ms:.4g})"


class StripedRoute(ciw.routing.ProcessBased):
    """SMS striping: chunk *i* goes to the volume of stripe *i* mod *N*, then to a channel path.

    Mechanism: a striped data set spreads consecutive tracks over its
    volumes, so each volume receives every *N*-th chunk.  A chunk that starts
    at the page-in node (it was paged out) is captured first; a resident one
    starts at capture.  Document: *SMS Data set Striping Performance and
    IBM ESS vs IBM 3390-3*.

    Parameters
    ----------
    stripes : int
        Number of stripes (volumes).
    page, capture, first_volume, channel : int
        Node numbers of page-in, capture, the first stripe's volume and the
        channel paths (volumes are numbered consecutively).
    """

    def __init__(self, stripes: int, page: int, capture: int, first_volume: int, channel: int):
        if isinstance(stripes, bool) or not isinstance(stripes, numbers.Integral) or stripes < 1:
            raise ValueError(f"StripedRoute.stripes = {stripes!r} is out of range: allowed an integer >= 1")
        self.stripes, self.page, self.capture = int(stripes), page, capture
        self.first_volume, self.channel = first_volume, channel
        super().__init__(self.route)

    def __repr__(self):
        last = self.first_volume + self.stripes - 1
        return (f"StripedRoute(stripes={self.stripes}, volumes={self.first_volume}..{last}, "
                f"channel={self.channel})")

    def route(self, individual, simulation) -> list[int]:
        """The nodes ``individual`` visits after its first one."""
        volume = self.first_volume + (individual.id_number - 1) % self.stripes
        after_capture = [volume, self.channel]
        return [self.capture, *after_capture] if individual.starting_node == self.page else after_capture
