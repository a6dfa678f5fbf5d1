"""The study's Ciw pieces: how long one customer holds one VTS resource.

Every node of the VTS network is a plain first-come-first-served Ciw node; what
is particular to the VTS is the service time a customer (a chunk of host data,
or a whole volume for a recall) draws at each resource.  Three distributions hold
it, each built by :mod:`.network` from the demands of :mod:`.analytic`:

* :class:`WorkService`: the work a chunk costs a resource, Gamma distributed;
  at the cache the work is shared by all disk arms at once (striping);
* :class:`CopyService`: a chunk of sustained write at a tape drive during
  copy-out, a fixed write time plus its share of the mount its volume costs;
* :class:`RecallService`: a recall at a tape drive, a fixed transfer time for the
  volume plus a random mount and search.

The two drive services share one shape, :class:`FixedPlusGamma`.
"""

import math

import ciw

from perfstudies.models.vts.params import SERVICE_SHAPE
from perfstudies.networks import gamma_by_mean

# SERVICE_SHAPE, the Gamma shape of every random service time (declared in .params, whose time floor
# depends on it): coefficient of variation 1/sqrt(4) = 0.5.  One customer aggregates many block and
# track operations, so it varies less than an exponential time would.


class WorkService(ciw.dists.Distribution):
    """The time one customer's work occupies a resource: Gamma with mean ``work_s / speedup``.

    Mechanism: every host megabyte costs each resource a fixed amount of work
    (the service demands of Secs. 3.1-3.5, summed in :mod:`.analytic`); a chunk
    of ``size_mb`` host MB costs ``size_mb`` times that.  ``speedup`` divides
    the time when all servers of a resource work on one customer together: the
    tape volume cache stripes every volume across all its RAID-5 disk arms
    (Sec. 2, Fig. 2: "Data is striped across all the RAID units"), so the cache
    is one server as fast as all its arms.  Other resources give a customer one
    server (``speedup`` 1).

    Parameters
    ----------
    resource : str
        The resource's name (for the ``repr``).
    work_s : float
        Mean work of one customer at one server, in seconds (> 0).
    speedup : float
        Servers sharing the customer (>= 1).
    shape : float
        Gamma shape (default :data:`SERVICE_SHAPE`).

    Examples
    --------
    >>> WorkService("cache", work_s=1.5, speedup=3.0)
    WorkService(resource='cache', work_s=1.5, speedup=3.0, shape=4.0)
    >>> WorkService("cache", work_s=1.5, speedup=3.0).mean
    0.5
    """

    def __init__(self, resource: str, work_s: float, speedup: float = 1.0, shape: float = SERVICE_SHAPE):
        if not (isinstance(speedup, (int, float)) and 1.0 <= speedup < math.inf):
            raise ValueError(f"speedup = {speedup!r} is out of range: allowed 1 <= speedup < inf")
        self.resource = resource
        self.work_s = work_s
        self.speedup = speedup
        self.shape = shape
        self.time = gamma_by_mean(work_s / speedup, shape)

    def __repr__(self):
        return (f"WorkService(resource={self.resource!r}, work_s={self.work_s!r}, speedup={self.speedup!r}, "
                f"shape={self.shape!r})")

    def sample(self, t=None, ind=None):
        return self.time.sample(t, ind)

    @property
    def mean(self):
        return self.time.mean

    @property
    def variance(self):
        return self.time.variance

    @property
    def upper_limit(self):
        return math.inf

    @property
    def lower_limit(self):
        return 0.0


class FixedPlusGamma(ciw.dists.Distribution):
    """A drive's hold of a customer: a fixed data transfer plus a Gamma term for the cartridge work.

    The shape both drive services share (:class:`RecallService`, :class:`CopyService`): the
    transfer is set by the data's size at the drive's native rate; the mount (and, for a
    recall, the search) varies, so it is one Gamma term with mean ``gamma_mean_s``.

    Parameters
    ----------
    transfer_s : float
        The fixed transfer time (>= 0).
    gamma_mean_s : float
        Mean of the Gamma term (> 0).
    shape : float
        Gamma shape of that term (default :data:`SERVICE_SHAPE`).

    Examples
    --------
    >>> FixedPlusGamma(transfer_s=1.0, gamma_mean_s=2.0).mean
    3.0
    """

    def __init__(self, transfer_s: float, gamma_mean_s: float, shape: float = SERVICE_SHAPE):
        if not (isinstance(transfer_s, (int, float)) and 0.0 <= transfer_s < math.inf):
            raise ValueError(f"transfer_s = {transfer_s!r} is out of range: allowed 0 <= transfer_s < inf")
        self.transfer_s = transfer_s
        self.gamma_mean_s = gamma_mean_s
        self.shape = shape
        self.gamma = gamma_by_mean(gamma_mean_s, shape)

    def __repr__(self):
        return (f"FixedPlusGamma(transfer_s={self.transfer_s!r}, gamma_mean_s={self.gamma_mean_s!r}, "
                f"shape={self.shape!r})")

    def sample(self, t=None, ind=None):
        return self.transfer_s + self.gamma.sample(t, ind)

    @property
    def mean(self):
        return self.transfer_s + self.gamma.mean

    @property
    def variance(self):
        return self.gamma.variance

    @property
    def upper_limit(self):
        return math.inf

    @property
    def lower_limit(self):
        return self.transfer_s


