"""Ciw distributions that know about domain time slices.

Ciw asks a distribution for a duration at the moment an arrival or a service
begins (``sample(t=now)``).  Wrapping an ordinary distribution with a domain's
:class:`~perfstudies.models.mdf.slices.Windows` turns it into the 580/MDF
mechanism without any scheduling events, so a run costs the same as an
unsliced one:

* :class:`DomainArrivals`: a domain issues I/O requests (or starts CPU work)
  only while it is dispatched;
* :class:`HeldCompletion`: a device (or the 4705 channel) is started only
  while its domain runs, transfers independently of the processors, and then
  stays busy until its domain is dispatched again and clears the completion
  interrupt.  This is the held interrupt of the document's Figure 1;
* :class:`DomainWork`: CPU work progresses only while its domain runs.

The inner distributions draw from Ciw's seeded streams, so runs stay
reproducible.
"""

import ciw

from perfstudies.models.mdf.slices import Windows


class DomainArrivals(ciw.dists.Distribution):
    """Poisson requests at ``rate`` per wall-clock second, issued only inside the windows."""

    def __init__(self, rate: float, windows: Windows):
        self.windows = windows
        self.inner = ciw.dists.Exponential(rate / windows.fraction)

    def sample(self, t=None, ind=None):
        return self.windows.stretch(t, self.inner.sample()) - t


class HeldCompletion(ciw.dists.Distribution):
    """Start when the domain runs, transfer for ``hardware``, hold until the domain runs again."""

    def __init__(self, hardware: ciw.dists.Distribution, windows: Windows):
        self.hardware = hardware
        self.windows = windows

    def sample(self, t=None, ind=None):
        start = self.windows.next_dispatch(t)
        return self.windows.next_dispatch(start + self.hardware.sample()) - t


class DomainWork(ciw.dists.Distribution):
    """CPU work of ``work`` seconds that advances only inside the windows."""

    def __init__(self, work: ciw.dists.Distribution, windows: Windows):
        self.work = work
        self.windows = windows

    def sample(self, t=None, ind=None):
        return self.windows.stretch(t, self.work.sample()) - t
