"""The runs behind the chapter's interactive parts: the live panel, one traced run, and the slider sweep.

:data:`PANEL` declares the live panel (:class:`perfstudies.panel.Panel`): the
controls, the main one (tape drives), the chapter's default (the 2-drive
SPXTAPE DUMP of Table 1 at the panel's coarser customers) and the headline
metrics.  :func:`widget_run` is what one change runs (and what the benchmark
times): :func:`perfstudies.panel.run_traced`, the one panel table (each metric
and its change from the default, paired) plus the first replication's
timeline and buffer, which the chapter draws.  :data:`SWEEPS` declares the
precomputed sweep that the kernel-free slider chart moves over (its points,
:func:`sweep_points`), and :func:`drives_sweep` summarizes it.  Every seed comes from ``SEED``.
"""

import pandas as pd

from perfstudies.models.spxtape.calibration import calibrate
from perfstudies.models.spxtape.metrics import buffer_frame, run_metrics, timeline_frame
from perfstudies.models.spxtape.network import model, simulate
from perfstudies.models.spxtape.params import KEY, SEED, SpxtapeParams
from perfstudies.panel import Panel, PanelRun, run_traced
from perfstudies.params import check_record
from perfstudies.runner import check_seed, summarize
from perfstudies.stored_sweeps import Sweep

#: Pages per simulated customer in the live panel, coarser than the comparison's 32.  Not coarser
#: still: elapsed time and tapes hold at 256 and 512 pages too, but the two drives' cartridge changes
#: then drift into each other (the buffer is 13 customers at 512 pages), and the 2-drive dump, the
#: panel's default, shows 20-140 s of idle time in some replications and an extra tape, where the
#: comparison's model has none (measured: five replications at 32, 128 and 512 pages).  At 256 pages
#: (issue 31, the panel's three seeds) one of the default's replications already idles 94 s and uses
#: an eighth tape (128 pages: 2.1, 0 and 0 s, seven tapes each), though the loads, SPTAPE and the
#: 1-drive buffer exercise hold there.
WIDGET_CHUNK = 128
#: Replications of each setting per change (the default's run once per process).
WIDGET_REPLICATIONS = 3
#: The sweep: tape drives on the x axis, spool volumes on the slider (evenly spaced).
SWEEP_DRIVES = (1, 2, 3, 4, 6, 8)
SWEEP_VOLUMES = (2, 4, 6, 8, 10, 12, 14, 16)
SWEEP_CHUNK = 1024
#: Independent replications per point of the slider sweep.
SWEEP_REPLICATIONS = 3
#: The live panel's controls, and the ranges they move over where narrower than the record's.
WIDGET_CONTROLS = ("command", "function", "drives", "volumes", "change_time", "buffer_mb", "mean_file_pages",
                   "spread_skew")
WIDGET_RANGES = {"change_time": (0.0, 300.0), "buffer_mb": (1.0, 256.0), "mean_file_pages": (3.0, 100.0)}
#: The headline metrics the panel shows, with the reader's labels.
SHOWN = {"elapsed_s": "elapsed time (s)", "tape_change_s": "time spent changing tapes (s)",
         "system_idle_s": "system idle during tape changes (s)", "tapes": "tapes used",
         "pages_per_s": "pages moved a second"}


def widget_defaults() -> SpxtapeParams:
    """The calibrated parameters at widget scale: the 2-drive SPXTAPE DUMP of Table 1."""
    return calibrate().replace(chunk_pages=WIDGET_CHUNK)


def trace(params: SpxtapeParams, seed: int) -> tuple[dict, dict[str, pd.DataFrame]]:
    """One run's metrics (as :func:`.network.model` gives them) and its ``timeline`` and ``buffer`` frames."""
    params, seed = check_record("params", params, SpxtapeParams), check_seed(seed)
    records, log, roles = simulate(params, seed)
    return (run_metrics(records, log, roles, params),
            {"timeline": timeline_frame(records, log, roles), "buffer": buffer_frame(records, log, roles)})


#: The live panel, declared: tape drives are what the chapter is about.
PANEL = Panel(SpxtapeParams, controls=WIDGET_CONTROLS, main="drives", defaults=widget_defaults, model=model,
              shown=SHOWN, seed=SEED, replications=WIDGET_REPLICATIONS, ranges=WIDGET_RANGES, trace=trace)


def widget_run(params: SpxtapeParams | None = None) -> PanelRun:
    """One change of the live panel: the panel table of ``params`` and the first replication's trace.

    ``None`` runs the chapter's default (:func:`widget_defaults`).  The table
    is :func:`perfstudies.panel.run_panel`'s (replication *i* with seed
    ``replication_seeds(SEED, WIDGET_REPLICATIONS)[i]``, the default with the
    same seeds); ``traces["timeline"]`` and ``traces["buffer"]`` are replication 0's.
    """
    return run_traced(PANEL, params)


def one_drive_trace() -> PanelRun:
    """The chapter's timeline: the 1-drive dump at widget scale, one step of the main control from the default."""
    return run_traced(PANEL, widget_defaults().replace(drives=1))


def sweep_points() -> list[SpxtapeParams]:
    """SPXTAPE DUMP at every (drives, volumes) of the slider chart, coarse customers."""
    base = calibrate().replace(command="SPXTAPE", function="DUMP", chunk_pages=SWEEP_CHUNK)
    return [base.replace(drives=d, volumes=v) for v in SWEEP_VOLUMES for d in SWEEP_DRIVES]


#: The chapter's precomputed sweep (stored by ``make runs``, :mod:`perfstudies.stored_sweeps`).
SWEEPS = {"drives": Sweep(name=f"{KEY}-drives", scope=KEY, model=model, points=sweep_points,
                          replications=SWEEP_REPLICATIONS, seed=SEED)}


def drives_sweep() -> pd.DataFrame:
    """The slider chart's data: elapsed time (mean and 95% CI) per volumes and drives."""
    runs = SWEEPS["drives"].runs()
    return summarize(runs[runs["metric"] == "elapsed_s"], by=["volumes", "drives"]).reset_index()
