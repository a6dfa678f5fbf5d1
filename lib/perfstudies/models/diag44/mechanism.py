"""Every Ciw class of the DIAG X'44' model: the mechanisms of the document, one class each.

Customers are the **connections** (40 in the document), each with one
transaction in flight.  Connection *i* belongs to client guest ``i mod
client_guests`` and to one single-processor server guest.  A transaction is
client work (cut into slices), then server work, then time away from the
processors.  The network (:mod:`.network`) has two nodes:

1. ``REAL_PROCESSORS`` (``real_processors`` servers), :class:`RealProcessorNode`:
   the virtual processors (VPs) of each guest, the fast/normal path decision
   at every yield, and CP's scheduler lock (:class:`SchedulerLock`, a rule the
   node applies: its acquisitions are far too many to simulate one by one);
   the processors share one dispatch queue, or, with ``dispatch_vectors``,
   have one each (:class:`DispatchVectorNode`);
2. ``IDLE`` (infinite servers), :class:`IdleNode` with :class:`OffProcessorTime`:
   the connection away from the processors.

Per-run state (the run's :class:`~.params.DiagParams`) reaches the node classes
through :func:`perfstudies.networks.with_state` (class attribute ``params``).
One simulated normal-path yield stands for ``normal_diags_per_yield`` DIAG 44s
and one fast-path yield for ``fast_diags_per_yield``, so that a replication
runs in a fraction of a second; with ``sibling_retest`` a fast-path spin ends
early once a sibling is queued, and a normal-path yield that a VP waits behind
is one DIAG 44.
"""

import collections
import math
import random

import ciw

from perfstudies.delay import DelayNode
from perfstudies.fifo import FIFONode
from perfstudies.params import check_real

from .params import LOCK_RHO_MAX, DiagParams

REAL_PROCESSORS, IDLE = 1, 2
SERVER = "server"
#: What a connection does on its VP: client work; spinning with fast-path DIAG 44s, or with normal-path
#: ones that give the processor straight back (nobody waits); the normal-path DIAG 44 after which it
#: leaves for the back of the queue; trying the guest lock again once dispatched; server work; client
#: work finished.
WORK, FAST, NORMAL, RETRY, SERVE, CLIENT_DONE = "work", "fast", "normal", "retry", "serve", "client_done"
#: Time over which :class:`SchedulerLock` remembers acquisitions (us): long against one
#: acquisition (microseconds), short against the warm-up (0.3 s).
LOCK_MEMORY_US = 20_000.0


def client_class(guest: int) -> str:
    """Customer-class name of client guest ``guest``'s connections (siblings share it)."""
    return f"client{guest}"


class SchedulerLock:
    """CP's scheduler lock: one spin lock every real processor shares, used by all of CP.

    Mechanism (document: "Processing a normal-path DIAG 44 requires use of the
    scheduler lock", and the 3-vs-6 VP table's spin-lock rows, whose 13,735
    spins a second at 8,898 normal-path DIAG 44s a second say that other CP
    work takes the lock too): every normal-path DIAG 44 acquires the lock
    once, and other CP work ``sched_other_per_tx`` times per transaction; an
    acquisition holds it ``sched_hold_us`` on average.  A processor that finds
    the lock held spins, holding the processor, until its turn.

    The lock is acquired 80,000 to 170,000 times a second, far too often to
    simulate each acquisition, so it is a rule rather than a queue: an
    acquisition spins, on average, what a FIFO single server with Poisson
    arrivals and exponential holds makes it wait (M/M/1,
    :func:`.analytic.mm1_wait`) at the utilisation the lock has had lately
    (acquisitions weighted by ``exp(-age / memory_us)``, :data:`LOCK_MEMORY_US`).
    """

    def __init__(self, hold_us: float, memory_us: float = LOCK_MEMORY_US):
        self.hold_us = check_real("hold_us", hold_us, low=0.0)
        self.memory_us = memory_us
        self.recent = 0.0          # acquisitions, each weighted exp(-age / memory_us)
        self.updated = 0.0

    def __repr__(self):
        return f"SchedulerLock(hold_us={self.hold_us:g}, memory_us={self.memory_us:g})"

    def _decay(self, now: float) -> None:
        if now > self.updated:
            self.recent *= math.exp((self.updated - now) / self.memory_us)
            self.updated = now

    def acquire(self, count: float, now: float) -> None:
        """Record ``count`` acquisitions at ``now`` (fractions allowed: a VP's DIAG 44s are counted by time)."""
        self._decay(now)
        self.recent += count

    def utilisation(self, now: float) -> float:
        """Share of time the lock is held over the last ``memory_us`` or so (at most :data:`LOCK_RHO_MAX`)."""
        self._decay(now)
        return min(self.recent / self.memory_us * self.hold_us, LOCK_RHO_MAX)

    def wait_us(self, now: float) -> float:
        """Mean spin of one acquisition at the current utilisation: :func:`.analytic.mm1_wait`'s formula.

        Written out rather than called: a normal-path run asks for it on every
        yield (a sixth of its time went to ``mm1_wait``'s argument checks), and
        here both arguments are in range by construction (``hold_us`` checked
        once above, the utilisation at most :data:`LOCK_RHO_MAX`).
        """
        rho = self.utilisation(now)
        return rho * self.hold_us / (1 - rho)


