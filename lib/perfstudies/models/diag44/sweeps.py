"""The precomputed sweep behind the chapter's kernel-free slider chart.

Percent fast path and CP time per transaction against the client virtual
processors (2 to 8), one slice per real-processor count (5 to 13, step 2),
with the fast path on.  One VP per client is left out: a lone VP has no
sibling to hold a guest lock, so the model's clients never yield.
"""

import pandas as pd

from perfstudies.runner import summarize
from perfstudies.sweep import run_sweep

from .network import model
from .params import DiagParams

PROCESSORS = (5, 7, 9, 11, 13)
CLIENT_VPS = tuple(range(2, 9))
METRICS = ("pct_fast", "cp_us_per_tx", "tx_rate", "total_util")
SWEEP_TIME_US = 1.5e6


def sweep_points(base: DiagParams | None = None) -> list[DiagParams]:
    """Every (real processors, client VPs) pair, shorter runs than the comparison's."""
    base = (base or DiagParams()).replace(max_time_us=SWEEP_TIME_US, warmup_us=SWEEP_TIME_US / 10)
    return [base.replace(real_processors=c, client_vps=v) for c in PROCESSORS for v in CLIENT_VPS]


def run_vp_sweep(replications: int = 3, seed: int = 44, max_workers: int | None = None) -> pd.DataFrame:
    """Mean and 95% interval of :data:`METRICS` per point: ``real_processors, client_vps, metric, ...``."""
    runs = run_sweep(model, sweep_points(), replications=replications, seed=seed, max_workers=max_workers,
                     progress=False)
    runs = runs[runs["metric"].isin(METRICS)]
    return summarize(runs, by=["real_processors", "client_vps", "metric"]).reset_index()
