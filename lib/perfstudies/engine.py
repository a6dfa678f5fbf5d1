"""A Ciw simulation that re-dates only the nodes an event touched.

After every event stock :class:`ciw.Simulation` asks *every* node for the date
of its next event (``Node.update_next_event_date``) and then scans all of them
for the earliest.  Most events touch one or two nodes, so most of that work
recomputes dates that cannot have changed.  :class:`Simulation` keeps each
node's next event date in a heap and, after an event, re-dates only

* the node that had the event,
* the nodes whose ``accept`` or ``release`` ran during it (the only ways
  Ciw's own code changes another node's state), and
* every node that is not an engine node (:class:`Node`), or that the engine
  cannot track (slotted schedules, whose next service depends on the clock),
  exactly as stock Ciw does.

Simultaneous events are resolved as Ciw resolves them: the nodes whose next
date is the earliest, in Ciw's node order, and one of them drawn with
``ciw.random_choice`` when there are several (so the random stream is consumed
exactly as in stock Ciw).  The records are therefore identical to stock
Ciw's; ``tests/test_engine.py`` checks this on random networks and on each
study's shape, and ``check_events=True`` re-dates every node after every event
and raises if a cached date was stale.

:class:`Node` also computes the common case of a next event date (a fixed
number of servers, no schedule, reneging or class change) in one pass over its
servers instead of Ciw's five helper calls and a dictionary.
"""

import heapq
from math import inf, isinf

import ciw
from ciw.auxiliary import random_choice
from ciw.data_record import DataRecord
from ciw.deadlock import NoDetection
from ciw.trackers import StateTracker

#: The Ciw release whose internals this engine mirrors; any other is refused.
SUPPORTED_CIW = "3.2.7"

# Ciw's helpers of ``update_next_event_date``; a class overriding any of them keeps Ciw's own update.
_DATE_HELPERS = ("update_next_event_date", "update_next_end_service_without_server",
                 "update_next_end_service_with_server", "update_next_renege_time",
                 "update_next_class_change_while_waiting", "update_next_shift_change_or_slot_time",
                 "decide_next_event")


# Ciw's helpers written inline in Node's event steps; a class overriding any of them keeps Ciw's steps.
_EVENT_HELPERS = ("begin_service_if_possible_accept", "begin_service_if_possible_release", "decide_class_change",
                  "reset_class_change", "decide_preempt", "attach_server", "detatch_server",
                  "write_individual_record", "reset_individual_attributes", "give_individual_a_service_time",
                  "decide_between_simultaneous_individuals", "next_node", "release_blocked_individual",
                  "increment_time", "now")

_new_record = tuple.__new__  # builds a DataRecord from its fields in order, as DataRecord(**fields) does


def _overrides(cls: type, names) -> bool:
    """Whether ``cls`` redefines any of ``names`` below :class:`Node`."""
    return any(getattr(cls, name) is not getattr(Node, name) for name in names)


