"""The engine's node classes: Ciw 3.2.7's nodes that report what an event touched.

:class:`Node` tells :class:`~perfstudies.engine.simulation.Simulation` when an
``accept`` or ``release`` changed it, computes the common next event date in
one pass, and runs Ciw's event steps with their do-nothing helpers written
inline; :class:`ArrivalNode` does the same for arrivals.  Under a stock
:class:`ciw.Simulation` both are exactly Ciw's classes.
"""

from math import inf, isinf

import ciw
from ciw.auxiliary import random_choice
from ciw.data_record import DataRecord
from ciw.deadlock import NoDetection
from ciw.trackers import StateTracker

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
                  "find_free_server", "increment_time", "now")

_new_record = tuple.__new__  # builds a DataRecord from its fields in order, as DataRecord(**fields) does


def _overrides(cls: type, names) -> bool:
    """Whether ``cls`` redefines any of ``names`` below :class:`Node`."""
    return any(getattr(cls, name) is not getattr(Node, name) for name in names)


class Node(ciw.Node):
    """A :class:`ciw.Node` that tells :class:`perfstudies.engine.Simulation` when an event touched it.

    Under the engine's simulation (which calls :meth:`engine_adopt`),
    ``accept`` and ``release`` put the node on the simulation's list of
    touched nodes, and in the common case (no schedule, reneging, class change or pre-emption, Ciw's
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
        self.engine_touched = None
        #: Whether the one-pass next event date applies (set by :meth:`engine_adopt`).
        self.engine_plain_dates = False
        #: Whether the inline event steps apply (set by :meth:`engine_adopt`).
        self.engine_inline = False
        self.engine_infinite = isinf(self.c)

    def engine_adopt(self, touched: list) -> None:
        """Called by the engine's simulation: report touches to ``touched``, use the fast paths."""
        self.engine_touched = touched
        self.engine_service_times = self.simulation.service_times[self.id_number]
        simple = self.schedule is None and not self.reneging and not self.dynamic_classes
        self.engine_plain_dates = simple and not self.engine_infinite and not _overrides(type(self), _DATE_HELPERS)
        self.engine_inline = (simple and self.priority_preempt is False
                              and type(self.simulation.statetracker) is StateTracker
                              and type(self.simulation.deadlock_detector) is NoDetection
                              and not _overrides(type(self), _EVENT_HELPERS))

    def engine_trackable(self) -> bool:
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
        if not self.engine_plain_dates:
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

    def get_service_time(self, ind):
        """Ciw's service time: a sample of the class's distribution at this node."""
        if not self.engine_inline:
            return super().get_service_time(ind)
        return self.engine_service_times[ind.customer_class].sample(t=self.simulation.current_time, ind=ind)

    # --- Ciw 3.2.7's event steps, inline (each block names the Ciw method it stands for) ----
    def finish_service(self):
        if not self.engine_inline:
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
        if not self.engine_infinite and self.c > 0:
            individual.server.next_end_service_date = inf
        if next_node.number_of_individuals < next_node.node_capacity:
            self.release(individual, next_node)
        else:
            self.block_individual(individual, next_node)

    def release(self, next_individual, next_node, reroute=False):
        if self.engine_touched is not None:
            self.engine_touched.append(self)
        if not self.engine_inline or reroute:
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
            False if self.engine_infinite else server.id_number, "service")))
        if not self.engine_infinite:
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
        if not self.engine_infinite and server in self.servers:
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
            self._release_blocked_individual()

    def _release_blocked_individual(self):
        """Ciw 3.2.7's ``release_blocked_individual`` once its test has passed, finding the individual faster.

        Ciw lists the id of every individual at the blocked node to find the
        one blocked longest (a scan of the whole queue, thousands long where a
        study places its customers at time 0); ids are unique, so stopping at
        the first match finds the same individual, and a blocked individual has
        finished its service, so it sits near the front of a first-come queue.
        """
        node_id, id_number = self.blocked_queue[0]
        sender = self.simulation.nodes[node_id]
        individual = None
        for individuals in sender.individuals:
            for candidate in individuals:
                if candidate.id_number == id_number:
                    individual = candidate
                    break
            if individual is not None:
                break
        if individual is None:  # as Ciw's list.index would
            raise ValueError(f"{id_number} is not in list")
        self.blocked_queue.pop(0)
        self.len_blocked_queue -= 1
        if individual.interrupted:
            individual.interrupted = False
            individual.service_start_date = individual.original_service_start_date
            individual.service_end_date = individual.service_start_date + individual.original_service_time
            sender.interrupted_individuals.remove(individual)
            sender.number_interrupted_individuals -= 1
        sender.release(individual, self)

    def accept(self, next_individual, completed=False):
        if self.engine_touched is not None:
            self.engine_touched.append(self)
        if not self.engine_inline:
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
        if self.engine_infinite:
            ind.service_start_date = now
            ind.service_time = self.get_service_time(ind)
            ind.service_end_date = now + ind.service_time
            self.number_in_service += 1
            return
        chosen = self.choose_next_customer()
        if chosen is None:
            return
        if self.server_priority_function is None:  # find_free_server
            free_server = None
            for server in self.servers:
                if not server.busy:
                    free_server = server
                    break
        else:
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

    :class:`perfstudies.engine.Simulation` uses it unless it is given another
    ``arrival_node_class`` (or ``exact``).  The steps, their order and the
    random numbers they draw are Ciw's; only calls that do nothing are skipped
    (baulking and rejection still go through Ciw's own methods).
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
