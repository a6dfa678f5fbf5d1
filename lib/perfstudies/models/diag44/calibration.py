"""Calibration on named published cells.

The base runs (fast path off) set the workload of each machine: **9-way
EXPT5200** and **5-way EXPT5209**.  The 9-way fast-path run **EXPTD440** is
needed as well, for what only a fast-path run shows (what a fast-path DIAG 44
costs, how many a spinning VP issues) and for CP's scheduler lock, whose spin
rows the report prints for EXPTD440 and EXPTD441 only (EXPTD440 is the base
of that comparison).  Everything else is predicted.

========================  =====================================================
constant                  set by
========================  =====================================================
``accounting_ratio``      EXPT5200 Total Util/Proc x processors /
                          (Tx rate x Total usec/Tx)  (closed form)
per-transaction and       CP and Emul usec/Tx of EXPT5200, EXPT5209 and
per-DIAG costs            EXPTD440, against DIAG 44s and scheduler-lock
                          spinning per transaction at the model's own
                          transaction rate in those runs: three equations,
                          three unknowns each
``contention``            EXPT5200 DIAG 44/sec - Normal (9-way);
                          EXPT5209 DIAG 44/sec - Normal (5-way value,
                          :data:`.params.FIVE_WAY`)
``off_processor_us``      EXPT5209 Total Util/Proc (one value for both machines)
``client_share``          EXPT5200 Total Util/Proc
``fast_diags_per_yield``  EXPTD440 DIAG 44/sec - Total
``sched_hold_us``,        EXPTD440 Sched Spin Lock Rate and Sched Pct Spin
``sched_other_per_tx``    Time (closed form, :func:`.analytic.lock_from_spin_rows`)
``system_per_normal_us``  EXPT5200 System Util/Proc
``system_per_fast_us``    EXPTD440 System Util/Proc (what it leaves after the
                          scheduler-lock spinning and the normal-path DIAG
                          44s' system time)
========================  =====================================================

The constants that depend on simulated queueing are found together by a
damped fixed-point iteration over the three runs, each simulated with the same
seeds in every round (common random numbers), and the mean of the last rounds'
iterates is returned (Polyak averaging), so that the result does not chase the
noise of one round.  It takes about a minute (14 rounds of three runs of 8
replications); the pinned defaults of :class:`~.params.DiagParams` are its
output, so nothing else needs to run it.  Its states are stored in
``data/runs/diag44-calibration.json`` (``make runs``), so the tests check
the pins against them and replay one round, not the whole calibration.

Two things the report does not give stay assumptions: the time slice (5 ms)
and ``normal_diags_per_yield``, the normal-path DIAG 44s one simulated yield
stands for (50, a coarsening carried over from the first model).  The
fast-path percentages depend on the second (a normal-path yield weighs 50
DIAG 44s against a fast-path yield's ``fast_diags_per_yield``).  CP's test at
every DIAG 44 (``DiagParams.sibling_retest``) would confine it to the yields
nobody waits behind; the calibration runs with that switch off (with one
queue it all but removes the normal path, with a queue per processor this
iteration has no fixed point: the chapter's *What was tried*).
"""

import functools
import os

import numpy as np
import pandas as pd

from perfstudies import data
from perfstudies.cache import read_entry, same, sources_digest, write_entry
from perfstudies.compare import Published
from perfstudies.paths import RUNS
from perfstudies.params import check_integer
from perfstudies.runner import MAX_REPLICATIONS, replicate

from .analytic import lock_from_spin_rows
from .network import model
from .params import FIVE_WAY, KEY, SEED, DiagParams

BASE_RUN = "EXPT5200"      # 9-way, fast path off
SMALL_RUN = "EXPT5209"     # 5-way, fast path off
FAST_RUN = "EXPTD440"      # 9-way, fast path on; base of the 3-vs-6 VP comparison
COST_RUNS = (BASE_RUN, SMALL_RUN, FAST_RUN)
CALIBRATION_REPLICATIONS = 8
CALIBRATION_TIME_US = 4.0e6
CALIBRATION_ROUNDS = 14
#: The last rounds whose iterates are averaged into the result.
AVERAGED_ROUNDS = 5
#: Share of each correction applied per round (the iteration is damped against simulation noise).
DAMPING = 0.6
#: The 5-way base run is nearly processor-bound: its transaction rate moves about a third as much
#: with the off-processor time as the closed-network law says, so that correction is tripled.
Z_GAIN = 3.0
#: Largest factor by which one round may change a constant.
MAX_STEP = 1.25
#: The fields of DiagParams that calibrate() sets (their defaults are its pinned 9-way output).
CALIBRATED_FIELDS = ("accounting_ratio", "base_work_us", "cp_share", "normal_cp_us", "fast_cp_us", "normal_spin_us",
                     "fast_spin_us", "contention", "client_share", "off_processor_us", "fast_diags_per_yield",

                     "sched_hold_us", "sched_other_per_tx", "system_per_normal_us", "system_per_fast_us")