class RecallService(FixedPlusGamma):
    """One recall at a 3590 tape drive: a fixed transfer plus a random mount and search.

    Mechanism: a read miss must bring the whole volume from tape into the
    cache before the host sees "ready" (Secs. 3.2.2 and 3.4, Fig. 6), so a
    drive is held for a cartridge mount, a search along the tape (about 21 s,
    Sec. 7) and the transfer of the compressed volume at the drive's native
    rate.  The transfer is set by the volume's size; the mount and the search
    vary, so they are one Gamma term with mean ``overhead_s``.

    Parameters
    ----------
    transfer_s : float
        Time to read the volume from tape (>= 0).
    overhead_s : float
        Mean of the mount-and-search time (> 0).
    shape : float
        Gamma shape of the mount-and-search time (default :data:`SERVICE_SHAPE`).

    Examples
    --------
    >>> RecallService(transfer_s=40.0, overhead_s=50.0)
    RecallService(transfer_s=40.0, overhead_s=50.0, shape=4.0)
    >>> RecallService(transfer_s=40.0, overhead_s=50.0).mean
    90.0
    """

    def __init__(self, transfer_s: float, overhead_s: float, shape: float = SERVICE_SHAPE):
        super().__init__(transfer_s, overhead_s, shape)
        self.overhead_s = overhead_s

    def __repr__(self):
        return f"RecallService(transfer_s={self.transfer_s!r}, overhead_s={self.overhead_s!r}, shape={self.shape!r})"


class CopyService(FixedPlusGamma):
    """A chunk's copy from the cache to a 3590 drive: a fixed write plus its share of its volume's mount.

    Mechanism: in sustained write every volume the host completes is copied to
    tape (Sec. 2: "Once a complete tape volume is received in TVC, it is
    scheduled for copying"), and the copy is approximately the reverse of a
    recall (Secs. 3 and 3.2.2), which mounts a cartridge for each volume.  So a
    volume copied out costs its drive one mount (``mount_s``, calibrated on
    Table 1's recall) and the write of the compressed volume at the drive's
    native rate.  A customer is a chunk of ``chunk_mb`` host MB, so it carries
    ``chunk_mb / volume_mb`` of its volume's mount: the mean of the
    drive's time per volume is kept, spread over the volume's chunks (a fluid
    approximation of one long mount every ``volume_mb / chunk_mb`` chunks).

    The mount is paid per volume, and a volume is the same 800 host MB at any
    compressibility, so this is the part of the drives' work that compression
    does not shrink: it caps PAF sustained write near ``drives x volume /
    mount_s`` (Sec. 3.5.3: not sensitive to compression above CF 3).

    Parameters
    ----------
    transfer_s : float
        Time to write the chunk's compressed data (>= 0).
    mount_share_s : float
        Mean of the chunk's share of the mount (> 0).
    shape : float
        Gamma shape of the mount share (default :data:`SERVICE_SHAPE`).

    Examples
    --------
    >>> CopyService(transfer_s=0.3, mount_share_s=0.7)
    CopyService(transfer_s=0.3, mount_share_s=0.7, shape=4.0)
    >>> CopyService(transfer_s=0.3, mount_share_s=0.7).mean
    1.0
    """

    def __init__(self, transfer_s: float, mount_share_s: float, shape: float = SERVICE_SHAPE):
        super().__init__(transfer_s, mount_share_s, shape)
        self.mount_share_s = mount_share_s

    def __repr__(self):
        return (f"CopyService(transfer_s={self.transfer_s!r}, mount_share_s={self.mount_share_s!r}, "
                f"shape={self.shape!r})")
