"""A faster Ciw: a simulation that re-dates only the nodes an event touched.

After every event stock :class:`ciw.Simulation` asks *every* node for the date
of its next event (``Node.update_next_event_date``) and then scans all of them
for the earliest.  Most events touch one or two nodes, so most of that work
recomputes dates that cannot have changed.  :class:`Simulation` keeps each
node's next event date in a heap and, after an event, re-dates only

* the node that had the event,
* the nodes whose ``accept`` or ``release`` ran during it (the only ways
  Ciw's own code changes another node's state), and
* every node that is not an engine :class:`Node`, or that the engine does not
  track (a slotted schedule, whose next service depends on the clock; class
  changes while waiting), after every event, exactly as stock Ciw does.

Simultaneous events are resolved as Ciw resolves them: the nodes whose next
date is the earliest, in Ciw's node order, and one of them drawn with
``ciw.random_choice`` when there are several, so the random streams are
consumed exactly as in stock Ciw.

:class:`Node` (the base of :class:`perfstudies.fifo.FIFONode`, so of every
study's nodes) also computes the usual next event date (a fixed number of
servers, no schedule, reneging or class change) in one pass over its servers,
and, in the usual case, runs Ciw's ``finish_service``, ``release`` and
``accept`` with their helpers written inline; :class:`ArrivalNode` does the
same for arrivals.  Anything unusual (schedules, pre-emption, reneging, class
changes, deadlock detection, a state tracker, a subclass overriding one of the
inlined helpers) runs Ciw's own methods.  ``simulate_until_max_time`` runs its
events in one loop, with the heap's steps written in and an end of service
handed straight to ``finish_service`` where Ciw's ``have_event`` would do just
that (Ciw's other loops still call ``event_and_return_nextnode``).

The records, the random streams and the end state are identical to stock
Ciw 3.2.7's (any other Ciw release is refused): ``tests/test_engine.py``
compares them on random networks, on each study's shape, on every Ciw feature
and on each study's default run; ``check_events=True`` re-dates every node
after every event and raises if a kept date was stale (use it to test a new
node class); and Ciw's own test suite passes on the engine
(:mod:`perfstudies.engine.ciw_suite`).

A node subclass keeps the engine's one contract: its next event date changes
only through its own events, ``accept`` and ``release``.  One whose date
depends on the clock, or that changes another node directly, returns False
from :meth:`Node.engine_trackable`.

Modules: :mod:`~perfstudies.engine.node` (the node classes),
:mod:`~perfstudies.engine.simulation` (the event loop and its heap),
:mod:`~perfstudies.engine.ciw_suite` (Ciw's test suite on the engine).
"""

from perfstudies.engine.node import ArrivalNode, Node
from perfstudies.engine.simulation import MAX_EVENT_BUDGET, SUPPORTED_CIW, EventBudgetExceeded, Simulation

__all__ = ["ArrivalNode", "EventBudgetExceeded", "MAX_EVENT_BUDGET", "Node", "SUPPORTED_CIW", "Simulation"]
