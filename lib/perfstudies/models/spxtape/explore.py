"""The runs behind the chapter's interactive parts: one widget re-run and the slider sweep.

:func:`widget_run` is what one widget change triggers (and what the benchmark
times): a few replications at the coarse widget scale plus the trace of the
first one for the timeline.  :func:`sweep_points` lists the parameter points
of the precomputed sweep that the kernel-free slider chart moves over.
"""

from dataclasses import dataclass

import pandas as pd

from perfstudies.models.spxtape.calibration import SEED, calibrate
from perfstudies.models.spxtape.metrics import buffer_frame, model, run_metrics, timeline_frame
from perfstudies.models.spxtape.network import simulate
from perfstudies.models.spxtape.params import SpxtapeParams
from perfstudies.runner import metric_rows, replication_seeds, summarize

#: Pages per simulated customer in the widgets and sweeps (coarser than the comparison's).
WIDGET_CHUNK = 128
WIDGET_REPLICATIONS = 3
#: The sweep: tape drives on the x axis, spool volumes on the slider (evenly spaced).
SWEEP_DRIVES = (1, 2, 3, 4, 6, 8)
SWEEP_VOLUMES = (2, 4, 6, 8, 10, 12, 14, 16)
SWEEP_CHUNK = 1024
SWEEP_REPLICATIONS = 3


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


def trace(p: SpxtapeParams, seed: int) -> tuple[dict, pd.DataFrame, pd.DataFrame]:
    """One run's metrics, its timeline intervals and its buffer occupancy."""
    records, log, roles = simulate(p, seed)
    return (run_metrics(records, log, roles, p), timeline_frame(records, log, roles),
            buffer_frame(records, log, roles))


def widget_run(p: SpxtapeParams | None = None) -> WidgetResult:
    """The default re-run of one widget change: replications, the first one traced.

    The seeds are :func:`perfstudies.runner.replicate`'s, so the numbers are
    the ones ``replicate(model, p, WIDGET_REPLICATIONS, SEED)`` would give.
    """
    p = widget_defaults() if p is None else p
    first, *others = replication_seeds(SEED, WIDGET_REPLICATIONS)
    metrics, timeline, buffer = trace(p, first)
    rows = metric_rows(metrics, replication=0, seed=first)
    for index, seed in enumerate(others, start=1):
        rows += metric_rows(model(p, seed), replication=index, seed=seed)
    return WidgetResult(p, summarize(pd.DataFrame(rows)), timeline, buffer)


def sweep_points(base: SpxtapeParams | None = None) -> list[SpxtapeParams]:
    """SPXTAPE DUMP at every (drives, volumes) of the slider chart, coarse customers."""
    base = (base or calibrate()).replace(command="SPXTAPE", function="DUMP", chunk_pages=SWEEP_CHUNK)
    return [base.replace(drives=d, volumes=v) for v in SWEEP_VOLUMES for d in SWEEP_DRIVES]
