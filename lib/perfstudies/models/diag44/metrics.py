"""From one replication's totals to the report's rows.

The real-processor node counts, after the warm-up, its processor time, the
DIAG 44s of each path, the spinning on CP's scheduler lock, the transactions
and what every yield saw (``RealProcessorNode.totals``); :func:`metrics`
turns them into the quantities of the document's measurement tables, in its
units, and into the quantities the chapter's theory section needs.
"""

import math

from .params import DiagParams

US_PER_S = 1e6


def metrics(p: DiagParams, totals) -> dict[str, float]:
    """The report's rows (and the theory's quantities) from the node's totals.

    Per-transaction times are divided by ``accounting_ratio`` to be in the
    report's accounting (see :mod:`.calibration`).  The scheduler lock's spin
    rate is the rate of acquisitions that find it held: acquisitions a second
    times the share of time it is held (Poisson arrivals see time averages).
    """
    window_us = p.max_time_us - p.warmup_us
    window_s = window_us / US_PER_S
    capacity_us = p.real_processors * window_us
    transactions = totals["transactions"]
    tx = max(transactions, 1.0)
    normal, fast = totals["normal"], totals["fast"]
    busy = totals["busy_us"]
    sched_spin = totals["sched_spin_us"]
    diag_cp = normal * p.normal_cp_us + fast * p.fast_cp_us
    diag_emul = normal * p.normal_spin_us + fast * p.fast_spin_us
    base = busy - diag_cp - diag_emul - sched_spin
    cp = p.cp_share * base + diag_cp + sched_spin
    scale = 1.0 / p.accounting_ratio
    acquisitions_per_s = (normal + p.sched_other_per_tx * transactions) / window_s
    lock_held = min(acquisitions_per_s * p.sched_hold_us / US_PER_S, 1.0)
    spins = totals["spins"]
    siblings = p.client_vps - 1
    return {
        "tx_rate": transactions / window_s,
        "diag_normal": normal / window_s,
        "diag_fast": fast / window_s,
        "diag_total": (normal + fast) / window_s,
        "pct_fast": 100.0 * fast / (normal + fast) if normal + fast else math.nan,
        "total_us_per_tx": scale * busy / tx,
        "cp_us_per_tx": scale * cp / tx,
        "emul_us_per_tx": scale * (busy - cp) / tx,
        "total_util": 100.0 * busy / capacity_us,
        "system_util": 100.0 * (sched_spin + normal * p.system_per_normal_us + fast * p.system_per_fast_us)
        / capacity_us,
        "spin_rate": acquisitions_per_s * lock_held,
        "pct_spin": 100.0 * sched_spin / capacity_us,
        "lock_utilisation": lock_held,
        "spins_per_s": spins / window_s,
        "no_sibling_share": totals["no_sibling_queued"] / spins if spins else math.nan,
        "sibling_queued_share": totals["siblings_queued"] / (spins * siblings) if spins and siblings else math.nan,
    }
