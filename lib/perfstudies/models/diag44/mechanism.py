"""Every Ciw class of the DIAG X'44' model: the mechanisms of the document, one class each.

Customers are the **connections** (40 in the document), each with one
transaction in flight.  Connection *i* belongs to client guest ``i mod
client_guests`` and to one single-processor server guest.  A transaction is
client work (cut into slices), then server work, then time away from the
processors (network and file access).  The network (:mod:`.network`) has three
nodes:

1. ``REAL_PROCESSORS`` (``real_processors`` servers), :class:`RealProcessorNode`:
   the virtual processors (VPs) of each guest, and the fast/normal path
   decision at every yield;
2. ``SCHEDULER_LOCK`` (one server, a plain FIFO node): the normal path holds
   the scheduler lock; waiting here is spinning on it;
3. ``IDLE`` (infinite servers), :class:`IdleNode`: the connection away from the
   processors.

Per-run state (the run's :class:`~.params.DiagParams`) reaches the node classes
through :func:`perfstudies.networks.with_state` (class attribute ``params``) and
the distributions through their constructors.  One simulated normal-path yield
stands for ``diags_per_yield`` DIAG 44s and one fast-path yield for
``fast_diags_per_yield``, so that a replication runs in a fraction of a second.
"""

import collections
import random

import ciw

from perfstudies.fifo import FIFONode

from .params import DiagParams

REAL_PROCESSORS, SCHEDULER_LOCK, IDLE = 1, 2, 3
SERVER = "server"


def client_class(guest: int) -> str:
    """Customer-class name of client guest ``guest``'s connections (siblings share it)."""
    return f"client{guest}"


class BurstTime(ciw.dists.Distribution):
    """Processor time of a connection's next dispatch, read from its own state.

    Mechanism: what a virtual processor does once a real processor dispatches it
    (document: the Apache workload of the workload parameter table, and the CP
    and emulation time per transaction rows of the measurement tables).  Server
    work runs for at most one time slice; client work is one slice; right after
    a normal-path yield it is the time just spent at the scheduler lock plus the
    yield's CP time and guest spinning.  (That time burned a real processor on
    the real machine; the model charges it when the VP is dispatched again.)
    """

    def __init__(self, params: DiagParams):
        self.params = params

    def __repr__(self):
        p = self.params
        return (f"BurstTime(client_slice_us={p.client_share * p.base_work_us / p.slices_per_tx:.6g}, "
                f"time_slice_us={p.time_slice_us:g})")

    def sample(self, t=None, ind=None):
        p = self.params
        if ind.customer_class == SERVER:
            return min(ind.server_work_left, p.time_slice_us)
        if ind.redispatched:
            lock_visit = ind.data_records[-1]
            return lock_visit.waiting_time + p.diags_per_yield * (p.normal_cp_us + p.normal_spin_us)
        return random.expovariate(p.slices_per_tx / (p.client_share * p.base_work_us))


class Latency(ciw.dists.Distribution):
    """Time a connection spends away from the processors (exponential, mean ``mean_us``).

    Mechanism: network transfer and file access between transactions (document:
    the workload parameter table, 1M files in expanded-storage minidisk cache;
    the report gives no time for it, so the model's default is 0).
    """

    def __init__(self, mean_us: float):
        self.mean_us = mean_us

    def __repr__(self):
        return f"Latency(mean_us={self.mean_us:g})"

    def sample(self, t=None, ind=None):
        return random.expovariate(1.0 / self.mean_us) if self.mean_us > 0 else 0.0


class FollowNodeDecision(ciw.routing.NodeRouting):
    """Route a connection to the node :class:`RealProcessorNode` chose for it.

    Mechanism: the outcome of a dispatch (document: the introduction's account of
    the normal path, which goes through the scheduler, and the fast path, which
    returns to the guest): the real-processor node writes ``next_stop`` and this
    routing obeys it.
    """

    def __repr__(self):
        return "FollowNodeDecision()"

    def next_node(self, ind):
        return self.simulation.nodes[ind.next_stop]


