"""An infinite-server Ciw node that finds its next departure in logarithmic time.

Stock Ciw looks for the next end of service at an infinite-server node by
scanning every customer present, after every event anywhere in the network.
A think node holding a thousand terminals makes that the whole cost of a run.
:class:`DelayNode` keeps the service end dates in a heap instead; entries of
customers who have left are skipped lazily.

The next departure it reports is the one stock Ciw 3.2.7 finds
(``Node.update_next_end_service_without_server``): the earliest service end
among the customers present that are *not blocked* and whose service ends no
earlier than now, and on a tie every such customer in the order stock Ciw scans
them.  A customer blocked by a full queue downstream stays at the node
without finishing again until the downstream node releases it (then it leaves),
so its heap entry is dropped for good.  ``tests/test_delay.py`` checks the
records match stock Ciw's, in closed loops and in random open networks with
finite queues after the delay node.
"""

import heapq
import itertools
from math import isinf

from perfstudies.fifo import FIFONode


class DelayNode(FIFONode):
    """A :class:`~perfstudies.fifo.FIFONode` with a heap of departures when servers are infinite."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._departures = []
        self._pushed = itertools.count()  # breaks ties of (date, id) without comparing customers

    def accept(self, next_individual, completed=False):
        super().accept(next_individual, completed)
        if isinf(self.c):
            heapq.heappush(self._departures, (next_individual.service_end_date, next_individual.id_number,
                                              next(self._pushed), next_individual))

    def _ends_service(self, entry) -> bool:
        """Whether the customer of a heap entry is here and would end service in stock Ciw's scan."""
        date, _, _, individual = entry
        return (individual.node == self.id_number and individual.exit_date is False
                and not individual.is_blocked and individual.service_end_date == date and date >= self.now)

    def update_next_end_service_without_server(self):
        if not isinf(self.c) or self.slotted:
            super().update_next_end_service_without_server()
            return
        heap = self._departures
        while heap and not self._ends_service(heap[0]):
            heapq.heappop(heap)
        if not heap or isinf(heap[0][0]):  # stock Ciw reports no end of service at an infinite date
            return
        date = heap[0][0]
        leaving = [heap[0][3]]
        # the second-earliest entry is a child of the root; only on a tie scan, in stock Ciw's order
        if any(heap[child][0] == date for child in (1, 2) if child < len(heap)):
            leaving = [ind for ind in self.all_individuals
                       if not ind.is_blocked and ind.service_end_date == date]
        self.possible_next_events["end_service"] = (leaving, date)
