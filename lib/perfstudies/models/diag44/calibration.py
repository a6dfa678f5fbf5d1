"""Calibration on named published cells.

The model's constants come from three runs: the base run, **9-way with the
fast path off (EXPT5200)**, and two further runs whose cells are needed to
tell costs apart that the base run alone cannot separate: the **5-way base
run (EXPT5209)** and the **9-way fast-path run (EXPTD440)**.

========================  =====================================================
constant                  derived from
========================  =====================================================
``accounting_ratio``      EXPT5200 Total Util/Proc x processors /
                          (Tx rate x Total usec/Tx)  (closed form)
per-transaction and       CP and Emul usec/Tx of EXPT5200, EXPT5209 and
per-DIAG costs            EXPTD440 against their DIAG 44s per transaction:
                          three equations, three unknowns each (closed form)
``contention``            EXPT5200 DIAG 44/sec - Normal (simulation, iterated)
``lock_hold_us``          EXPT5200 System Util/Proc (simulation, iterated)
``client_share``          EXPT5200 Tx rate (simulation, iterated)
``fast_diags_per_yield``  EXPTD440 DIAG 44/sec - Total (simulation, iterated)
========================  =====================================================

The time a connection spends away from the processors (``latency_us``) is
not in the document and stays at its default of zero: with 40 connections and
6 client VPs, the client guests always have work waiting, so the base run's
transaction rate is set by how long a client VP is occupied per transaction,
which the client's share of the work decides.
"""

import functools

import numpy as np
import pandas as pd

from perfstudies import data
from perfstudies.compare import Published
from perfstudies.runner import replicate

from .network import model
from .params import SEED, STUDY, DiagParams

BASE_RUN = "EXPT5200"      # 9-way, fast path off: the calibration run
SMALL_RUN = "EXPT5209"     # 5-way, fast path off: separates per-DIAG from per-transaction cost
FAST_RUN = "EXPTD440"      # 9-way, fast path on: the cost of a fast-path DIAG 44
COST_RUNS = (BASE_RUN, SMALL_RUN, FAST_RUN)
CALIBRATION_REPLICATIONS = 3
CALIBRATION_ROUNDS = 5
#: The fields of DiagParams that calibrate() sets (their defaults are its pinned output).
CALIBRATED_FIELDS = ("accounting_ratio", "base_work_us", "cp_share", "normal_cp_us", "fast_cp_us", "normal_spin_us",
                     "fast_spin_us", "contention", "lock_hold_us", "client_share", "fast_diags_per_yield")
#: Starting values of the iterated constants (rough guesses; the pinned defaults are not used,
#: so that calibrating does not depend on its own previous result).
INITIAL_GUESSES = {"contention": 0.3, "lock_hold_us": 3.0, "client_share": 0.25, "fast_diags_per_yield": 200.0}

_COSTS = "the per-transaction and per-DIAG 44 costs (cost fit)"
#: (run, metric) of every cell whose published value sets a model constant -> the constants it sets.
#: (The cost fit also reads the published DIAG 44 rates and transaction rates of the three cost runs,
#: as DIAG 44s per transaction; those cells set no constant by themselves and the simulation makes
#: its own, so they are compared as predictions or derived cells.)
CALIBRATION_CELLS = {
    (BASE_RUN, "tx_rate"): "client_share and the accounting ratio",
    (BASE_RUN, "diag_normal"): "contention",
    (BASE_RUN, "total_us_per_tx"): "the accounting ratio",
    (BASE_RUN, "cp_us_per_tx"): _COSTS,
    (BASE_RUN, "emul_us_per_tx"): _COSTS,
    (BASE_RUN, "total_util"): "the accounting ratio",
    (BASE_RUN, "system_util"): "lock_hold_us",
    (FAST_RUN, "diag_total"): "fast_diags_per_yield",
    (FAST_RUN, "cp_us_per_tx"): _COSTS,
    (FAST_RUN, "emul_us_per_tx"): _COSTS,
    (SMALL_RUN, "cp_us_per_tx"): _COSTS,
    (SMALL_RUN, "emul_us_per_tx"): _COSTS,
}


def measurements() -> pd.DataFrame:
    """The published measurement cells (``data/diag44/measurements.csv``)."""
    return data.load(STUDY, "measurements")


def run_values(table: pd.DataFrame, run_id: str) -> dict[str, float]:
    """``{metric: published value}`` of one run."""
    rows = table[table["run_id"] == run_id]
    return dict(zip(rows["metric"], rows["value"].astype(float)))


def run_config(table: pd.DataFrame, run_id: str) -> dict:
    """The configuration fields of one run (processors, client VPs, fast path)."""
    row = table[table["run_id"] == run_id].iloc[0]
    return {"real_processors": int(row["processors"]), "client_vps": int(row["client_vps"]),
            "fast_path": bool(row["fast_path"])}


def published_cell(table: pd.DataFrame, run_id: str, metric: str) -> Published:
    """The named published cell of ``run_id``'s ``metric`` (its first table, if the run is in two)."""
    row = table[(table["run_id"] == run_id) & (table["metric"] == metric)].iloc[0]
    return Published(row["table"], row["row"], f"{row['column']} ({run_id})", float(row["value"]))


