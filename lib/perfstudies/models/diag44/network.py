"""The Ciw network of the DIAG X'44' study and its one-replication model.

Customers are the **connections** (40 in the document), each with one
transaction in flight.  Connection *i* belongs to client guest ``i mod
client_guests`` and to one single-processor server guest.  A transaction is
client work (cut into slices), then server work, then time away from the
processors (network and file access).  Three nodes:

1. ``REAL_PROCESSORS`` (``real_processors`` servers), node class
   :class:`RealProcessorNode`.  A connection here runs on one of its guest's
   virtual processors (VPs): a guest never has more connections here than VPs
   (``client_vps`` for a client, one for a server); the others wait inside the
   guest, out of sight of the real processors.  A connection waiting here is a
   VP *in a real-processor queue*.  At the end of each client slice the VP
   takes a guest lock; the lock is held by a running sibling with probability
   ``contention`` per running sibling, and then the VP spins and issues DIAG
   X'44' (a yield).  The node looks at its own queue: when no sibling VP of the
   same guest waits there, the yield takes the **fast path** and the VP keeps
   its processor; otherwise (or with the fast path off) the **normal path**.
2. ``SCHEDULER_LOCK`` (one server): the normal path holds the scheduler lock;
   waiting here is spinning on it.  The VP then re-enters the real-processor
   queue at its back, and is charged the normal path's CP time and the guest
   spinning once dispatched.
3. ``IDLE`` (infinite servers): the connection away from the processors.

One simulated normal-path yield stands for ``diags_per_yield`` DIAG 44s and one
fast-path yield for ``fast_diags_per_yield``, so that a replication runs in a
fraction of a second.
"""

import collections
import math
import random

import ciw

from perfstudies.fifo import FIFONode
from perfstudies.networks import closed_population
from perfstudies.runner import run_ciw

from .params import DiagParams

REAL_PROCESSORS, SCHEDULER_LOCK, IDLE = 1, 2, 3
SERVER = "server"
US_PER_S = 1e6


def client_class(guest: int) -> str:
    """Customer-class name of client guest ``guest``'s connections (siblings share it)."""
    return f"client{guest}"


class BurstTime(ciw.dists.Distribution):
    """Processor time of a connection's next dispatch, read from its own state.

    Server work runs for at most one time slice; client work is one slice; right after a
    normal-path yield it is the time just spent at the scheduler lock plus the
    yield's CP time and guest spinning.  (That time burned a real processor on
    the real machine; the model charges it when the VP is dispatched again.)
    """

    def __init__(self, p: DiagParams):
        self.p = p

    def sample(self, t=None, ind=None):
        p = self.p
        if ind.customer_class == SERVER:
            return min(ind.server_work_left, p.time_slice_us)
        if ind.redispatched:
            lock_visit = ind.data_records[-1]
            return lock_visit.waiting_time + p.diags_per_yield * (p.normal_cp_us + p.normal_spin_us)
        return random.expovariate(p.slices_per_tx / (p.client_share * p.base_work_us))


class Latency(ciw.dists.Distribution):
    """Time a connection spends away from the processors (exponential, mean ``mean_us``)."""

    def __init__(self, mean_us: float):
        self.mean_us = mean_us

    def sample(self, t=None, ind=None):
        return random.expovariate(1.0 / self.mean_us) if self.mean_us > 0 else 0.0


class FollowNodeDecision(ciw.routing.NodeRouting):
    """Route a connection to the node :class:`RealProcessorNode` chose for it."""

    def next_node(self, ind):
        return self.simulation.nodes[ind.next_stop]


class RealProcessorNode(FIFONode):
    """Real processors: VP limits per guest, and the fast/normal path decision.

    Every event of interest is appended to ``self.log`` as ``(time, kind, amount)``.
    """

    def __init__(self, id_, simulation):
        super().__init__(id_, simulation)
        self.p: DiagParams = simulation.network.diag44_params
        self.log: list[tuple[float, str, float]] = []
        self.holding = collections.Counter()          # guest -> connections on its VPs
        self.parked = collections.defaultdict(collections.deque)  # guest -> connections waiting for a VP
        self.handoff = None

    # --- virtual processors of a guest -------------------------------------------------
    def vp_limit(self, ind) -> int:
        return 1 if ind.customer_class == SERVER else self.p.client_vps

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
        return self.p.fast_path and self.queued_siblings(ind) == 0

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
        ind.slices_left = self.p.slices_per_tx
        ind.server_work_left = random.expovariate(1.0 / ((1 - self.p.client_share) * self.p.base_work_us))
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
        if ind.fast_extension:
            ind.fast_extension = False          # the holder released the lock while this VP spun
        else:
            ind.redispatched = False            # after a normal-path yield the VP tries the lock again
            holders = self.running_siblings(ind)
            if holders and random.random() < 1 - (1 - self.p.contention) ** holders:
                self.log.append((now, "siblings_queued", self.queued_siblings(ind)))
                if self.takes_fast_path(ind):
                    self.log.append((now, "fast", self.p.fast_diags_per_yield))
                    ind.fast_extension = True
                    return self.p.fast_diags_per_yield * (self.p.fast_cp_us + self.p.fast_spin_us)
                self.log.append((now, "normal", float(self.p.diags_per_yield)))
                ind.redispatched = True
                ind.next_stop = SCHEDULER_LOCK
                return None
        ind.slices_left -= 1
        self.log.append((now, "slice", 1.0))
        if ind.slices_left == 0:
            ind.next_stop = None
            return None
        if now - ind.service_start_date >= self.p.time_slice_us:
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
    """Time away from the processors; also gives each injected connection its identity."""

    def __init__(self, id_, simulation):
        super().__init__(id_, simulation)
        self.injected = 0

    def accept(self, next_individual, completed=False):
        if not hasattr(next_individual, "guest"):
            p = self.simulation.network.diag44_params
            start_connection(next_individual, self.injected, p)
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