class RealProcessorNode(FIFONode):
    """Real processors: VP limits per guest, spinning on guest locks, and the DIAG 44 decision.

    Mechanism (document: the introduction, "if any virtual processor is queued
    when a DIAG 44 is issued, the fast path conditions are not met and thus it
    must use the normal path", and the workload parameter table's 3 or 6
    client and 1 server virtual processors):

    * a guest never has more connections here than VPs; the others wait inside
      the guest;
    * a client's work comes in ``slices_per_tx`` slices; at the end of each the
      VP takes a guest lock, held by a running sibling with chance
      ``contention`` per running sibling;
    * a VP that finds it held spins and yields with DIAG 44.  CP looks at this
      queue: with the fast path enabled and no sibling VP of the guest queued,
      CP returns at once, and the VP spins on, issuing ``fast_diags_per_yield``
      fast-path DIAG 44s until the holder lets go.  Otherwise the normal path:
      ``normal_diags_per_yield`` DIAG 44s, each through CP's scheduler lock
      (:class:`SchedulerLock`), then the back of this queue, which gives the VP
      straight back when nobody waits; then it tries the guest lock again;
    * with ``sibling_retest`` CP's test is applied at *every* DIAG 44, as the
      report says ("if any virtual processor is queued when a DIAG 44 is
      issued"): a sibling that joins the queue while the VP spins on the fast
      path ends that spin at its next DIAG 44, which takes the normal path
      (:meth:`_sibling_queued`); and a normal-path DIAG 44 that a VP waits
      behind is one DIAG 44, after which the VP leaves the processor (the
      coarsening ``normal_diags_per_yield`` then applies only while nobody
      waits, when the queue would give the processor straight back);
    * a VP that has run a time slice while others wait goes to the back of the queue.

    The run's parameters are the class attribute ``params`` (set by
    :func:`perfstudies.networks.with_state`).  Per-guest counters (VPs running,
    VPs queued) make each decision constant-time.  Totals after the warm-up are
    counted in ``self.totals``.
    """

    params: DiagParams
    #: The name :meth:`__repr__` gives (``with_state`` subclasses keep it).
    mechanism_name = "RealProcessorNode"

    def __init__(self, id_, simulation):
        super().__init__(id_, simulation)
        p = self.params
        self.warmup = p.warmup_us
        self.totals = collections.Counter()
        self.holding = collections.Counter()                      # guest -> connections on its VPs
        self.parked = collections.defaultdict(collections.deque)  # guest -> connections waiting for a VP
        self.queued = collections.Counter()                       # guest -> its VPs in this queue
        self.running = collections.Counter()                      # guest -> its VPs on a processor
        self.waiting = 0                                          # VPs in this queue
        self.handoff = None
        self.scheduler_lock = SchedulerLock(p.sched_hold_us)
        self.free = 1.0 - p.contention
        self.slice_rate = p.slices_per_tx / (p.client_share * p.base_work_us)
        self.server_rate = 1.0 / ((1 - p.client_share) * p.base_work_us)
        self.fast_iteration_us = p.fast_cp_us + p.fast_spin_us
        self.normal_diag_us = p.normal_cp_us + p.normal_spin_us
        # read on every event, so kept as attributes of the node rather than looked up on the record
        self.fast_path, self.time_slice_us = p.fast_path, p.time_slice_us
        self.fast_yield_us = p.fast_diags_per_yield * self.fast_iteration_us
        self.normal_diags_per_yield = p.normal_diags_per_yield
        self.sibling_retest = p.sibling_retest
        self.fast_spinners = collections.defaultdict(dict)      # guest -> its VPs spinning on the fast path

    def __repr__(self):
        p = self.params
        return (f"{self.mechanism_name}(real_processors={p.real_processors}, client_vps={p.client_vps}, "
                f"fast_path={p.fast_path})")

    # --- virtual processors of a guest -------------------------------------------------
    def vp_limit(self, ind) -> int:
        return 1 if ind.customer_class == SERVER else self.params.client_vps

    def accept(self, next_individual, completed=False):
        ind = next_individual
        if not ind.holds_vp:
            guest = ind.guest
            if self.holding[guest] >= self.vp_limit(ind):
                self.parked[guest].append(ind)  # work queued inside the guest, no VP free
                return
            self.holding[guest] += 1
            ind.holds_vp = True
        if ind is not self.handoff and self.must_wait(ind):
            self._enqueue(ind)
        super().accept(ind, completed)

    def must_wait(self, ind) -> bool:
        """Whether ``ind``'s VP, arriving now, waits in a dispatch queue: every real processor is busy."""
        return self.number_in_service >= self.c

    def others_waiting(self, ind) -> bool:
        """Whether a VP waits for the processor ``ind`` runs on (then a yield or a time slice gives it up)."""
        return self.waiting > 0

    def _enqueue(self, ind) -> None:
        ind.in_queue = True
        self.queued[ind.guest] += 1
        self.waiting += 1
        if self.sibling_retest and self.fast_spinners[ind.guest]:
            self._sibling_queued(ind.guest)

    def _dequeue(self, ind) -> None:
        ind.in_queue = False
        self.queued[ind.guest] -= 1
        self.waiting -= 1

    def choose_next_customer(self):
        if self.handoff is not None and not self.handoff.server:
            return self.handoff
        return super().choose_next_customer()

    # --- the fast path decision ----------------------------------------------------------
    def queued_siblings(self, ind) -> int:
        """Number of other VPs of ``ind``'s guest waiting in this real-processor queue."""
        return self.queued[ind.guest] - (1 if ind.in_queue else 0)

    def running_siblings(self, ind) -> int:
        """Number of other VPs of ``ind``'s guest running on a real processor."""
        return self.running[ind.guest] - (1 if ind.server else 0)

    def takes_fast_path(self, ind) -> bool:
        """The DIAG 44 decision: fast only if enabled and no sibling VP is queued."""
        return self.params.fast_path and self.queued_siblings(ind) == 0

    # --- bursts --------------------------------------------------------------------------
    def get_service_time(self, ind):
        """The VP of ``ind`` is dispatched on a real processor: the length of its first burst."""
        now = self.simulation.current_time
        if ind.in_queue:
            self._dequeue(ind)
        self.running[ind.guest] += 1
        ind.slice_start = ind.burst_start = now
        if ind.state == RETRY:
            return self._try_lock(ind, now)
        if ind.state == SERVE:
            ind.serve_end = now + ind.work_left
            return min(ind.work_left, self.time_slice_us)
        return ind.work_left

    def _try_lock(self, ind, now: float) -> float:
        """The guest lock at the end of a slice: the length of the VP's next burst (spin or next slice)."""
        holders = self.running[ind.guest] - 1
        if holders > 0 and random.random() < 1.0 - self.free ** holders:
            siblings = self.queued[ind.guest]
            if now >= self.warmup:
                self.totals["spins"] += 1
                self.totals["siblings_queued"] += siblings
                self.totals["no_sibling_queued"] += siblings == 0
            ind.spin_start = now
            if self.fast_path and not siblings:
                ind.state = FAST
                if self.sibling_retest:
                    self.fast_spinners[ind.guest][ind] = None
                return self.fast_yield_us
            return self._normal_yield(ind, now)
        return self._slice_done(ind, now)

    def _sibling_queued(self, guest) -> None:
        """A VP of ``guest`` joined the queue: CP's test at each sibling's next fast-path DIAG 44 fails.

        Every sibling spinning on the fast path ends its spin at its next DIAG
        44 (the one in progress is finished first, at least one from the
        spin's start), which then takes the normal path (:meth:`finish_service`).
        """
        now = self.simulation.current_time
        iteration = self.fast_iteration_us
        for ind in self.fast_spinners[guest]:
            end = ind.spin_start + max(math.ceil((now - ind.spin_start) / iteration), 1) * iteration
            if end < ind.service_end_date:
                ind.cut = True
                ind.service_end_date = end
                ind.service_time = end - ind.service_start_date
                ind.server.next_end_service_date = end

    def _normal_yield(self, ind, now: float) -> float:
        """Normal-path DIAG 44s, each through the scheduler lock: ``normal_diags_per_yield`` in one burst, or,
        with ``sibling_retest`` and a VP waiting for this processor, one (the VP then goes to the back of the
        queue)."""
        ind.state = NORMAL
        ind.lock_wait_us = self.scheduler_lock.wait_us(now)
        diags = 1 if self.sibling_retest and self.others_waiting(ind) else self.normal_diags_per_yield
        return diags * (self.normal_diag_us + ind.lock_wait_us)

    def _settle(self, ind, now: float) -> None:
        """Count the DIAG 44s of ``ind``'s spin in place so far (one every spin loop)."""
        elapsed = now - ind.spin_start
        counted = now - max(ind.spin_start, self.warmup) if now > self.warmup else 0.0
        ind.spin_start = now
        if ind.state == FAST:
            if counted > 0:
                self.totals["fast"] += counted / self.fast_iteration_us
            return
        iteration = self.normal_diag_us + ind.lock_wait_us
        self.scheduler_lock.acquire(elapsed / iteration, now)
        if counted > 0:
            self.totals["normal"] += counted / iteration
            self.totals["sched_spin_us"] += counted / iteration * ind.lock_wait_us

    def _slice_done(self, ind, now: float) -> float:
        """A slice of client work is over (the guest lock was had): the next slice, or the end of client work."""
        ind.slices_left -= 1
        if ind.slices_left:
            ind.state = WORK
            ind.work_left = random.expovariate(self.slice_rate)
            return ind.work_left
        ind.state = CLIENT_DONE
        return 0.0

    # --- end of a burst ------------------------------------------------------------------
    def finish_service(self):
        ind = self.decide_between_simultaneous_individuals()
        now = self.simulation.current_time
        if now > self.warmup:
            self.totals["busy_us"] += now - max(ind.burst_start, self.warmup)
        ind.burst_start = now
        state = ind.state
        if state == SERVE:
            self._serve_on(ind, now)
            return
        if state == FAST:
            self._settle(ind, now)
            self.fast_spinners[ind.guest].pop(ind, None)
            if ind.cut:                          # a sibling was queued: this DIAG 44 takes the normal path
                ind.cut = False
                if now >= self.warmup:
                    self.totals["fast_cut"] += 1
                burst = self._normal_yield(ind, now)
            else:                                # the holder let go while this VP spun
                burst = self._slice_done(ind, now)
        elif state == NORMAL:                    # normal-path DIAG 44s done: the back of the queue, then try again
            self._settle(ind, now)
            if self.others_waiting(ind):
                ind.state = RETRY
                self._leave(ind, REAL_PROCESSORS)
                return
            burst = self._try_lock(ind, now)     # nobody waits: the queue gives the processor straight back
        elif state == WORK:                      # the slice's work is done: take the guest lock
            burst = self._try_lock(ind, now)
        else:
            burst = 0.0
        if ind.state == CLIENT_DONE:
            self._client_done(ind, now)
            return
        if ind.state == WORK and self.others_waiting(ind) and now - ind.slice_start >= self.time_slice_us:
            self._leave(ind, REAL_PROCESSORS)     # time slice over: back of the queue
            return
        self._extend(ind, now, burst)

    def _serve_on(self, ind, now: float) -> None:
        """Server work: a time slice done, or all of it."""
        ind.work_left = ind.serve_end - now
        if ind.work_left > 1e-9:
            if self.others_waiting(ind):
                self._leave(ind, REAL_PROCESSORS)
                return
            self._extend(ind, now, min(ind.work_left, self.time_slice_us))
            return
        p = self.params
        self.scheduler_lock.acquire(p.sched_other_per_tx, now)
        if now >= self.warmup:
            self.totals["transactions"] += 1
            self.totals["sched_spin_us"] += ind.other_spin_us
        server = ind.guest
        ind.guest = ind.customer_class = ind.client
        ind.state, ind.slices_left = WORK, p.slices_per_tx
        ind.work_left = random.expovariate(self.slice_rate)
        self._release_vp(ind, IDLE, server)

    def _client_done(self, ind, now: float) -> None:
        """Client work done: the connection's server guest takes over (server work next)."""
        p = self.params
        ind.other_spin_us = p.sched_other_per_tx * self.scheduler_lock.wait_us(now)
        ind.work_left = random.expovariate(self.server_rate) + ind.other_spin_us
        ind.state = SERVE
        client = ind.guest
        ind.guest, ind.customer_class = ind.server_guest, SERVER
        self._release_vp(ind, REAL_PROCESSORS, client)

    def _extend(self, ind, now: float, burst: float) -> None:
        """Keep the processor for another burst, without leaving the node."""
        ind.service_end_date = now + burst
        ind.service_time = ind.service_end_date - ind.service_start_date
        ind.server.next_end_service_date = ind.service_end_date

    def _release_vp(self, ind, next_stop: int, guest: str) -> None:
        """Leave ``guest``'s VP, freed; a connection parked in the same guest takes it over in place."""
        ind.holds_vp = False
        if self.parked[guest]:
            self.handoff = self.parked[guest].popleft()
            self.handoff.holds_vp = True
            super().accept(self.handoff)
        else:
            self.holding[guest] -= 1
        self._leave(ind, next_stop, guest)
        self.handoff = None

    def _leave(self, ind, next_stop: int, guest: str | None = None) -> None:
        """Ciw's own end of service for ``ind`` (on a VP of ``guest``): release it to ``next_stop``."""
        self.running[ind.guest if guest is None else guest] -= 1
        ind.next_stop = next_stop
        next_node = self.simulation.nodes[next_stop]
        ind.destination = next_node.id_number
        ind.service_end_date = self.simulation.current_time
        ind.server.next_end_service_date = math.inf
        self.release(ind, next_node)