#: Starting values of the iterated constants (rough guesses; the pinned defaults are not used,
#: so that calibrating does not depend on its own previous result).
INITIAL_GUESSES = {"contention": 0.35, "client_share": 0.4, "off_processor_us": 350_000.0,
                   "fast_diags_per_yield": 500.0, "sched_hold_us": 2.0, "sched_other_per_tx": 900.0}
INITIAL_FIVE_WAY = {"contention": 0.16}

#: The calibration's states as last computed (``make runs`` rewrites them, :func:`store_iterates`): the test
#: of the pinned constants replays one round of them instead of the whole calibration (about a minute).
ITERATES = RUNS / "diag44-calibration.json"
#: Print every round's simulated rates and constants (set DIAG44_TRACE=1 to watch a calibration).
TRACE = bool(os.environ.get("DIAG44_TRACE"))
_COSTS = "the per-transaction and per-DIAG 44 costs (cost fit)"
#: (run, metric) of every cell whose published value sets a model constant -> the constants it sets.
CALIBRATION_CELLS = {
    (BASE_RUN, "diag_normal"): "contention (9-way)",
    (BASE_RUN, "total_us_per_tx"): "the accounting ratio",
    (BASE_RUN, "cp_us_per_tx"): _COSTS,
    (BASE_RUN, "emul_us_per_tx"): _COSTS,
    (BASE_RUN, "total_util"): "client_share and the accounting ratio",
    (BASE_RUN, "tx_rate"): "the accounting ratio",
    (BASE_RUN, "system_util"): "system_per_normal_us",
    (SMALL_RUN, "diag_normal"): "contention (5-way)",
    (SMALL_RUN, "cp_us_per_tx"): _COSTS,
    (SMALL_RUN, "emul_us_per_tx"): _COSTS,
    (SMALL_RUN, "total_util"): "off_processor_us",
    (FAST_RUN, "diag_total"): "fast_diags_per_yield",
    (FAST_RUN, "system_util"): "system_per_fast_us",
    (FAST_RUN, "cp_us_per_tx"): _COSTS,
    (FAST_RUN, "emul_us_per_tx"): _COSTS,
    (FAST_RUN, "spin_rate"): "sched_hold_us and sched_other_per_tx",
    (FAST_RUN, "pct_spin"): "sched_hold_us and sched_other_per_tx",
}


def measurements() -> pd.DataFrame:
    """The published measurement cells (``data/diag44/measurements.csv``)."""
    return data.load(KEY, "measurements")


def run_values(table: pd.DataFrame, run_id: str) -> dict[str, float]:
    """``{metric: published value}`` of one run."""
    rows = table[table["run_id"] == run_id]
    return dict(zip(rows["metric"], rows["value"].astype(float)))


def run_config(table: pd.DataFrame, run_id: str) -> dict:
    """The configuration fields of one run (processors, client VPs, fast path) and its machine's constants.

    The 5-way runs take the 5-way calibrated constants (:data:`.params.FIVE_WAY`).
    """
    row = table[table["run_id"] == run_id].iloc[0]
    config = {"real_processors": int(row["processors"]), "client_vps": int(row["client_vps"]),
              "fast_path": bool(row["fast_path"])}
    if config["real_processors"] == 5:
        config.update(FIVE_WAY)
    return config


def published_cell(table: pd.DataFrame, run_id: str, metric: str) -> Published:
    """The named published cell of ``run_id``'s ``metric`` (its first table, if the run is in two)."""
    row = table[(table["run_id"] == run_id) & (table["metric"] == metric)].iloc[0]
    return Published(row["table"], row["row"], f"{row['column']} ({run_id})", float(row["value"]))


def calibration_cells() -> list[Published]:
    """The published cells :func:`calibrate` sets the model's constants from."""
    table = measurements()
    return [published_cell(table, run, metric) for run, metric in CALIBRATION_CELLS]


