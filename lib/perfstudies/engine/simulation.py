"""The engine's simulation: Ciw's event loop with a heap of node dates.

See :mod:`perfstudies.engine` for what is re-dated after an event and why
the records are Ciw's.
"""

import contextlib
import heapq
import numbers
from math import inf

import ciw
from ciw.auxiliary import random_choice
from ciw.trackers import StateTracker

from perfstudies.engine.node import ArrivalNode, Node

#: The Ciw release whose internals this engine mirrors; any other is refused.
SUPPORTED_CIW = "3.2.7"
#: Largest event budget a simulation may be given (``max_events``); a run has a bound or none.
MAX_EVENT_BUDGET = 10**12


class EventBudgetExceeded(ValueError):
    """A run passed its event budget (``max_events``) and was stopped.

    A ``ValueError`` whose message names the budget and the fields that set the
    run's length (``budget_names``), so the caller knows what to change.
    ``events`` is the number of events carried out, ``time`` the simulated
    time reached.
    """

    def __init__(self, message: str, events: int, time: float):
        super().__init__(message)
        self.events = events
        self.time = time

    def __reduce__(self):
        # the pickle a worker process sends back: its own arguments, not ValueError's one
        return type(self), (str(self), self.events, self.time)


class Simulation(ciw.Simulation):
    """A :class:`ciw.Simulation` with an event heap; same arguments, same records.

    Parameters
    ----------
    network : ciw.Network
    check_events : bool
        Re-date every node after every event, as stock Ciw does, and raise
        ``AssertionError`` if a date the engine had kept was stale (slow; for
        tests of new node classes).
    max_events : int, optional
        The run's event budget: ``simulate_until_max_time`` and
        ``simulate_until_max_customers`` stop and raise
        :class:`EventBudgetExceeded` before carrying out event
        ``max_events + 1`` (1 <= max_events <= :data:`MAX_EVENT_BUDGET`;
        None, the default, is no bound).  A run within its budget is untouched:
        same records, same random streams.
    budget_names : tuple of str
        What sets the run's length, named in the error (for example
        ``("VTSParams.completions = 4000",)``); empty by default.
    **kwargs
        Passed to :class:`ciw.Simulation` (``node_class``, ``tracker``, ...).

    Examples
    --------
    >>> import ciw
    >>> from perfstudies.fifo import FIFONode
    >>> net = ciw.create_network(
    ...     arrival_distributions=[ciw.dists.Exponential(1.0)],
    ...     service_distributions=[ciw.dists.Exponential(2.0)],
    ...     number_of_servers=[1])
    >>> ciw.seed(1)
    >>> sim = Simulation(net, node_class=FIFONode)
    >>> sim.simulate_until_max_time(10.0)
    """

    def __init__(self, network, *args, check_events: bool = False, max_events: int | None = None,
                 budget_names: tuple = (), **kwargs):
        self.max_events = _checked_budget(max_events)
        self.budget_names = _checked_names(budget_names)
        #: Events carried out by the last ``simulate_until_*`` call.
        self.events_done = 0
        if ciw.__version__ != SUPPORTED_CIW:
            raise RuntimeError(f"perfstudies.engine mirrors Ciw {SUPPORTED_CIW} and Ciw {ciw.__version__} is "
                               "installed: pin Ciw, or check tests/test_engine.py against the new release and "
                               "update engine.SUPPORTED_CIW")
        self._touched: list = []
        kwargs.setdefault("arrival_node_class", ArrivalNode)
        super().__init__(network, *args, **kwargs)
        self.check_events = bool(check_events)
        for index, node in enumerate(self.active_nodes):
            node.engine_index = index
        tracked = [node for node in self.transitive_nodes if isinstance(node, Node) and node.engine_trackable()]
        for node in tracked:
            node.engine_adopt(self._touched)
        self._untracked = [node for node in self.transitive_nodes if node not in tracked]
        self._arrival = self.nodes[0]
        self._resync()

    # --- the heap -------------------------------------------------------------------------
    def _resync(self):
        """Rebuild the heap from every node's date; the next event re-dates every node."""
        self._dates = [node.next_event_date for node in self.active_nodes]
        self._versions = [0] * len(self._dates)
        for node, date in zip(self.active_nodes, self._dates):
            _check_date(node, date)
        self._heap = [(date, index, 0) for index, date in enumerate(self._dates) if date < inf]
        heapq.heapify(self._heap)
        self._heap_limit = 2 * len(self._dates) + 64
        self._redate_all = True

    def find_next_active_node(self):
        """Ciw's next active node, from every node's current date (as at the start of a run)."""
        self._resync()
        return self._next_active_node()

    def _next_active_node(self):
        heap = self._heap
        versions = self._versions
        while heap and versions[heap[0][1]] != heap[0][2]:
            heapq.heappop(heap)
        if not heap:  # every date is infinite: stock Ciw draws among all nodes
            return self._choose(list(self.active_nodes))
        date, index, _ = heap[0]
        size = len(heap)
        if (size > 1 and heap[1][0] == date) or (size > 2 and heap[2][0] == date):
            return self._choose(self._tied(date))  # the second-earliest entry is a child of the root
        return self.active_nodes[index]

    def _tied(self, date) -> list:
        """Every node whose date is ``date``, in Ciw's node order."""
        heap = self._heap
        entries = []
        while heap and heap[0][0] == date:
            entry = heapq.heappop(heap)
            if self._versions[entry[1]] == entry[2]:
                entries.append(entry)
        for entry in entries:
            heapq.heappush(heap, entry)
        return [self.active_nodes[entry[1]] for entry in entries]

    @staticmethod
    def _choose(nodes):
        if len(nodes) > 1:
            return random_choice(nodes)
        return nodes[0]

    def _compact(self):
        """Drop stale entries (a node whose date moves often leaves many behind)."""
        versions = self._versions
        self._heap[:] = [entry for entry in self._heap if versions[entry[1]] == entry[2]]
        heapq.heapify(self._heap)

    # --- events ---------------------------------------------------------------------------
    def event_and_return_nextnode(self, next_active_node):
        """Carry out ``next_active_node``'s event, re-date what it touched, return the next node."""
        next_active_node.have_event()
        if self._redate_all:  # the first event of a run: stock Ciw re-dates every node
            self._redate_all = False
            self._touched.clear()
            for node in self.transitive_nodes:
                node.update_next_event_date()
            for node in self.active_nodes:
                self._moved(node)
        else:
            # written out rather than factored: this runs once per event
            touched = self._touched
            dates = self._dates
            if next_active_node.engine_index:
                touched.append(next_active_node)
            for node in set(touched) if len(touched) > 1 else touched:
                node.update_next_event_date()
                if node.next_event_date != dates[node.engine_index]:
                    self._moved(node)
            touched.clear()
            for node in self._untracked:
                node.update_next_event_date()
                if node.next_event_date != dates[node.engine_index]:
                    self._moved(node)
            if self._arrival.next_event_date != dates[0]:
                self._moved(self._arrival)
            if len(self._heap) > self._heap_limit:
                self._compact()
        if self.check_events:
            self._check_dates()
        return self._next_active_node()

    def _moved(self, node):
        """Record ``node``'s new date: a new heap entry, and the old one goes stale."""
        index = node.engine_index
        date = node.next_event_date
        if date != self._dates[index]:
            _check_date(node, date)
            self._dates[index] = date
            self._versions[index] += 1
            if date < inf:
                heapq.heappush(self._heap, (date, index, self._versions[index]))

    def simulate_until_max_time(self, max_simulation_time, progress_bar=False):
        """Ciw's ``simulate_until_max_time``; the stock state tracker's no-op timestamps are skipped.

        Raises :class:`EventBudgetExceeded` when the run would pass ``max_events``.
        """
        if progress_bar or type(self.statetracker) is not StateTracker:
            with self._counting(f"max_time = {max_simulation_time!r}"):
                super().simulate_until_max_time(max_simulation_time, progress_bar)
            return
        next_active_node = self.find_next_active_node()
        self.current_time = next_active_node.next_event_date
        budget = self.max_events if self.max_events is not None else MAX_EVENT_BUDGET
        left = budget
        if self.current_time < max_simulation_time:  # the first event re-dates every node, as stock Ciw does
            left -= 1
            next_active_node = self.event_and_return_nextnode(next_active_node)
            self.current_time = next_active_node.next_event_date
        self.events_done = budget - left
        self._run_events(max_simulation_time, next_active_node, budget, left)
        self.current_time = max_simulation_time
        self.wrap_up_servers(max_simulation_time)

    def _run_events(self, max_simulation_time, next_active_node, budget: int, left: int) -> None:
        """The events of ``simulate_until_max_time`` after the first, ``left`` of ``budget`` to go.

        :meth:`event_and_return_nextnode` and :meth:`_next_active_node` written
        into one loop (this runs once per event; the steps, their order and the
        random numbers drawn are the same): a node whose next event is the end
        of a service and whose ``have_event`` is Ciw's runs ``finish_service``
        directly, as Ciw's ``have_event`` would.
        """
        heap, versions, dates = self._heap, self._versions, self._dates
        touched, untracked, arrival, active = self._touched, self._untracked, self._arrival, self.active_nodes
        heappush, heappop, check = heapq.heappush, heapq.heappop, self.check_events
        direct = ciw.Node.have_event
        try:
            while self.current_time < max_simulation_time:
                if not left:
                    self.events_done = budget
                    self._over_budget(f"max_time = {max_simulation_time!r}")
                left -= 1
                node = next_active_node
                if node.engine_index and node.next_event_type == "end_service" and type(node).have_event is direct:
                    node.finish_service()
                else:
                    node.have_event()
                if node.engine_index:
                    touched.append(node)
                for node in set(touched) if len(touched) > 1 else touched:
                    node.update_next_event_date()
                    date, index = node.next_event_date, node.engine_index
                    if date != dates[index]:  # _moved, written out
                        if date != date:
                            _check_date(node, date)
                        dates[index] = date
                        versions[index] += 1
                        if date < inf:
                            heappush(heap, (date, index, versions[index]))
                touched.clear()
                for node in untracked:
                    node.update_next_event_date()
                    if node.next_event_date != dates[node.engine_index]:
                        self._moved(node)
                if arrival.next_event_date != dates[0]:
                    self._moved(arrival)
                if len(heap) > self._heap_limit:
                    self._compact()
                if check:
                    self._check_dates()
                # _next_active_node, written out
                while heap and versions[heap[0][1]] != heap[0][2]:
                    heappop(heap)
                if not heap:
                    next_active_node = self._choose(list(active))
                else:
                    date, index, _ = heap[0]
                    size = len(heap)
                    if (size > 1 and heap[1][0] == date) or (size > 2 and heap[2][0] == date):
                        next_active_node = self._choose(self._tied(date))
                    else:
                        next_active_node = active[index]
                self.current_time = next_active_node.next_event_date
        finally:
            self.events_done = budget - left

    def simulate_until_max_customers(self, max_customers, progress_bar=False, method="Complete"):
        """Ciw's ``simulate_until_max_customers``; raises :class:`EventBudgetExceeded` past ``max_events``."""
        with self._counting(f"max_customers = {max_customers!r}"):
            super().simulate_until_max_customers(max_customers, progress_bar, method)

    # --- the event budget -----------------------------------------------------------------
    @contextlib.contextmanager
    def _counting(self, length: str):
        """Count the events of Ciw's own loop (which calls ``event_and_return_nextnode``) against the budget."""
        step = self.event_and_return_nextnode
        budget = self.max_events if self.max_events is not None else MAX_EVENT_BUDGET
        self.events_done = 0

        def counted(next_active_node):
            if self.events_done >= budget:
                self._over_budget(length)
            self.events_done += 1
            return step(next_active_node)

        self.event_and_return_nextnode = counted  # shadows the method for this run only
        try:
            yield
        finally:
            del self.event_and_return_nextnode

    def _over_budget(self, length: str):
        limit = MAX_EVENT_BUDGET if self.max_events is None else self.max_events
        names = ", ".join((*self.budget_names, length))
        raise EventBudgetExceeded(
            f"the run passed its event budget, max_events = {limit:,}: stopped at simulated time "
            f"{self.current_time:.6g} with {names}: allowed a run of at most max_events events "
            f"(reduce {names}, or raise max_events)", events=self.events_done, time=self.current_time)

    # --- self-check -----------------------------------------------------------------------
    def _check_dates(self):
        for node in self.transitive_nodes:
            kept = (node.next_event_date, node.next_event_type, _individuals(node.next_individual))
            node.update_next_event_date()
            fresh = (node.next_event_date, node.next_event_type, _individuals(node.next_individual))
            if kept != fresh:
                raise AssertionError(f"{node} at t={self.current_time}: the engine kept {kept}, Ciw finds {fresh}")
        for index, node in enumerate(self.active_nodes):
            if self._dates[index] != node.next_event_date:
                raise AssertionError(f"{node}: heap date {self._dates[index]}, node date {node.next_event_date}")
        valid = sorted(entry[1] for entry in self._heap if self._versions[entry[1]] == entry[2])
        finite = [index for index, date in enumerate(self._dates) if date < inf]
        if valid != finite:
            raise AssertionError(f"heap holds nodes {valid}, nodes with a finite date are {finite}")


def _checked_budget(max_events):
    if max_events is None:
        return None
    if isinstance(max_events, bool) or not isinstance(max_events, numbers.Integral) \
            or not 1 <= max_events <= MAX_EVENT_BUDGET:
        raise ValueError(f"max_events = {max_events!r} is not allowed: allowed an integer "
                         f"1 <= max_events <= {MAX_EVENT_BUDGET:,} or None")
    return int(max_events)


def _checked_names(budget_names) -> tuple:
    if isinstance(budget_names, str) or not isinstance(budget_names, (tuple, list)) \
            or not all(isinstance(name, str) and name for name in budget_names):
        raise ValueError(f"budget_names = {budget_names!r} has the wrong type: allowed a tuple of non-empty strings "
                         "(what sets the run's length, e.g. 'VTSParams.completions = 4000')")
    return tuple(budget_names)


def _individuals(value):
    return list(value) if isinstance(value, list) else value


def _check_date(node, date):
    if date != date:
        raise ValueError(f"{node} has next_event_date = nan: allowed a number (stock Ciw would never run it)")