class Node(ciw.Node):
    """A :class:`ciw.Node` that tells :class:`Simulation` when an event touched it.

    Under :class:`Simulation` (which calls :meth:`adopt`), ``accept`` and
    ``release`` put the node on the simulation's list of touched nodes, and in
    the common case (no schedule, reneging, class change or pre-emption, Ciw's
    own state tracker and deadlock detector, and none of Ciw's helpers
    overridden) the node runs Ciw 3.2.7's ``finish_service``, ``release`` and
    ``accept`` with their helpers written inline: the same steps in the same
    order, without a dozen calls that do nothing in that case.  Methods a
    subclass is expected to override (``get_service_time``,
    ``choose_next_customer``, ``find_free_server`` ...) are still called.
    Under a stock :class:`ciw.Simulation` the node is exactly a :class:`ciw.Node`.
    """

    def __init__(self, id_, simulation):
        super().__init__(id_, simulation)
        #: The simulation's list of touched nodes, or None when nobody tracks this node.
        self.touched = None
        #: Whether the one-pass next event date applies (set by :meth:`adopt`).
        self.plain_dates = False
        #: Whether the inline event steps apply (set by :meth:`adopt`).
        self.fast_events = False
        self.infinite = isinf(self.c)

    def adopt(self, touched: list) -> None:
        """Called by :class:`Simulation`: report touches to ``touched`` and use the fast paths."""
        self.touched = touched
        simple = self.schedule is None and not self.reneging and not self.dynamic_classes
        self.plain_dates = simple and not self.infinite and not _overrides(type(self), _DATE_HELPERS)
        self.fast_events = (simple and self.priority_preempt is False
                            and type(self.simulation.statetracker) is StateTracker
                            and type(self.simulation.deadlock_detector) is NoDetection
                            and not _overrides(type(self), _EVENT_HELPERS))

    def trackable(self) -> bool:
        """Whether the node's next event date changes only when an event touches it.

        Untracked nodes are re-dated after every event, as in stock Ciw.  A
        slotted schedule's next service start depends on the clock alone; a
        node with class changes while waiting is left to Ciw as well (stock
        Ciw 3.2.7 fails re-dating such a node before anybody has visited it,
        and the engine fails the same way).  A subclass whose date can change
        without an ``accept``, ``release`` or event of its own (a clock-driven
        date, or one another node sets directly) must return False.
        """
        return not self.slotted and not self.dynamic_classes

    def update_next_event_date(self):
        """Ciw's next event date; for plain nodes the earliest end of service, in one pass."""
        if not self.plain_dates:
            super().update_next_event_date()
            return
        date = inf
        leaving = None
        for server in self.servers:
            end = server.next_end_service_date
            if end < date:
                date = end
                leaving = [server.cust]
            elif end == date and end != inf:
                leaving.append(server.cust)
        self.possible_next_events = {} if leaving is None else {"end_service": (leaving, date)}
        self.next_event_date = date
        self.next_individual = leaving
        self.next_event_type = "end_service"

    # --- Ciw 3.2.7's event steps, inline (each block names the Ciw method it stands for) ----
    def finish_service(self):
        if not self.fast_events:
            super().finish_service()
            return
        # decide_between_simultaneous_individuals
        leaving = self.next_individual
        individual = random_choice(leaving) if len(leaving) > 1 else leaving[0]
        if self.class_change:
            self.change_customer_class(individual)
        # next_node
        next_node = self.simulation.routers[individual.customer_class].next_node(individual, self.id_number)
        individual.destination = next_node.id_number
        if not self.infinite and self.c > 0:
            individual.server.next_end_service_date = inf
        if next_node.number_of_individuals < next_node.node_capacity:
            self.release(individual, next_node)
        else:
            self.block_individual(individual, next_node)

    def release(self, next_individual, next_node, reroute=False):
        if self.touched is not None:
            self.touched.append(self)
        if not self.fast_events or reroute:
            super().release(next_individual, next_node, reroute)
            return
        ind = next_individual
        now = self.simulation.current_time
        self.individuals[ind.prev_priority_class].remove(ind)
        self.number_of_individuals -= 1
        self.number_in_service -= 1
        ind.queue_size_at_departure = self.number_of_individuals
        ind.exit_date = now
        server = ind.server
        # write_individual_record
        ind.data_records.append(_new_record(DataRecord, (
            ind.id_number, ind.previous_class, ind.original_class, self.id_number, ind.arrival_date,
            ind.service_start_date - ind.arrival_date, ind.service_start_date,
            ind.service_end_date - ind.service_start_date, ind.service_end_date,
            ind.exit_date - ind.service_end_date, ind.exit_date, ind.destination,
            ind.queue_size_at_arrival, ind.queue_size_at_departure,
            False if self.infinite else server.id_number, "service")))
        if not self.infinite:
            # detatch_server
            server.cust = False
            server.busy = False
            ind.server = False
            server.busy_time = server.busy_time + (ind.exit_date - ind.service_start_date)
            server.total_time = now - server.start_date
            if server.offduty:
                self.kill_server(server)
        # reset_individual_attributes
        ind.arrival_date = False
        ind.service_time = False
        ind.service_start_date = False
        ind.service_end_date = False
        ind.exit_date = False
        ind.queue_size_at_arrival = False
        ind.queue_size_at_departure = False
        ind.destination = False
        # begin_service_if_possible_release
        if not self.infinite and server in self.servers:
            if self.number_interrupted_individuals > 0:
                self.begin_interrupted_individuals_service(server)
            else:
                chosen = self.choose_next_customer()
                if chosen is not None:
                    server.cust = chosen  # attach_server
                    server.busy = True
                    chosen.server = server
                    chosen.service_start_date = now
                    if chosen.service_time is False:  # give_individual_a_service_time
                        chosen.service_time = self.get_service_time(chosen)
                    else:
                        self.give_service_time_after_preemption(chosen)
                    chosen.service_end_date = chosen.service_start_date + chosen.service_time
                    self.number_in_service += 1
                    server.next_end_service_date = chosen.service_end_date
        next_node.accept(ind)
        # release_blocked_individual, whose first step is this test
        if self.len_blocked_queue > 0 and self.number_of_individuals < self.node_capacity:
            self.release_blocked_individual()

    def accept(self, next_individual, completed=False):
        if self.touched is not None:
            self.touched.append(self)
        if not self.fast_events:
            super().accept(next_individual, completed)
            return
        ind = next_individual
        now = self.simulation.current_time
        ind.node = self.id_number
        ind.exit_date = False
        ind.is_blocked = False
        ind.original_class = ind.customer_class
        ind.queue_size_at_arrival = self.number_of_individuals
        self.individuals[ind.priority_class].append(ind)
        self.number_of_individuals += 1
        # begin_service_if_possible_accept
        ind.arrival_date = now
        if self.infinite:
            ind.service_start_date = now
            ind.service_time = self.get_service_time(ind)
            ind.service_end_date = now + ind.service_time
            self.number_in_service += 1
            return
        chosen = self.choose_next_customer()
        if chosen is None:
            return
        free_server = self.find_free_server(chosen)
        if free_server is not None:
            free_server.cust = chosen  # attach_server
            free_server.busy = True
            chosen.server = free_server
            chosen.service_start_date = now
            chosen.service_time = self.get_service_time(chosen)
            chosen.service_end_date = now + chosen.service_time
            self.number_in_service += 1
            free_server.next_end_service_date = chosen.service_end_date