def calibrated_constants() -> pd.DataFrame:
    """The pinned calibrated constants: columns ``constant``, ``value``, ``unit`` and ``machine``."""
    pinned, spec = DiagParams(), DiagParams.spec()
    rows = [{"constant": field, "value": getattr(pinned, field), "unit": spec[field]["unit"], "machine": "both"}
            for field in CALIBRATED_FIELDS]
    for row in rows:
        if row["constant"] in FIVE_WAY:
            row["machine"] = "9-way"
    rows += [{"constant": field, "value": value, "unit": spec[field]["unit"], "machine": "5-way"}
             for field, value in FIVE_WAY.items()]
    return pd.DataFrame(rows)


def accounting_ratio(base: dict[str, float], processors: int) -> float:
    """Processor time the utilization shows per microsecond the report charges to a transaction."""
    return base["total_util"] / 100 * processors / (base["tx_rate"] * base["total_us_per_tx"] * 1e-6)


def cost_constants(table: pd.DataFrame, ratio: float, counts: dict[str, tuple[float, float, float]]
                   ) -> dict[str, float]:
    """Per-transaction and per-DIAG costs from the three cost runs (closed form).

    For each run, ``ratio x CP usec/Tx = C0 + n_normal c_normal + n_fast c_fast
    + s`` with ``n`` the model's DIAG 44s per transaction in that run and ``s``
    its scheduler-lock spinning per transaction (processor time the model
    charges on top), and likewise Emul usec/Tx without ``s`` (the emulation a
    DIAG 44 costs is the guest spinning before it).  Three runs give three
    equations for each triple.

    Parameters
    ----------
    counts : dict
        ``{run: (normal DIAGs per tx, fast DIAGs per tx, scheduler spin us per tx)}``
        for each of :data:`COST_RUNS`.
    """
    runs = [run_values(table, run) for run in COST_RUNS]
    matrix = np.array([[1.0, counts[run][0], counts[run][1]] for run in COST_RUNS])
    spin = np.array([counts[run][2] for run in COST_RUNS])
    cp = np.linalg.solve(matrix, ratio * np.array([r["cp_us_per_tx"] for r in runs]) - spin)
    emul = np.linalg.solve(matrix, ratio * np.array([r["emul_us_per_tx"] for r in runs]))
    if (cp < 0).any() or (emul < 0).any():
        raise ValueError(f"cost fit gave a negative cost: cp={cp}, emul={emul}")
    cp, emul = cp.tolist(), emul.tolist()
    return {"base_work_us": cp[0] + emul[0], "cp_share": cp[0] / (cp[0] + emul[0]),
            "normal_cp_us": cp[1], "fast_cp_us": cp[2], "normal_spin_us": emul[1], "fast_spin_us": emul[2]}


def _simulate(p: DiagParams, replications: int) -> dict[str, float]:
    runs = replicate(model, p, replications=replications, seed=SEED, progress=False)
    return runs.summary()["mean"].to_dict()


def _counts(published: dict[str, float], sim: dict[str, float], processors: int) -> tuple[float, float, float]:
    """DIAG 44s and scheduler-lock spinning per transaction of one cost run, at the model's transaction rate.

    The DIAG 44 rates of the cost runs are calibrated to the published ones
    (normal on each, total on EXPTD440), so at the fixed point the model's
    DIAG 44s per transaction are the published rates over its own transaction
    rate; using those (rather than the model's noisy rates of the round) keeps
    the fit stable while the rates converge.
    """
    spin_per_s = sim["pct_spin"] / 100 * processors * 1e6
    return (published["diag_normal"] / sim["tx_rate"], published["diag_fast"] / sim["tx_rate"],
            spin_per_s / sim["tx_rate"])


def _target_rate(published: dict[str, float], sim: dict[str, float], processors: int, ratio: float) -> float:
    """The transaction rate at which the model's busy time per transaction gives the published utilization."""
    busy_per_tx = sim["total_us_per_tx"] * ratio
    return published["total_util"] / 100 * processors * 1e6 / busy_per_tx


def _damped(old: float, new: float) -> float:
    return old + DAMPING * (new - old)


def _step(old: float, ratio: float, power: float = 1.0) -> float:
    """``old`` moved towards ``old x ratio^power``, damped, by at most :data:`MAX_STEP` either way."""
    factor = min(max(ratio ** (power * DAMPING), 1 / MAX_STEP), MAX_STEP)
    return old * factor


