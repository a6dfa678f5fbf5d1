"""What one widget change re-runs: a few replications plus the closed forms."""

import pandas as pd

from perfstudies.models.vts.analytic import bottleneck, bound, capacities, hours_at_peak, recall_response_s, \
    typical_mix_bound
from perfstudies.models.vts.calibration import calibrated_rates
from perfstudies.models.vts.network import recall_model, throughput_model
from perfstudies.models.vts.params import VTSParams
from perfstudies.runner import replicate

WIDGET_REPLICATIONS = 3
WIDGET_COMPLETIONS = 300
WIDGET_SEED = 2000


def explore(params: VTSParams) -> pd.DataFrame:
    """One table of what the configuration does: simulated with 95% CIs, and in theory.

    Runs the throughput model and the recall model for a few replications at a
    coarse run length, so that a widget answers in a fraction of a second.
    """
    rates = calibrated_rates()
    quick = params.replace(completions=min(params.completions, WIDGET_COMPLETIONS))
    flow = replicate(throughput_model, quick, WIDGET_REPLICATIONS, WIDGET_SEED, progress=False)
    recall = replicate(recall_model, params, WIDGET_REPLICATIONS, WIDGET_SEED, progress=False)
    rows = [("host MB/s, simulated", flow.mean("host_mb_s"), flow.half_width("host_mb_s")),
            ("host MB/s, bottleneck bound", bound(params, rates), float("nan"))]
    rows += [(f"capacity of {name}, MB/s", value, float("nan")) for name, value in capacities(params, rates).items()]
    rows += [("recall mount response, s, simulated", recall.mean("mount_response_s"),
              recall.half_width("mount_response_s")),
             ("recall mount response, s, closed form", recall_response_s(params, rates), float("nan")),
             ("typical mix host MB/s, bound", typical_mix_bound(params, rates), float("nan")),
             ("hours at peak write from an empty cache", hours_at_peak(params, rates), float("nan"))]
    table = pd.DataFrame(rows, columns=["quantity", "value", "95% CI half-width"])
    table.attrs["bottleneck"] = bottleneck(params, rates)
    return table


def widget_run() -> pd.DataFrame:
    """The default widget re-run (benchmarked): :func:`explore` at the default parameters."""
    return explore(VTSParams())