class DispatchVectorNode(RealProcessorNode):
    """Real processors with a dispatch queue each (z/VM's dispatch vectors), stealing only when one runs dry.

    Mechanism (document: "As utilization increases on the real processors,
    virtual processors are more likely to be in a real processor queue. If any
    virtual processor is queued when a DIAG 44 is issued, the fast path
    conditions are not met"; z/VM dispatches each VP from the queue of the
    real processor it last ran on):

    * each VP of a guest (``client_vps`` of a client, one of a server) remembers
      the real processor it last ran on, its *home*; a VP that becomes ready
      joins its home's queue and waits there while the home is busy, even if
      another processor is idle; a VP never dispatched yet goes to any idle
      processor;
    * a processor that finishes a burst takes the VP that has waited longest in
      its own queue; only when its own queue is empty (it runs dry) does it
      steal the VP that has waited longest in any other queue;
    * a VP yields, or ends a time slice, in favour of VPs waiting in its own
      processor's queue only;
    * the fast-path test is :class:`RealProcessorNode`'s: no sibling VP of the
      guest queued on *any* processor.

    With one real processor every queue is the one queue, and the records are
    those of :class:`RealProcessorNode` (``tests/diag44/test_mechanism.py``
    checks this).
    """

    mechanism_name = "DispatchVectorNode"

    def __init__(self, id_, simulation):
        super().__init__(id_, simulation)
        self.free_vps = {}                          # guest -> numbers of its VPs no connection holds
        self.home = {}                              # (guest, VP number) -> the server it last ran on
        self.vector_waiting = collections.Counter()  # home server (None: no home yet) -> VPs waiting for it
        self.arriving = None                        # the connection being accepted (accept's choice)
        self.freeing = None                         # the server being freed (release's choice)
        self.server_priority_function = self.home_first

    def home_first(self, server, ind) -> int:
        """Server order for ``ind``'s start of service: its VP's home first (Ciw's server priority)."""
        return 0 if server is self.home.get(ind.vp) else 1

    def accept(self, next_individual, completed=False):
        ind = next_individual
        guest = ind.guest
        if not ind.holds_vp and self.holding[guest] < self.vp_limit(ind):
            free = self.free_vps.setdefault(guest, list(range(self.vp_limit(ind) - 1, -1, -1)))
            ind.vp = (guest, free.pop())
        self.arriving = ind
        super().accept(ind, completed)
        self.arriving = None

    def must_wait(self, ind) -> bool:
        """A VP waits while its home is busy; one with no home yet only while every processor is."""
        home = self.home.get(ind.vp)
        return super().must_wait(ind) if home is None else home.busy

    def others_waiting(self, ind) -> bool:
        return self.vector_waiting[ind.server] + self.vector_waiting[None] > 0

    def _enqueue(self, ind) -> None:
        super()._enqueue(ind)
        ind.vector = self.home.get(ind.vp)
        self.vector_waiting[ind.vector] += 1

    def _dequeue(self, ind) -> None:
        super()._dequeue(ind)
        self.vector_waiting[ind.vector] -= 1

    def choose_next_customer(self):
        """Accepting: the arriving VP if it need not wait.  Releasing: the freed server's own queue, or a steal."""
        server, self.freeing = self.freeing, None
        if server is None:
            ind = self.arriving
            return None if ind is None or ind.in_queue else ind
        if self.handoff is not None and not self.handoff.server:
            return self.handoff                     # the same VP, on the same processor
        oldest = None
        for ind in self.individuals[0]:
            if ind.server or not ind.in_queue:
                continue
            if ind.vector is server or ind.vector is None:
                return ind
            if oldest is None:
                oldest = ind
        return oldest                               # the processor runs dry: it steals

    def get_service_time(self, ind):
        burst = super().get_service_time(ind)
        self.home[ind.vp] = ind.server
        return burst

    def _release_vp(self, ind, next_stop: int, guest: str) -> None:
        if self.parked[guest]:
            self.parked[guest][0].vp = ind.vp       # the parked connection takes the VP over in place
        else:
            self.free_vps[guest].append(ind.vp[1])
        super()._release_vp(ind, next_stop, guest)

    def _leave(self, ind, next_stop: int, guest: str | None = None) -> None:
        self.freeing = ind.server
        super()._leave(ind, next_stop, guest)
        self.freeing = None


