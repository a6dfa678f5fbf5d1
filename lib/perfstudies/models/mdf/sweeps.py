"""Sweep points behind the chapter's kernel-free slider chart.

The chart shows a device's IOSQ and RMF response time against the scheduling
parameter, one line per activity rate under a slider.  The device is the IMS
domain's representative device as calibrated on the BASE column, so the
sweep is the model the comparison uses, not a separate toy.
"""

from perfstudies.models.mdf.calibration import device_calibrations
from perfstudies.models.mdf.params import DeviceParams

#: Activity rates the slider moves over (I/O per s; evenly spaced, as the chart requires).
SLIDER_RATES = (5.0, 10.0, 15.0, 20.0, 25.0, 30.0)
PARAMETERS = (1, 2, 3, 4, 5)
RUN = dict(max_time=200.0, warmup=10.0)


def device_sweep_points(rates=SLIDER_RATES, parameters=PARAMETERS) -> list[DeviceParams]:
    """The IMS representative device at every (scheduling parameter, activity rate)."""
    average = next(c for c in device_calibrations() if c.name == "IMS average")
    return [DeviceParams(scheduling_parameter=p, domain="IMS", rate=rate, service_ms=average.service_ms,
                         scv=average.scv, **RUN)
            for rate in rates for p in parameters]
