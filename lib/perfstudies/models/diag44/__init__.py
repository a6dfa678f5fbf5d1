"""Extended Diagnose X'44' Fast Path (z/VM 5.2.0): when a yield can skip the scheduler.

Modules: :mod:`.params` (the parameter record), :mod:`.network` (the Ciw
network and the one-replication model), :mod:`.analytic` (the theory-first
arithmetic), :mod:`.calibration` (calibration on named cells and the
comparison table), :mod:`.sweeps` (the precomputed sweep behind the book's
slider chart).
"""

import pandas as pd

from perfstudies.runner import replicate

from .calibration import DOCUMENT, STUDY, calibrate, comparison
from .network import model
from .params import DiagParams

__all__ = ["STUDY", "DOCUMENT", "DiagParams", "WIDGET_DEFAULTS", "calibrate", "comparison", "model",
           "widget_run"]

#: The live panel's starting point: the document's 9-way fast-path run, shorter simulated time.
WIDGET_DEFAULTS = DiagParams(max_time_us=1.5e6, warmup_us=1.5e5)
WIDGET_REPLICATIONS = 3


def widget_run(params: DiagParams = WIDGET_DEFAULTS) -> pd.DataFrame:
    """What one widget change runs: three seeded replications, summarized with 95% intervals."""
    return replicate(model, params, replications=WIDGET_REPLICATIONS, seed=1, progress=False).summary()
