"""IBM Magstar 3494 Virtual Tape Server: throughput, cache and recall (study ``vts``).

Modules: :mod:`.params` (the parameter record and Table 3), :mod:`.analytic`
(bottleneck bound, Fig. 6 closed form, equations 1-3), :mod:`.calibration`
(service times from named cells), :mod:`.network` (the Ciw models),
:mod:`.comparison` (published versus model), :mod:`.sweeps` (slider-chart data)
and :mod:`.explore` (the live widget's re-run).
"""

from perfstudies.models.vts.analytic import Rates, bottleneck, bound, equation3, import_export_minutes
from perfstudies.models.vts.calibration import calibrate, calibrated_rates
from perfstudies.models.vts.comparison import DOCUMENT, comparison
from perfstudies.models.vts.explore import explore, widget_run
from perfstudies.models.vts.network import recall_model, throughput_model
from perfstudies.models.vts.params import STUDY, VTSParams

__all__ = ["STUDY", "DOCUMENT", "comparison", "widget_run", "explore", "VTSParams", "Rates", "calibrate",
           "calibrated_rates", "throughput_model", "recall_model", "bound", "bottleneck", "equation3",
           "import_export_minutes"]