def connections_per_client(p: DiagParams) -> dict[str, int]:
    """Number of connections of each client guest (round robin over the guests)."""
    return {client_class(g): len(range(g, p.connections, p.client_guests)) for g in range(p.client_guests)}


def build_network(p: DiagParams) -> ciw.Network:
    """The three-node Ciw network; every connection is injected into ``IDLE`` just after time 0."""
    counts = {name: n for name, n in connections_per_client(p).items() if n > 0}
    classes = [*counts, SERVER]
    never = ciw.dists.Sequential([math.inf])

    def inject(count):
        return closed_population(count, gap=1e-3).arrivals if count else never

    network = ciw.create_network(
        arrival_distributions={c: [never, never, inject(counts.get(c, 0))] for c in classes},
        service_distributions={c: [BurstTime(p), ciw.dists.Deterministic(p.lock_hold_us * p.diags_per_yield),
                                   Latency(p.latency_us)] for c in classes},
        number_of_servers=[p.real_processors, 1, math.inf],
        routing={c: ciw.routing.NetworkRouting(routers=[FollowNodeDecision(), ciw.routing.Direct(to=REAL_PROCESSORS),
                                                        ciw.routing.Direct(to=REAL_PROCESSORS)])
                 for c in classes},
    )
    network.diag44_params = p
    return network


def model(p: DiagParams, seed: int) -> dict[str, float]:
    """One replication: the document's measured quantities, in the document's units."""
    simulation, records = run_ciw(build_network(p), seed, p.max_time_us, p.warmup_us,
                                  node_class=[RealProcessorNode, FIFONode, IdleNode])
    return metrics(p, simulation.nodes[REAL_PROCESSORS].log, records)


def metrics(p: DiagParams, log, records) -> dict[str, float]:
    """Turn the processor node's event log and the lock records into the report's rows.

    Per-transaction times are divided by ``accounting_ratio`` to be in the
    report's accounting (see :mod:`.calibration`).
    """
    window_us = p.max_time_us - p.warmup_us
    window_s = window_us / US_PER_S
    totals = collections.Counter()
    counts = collections.Counter()
    for time, kind, amount in log:
        if time >= p.warmup_us:
            totals[kind] += amount
            counts[kind] += 1
    lock = records[records["node"] == SCHEDULER_LOCK]
    spins = lock[lock["waiting_time"] > 0]
    spin_us = float(spins["waiting_time"].sum())
    tx = max(totals["slice"], 1.0) / p.slices_per_tx
    normal, fast = totals["normal"], totals["fast"]
    base = totals["busy"] - normal * (p.normal_cp_us + p.normal_spin_us) - fast * (p.fast_cp_us + p.fast_spin_us) - spin_us
    cp = p.cp_share * base + normal * p.normal_cp_us + fast * p.fast_cp_us + spin_us
    system = normal * p.lock_hold_us + spin_us
    scale = 1.0 / p.accounting_ratio
    yields = counts["normal"] + counts["fast"]
    slots = yields * (p.client_vps - 1)
    return {
        "tx_rate": tx / window_s,
        "diag_normal": normal / window_s,
        "diag_fast": fast / window_s,
        "diag_total": (normal + fast) / window_s,
        "pct_fast": 100.0 * fast / (normal + fast) if normal + fast else math.nan,
        "total_us_per_tx": scale * totals["busy"] / tx,
        "cp_us_per_tx": scale * cp / tx,
        "emul_us_per_tx": scale * (totals["busy"] - cp) / tx,
        "total_util": 100.0 * totals["busy"] / (p.real_processors * window_us),
        "system_util": 100.0 * system / (p.real_processors * window_us),
        "spin_rate": len(spins) * p.diags_per_yield / window_s,
        "pct_spin": 100.0 * spin_us / (p.real_processors * window_us),
        "server_rate": counts["server_done"] / window_s,
        "yields_per_s": yields / window_s,
        "fast_yield_share": counts["fast"] / yields if yields else math.nan,
        "sibling_queued_share": totals["siblings_queued"] / slots if slots else math.nan,
    }
