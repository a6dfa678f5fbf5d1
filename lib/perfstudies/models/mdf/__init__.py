"""580/MDF domain time slices and I/O: *Partitioning Large Processors* rebuilt with Ciw.

Two domains share one processor complex in fixed, alternating time slices.
An I/O that completes while its domain is away keeps its device busy until
the domain is dispatched again, so requests queue behind it (IOSQ), and the
IMS front end moves messages only while IMS runs, so they travel in surges.
"""

from perfstudies.models.mdf.calibration import DOCUMENT, STUDY, comparison
from perfstudies.models.mdf.network import device_model, ims_model, tso_model
from perfstudies.models.mdf.params import DeviceParams, ImsParams, PanelParams, TsoParams
from perfstudies.models.mdf.widget import panel_run, widget_run

__all__ = ["DOCUMENT", "STUDY", "comparison", "widget_run", "panel_run", "device_model", "ims_model", "tso_model",
           "DeviceParams", "ImsParams", "PanelParams", "TsoParams"]
