"""The chapter's interactive parts: the live panel's re-run and the precomputed stripe sweeps.

:data:`PANEL` declares the live panel (:class:`perfstudies.panel.Panel`; its
main control is the number of stripes) and :func:`widget_run` is what one
change runs: :func:`perfstudies.panel.run_panel`, a few replications of one
configuration and their paired change from the report's first setup, the
dump cut into :data:`WIDGET_CHUNKS` chunks whatever its size (the figures
set the bottleneck bound beside it);
:data:`SWEEPS` declares the precomputed sweeps behind the kernel-free slider
chart (points :func:`sweep_points` and :func:`ipcs_points`), and :func:`stripe_sweep` /
:func:`ipcs_sweep` summarize them.
Every one of them uses the study's one seed, :data:`~.params.SEED`.
"""

import math

import pandas as pd

from perfstudies.models.svcdump import analytic
from perfstudies.models.svcdump.calibration import BASE, calibrated_params
from perfstudies.models.svcdump.network import dump_model, ipcs_model, model
from perfstudies.models.svcdump.params import CHANNELS, DEVICES, KEY, SEED, DumpParams
from perfstudies.panel import Panel, run_panel
from perfstudies.params import check_field_values, check_record
from perfstudies.runner import summarize
from perfstudies.stored_sweeps import Sweep

#: Replications of one widget re-run.
WIDGET_REPLICATIONS = 5
#: Chunks one widget re-run simulates, whatever the dump size: the panel's chunks grow with the dump
#: (2,450 blocks at the documented size, against the comparison's 1,000), so a re-run costs the same
#: at every size and stays fast.  Coarser chunks leave every mean where it was (the demands do not
#: depend on the chunk size; the pipeline's fill and drain, one chunk per stage, stay near 0.5% of the
#: time); the processor's chunk-to-chunk variation is per chunk, so a processor-bound dump's interval
#: is wider than with finer chunks.
WIDGET_CHUNKS = 200
#: Replications of every swept configuration, the channel-path counts the sweep covers, and the
#: worker processes it may use (this project's machine has two cores).
SWEEP_REPLICATIONS = 3
SWEEP_PATHS = (1, 2, 3, 4)
SWEEP_WORKERS = 2
#: The fields the live panel offers, and the dump-size range it offers.
PANEL_FIELDS = ("stripes", "device", "channel", "dump_blocks", "compression", "page_data_sets",
                "storage_constrained")
PANEL_RANGES = {"dump_blocks": (50_000, 2_000_000)}

#: Metrics a widget shows, with the labels it shows them under.
SHOWN = {
    "elapsed_s": "dump elapsed time (s)",
    "ipcs_s": "IPCS initialization (s)",
    "data_rate_mb_s": "data rate (MB/s)",
    "io_response_ms": "time of one I/O (ms)",
    "cpu_util": "capture CPU utilisation (%)",
    "volume_util": "volume utilisation (%, mean)",
    "channel_util": "channel path utilisation (%)",
    "page_util": "page data set utilisation (%)",
}
#: The columns a sweep is summarized by.
SWEEP_KEYS = ["device", "channel", "channel_paths", "stripes"]


def widget_params(params: DumpParams) -> DumpParams:
    """``params`` with the dump cut into :data:`WIDGET_CHUNKS` chunks (at most; never below 100 blocks each)."""
    params = check_record("params", params, DumpParams)
    return params.replace(chunk_blocks=max(100, math.ceil(params.dump_blocks / WIDGET_CHUNKS)))


def panel_model(params: DumpParams, seed: int) -> dict[str, float]:
    """One replication as the live panel runs it: :func:`.network.model` of :func:`widget_params` of ``params``,
    utilisations in percent (so a change reads in percentage points)."""
    metrics = model(widget_params(params), seed)
    return {name: 100.0 * value if name.endswith("_util") else value for name, value in metrics.items()}