def calibrate_machines(rounds: int = CALIBRATION_ROUNDS, replications: int = CALIBRATION_REPLICATIONS
                       ) -> tuple[DiagParams, dict[str, float]]:
    """The calibrated 9-way parameter record and the 5-way's own constants (see :func:`calibrate`).

    ``rounds`` must exceed :data:`AVERAGED_ROUNDS` (the iterates averaged) and ``replications`` is
    1 to :data:`perfstudies.runner.MAX_REPLICATIONS`; both are refused by name before any run.
    """
    return averaged(calibration_iterates(rounds, replications))


def calibration_iterates(rounds: int = CALIBRATION_ROUNDS, replications: int = CALIBRATION_REPLICATIONS
                         ) -> list[tuple[dict[str, float], dict[str, float]]]:
    """Every state of the iteration: the start, then each round's (9-way constants, 5-way constants).

    A state is ``({field: value} of CALIBRATED_FIELDS, {"contention": value})``;
    round *k* is :func:`calibration_round` of state *k - 1*, so any one round can
    be replayed from the state before it (``tests/diag44/test_calibration.py``
    replays one of the stored :data:`ITERATES` instead of the whole calibration).
    """
    rounds = check_integer("rounds", rounds, low=AVERAGED_ROUNDS + 1)
    replications = check_integer("replications", replications, low=1, high=MAX_REPLICATIONS)
    return list(_iterates(rounds, replications))


@functools.cache
def _iterates(rounds: int, replications: int) -> tuple:
    states = [calibration_start()]
    for _ in range(rounds):
        states.append(calibration_round(states[-1], replications))
        if TRACE:
            print(states[-1], flush=True)
    return tuple(states)


def calibration_start() -> tuple[dict[str, float], dict[str, float]]:
    """The iteration's first state: the closed-form accounting ratio and cost fit, the initial guesses,
    and the pinned defaults for the rest (the system times)."""
    table = measurements()
    published = {run: run_values(table, run) for run in COST_RUNS}
    nine = DiagParams(max_time_us=CALIBRATION_TIME_US)
    ratio = accounting_ratio(published[BASE_RUN], nine.real_processors)
    nine = nine.replace(accounting_ratio=ratio, **INITIAL_GUESSES)
    counts = {run: (published[run]["diag_normal"] / published[run]["tx_rate"],
                    published[run]["diag_fast"] / published[run]["tx_rate"], 0.0) for run in COST_RUNS}
    nine = nine.replace(**cost_constants(table, ratio, counts))
    return {name: getattr(nine, name) for name in CALIBRATED_FIELDS}, dict(INITIAL_FIVE_WAY)


def calibration_round(state: tuple[dict[str, float], dict[str, float]],
                      replications: int = CALIBRATION_REPLICATIONS) -> tuple[dict[str, float], dict[str, float]]:
    """One round of the damped fixed-point iteration (see :func:`calibrate`): the next state from ``state``.

    The three cost runs are simulated at ``state`` with the same seeds every
    round (common random numbers), and every constant moves towards what the
    published cells ask of it.
    """
    table = measurements()
    published = {run: run_values(table, run) for run in COST_RUNS}
    base, small, fast = (published[run] for run in COST_RUNS)
    fields, five = state
    nine = DiagParams(max_time_us=CALIBRATION_TIME_US).replace(**fields)
    ratio = nine.accounting_ratio
    configs = {run: {"real_processors": 9 if run != SMALL_RUN else 5, "client_vps": 3,
                     "fast_path": run == FAST_RUN} for run in COST_RUNS}
    sims = {run: _simulate(nine.replace(**configs[run], **(five if run == SMALL_RUN else {})), replications)
            for run in COST_RUNS}
    counts = {run: _counts(published[run], sims[run], configs[run]["real_processors"]) for run in COST_RUNS}
    s9, s5, sf = sims[BASE_RUN], sims[SMALL_RUN], sims[FAST_RUN]
    lock = lock_from_spin_rows(fast["spin_rate"], fast["pct_spin"] / 100 * 9, sf["diag_normal"], sf["tx_rate"])
    spin_9 = s9["pct_spin"] / 100 * 9 * 1e6
    system = (base["system_util"] / 100 * 9 * 1e6 - spin_9) / s9["diag_normal"]
    if system < 0:
        raise ValueError(f"calibration failed: the simulated scheduler-lock spin exceeds EXPT5200's "
                         f"system time (system_per_normal_us = {system:.3g})")
    spin_f = sf["pct_spin"] / 100 * 9 * 1e6
    system_fast = (fast["system_util"] / 100 * 9 * 1e6 - spin_f - system * sf["diag_normal"]) / sf["diag_fast"]
    if system_fast < 0:
        raise ValueError(f"calibration failed: EXPTD440's simulated scheduler-lock spinning and normal-path "
                         f"system time exceed its system time (system_per_fast_us = {system_fast:.3g})")
    rate_9, rate_5 = _target_rate(base, s9, 9, ratio), _target_rate(small, s5, 5, ratio)
    costs = cost_constants(table, ratio, counts)
    nine = nine.replace(
        **{name: _damped(getattr(nine, name), value) for name, value in costs.items()},
        contention=min(_step(nine.contention, base["diag_normal"] / s9["diag_normal"]), 0.95),
        fast_diags_per_yield=_step(nine.fast_diags_per_yield, (fast["diag_total"] - sf["diag_normal"])
                                   / sf["diag_fast"]),
        sched_hold_us=lock["hold_us"], sched_other_per_tx=lock["other_per_tx"], system_per_normal_us=system,
        system_per_fast_us=system_fast,
        # closed-network law: a cycle of the 40 connections lasts connections / rate
        off_processor_us=max(_damped(nine.off_processor_us, nine.off_processor_us + Z_GAIN * nine.connections
                                     * 1e6 * (1 / rate_5 - 1 / s5["tx_rate"])), 0.0),
        client_share=min(_step(nine.client_share, s9["tx_rate"] / rate_9, power=4.0), 0.95),
    )
    five = {"contention": min(_step(five["contention"], small["diag_normal"] / s5["diag_normal"]), 0.95)}
    return {name: getattr(nine, name) for name in CALIBRATED_FIELDS}, five


