"""The study's name, its document, its base seed and the parameter record of the model.

:data:`SEED` is the one base seed of every simulated number the study shows
(calibration, comparison, the chapter's runs, widget re-runs and sweeps):
replication *i* of anything uses ``replication_seeds(SEED, n)[i]``.

The record :class:`DiagParams` has three groups of fields:

* the **configuration** a reader varies (real processors, client virtual
  processors, fast path on/off, connections), with the document's values as
  defaults (*Extended Diagnose X'44' Fast Path*, workload parameter table and
  the footnotes of the measurement tables);
* the **workload constants** that :mod:`.calibration` derives from named
  published cells; their defaults are the output of
  :func:`~perfstudies.models.diag44.calibration.calibrate` to six significant
  digits, pinned here so that a widget re-run need not recalibrate
  (``tests/diag44/test_calibration.py`` checks that calibrating again reproduces them);
* the **coarsening** and run length of the simulation.

Times are microseconds of real-processor time (the document's unit) unless a
field says otherwise.
"""

import math
from dataclasses import dataclass

from perfstudies.params import Params, param

KEY = "diag44"
DOCUMENT = "Extended Diagnose X'44' Fast Path (z/VM 5.2.0 performance report, IBM)"
#: The base seed of calibration, comparison, the chapter's runs, widget re-runs and sweeps.
SEED = 442_005
#: The 5-way's own calibrated constants (from its base run EXPT5209; see :mod:`.calibration`):
#: the 5-way runs take these in place of the defaults, which are the 9-way's.
FIVE_WAY = {"contention": 0.188645}
#: Highest utilisation the scheduler lock (``mechanism.SchedulerLock``) uses in its waiting-time formula.
LOCK_RHO_MAX = 0.95
#: Longest mean spin of one scheduler-lock acquisition, in mean holds (``sched_hold_us``), for the event
#: estimate: the lock spins an M/M/1 wait, ``rho / (1 - rho)`` holds (``analytic.mm1_wait``), at most at
#: :data:`LOCK_RHO_MAX`; ``tests/test_event_estimates.py`` checks it.
LOCK_WAIT_HOLDS_MAX = LOCK_RHO_MAX / (1 - LOCK_RHO_MAX)