#: The live panel, declared: the stripes are what the chapter is about; the default is the report's
#: first setup (3390-3, one stripe, ESCON), calibrated.
PANEL = Panel(DumpParams, controls=PANEL_FIELDS, main="stripes", defaults=calibrated_params, model=panel_model,
              shown=SHOWN, seed=SEED, replications=WIDGET_REPLICATIONS, ranges=PANEL_RANGES)


def widget_run(params: DumpParams | None = None) -> pd.DataFrame:
    """One change of the live panel: :func:`perfstudies.panel.run_panel` of :data:`PANEL`.

    Each shown metric's mean and 95% interval at ``params`` and its paired
    change from the chapter's default (``None`` runs the default itself, the
    calibrated model on the document's first setup).  The record's
    ``chunk_blocks`` is replaced by :func:`widget_params` (about
    :data:`WIDGET_CHUNKS` chunks); ``attrs["params"]`` is the setting, from
    which :func:`.figures.widget_view` computes the bottleneck bounds.
    """
    return run_panel(PANEL, params)


def sweep_points(channel_paths: tuple[int, ...] = SWEEP_PATHS) -> list[DumpParams]:
    """Every stripe count (1-8) on both devices and both channel types, for each number of channel paths.

    ``channel_paths`` is a non-empty tuple (or list) of allowed ``DumpParams.channel_paths``.
    """
    channel_paths = check_field_values("channel_paths", channel_paths, DumpParams, "channel_paths")
    return [calibrated_params(device=device, channel=channel, stripes=stripes, channel_paths=paths)
            for paths in channel_paths for channel in CHANNELS for device in DEVICES for stripes in range(1, 9)]


def ipcs_points() -> list[DumpParams]:
    """The ESCON points of :func:`sweep_points` at the default number of channel paths (IPCS initialization's sweep)."""
    return [p for p in sweep_points() if p.channel == "ESCON" and p.channel_paths == BASE["channel_paths"]]


#: The chapter's two precomputed sweeps (stored by ``make runs``, :mod:`perfstudies.stored_sweeps`): the dump over
#: every stripe count, device, channel and path count, and IPCS initialization over the ESCON ones.
SWEEPS = {"dump": Sweep(name=f"{KEY}-dump", scope=KEY, model=dump_model, points=sweep_points,
                        replications=SWEEP_REPLICATIONS, seed=SEED, max_workers=SWEEP_WORKERS),
          "ipcs": Sweep(name=f"{KEY}-ipcs", scope=KEY, model=ipcs_model, points=ipcs_points,
                        replications=SWEEP_REPLICATIONS, seed=SEED, max_workers=SWEEP_WORKERS)}


def _swept(name: str) -> pd.DataFrame:
    """Sweep ``name`` of :data:`SWEEPS`, summarized per configuration and metric."""
    return summarize(SWEEPS[name].runs(), by=[*SWEEP_KEYS, "metric"]).reset_index()


def stripe_sweep() -> pd.DataFrame:
    """The dump over :func:`sweep_points`, summarized; elapsed-time rows carry the bottleneck ``bound``.

    Columns: the sweep keys, ``metric``, ``n``, ``mean``, ``std``, ``half_width``,
    ``low``, ``high``, ``setup`` ("device, channel") and ``bound`` (NaN but for
    ``elapsed_s``).
    """
    summary = _swept("dump")
    summary["setup"] = summary["device"] + ", " + summary["channel"]
    bounds = [analytic.bound_elapsed_s(calibrated_params(device=d, channel=c, channel_paths=int(k), stripes=int(n)))
              if metric == "elapsed_s" else float("nan")
              for d, c, k, n, metric in summary[[*SWEEP_KEYS, "metric"]].itertuples(index=False)]
    return summary.assign(bound=bounds)


def escon_slice(summary: pd.DataFrame) -> pd.DataFrame:
    """The rows of a sweep summary on ESCON with the default number of channel paths."""
    return summary[(summary["channel"] == "ESCON") & (summary["channel_paths"] == BASE["channel_paths"])]


def ipcs_sweep() -> pd.DataFrame:
    """IPCS initialization over the ESCON, default-path points of :func:`sweep_points`, summarized."""
    return _swept("ipcs")