class ArrivalNode(ciw.ArrivalNode):
    """Ciw 3.2.7's arrival node with ``have_event`` and its helpers written inline.

    :class:`Simulation` uses it unless it is given another ``arrival_node_class``
    (or ``exact``).  The steps, their order and the random numbers they draw are
    Ciw's; only calls that do nothing are skipped (baulking and rejection still
    go through Ciw's own methods).
    """

    def have_event(self):
        simulation = self.simulation
        node_number, customer_class = self.next_node, self.next_class
        batch = self.batch_size(node_number, customer_class)
        if batch:
            priority_class = simulation.network.priority_class_mapping[customer_class]
            next_node = simulation.transitive_nodes[node_number - 1]
            router = simulation.routers[customer_class]
            make = simulation.IndividualType
            per_class = self.number_of_individuals_per_class
            baulking = next_node.baulking_functions[customer_class]
            for _ in range(batch):
                self.number_of_individuals += 1
                per_class[customer_class] += 1
                individual = make(self.number_of_individuals, customer_class, priority_class, simulation=simulation)
                individual.starting_node = next_node.id_number
                router.initialise_individual(individual)
                # release_individual, decide_baulk and send_individual
                if (next_node.number_of_individuals >= next_node.node_capacity
                        or (self.system_capacity < inf
                            and simulation.number_of_individuals >= self.system_capacity)):
                    self.record_rejection(next_node, individual)
                    simulation.nodes[-1].accept(individual, completed=False)
                elif baulking is not None:
                    self.decide_baulk(next_node, individual)
                else:
                    self.number_accepted_individuals += 1
                    self.number_accepted_individuals_per_class[individual.customer_class] += 1
                    next_node.accept(individual)
        dates = self.event_dates_dict[node_number]
        dates[customer_class] = dates[customer_class] + self.inter_arrival(node_number, customer_class)
        self.find_next_event_date()

    def find_next_event_date(self):
        next_node = next_class = None
        next_date = inf
        for node_number, dates in self.event_dates_dict.items():
            for customer_class, date in dates.items():
                if date < next_date:
                    next_node, next_class, next_date = node_number, customer_class, date
        self.next_node = next_node
        self.next_class = next_class
        self.next_event_date = next_date


