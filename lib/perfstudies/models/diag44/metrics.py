"""From one replication's records to the report's rows.

The real-processor node keeps an event log (``(time, kind, amount)``: busy
time, slices, fast and normal yields, finished server work) and the scheduler
lock's Ciw records hold the spinning; :func:`metrics` turns both into the
quantities of the document's measurement tables, in its units.
"""

import collections
import math

import pandas as pd

from .mechanism import SCHEDULER_LOCK
from .params import DiagParams

US_PER_S = 1e6


def metrics(p: DiagParams, log, records: pd.DataFrame) -> dict[str, float]:
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
