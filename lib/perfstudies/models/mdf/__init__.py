"""580/MDF domain time slices and I/O: *Partitioning Large Processors* rebuilt with Ciw.

Two domains share one processor complex in fixed, alternating time slices.
An I/O that completes while its domain is away keeps its device busy until
the domain is dispatched again, so requests queue behind it (IOSQ), and the
IMS front end moves messages only while IMS runs, so they travel in surges.

Modules, lowest layer first: :mod:`.params` (records, ``SEED``),
:mod:`.mechanism` (the dispatching schedule ``Windows`` and the Ciw
distributions and routing that follow it), :mod:`.analytic` (closed forms, the
held device's capacity ``held_busy_time``), :mod:`.network`
(the device, IMS and TSO networks; ``model`` is the device),
:mod:`.calibration`, :mod:`.comparison`, :mod:`.explore` (live panel, slider
sweep, the chapter's tables), :mod:`.figures` and :mod:`.facts` (every number the chapter quotes).
"""

from perfstudies.models.mdf.analytic import (frontend_capacity, held_busy_time, held_device_iosq, hold_moments,
                                             ims_bounds, mean_hold)
from perfstudies.models.mdf.calibration import (calibrate, channel_ios_per_message, device_table, ims_calibrated,
                                                rule_table, tso_calibrated)
from perfstudies.models.mdf.comparison import cells, experiments
from perfstudies.models.mdf.explore import (PANEL, SWEEPS, arrivals_table, capacity_table, device_by_parameter,
                                            held_iosq_table, hold_table, ims_bounds_table, mva_table, panel_defaults,
                                            rates_sweep, slice_table, sweep_curves, sweep_points, widget_run,
                                            widget_theory)
from perfstudies.models.mdf.facts import facts
from perfstudies.models.mdf.figures import (held_interrupt_timeline, ims_network_diagram, response_parts_chart,
                                            sweep_chart, table1_chart, throughput_chart, widget_view)
from perfstudies.models.mdf.mechanism import Windows, domain_windows
from perfstudies.models.mdf.network import build_network, ims_model, model, tso_model
from perfstudies.models.mdf.params import DOCUMENT, KEY, SEED, DeviceParams, ImsParams, PanelParams, TsoParams
from perfstudies.study import Study

#: The study, declared: the device model and its record, the calibration, the cells and their experiments.
STUDY = Study(key=KEY, document=DOCUMENT, seed=SEED, params=DeviceParams, model=model, calibrate=calibrate,
              cells=cells, experiments=experiments, widget_run=widget_run, sweeps=SWEEPS, panel=PANEL,
              facts=facts)
comparison = STUDY.comparison

__all__ = ["STUDY", "KEY", "DOCUMENT", "SEED", "model", "ims_model", "tso_model", "build_network", "calibrate", "facts",
           "device_table", "rule_table", "ims_calibrated", "tso_calibrated", "channel_ios_per_message", "comparison",
           "cells", "experiments", "widget_run", "PANEL", "SWEEPS", "widget_theory", "widget_view",
           "panel_defaults", "sweep_points", "rates_sweep",
           "sweep_curves", "DeviceParams", "ImsParams", "TsoParams", "PanelParams", "Windows", "domain_windows",
           "held_busy_time", "mean_hold", "hold_moments", "held_device_iosq", "frontend_capacity", "ims_bounds",
           "slice_table", "hold_table", "capacity_table", "held_iosq_table", "ims_bounds_table", "mva_table",
           "device_by_parameter", "arrivals_table",
           "ims_network_diagram", "held_interrupt_timeline", "table1_chart", "throughput_chart",
           "response_parts_chart", "sweep_chart"]