class FollowNodeDecision(ciw.routing.NodeRouting):
    """Route a connection to the node :class:`RealProcessorNode` chose for it.

    Mechanism: the outcome of a burst on a real processor (document: the
    introduction's normal path, which puts the VP back in a real-processor
    queue, and the end of a transaction's server work): the real-processor
    node writes ``next_stop`` and this routing obeys it.
    """

    def __repr__(self):
        return "FollowNodeDecision()"

    def next_node(self, ind):
        return self.simulation.nodes[ind.next_stop]


class OffProcessorTime(ciw.dists.Distribution):
    """Time a connection spends away from the real processors (exponential, mean ``mean_us``).

    Mechanism: the workload parameter table's connections move 1 MB files
    between a client and a server guest over virtual connections; between the
    processor bursts of a transaction each end waits for the other without
    holding a real processor.  The report gives no time for it:
    :mod:`.calibration` sets the mean from the base runs' Total Util/Proc.
    """

    def __init__(self, mean_us: float):
        self.mean_us = mean_us

    def __repr__(self):
        return f"OffProcessorTime(mean_us={self.mean_us:g})"

    def sample(self, t=None, ind=None):
        return random.expovariate(1.0 / self.mean_us) if self.mean_us > 0 else 0.0


class IdleNode(DelayNode):
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
    ind.holds_vp = ind.in_queue = ind.cut = False
    ind.state, ind.slices_left = WORK, p.slices_per_tx
    ind.work_left = random.expovariate(p.slices_per_tx / (p.client_share * p.base_work_us))
    ind.slice_start = ind.burst_start = ind.serve_end = ind.other_spin_us = ind.spin_start = ind.lock_wait_us = 0.0
    ind.next_stop = REAL_PROCESSORS
