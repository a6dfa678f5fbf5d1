"""The 580/MDF mechanism as Ciw classes: domain-bound distributions and the 4705's routing.

Ciw asks a distribution for a duration at the moment an arrival or a service
begins (``sample(t=now)``).  Wrapping an ordinary distribution with a domain's
:class:`~perfstudies.models.mdf.params.Windows` turns it into the 580/MDF
mechanism without any scheduling events, so a run costs the same as an
unsliced one:

* :class:`DomainArrivals`: a domain issues I/O requests (or starts CPU work)
  only while it is dispatched;
* :class:`HeldCompletion`: a device (or the 4705 channel) is started only
  while its domain runs, transfers independently of the processors, and then
  stays busy until its domain is dispatched again and clears the completion
  interrupt.  This is the held interrupt of the document's Figure 1;
* :class:`DomainWork`: CPU work progresses only while its domain runs;
* :class:`FrontEndRouting`: the 4705 carries each transaction's message in and
  its reply out, through the same queue.

The inner distributions draw from Ciw's seeded streams, so runs stay
reproducible.
"""

import ciw

from perfstudies.models.mdf.params import Windows

#: Node numbers of the IMS network (Ciw counts from 1).
TERMINALS, FRONT_END, PROCESSORS, DATABASE_IO = 1, 2, 3, 4


class DomainArrivals(ciw.dists.Distribution):
    """Poisson requests at ``rate`` per wall-clock second, issued only inside the windows.

    Section 5.0: while a domain is dispatched one of its CPUs handles
    interrupts and "the other CPU is quite capable of issuing new I/O
    requests"; while it is not dispatched nothing in it runs, so it issues
    none.  The requests keep the device's published activity rate by being
    issued at ``rate / fraction`` during the domain's own time.
    """

    def __init__(self, rate: float, windows: Windows):
        self.rate = rate
        self.windows = windows
        self.inner = ciw.dists.Exponential(rate / windows.fraction)

    def __repr__(self):
        return f"DomainArrivals(rate={self.rate!r}, windows={self.windows!r})"

    def sample(self, t=None, ind=None):
        return self.windows.stretch(t, self.inner.sample()) - t


class HeldCompletion(ciw.dists.Distribution):
    """Start when the domain runs, transfer for ``hardware``, hold until the domain runs again.

    Section 1.0 (second observation) and Figure 1: an I/O that completes while
    its domain is not dispatched stays pending until the domain's next time
    slice; Section 4.0: IOS counts the device busy from SSCH until the
    interrupt is cleared, so requests issued meanwhile queue in IOSQ;
    Section 5.0: the delay is the part of the other domain's slice not
    overlapped by the transfer (t3 - t2) plus the domain switch.  The 4705's
    channel exchanges are held the same way (Section 7.0, Table 3: messages
    "processed in surges").
    """

    def __init__(self, hardware: ciw.dists.Distribution, windows: Windows):
        self.hardware = hardware
        self.windows = windows

    def __repr__(self):
        return f"HeldCompletion(hardware={self.hardware!r}, windows={self.windows!r})"

    def sample(self, t=None, ind=None):
        start = self.windows.next_dispatch(t)
        return self.windows.next_dispatch(start + self.hardware.sample()) - t


class DomainWork(ciw.dists.Distribution):
    """CPU work of ``work`` seconds that advances only inside the windows.

    Section 1.0: domains get the hardware in fixed time-slice allocations, and
    580/MDF does not preempt a running domain; Section 7.0 and Table 4: the
    CPU-bound TSO commands (and the IMS transactions of Table 3) progress only
    during their own domain's slices.
    """

    def __init__(self, work: ciw.dists.Distribution, windows: Windows):
        self.work = work
        self.windows = windows

    def __repr__(self):
        return f"DomainWork(work={self.work!r}, windows={self.windows!r})"

    def sample(self, t=None, ind=None):
        return self.windows.stretch(t, self.work.sample()) - t


class FrontEndRouting(ciw.routing.NodeRouting):
    """At the 4705 a message goes on to IMS; the reply that comes back goes to its terminal.

    Section 7.0 and Table 3: the TPNS queue (a terminal waiting to send) and
    the IMS output queue (a reply waiting for VTAM) both wait for the 4705, so
    one front-end node carries every transaction twice.  Each customer carries
    which way it goes next (``mdf_outbound``), flipped on every pass.
    """

    def __repr__(self):
        return "FrontEndRouting()"

    def next_node(self, ind):
        outbound = getattr(ind, "mdf_outbound", False)
        ind.mdf_outbound = not outbound
        return self.simulation.nodes[TERMINALS if outbound else PROCESSORS]