def calibration_cells() -> list[Published]:
    """The published cells :func:`calibrate` sets the model's constants from."""
    table = measurements()
    return [published_cell(table, run, metric) for run, metric in CALIBRATION_CELLS]


def calibrated_constants() -> pd.DataFrame:
    """The pinned calibrated constants (the defaults of :class:`DiagParams` that :func:`calibrate` returns).

    Columns ``constant``, ``value`` and ``unit``.
    """
    pinned, spec = DiagParams(), DiagParams.spec()
    return pd.DataFrame([{"constant": field, "value": getattr(pinned, field), "unit": spec[field]["unit"]}
                         for field in CALIBRATED_FIELDS])


def accounting_ratio(base: dict[str, float], processors: int) -> float:
    """Processor time the utilization shows per microsecond the report charges to a transaction."""
    return base["total_util"] / 100 * processors / (base["tx_rate"] * base["total_us_per_tx"] * 1e-6)


def cost_constants(table: pd.DataFrame, ratio: float) -> dict[str, float]:
    """Per-transaction and per-DIAG costs from the three cost runs (closed form).

    For each run, CP usec/Tx = C0 + n_normal c_normal + n_fast c_fast, with n the
    published DIAG 44s per transaction, and likewise for Emul usec/Tx (the
    emulation a DIAG costs is the guest spinning before it).  Three runs give
    three equations for each triple; costs are scaled to processor time by the
    accounting ratio.
    """
    runs = [run_values(table, run) for run in COST_RUNS]
    counts = np.array([[1.0, r["diag_normal"] / r["tx_rate"], r["diag_fast"] / r["tx_rate"]] for r in runs])
    cp = ratio * np.linalg.solve(counts, [r["cp_us_per_tx"] for r in runs])
    emul = ratio * np.linalg.solve(counts, [r["emul_us_per_tx"] for r in runs])
    if (cp < 0).any() or (emul < 0).any():
        raise ValueError(f"cost fit gave a negative cost: cp={cp}, emul={emul}")
    cp, emul = cp.tolist(), emul.tolist()
    return {"base_work_us": cp[0] + emul[0], "cp_share": cp[0] / (cp[0] + emul[0]),
            "normal_cp_us": cp[1], "fast_cp_us": cp[2], "normal_spin_us": emul[1], "fast_spin_us": emul[2]}


def _mean_metrics(p: DiagParams, replications: int) -> dict[str, float]:
    runs = replicate(model, p, replications=replications, seed=SEED, progress=False)
    return runs.summary()["mean"].to_dict()


def _next_client_share(p: DiagParams, target_rate: float, simulated_rate: float) -> float:
    """Operational-law update of the client's share of the base work.

    The client VPs are the bottleneck: together they are occupied
    ``vps / rate`` per transaction, so the client work per transaction moves by
    ``vps * (1/target - 1/simulated)`` (half a step, to damp simulation noise).
    """
    vps = p.client_guests * p.client_vps
    client_work = p.client_share * p.base_work_us + 0.5e6 * vps * (1 / target_rate - 1 / simulated_rate)
    share = client_work / p.base_work_us
    if not 0 < share < 1:
        raise ValueError(f"calibration failed: client_share = {share:.3g} is out of range: allowed 0 < share < 1")
    return share


@functools.cache
def calibrate(rounds: int = CALIBRATION_ROUNDS, replications: int = CALIBRATION_REPLICATIONS) -> DiagParams:
    """Return the model's parameter record with every workload constant calibrated.

    The closed-form constants are set once.  The four that depend on simulated
    queueing are then corrected for ``rounds`` rounds, each simulating the
    base run and the fast-path run with the same seeds: contention scales
    with the normal-path DIAG rate error, the lock hold time takes the system
    time the base run leaves after the simulated spinning, the client share
    follows the operational law, and the DIAGs per fast-path yield are read
    off the fast-path run's total DIAG rate.
    """
    table = measurements()
    base, fast = run_values(table, BASE_RUN), run_values(table, FAST_RUN)
    p = DiagParams(**run_config(table, BASE_RUN))
    ratio = accounting_ratio(base, p.real_processors)
    p = p.replace(accounting_ratio=ratio, **cost_constants(table, ratio), **INITIAL_GUESSES)
    system_target = base["system_util"] / 100 * p.real_processors * 1e6   # processor-us per second
    fast_config = run_config(table, FAST_RUN)
    for _ in range(rounds):
        sim = _mean_metrics(p, replications)
        lock_hold = (system_target - sim["pct_spin"] / 100 * p.real_processors * 1e6) / base["diag_normal"]
        if lock_hold <= 0:
            raise ValueError(f"calibration failed: simulated spin exceeds the base run's system time "
                             f"(lock_hold_us = {lock_hold:.3g})")
        on = _mean_metrics(p.replace(**fast_config), replications)
        p = p.replace(
            contention=min(p.contention * base["diag_normal"] / sim["diag_normal"], 0.95),
            lock_hold_us=lock_hold,
            client_share=_next_client_share(p, base["tx_rate"], sim["tx_rate"]),
            fast_diags_per_yield=(fast["diag_total"] - on["diag_normal"]) / (on["diag_fast"] / p.fast_diags_per_yield),
        )
    return p