def averaged(states) -> tuple[DiagParams, dict[str, float]]:
    """The calibration's result from its states: the mean of the last :data:`AVERAGED_ROUNDS` rounds
    (Polyak averaging: steadier than the last one), as the 9-way record at the chapter's run length
    and the 5-way's constants."""
    last = list(states)[-AVERAGED_ROUNDS:]
    nine = DiagParams().replace(**{name: float(np.mean([fields[name] for fields, _ in last]))
                                   for name in CALIBRATED_FIELDS})
    five = {name: float(np.mean([machine[name] for _, machine in last])) for name in last[0][1]}
    return nine, five


def calibrate(rounds: int = CALIBRATION_ROUNDS, replications: int = CALIBRATION_REPLICATIONS) -> DiagParams:
    """Return the model's parameter record (the 9-way's) with every workload constant calibrated.

    The accounting ratio is set once (closed form).  The constants that depend
    on simulated queueing are then corrected for ``rounds`` rounds, each
    simulating the three runs with the same seeds, and the mean of the last
    :data:`AVERAGED_ROUNDS` iterates is returned: the costs solve the cost fit;
    each machine's contention scales with its base run's normal-path DIAG rate
    error; the DIAG 44s per fast-path yield are read off EXPTD440's total DIAG
    rate; the scheduler lock's hold and other acquisitions solve EXPTD440's
    spin rows; the system time of a normal-path DIAG 44 is what EXPT5200's
    system utilization leaves after the simulated scheduler-lock spinning, and
    that of a fast-path DIAG 44 what EXPTD440's leaves after its spinning and
    its normal-path DIAG 44s' system time; the
    off-processor time moves EXPT5209's transaction rate, and the client's
    share EXPT5200's, towards the rate at which the run's utilization is the
    published one.  The 5-way's contention is :func:`calibrate_machines`' second result.
    """
    return calibrate_machines(rounds, replications)[0]


def stored_iterates() -> list[tuple[dict[str, float], dict[str, float]]]:
    """The calibration's states as stored in :data:`ITERATES` (ValueError naming the file if unusable)."""
    return list(read_entry(ITERATES, "diag44-calibration")[1])


def store_iterates() -> str:
    """Run the whole calibration and rewrite :data:`ITERATES` if its states differ; say which, in one line."""
    states = calibration_iterates()
    if ITERATES.exists() and same(stored_iterates(), states):
        return f"diag44: {ITERATES} reproduces; unchanged"
    write_entry(ITERATES, "diag44-calibration", sources_digest(KEY)[:24], states)
    return f"diag44: wrote {ITERATES} ({len(states) - 1} rounds)"
