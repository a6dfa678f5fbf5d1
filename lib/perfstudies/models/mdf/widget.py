"""What one change of the chapter's live panel re-runs: an IMS device, and the IMS bounds.

The panel's record (:class:`~perfstudies.models.mdf.params.PanelParams`)
holds only what a reader changes; everything else comes from the calibration
(closed forms, cheap).  The device is simulated (three replications, with a
95% interval); the IMS domain is answered by its theory-first bounds
(:func:`~perfstudies.models.mdf.analytic.ims_bounds`), because a simulation of
1,000 terminals long enough to trust takes seconds, not the fraction of a
second a slider allows.  The chapter's precomputed sweeps show the simulated
IMS domain.
"""

import functools

import pandas as pd

from perfstudies.models.mdf import analytic
from perfstudies.models.mdf.calibration import SEED, device_calibrations, ims_calibration
from perfstudies.models.mdf.network import device_model
from perfstudies.models.mdf.params import DeviceParams, ImsParams, PanelParams
from perfstudies.runner import replicate

DEVICE_RUN = dict(max_time=150.0, warmup=10.0)
DEVICE_REPLICATIONS = 3

#: (metric, label) of the simulated device rows the panel shows.
DEVICE_ROWS = [
    ("iosq_ms", "device AVG IOSQ (ms), simulated"),
    ("resp_ms", "device AVG RESP (ms), simulated"),
    ("held_ms", "device busy after its transfer, per I/O (ms), simulated"),
]
#: (metric, label) of the IMS bound rows.
IMS_ROWS = [
    ("frontend_capacity_tx_per_s", "4705 capacity (transactions/s), theory"),
    ("cpu_capacity_tx_per_s", "IMS processor capacity (transactions/s), theory"),
    ("etr_bound_per_s", "IMS ETR bound (transactions/s), theory"),
    ("response_bound_s", "IMS response at that ETR (s), theory"),
]


@functools.cache
def calibrated() -> tuple[DeviceParams, ImsParams]:
    """The IMS representative device (at panel run length) and the IMS domain, as calibrated."""
    average = next(c for c in device_calibrations() if c.name == "IMS average")
    device = DeviceParams(domain="IMS", service_ms=average.service_ms, scv=average.scv, **DEVICE_RUN)
    return device, ims_calibration()


def panel_run(panel: PanelParams) -> pd.DataFrame:
    """The device simulated and the IMS bounds at the panel's settings, one row per quantity."""
    device, ims = calibrated()
    setup = dict(scheduling_parameter=panel.scheduling_parameter, ims_share=panel.ims_share,
                 tso_share=panel.tso_share, switch_ms=panel.switch_ms, sliced=panel.sliced)
    device = device.replace(rate=panel.device_rate, device=panel.device, **setup)
    simulated = replicate(device_model, device, DEVICE_REPLICATIONS, SEED, progress=False).summary()
    rows = [{"quantity": label, "value": simulated.loc[metric, "mean"],
             "95% CI ±": simulated.loc[metric, "half_width"]} for metric, label in DEVICE_ROWS]
    rows.append({"quantity": "mean hold of a random completion (ms), theory",
                 "value": 1000.0 * analytic.mean_hold(device.windows("IMS")), "95% CI ±": float("nan")})
    bounds = analytic.ims_bounds(ims.replace(terminals=panel.terminals, **setup))
    rows += [{"quantity": label, "value": bounds[metric], "95% CI ±": float("nan")} for metric, label in IMS_ROWS]
    return pd.DataFrame(rows)


def widget_run() -> pd.DataFrame:
    """The panel's default run (benchmarked by ``make bench``)."""
    return panel_run(PanelParams())
