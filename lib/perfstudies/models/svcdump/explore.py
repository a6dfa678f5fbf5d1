"""What the chapter's widgets and slider charts run: short replications and sweep points.

:func:`simulate` is one widget re-run (a few replications of one configuration
beside its bottleneck bound); :func:`widget_run` is that run at the default
configuration, the one the benchmark times.  :func:`stripe_sweep_points` are
the configurations behind the kernel-free slider chart.
"""

import pandas as pd

from perfstudies.models.svcdump import analytic
from perfstudies.models.svcdump.calibration import calibrated_params
from perfstudies.models.svcdump.network import model
from perfstudies.models.svcdump.params import CHANNELS, DEVICES, DumpParams
from perfstudies.runner import replicate

#: Replications of one widget re-run, and its seed.
WIDGET_REPLICATIONS = 5
WIDGET_SEED = 7

#: Metrics a widget shows, with the labels it shows them under.
SHOWN = {
    "elapsed_s": "dump elapsed time (s)",
    "ipcs_s": "IPCS initialization (s)",
    "data_rate_mb_s": "data rate (MB/s)",
    "io_response_ms": "time of one I/O (ms)",
    "cpu_util": "capture CPU utilization",
    "volume_util": "volume utilization (mean)",
    "channel_util": "channel path utilization",
    "page_util": "page data set utilization",
}


def simulate(params: DumpParams, replications: int = WIDGET_REPLICATIONS, seed: int = WIDGET_SEED) -> pd.DataFrame:
    """Replications of one configuration: mean and 95% CI of every shown metric.

    The dump's bottleneck bound and its bottleneck resource come along in the
    ``bound`` column of the elapsed-time row, so a reader can compare theory
    with simulation.
    """
    if not isinstance(params, DumpParams):
        raise ValueError(f"params = {params!r} has the wrong type: allowed a DumpParams record")
    summary = replicate(model, params, replications, seed, progress=False).summary()
    table = pd.DataFrame({
        "metric": [SHOWN[name] for name in SHOWN],
        "mean": [summary.loc[name, "mean"] for name in SHOWN],
        "95% CI half-width": [summary.loc[name, "half_width"] for name in SHOWN],
        "bound": [analytic.bound_elapsed_s(params), analytic.bound_ipcs_s(params)] + [float("nan")] * 6,
    })
    table.attrs["bottleneck"] = analytic.bottleneck(params)
    return table


def widget_run() -> pd.DataFrame:
    """The default widget re-run: the calibrated model on the document's first setup (3390-3, 1 stripe)."""
    return simulate(calibrated_params())


def stripe_sweep_points(channel_paths: tuple[int, ...] = (1, 2, 3, 4)) -> list[DumpParams]:
    """Every stripe count (1-8) on both devices and both channel types, for each number of channel paths."""
    return [calibrated_params(device=device, channel=channel, stripes=stripes, channel_paths=paths)
            for paths in channel_paths for channel in CHANNELS for device in DEVICES for stripes in range(1, 9)]