class Simulation(ciw.Simulation):
    """A :class:`ciw.Simulation` with an event heap; same arguments, same records.

    Parameters
    ----------
    network : ciw.Network
    check_events : bool
        Re-date every node after every event, as stock Ciw does, and raise
        ``AssertionError`` if a date the engine had kept was stale (slow; for
        tests of new node classes).
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

    def __init__(self, network, *args, check_events: bool = False, **kwargs):
        if ciw.__version__ != SUPPORTED_CIW:
            raise RuntimeError(f"perfstudies.engine mirrors Ciw {SUPPORTED_CIW} and Ciw {ciw.__version__} is "
                               "installed: pin Ciw, or check tests/test_engine.py against the new release and "
                               "update engine.SUPPORTED_CIW")
        self.touched: list = []
        kwargs.setdefault("arrival_node_class", ArrivalNode)
        super().__init__(network, *args, **kwargs)
        self.check_events = bool(check_events)
        for index, node in enumerate(self.active_nodes):
            node.engine_index = index
        tracked = [node for node in self.transitive_nodes if isinstance(node, Node) and node.trackable()]
        for node in tracked:
            node.adopt(self.touched)
        self.untracked = [node for node in self.transitive_nodes if node not in tracked]
        self._resync()

    # --- the heap -------------------------------------------------------------------------
    def _resync(self):
        """Rebuild the heap from every node's date; the next event re-dates every node."""
        self.dates = [node.next_event_date for node in self.active_nodes]
        self.versions = [0] * len(self.dates)
        for node, date in zip(self.active_nodes, self.dates):
            _check_date(node, date)
        self.heap = [(date, index, 0) for index, date in enumerate(self.dates) if date < inf]
        heapq.heapify(self.heap)
        self.heap_limit = 2 * len(self.dates) + 64
        self.redate_all = True

    def find_next_active_node(self):
        """Ciw's next active node, from every node's current date (as at the start of a run)."""
        self._resync()
        return self._next_active_node()

    def _next_active_node(self):
        heap = self.heap
        versions = self.versions
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
        heap = self.heap
        entries = []
        while heap and heap[0][0] == date:
            entry = heapq.heappop(heap)
            if self.versions[entry[1]] == entry[2]:
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
        versions = self.versions
        self.heap[:] = [entry for entry in self.heap if versions[entry[1]] == entry[2]]
        heapq.heapify(self.heap)

    # --- events ---------------------------------------------------------------------------
    def event_and_return_nextnode(self, next_active_node):
        """Carry out ``next_active_node``'s event, re-date what it touched, return the next node."""
        next_active_node.have_event()
        touched = self.touched
        if self.redate_all:  # the first event of a run: stock Ciw re-dates every node
            self.redate_all = False
            touched.clear()
            for node in self.transitive_nodes:
                node.update_next_event_date()
            redate = self.active_nodes
        else:
            if next_active_node.engine_index:
                touched.append(next_active_node)
            for node in self.untracked:
                node.update_next_event_date()
            if len(touched) > 1:
                touched = set(touched)
            for node in touched:
                node.update_next_event_date()
            redate = [self.active_nodes[0], *self.untracked, *touched]
            self.touched.clear()
        # re-date in the heap (written out: this runs once per event)
        dates = self.dates
        versions = self.versions
        heap = self.heap
        for node in redate:
            index = node.engine_index
            date = node.next_event_date
            if date != dates[index]:
                if date != date:
                    _check_date(node, date)
                dates[index] = date
                versions[index] += 1
                if date < inf:
                    heapq.heappush(heap, (date, index, versions[index]))
        if len(heap) > self.heap_limit:
            self._compact()
        if self.check_events:
            self._check_dates()
        return self._next_active_node()

    def simulate_until_max_time(self, max_simulation_time, progress_bar=False):
        """Ciw's ``simulate_until_max_time``; the stock state tracker's no-op timestamps are skipped."""
        if progress_bar or type(self.statetracker) is not StateTracker:
            super().simulate_until_max_time(max_simulation_time, progress_bar)
            return
        next_active_node = self.find_next_active_node()
        self.current_time = next_active_node.next_event_date
        event = self.event_and_return_nextnode
        while self.current_time < max_simulation_time:
            next_active_node = event(next_active_node)
            self.current_time = next_active_node.next_event_date
        self.current_time = max_simulation_time
        self.wrap_up_servers(max_simulation_time)

    # --- self-check -----------------------------------------------------------------------
    def _check_dates(self):
        for node in self.transitive_nodes:
            kept = (node.next_event_date, node.next_event_type, _individuals(node.next_individual))
            node.update_next_event_date()
            fresh = (node.next_event_date, node.next_event_type, _individuals(node.next_individual))
            if kept != fresh:
                raise AssertionError(f"{node} at t={self.current_time}: the engine kept {kept}, Ciw finds {fresh}")
        for index, node in enumerate(self.active_nodes):
            if self.dates[index] != node.next_event_date:
                raise AssertionError(f"{node}: heap date {self.dates[index]}, node date {node.next_event_date}")
        valid = sorted(entry[1] for entry in self.heap if self.versions[entry[1]] == entry[2])
        finite = [index for index, date in enumerate(self.dates) if date < inf]
        if valid != finite:
            raise AssertionError(f"heap holds nodes {valid}, nodes with a finite date are {finite}")


def _individuals(value):
    return list(value) if isinstance(value, list) else value


def _check_date(node, date):
    if date != date:
        raise ValueError(f"{node} has next_event_date = nan: allowed a number (stock Ciw would never run it)")