class RealProcessorNode(FIFONode):
    """Real processors: VP limits per guest, and the fast/normal path decision of DIAG 44.

    Mechanism (document: the introduction, "if any virtual processor is queued
    when a DIAG 44 is issued, the fast path conditions are not met", and the
    workload parameter table's 3 or 6 client and 1 server virtual processors):
    a guest never has more connections here than VPs, the others wait inside
    the guest; at the end of each client slice the VP takes a guest lock, held
    by a running sibling with probability ``contention`` per running sibling;
    then it yields with DIAG 44, and the node looks at its own queue: when no
    sibling VP of the same guest waits there, the yield takes the fast path and
    the VP keeps its processor; otherwise (or with the fast path off) the normal
    path, through ``SCHEDULER_LOCK`` and back to the end of this queue.

    The run's parameters are the class attribute ``params`` (set by
    :func:`perfstudies.networks.with_state`).  Every event of interest is
    appended to ``self.log`` as ``(time, kind, amount)``.
    """

    params: DiagParams

    def __init__(self, id_, simulation):
        super().__init__(id_, simulation)
        self.log: list[tuple[float, str, float]] = []
        self.holding = collections.Counter()          # guest -> connections on its VPs
        self.parked = collections.defaultdict(collections.deque)  # guest -> connections waiting for a VP
        self.handoff = None

    def __repr__(self):
        p = self.params
        return (f"RealProcessorNode(real_processors={p.real_processors}, client_vps={p.client_vps}, "
                f"fast_path={p.fast_path})")

    # --- virtual processors of a guest -------------------------------------------------
    def vp_limit(self, ind) -> int:
        return 1 if ind.customer_class == SERVER else self.params.client_vps

    def accept(self, next_individual, completed=False):
        if not next_individual.holds_vp:
            guest = next_individual.guest
            if self.holding[guest] >= self.vp_limit(next_individual):
                self.parked[guest].append(next_individual)  # work queued inside the guest, no VP free
                return
            self.holding[guest] += 1
            next_individual.holds_vp = True
        super().accept(next_individual, completed)

    def choose_next_customer(self):
        if self.handoff is not None and not self.handoff.server:
            return self.handoff
        return super().choose_next_customer()

    # --- the fast path decision ----------------------------------------------------------
    def queued_siblings(self, ind) -> int:
        """Number of other VPs of ``ind``'s guest waiting in this real-processor queue."""
        return sum(1 for queue in self.individuals for other in queue
                   if other.customer_class == ind.customer_class and not other.server and other is not ind)

    def running_siblings(self, ind) -> int:
        """Number of other VPs of ``ind``'s guest running on a real processor."""
        return sum(1 for server in self.servers
                   if server.busy and server.cust is not ind and server.cust.customer_class == ind.customer_class)

    def takes_fast_path(self, ind) -> bool:
        """The DIAG 44 decision: fast only if enabled and no sibling VP is queued."""
        return self.params.fast_path and self.queued_siblings(ind) == 0

    # --- end of a dispatch ---------------------------------------------------------------------
    def finish_service(self):
        ind = self.decide_between_simultaneous_individuals()
        now = self.now
        self.log.append((now, "busy", ind.service_time))
        if ind.customer_class == SERVER:
            ind.server_work_left -= ind.service_time
            if ind.server_work_left > 0:
                ind.next_stop = REAL_PROCESSORS     # time slice over: back of the queue
                self._leave(ind)
                return
            self.log.append((now, "server_done", 1.0))
            self._release_vp(ind, next_stop=IDLE)
            ind.guest = ind.customer_class = ind.client
            return
        burst = self._next_client_burst(ind, now)
        if burst is not None:
            ind.service_time = burst
            ind.service_end_date = now + burst
            ind.server.next_end_service_date = ind.service_end_date
            return
        if ind.next_stop in (SCHEDULER_LOCK, REAL_PROCESSORS):
            self._leave(ind)
            return
        ind.slices_left = self.params.slices_per_tx
        ind.server_work_left = random.expovariate(1.0 / ((1 - self.params.client_share) * self.params.base_work_us))
        client = ind.guest
        ind.guest, ind.customer_class = ind.server_guest, SERVER
        self._release_vp(ind, next_stop=REAL_PROCESSORS, guest=client)

    def _next_client_burst(self, ind, now: float) -> float | None:
        """Guest lock and yield at the end of a client slice.

        Returns the length of the VP's next burst when it keeps its processor
        (fast-path spinning, or its next slice), or None when it leaves: to the
        scheduler lock (normal path), to the back of the real-processor queue
        (its time slice is over) or, with its client work done, onwards.
        """
        p = self.params
        if ind.fast_extension:
            ind.fast_extension = False          # the holder released the lock while this VP spun
        else:
            ind.redispatched = False            # after a normal-path yield the VP tries the lock again
            holders = self.running_siblings(ind)
            if holders and random.random() < 1 - (1 - p.contention) ** holders:
                self.log.append((now, "siblings_queued", self.queued_siblings(ind)))
                if self.takes_fast_path(ind):
                    self.log.append((now, "fast", p.fast_diags_per_yield))
                    ind.fast_extension = True
                    return p.fast_diags_per_yield * (p.fast_cp_us + p.fast_spin_us)
                self.log.append((now, "normal", float(p.diags_per_yield)))
                ind.redispatched = True
                ind.next_stop = SCHEDULER_LOCK
                return None
        ind.slices_left -= 1
        self.log.append((now, "slice", 1.0))
        if ind.slices_left == 0:
            ind.next_stop = None
            return None
        if now - ind.service_start_date >= p.time_slice_us:
            ind.next_stop = REAL_PROCESSORS             # time slice over: back of the queue
            return None
        return self.get_service_time(ind)

    def _release_vp(self, ind, next_stop: int, guest=None):
        """Leave with the VP freed; a connection parked in the same guest takes it over in place."""
        guest = ind.guest if guest is None else guest
        ind.holds_vp = False
        ind.next_stop = next_stop
        if self.parked[guest]:
            self.handoff = self.parked[guest].popleft()
            self.handoff.holds_vp = True
            super().accept(self.handoff)
        else:
            self.holding[guest] -= 1
        self._leave(ind)
        self.handoff = None

    def _leave(self, ind):
        """Ciw's own end of service for ``ind``: release it to the node it is routed to."""
        next_node = self.next_node(ind)
        ind.destination = next_node.id_number
        ind.server.next_end_service_date = float("Inf")
        self.release(ind, next_node)


class IdleNode(FIFONode):
    """Time away from the processors; also gives each injected connection its identity.

    Mechanism: the connections of the workload parameter table (40 client
    connections, one per server guest and client) and the time they spend off
    the processors.  The run's parameters are the class attribute ``params``
    (set by :func:`perfstudies.networks.with_state`).
    """

    params: DiagParams

    def __init__(self, id_, simulation):
        super().__init__(id_, simulation)
        self.injected = 0

    def __repr__(self):
        return f"IdleNode(connections={self.params.connections}, injected={self.injected})"

    def accept(self, next_individual, completed=False):
        if not hasattr(next_individual, "guest"):
            start_connection(next_individual, self.injected, self.params)
            self.injected += 1
        super().accept(next_individual, completed)


def start_connection(ind, index: int, p: DiagParams) -> None:
    """Give connection number ``index`` its guests and per-connection state."""
    ind.client = ind.customer_class
    ind.guest = ind.client
    ind.server_guest = f"server{(index // p.client_guests) % p.server_guests}"
    ind.slices_left = p.slices_per_tx
    ind.holds_vp = ind.redispatched = ind.fast_extension = False
    ind.server_work_left = 0.0
    ind.next_stop = REAL_PROCESSORS