@dataclass(frozen=True)
class DiagParams(Params):
    """One configuration of the Apache workload under z/VM, and the model's constants."""

    # --- configuration (document: workload table and measurement-table footnotes) ---
    real_processors: int = param(9, low=1, high=16, unit="processors",
                                 doc="dedicated real processors (document: 9 or 5 on a 2064-116)")
    client_vps: int = param(3, low=1, high=8, unit="virtual processors",
                            doc="virtual processors of each client guest (document: 3 or 6)")
    fast_path: bool = param(True, doc="DIAG 44 fast path code enabled")
    connections: int = param(40, low=2, high=120, unit="connections",
                             doc="client-server connections, each with one transaction in flight (document: 40)")
    client_guests: int = param(2, low=1, high=4, unit="guests", doc="client virtual machines (document: 2)")
    server_guests: int = param(20, low=1, high=40, unit="guests",
                               doc="single-processor server virtual machines (document: 20)")
    dispatch_vectors: bool = param(False, doc="a dispatch queue per real processor (z/VM's dispatch vectors, "
                                              "mechanism.DispatchVectorNode) instead of one shared queue; off "
                                              "until the calibration has a fixed point with it (issue 28)")
    sibling_retest: bool = param(False, doc="CP's sibling test at every DIAG 44 of a spin "
                                            "(mechanism.RealProcessorNode._sibling_queued): a fast-path spin "
                                            "turns normal at its next DIAG 44 once a sibling is queued, and a "
                                            "normal-path yield a VP waits behind is one DIAG 44; off: the test "
                                            "once per simulated yield, as calibrated (issue 28)")

    # --- workload constants (derived by calibration.calibrate from named cells) ---
    # base_work_us and client_share are also bounded together: the mean client slice and the mean server
    # work made of them must be at least the smallest normal float (params.MIN_SAMPLED_MEAN), see __post_init__
    base_work_us: float = param(50229.1, low=0.0, low_open=True, high=1e6, unit="us/tx",
                                doc="processor time of one transaction besides DIAG 44s and lock spinning")
    client_share: float = param(0.278456, low=0.0, low_open=True, high=1.0, high_open=True, unit="fraction",
                                doc="share of the base work done by the client guest")
    cp_share: float = param(0.367177, low=0.0, high=1.0, unit="fraction", doc="share of the base work that is CP time")
    normal_cp_us: float = param(15.0634, low=0.0, high=1_000.0, unit="us/DIAG",
                                doc="CP time of one normal-path DIAG 44 (yield, scheduler, redispatch), besides "
                                    "spinning on the scheduler lock")
    normal_spin_us: float = param(13.2176, low=0.0, high=1_000.0, unit="us/DIAG",
                                  doc="guest spinning (emulation time) before each normal-path DIAG 44")
    fast_cp_us: float = param(3.14213, low=0.0, high=1_000.0, unit="us/DIAG", doc="CP time of one fast-path DIAG 44")
    fast_spin_us: float = param(3.4233, low=0.0, high=1_000.0, unit="us/DIAG",
                                doc="guest spinning (emulation time) before each fast-path DIAG 44")
    contention: float = param(0.446859, low=0.0, high=1.0, high_open=True, unit="probability",
                              doc="chance, per running sibling VP, that a client slice ends on a held guest lock")
    fast_diags_per_yield: float = param(585.187, low=1.0, high=10_000.0, unit="DIAG/yield",
                                        doc="DIAG 44s a spinning VP issues on the fast path before the holder lets go")
    normal_diags_per_yield: int = param(50, low=1, high=1_000, unit="DIAG/yield",
                                        doc="normal-path DIAG 44s one simulated yield stands for (a coarsening, as "
                                            "the old model's: the report gives no number; with sibling_retest, "
                                            "only while no VP waits for the processor)")
    off_processor_us: float = param(364425.0, low=0.0, high=1e7, unit="us/tx",
                                    doc="time a connection spends away from the real processors per transaction")
    sched_hold_us: float = param(2.03546, low=0.0, low_open=True, high=1_000.0, unit="us",
                                 doc="mean time CP holds its scheduler lock per acquisition")
    sched_other_per_tx: float = param(983.015, low=0.0, high=1e5, unit="acquisitions/tx",
                                      doc="scheduler-lock acquisitions per transaction by CP work other than "
                                          "normal-path DIAG 44s")
    system_per_normal_us: float = param(1.78148, low=0.0, high=1_000.0, unit="us/DIAG",
                                        doc="CP system time of one normal-path DIAG 44 besides spinning on the "
                                            "scheduler lock")
    system_per_fast_us: float = param(0.237793, low=0.0, high=1_000.0, unit="us/DIAG",
                                      doc="CP system time of one fast-path DIAG 44")
    accounting_ratio: float = param(0.898013, low=0.1, high=2.0, unit="ratio",
                                    doc="processor time utilization shows per microsecond the report charges")
    time_slice_us: float = param(5_000.0, low=100.0, high=1e6, unit="us",
                                 doc="longest a VP runs while others wait before CP puts it back in the queue "
                                     "(z/VM's dispatching time slice; assumed, the report does not give it)")

    # --- coarsening and run length ---
    slices_per_tx: int = param(20, low=1, high=1_000, unit="slices",
                               doc="pieces a transaction's client work is cut into (a guest lock is taken after each)")
    max_time_us: float = param(3.0e6, low=1e4, high=1e8, unit="us", doc="simulated time per replication")
    warmup_us: float = param(5.0e5, low=0.0, high=1e7, unit="us",
                             doc="simulated time discarded at the start (at least what MSER-5 finds on a pilot run)")

    def __post_init__(self):
        super().__post_init__()
        self.check_warmup("warmup_us", "max_time_us")
        # the means the mechanism samples exponential times from (RealProcessorNode's slice_rate and
        # server_rate are their reciprocals, OffProcessorTime's rate is 1 / off_processor_us): each at
        # least the smallest normal float, before events_estimate divides by them
        self.check_sampled_mean(self.client_share * self.base_work_us / self.slices_per_tx,
                                "client_share x base_work_us / slices_per_tx (the mean client slice)",
                                ("base_work_us", "client_share", "slices_per_tx"))
        self.check_sampled_mean((1 - self.client_share) * self.base_work_us,
                                "(1 - client_share) x base_work_us (the mean server work)",
                                ("base_work_us", "client_share"))
        self.check_sampled_mean(self.off_processor_us, "off_processor_us", ("off_processor_us",), zero=True)
        self.check_event_budget(self.events_estimate(), ("max_time_us", "slices_per_tx", "real_processors"),
                                shrinking=("base_work_us", "off_processor_us", "time_slice_us"))

    def events_estimate(self) -> float:
        """About how many Ciw events one replication needs (it errs high).

        Transactions: the run length times the highest transaction rate the
        processors, the client VPs, the server VPs and the connections (each
        away ``off_processor_us`` per transaction) allow, each transaction
        costing at least ``base_work_us`` of processor time, plus the
        connections in flight.  Events per transaction: one per client slice
        and a few for the hand-overs and the idle node.  Server work comes in
        time slices: its share of the base work plus the scheduler-lock spin
        of CP's other acquisitions (up to :data:`LOCK_WAIT_HOLDS_MAX` holds
        each: a long ``sched_hold_us`` makes it thousands of slices), and
        every slice but a transaction's last holds a processor a whole time
        slice, which bounds their number too.  Yields come on top:
        each slice yields again and again while the guest lock stays held (a
        geometric number of times, with the chance ``1 - (1 - contention)^h``,
        ``h`` the siblings that can run), each yield costing an event or two;
        they are bounded by what the processors can serve in the run, since
        each yield holds a processor for its DIAG 44s.  With ``sibling_retest``
        a yield may take a third event: a fast spin a queued sibling cuts short
        turns into a normal-path yield, and a one-DIAG yield hands its
        processor to the VP that waits (whose dispatch the estimate counts
        with that yield).
        """
        work = self.base_work_us
        rate = min(self.real_processors / work,
                   self.client_guests * self.client_vps / (self.client_share * work),
                   self.server_guests / ((1 - self.client_share) * work),
                   self.connections / self.off_processor_us if self.off_processor_us > 0 else math.inf)
        transactions = rate * self.max_time_us + self.connections
        server_us = (1 - self.client_share) * work + self.sched_other_per_tx * LOCK_WAIT_HOLDS_MAX * self.sched_hold_us
        server_slices = min(transactions * (server_us / self.time_slice_us + 1),
                            transactions + self.real_processors * self.max_time_us / self.time_slice_us)
        per_transaction = self.slices_per_tx + 6
        siblings = min(self.client_vps, self.real_processors) - 1
        held = 1 - (1 - self.contention) ** siblings
        yield_us = min(self.fast_diags_per_yield * (self.fast_cp_us + self.fast_spin_us),
                       self.normal_diags_per_yield * (self.normal_cp_us + self.normal_spin_us))
        yields = transactions * self.slices_per_tx * held / (1 - held) if held < 1 else math.inf
        if yield_us > 0:
            yields = min(yields, self.real_processors * self.max_time_us / yield_us)
        return transactions * per_transaction + server_slices + (3 if self.sibling_retest else 2) * yields
