"""The chapter's interactive and exploratory parts: the live panel, the slider sweep, theory beside simulation.

* :func:`widget_run` is what one change of the live panel runs (three
  replications from :data:`~.params.SEED`), starting from
  :data:`WIDGET_DEFAULTS`, the 9-way fast-path run with a shorter simulated time;
* :func:`sweep_points` and :func:`vp_sweep` are the precomputed sweep behind the
  kernel-free slider charts: percent fast path and CP time per transaction
  against the client virtual processors (2 to 8), one slice per
  real-processor count (5 to 13, step 2), with the fast path on.  One VP per
  client is left out: a lone VP has no sibling to hold a guest lock, so the
  model's clients never yield;
* :func:`theory_table` and :func:`sibling_table` set the binomial argument of
  :mod:`.analytic` beside the report and beside the simulation.
"""

import numpy as np
import pandas as pd

from perfstudies.runner import replicate, summarize
from perfstudies.sweep import run_sweep

from . import analytic
from .calibration import measurements, run_config, run_values
from .comparison import PAIRS, comparison_runs
from .network import model
from .params import SEED, DiagParams

#: The live panel's starting point: the document's 9-way fast-path run, shorter simulated time.
WIDGET_DEFAULTS = DiagParams(max_time_us=1.5e6, warmup_us=1.5e5)
WIDGET_REPLICATIONS = 3
#: The fields the live panel lets a reader change, and the metrics it shows.
LIVE_CONTROLS = ("real_processors", "client_vps", "fast_path", "connections")
LIVE_METRICS = ("tx_rate", "pct_fast", "diag_normal", "diag_fast", "cp_us_per_tx", "total_util", "system_util")

#: The fast-path runs of the report: 9-way with 3 VPs, 5-way with 3 VPs, 9-way with 6 VPs.
FAST_RUNS = ("EXPTD440", "EXPTD442", "EXPTD441")

PROCESSORS = (5, 7, 9, 11, 13)
CLIENT_VPS = tuple(range(2, 9))
SWEEP_METRICS = ("pct_fast", "cp_us_per_tx", "tx_rate", "total_util")
SWEEP_TIME_US = 1.5e6
SWEEP_REPLICATIONS = 3


def widget_run(params: DiagParams | None = None) -> pd.DataFrame:
    """What one widget change runs: three seeded replications, summarized with 95% intervals."""
    params = WIDGET_DEFAULTS if params is None else params
    return replicate(model, params, replications=WIDGET_REPLICATIONS, seed=SEED, progress=False).summary()


def live_view(summary: pd.DataFrame) -> pd.DataFrame:
    """The rows of a :func:`widget_run` summary the live panel shows: metric, mean and half-width."""
    return summary.loc[list(LIVE_METRICS), ["mean", "half_width"]].rename_axis("metric").reset_index()


def sweep_points() -> list[DiagParams]:
    """Every (real processors, client VPs) pair of the slider sweep, shorter runs than the comparison's."""
    base = DiagParams(max_time_us=SWEEP_TIME_US, warmup_us=SWEEP_TIME_US / 10)
    return [base.replace(real_processors=c, client_vps=v) for c in PROCESSORS for v in CLIENT_VPS]


def vp_sweep(max_workers: int = 2) -> pd.DataFrame:
    """Mean and 95% interval of :data:`SWEEP_METRICS` per point: ``real_processors, client_vps, metric, ...``."""
    runs = run_sweep(model, sweep_points(), replications=SWEEP_REPLICATIONS, seed=SEED, max_workers=max_workers,
                     progress=False)
    runs = runs[runs["metric"].isin(SWEEP_METRICS)]
    return summarize(runs, by=["real_processors", "client_vps", "metric"]).reset_index()


def theory_table() -> pd.DataFrame:
    """The binomial back-of-envelope for each fast-path run, from the report's utilizations.

    The chance a sibling is queued comes from the M/M/c waiting share at the
    run's published utilization; the percent fast path weights fast and normal
    yields by the calibrated DIAG 44s each stands for.
    """
    published, weights = measurements(), DiagParams()
    rows = []
    for run in FAST_RUNS:
        config, values = run_config(published, run), run_values(published, run)
        pi = analytic.queued_share(config["real_processors"], values["total_util"] / 100)
        share = analytic.no_sibling_queued(config["client_vps"], pi)
        rows.append({"run": run, "processors": config["real_processors"], "client VPs": config["client_vps"],
                     "utilization %": values["total_util"], "pi": pi, "P(no sibling queued)": share,
                     "theory % fast": analytic.percent_fast(share, weights.fast_diags_per_yield,
                                                            weights.diags_per_yield),
                     "published % fast": values["pct_fast"]})
    return pd.DataFrame(rows)


def fast_path_runs() -> pd.DataFrame:
    """The comparison's replications of the fast-path runs, summarized per run and metric.

    Each run comes from the pair of its own table (:data:`.comparison.PAIRS`):
    the numbers are the ones the comparison table shows.
    """
    runs, _ = comparison_runs()
    frames = []
    for index, (table, (_, after)) in enumerate(PAIRS.items()):
        rows = runs[(runs["point"] == index) & runs["metric"].str.startswith(f"{after}:")]
        frames.append(rows.assign(run_id=after, metric=rows["metric"].str.removeprefix(f"{after}:")))
    return summarize(pd.concat(frames), by=["run_id", "metric"]).reset_index()


def sibling_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The simulated chance a sibling is queued beside the binomial formula, from :func:`fast_path_runs`."""
    wide = summary.pivot(index="run_id", columns="metric", values="mean").loc[list(FAST_RUNS)]
    half = summary[summary["metric"] == "pct_fast"].set_index("run_id").loc[list(FAST_RUNS), "half_width"]
    vps = np.array([run_config(measurements(), run)["client_vps"] for run in FAST_RUNS])
    return pd.DataFrame({
        "run": list(FAST_RUNS),
        "simulated pi": wide["sibling_queued_share"],
        "binomial (1 - pi)^(V-1)": (1 - wide["sibling_queued_share"]) ** (vps - 1),
        "simulated fast-path share of yields": wide["fast_yield_share"],
        "simulated % fast": wide["pct_fast"],
        "95% CI half-width": half,
    }).reset_index(drop=True)
