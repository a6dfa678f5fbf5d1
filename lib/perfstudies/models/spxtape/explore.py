"""The runs behind the chapter's interactive parts: one widget re-run, one traced run, and the slider sweep.

:func:`widget_run` is what one widget change triggers (and what the benchmark
times): a few replications at the coarse widget scale plus the trace of the
first one for the timeline.  :func:`sweep_points` lists the parameter points
of the precomputed sweep that the kernel-free slider chart moves over, and
:func:`sweep` runs them.  Every seed comes from ``SEED``.
"""

from dataclasses import dataclass

import pandas as pd

from perfstudies.models.spxtape.calibration import calibrate
from perfstudies.models.spxtape.metrics import buffer_frame, run_metrics, timeline_frame
from perfstudies.models.spxtape.network import model, simulate
from perfstudies.models.spxtape.params import SEED, SpxtapeParams
from perfstudies.runner import metric_rows, replication_seeds, summarize
from perfstudies.sweep import run_sweep

#: Pages per simulated customer in the widgets and sweeps (coarser than the comparison's).
WIDGET_CHUNK = 128
WIDGET_REPLICATIONS = 3
#: The sweep: tape drives on the x axis, spool volumes on the slider (evenly spaced).
SWEEP_DRIVES = (1, 2, 3, 4, 6, 8)
SWEEP_VOLUMES = (2, 4, 6, 8, 10, 12, 14, 16)
SWEEP_CHUNK = 1024
#: Independent replications per point of the slider sweep.
SWEEP_REPLICATIONS = 3
#: The live panel's controls, and the ranges they move over where narrower than the record's.
WIDGET_CONTROLS = ["command", "function", "drives", "volumes", "change_time", "buffer_mb", "mean_file_pages",
                   "spread_skew"]
WIDGET_RANGES = {"change_time": (0.0, 300.0), "buffer_mb": (1.0, 256.0), "mean_file_pages": (3.0, 100.0)}


@dataclass(frozen=True)
class WidgetResult:
    """Replicated metrics (mean and 95% CI) and the first replication's trace."""

    params: SpxtapeParams
    summary: pd.DataFrame
    timeline: pd.DataFrame
    buffer: pd.DataFrame


def widget_defaults() -> SpxtapeParams:
    """The calibrated parameters at widget scale: the 2-drive SPXTAPE DUMP of Table 1."""
    return calibrate().replace(chunk_pages=WIDGET_CHUNK)


def trace(params: SpxtapeParams, seed: int) -> tuple[dict, pd.DataFrame, pd.DataFrame]:
    """One run's metrics, its timeline intervals and its buffer occupancy."""
    records, log, roles = simulate(params, seed)
    return (run_metrics(records, log, roles, params), timeline_frame(records, log, roles),
            buffer_frame(records, log, roles))


def widget_run(params: SpxtapeParams | None = None) -> WidgetResult:
    """The default re-run of one widget change: replications, the first one traced.

    The seeds are :func:`perfstudies.runner.replicate`'s, so the numbers are
    the ones ``replicate(model, params, WIDGET_REPLICATIONS, SEED)`` would give.
    """
    p = widget_defaults() if params is None else params
    first, *others = replication_seeds(SEED, WIDGET_REPLICATIONS)
    metrics, timeline, buffer = trace(p, first)
    rows = metric_rows(metrics, replication=0, seed=first)
    for index, seed in enumerate(others, start=1):
        rows += metric_rows(model(p, seed), replication=index, seed=seed)
    return WidgetResult(p, summarize(pd.DataFrame(rows)), timeline, buffer)


def one_drive_trace() -> WidgetResult:
    """The chapter's timeline: the first replication of the 1-drive dump at widget scale (no summary)."""
    p = widget_defaults().replace(drives=1)
    _, timeline, buffer = trace(p, replication_seeds(SEED, 1)[0])
    return WidgetResult(p, pd.DataFrame(), timeline, buffer)


def sweep_points() -> list[SpxtapeParams]:
    """SPXTAPE DUMP at every (drives, volumes) of the slider chart, coarse customers."""
    base = calibrate().replace(command="SPXTAPE", function="DUMP", chunk_pages=SWEEP_CHUNK)
    return [base.replace(drives=d, volumes=v) for v in SWEEP_VOLUMES for d in SWEEP_DRIVES]


def sweep() -> pd.DataFrame:
    """The slider chart's data: elapsed time (mean and 95% CI) per volumes and drives."""
    runs = run_sweep(model, sweep_points(), SWEEP_REPLICATIONS, SEED, max_workers=1, progress=False)
    return summarize(runs[runs["metric"] == "elapsed_s"], by=["volumes", "drives"]).reset_index()
