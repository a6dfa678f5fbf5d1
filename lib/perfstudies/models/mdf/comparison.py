"""Every published cell of Tables 1-4 beside the model, with its role and its no-change baseline.

The devices (Tables 1 and 2) are simulated at every column with their
calibrated service; the IMS and TSO domains (Tables 3 and 4) at parameters 1,
3 and 5 from their parameter-3 calibration.  A device's activity rate away
from parameter 3 is its parameter-3 rate scaled by the model's ETR of its
domain.
"""

import functools

import numpy as np
import pandas as pd

from perfstudies.compare import DEFAULT, Cell, Published, Tolerance, comparison_table, resolution
from perfstudies.models.mdf.calibration import (CALIBRATION_PARAMETER, COLUMNS, PARAMETERS, Calibration,
                                                DeviceCalibration, calibrate, tables)
from perfstudies.models.mdf.network import ims_model, model, tso_model
from perfstudies.models.mdf.params import DOCUMENT, SEED, STUDY, DeviceParams, DomainSetup
from perfstudies.runner import summarize
from perfstudies.sweep import run_sweep

#: Replications of every simulated configuration.
REPLICATIONS = 4


def baseline(table: str, row: str, column: str) -> float:
    """The no-change baseline of a cell: the published value of the same quantity in the reference column.

    Tables 1 and 2 (devices): the BASE column, the same workload without
    domain slicing, on which the device model is calibrated; a planner who has
    measured the system unpartitioned and has no model of MDF expects the same
    I/O times under it.  Tables 3 and 4 (the domains), which have no BASE
    column: the parameter-3 column, on which the domains are calibrated; a
    planner asked about another scheduling parameter expects what parameter 3
    gave.
    """
    reference = "BASE" if table in ("Table 1", "Table 2") else str(CALIBRATION_PARAMETER)
    return published_cell(table, row, reference).value


@functools.cache
def published_cells() -> dict[tuple[str, str, str], Published]:
    """Every published cell of Tables 1-4, keyed by (table, row, column)."""
    cells = []
    for row in tables()["io_response_by_domain"].itertuples():
        cells += [Published("Table 1", f"{row.domain} AVG RESP (ms)", row.scheduling_parameter, row.avg_resp_ms),
                  Published("Table 1", f"{row.domain} AVG IOSQ (ms)", row.scheduling_parameter, row.avg_iosq_ms)]
    for row in tables()["device_activity"].itertuples():
        cells += [Published("Table 2", f"{row.device} {label}", row.scheduling_parameter, value)
                  for label, value in (("RATE (I/O/s)", row.rate_per_s), ("RESP (ms)", row.resp_ms),
                                       ("IOSQ (ms)", row.iosq_ms))]
    for row in tables()["ims_front_end"].itertuples():
        cells += [Published("Table 3", label, str(row.scheduling_parameter), getattr(row, column))
                  for column, (_, label) in TABLE3.items()]
    for row in tables()["tso_effects"].itertuples():
        cells += [Published("Table 4", "TSO RESPONSE TIME (s)", str(row.scheduling_parameter), row.tso_response_s),
                  Published("Table 4", "TSO ETR (tx/s)", str(row.scheduling_parameter), row.tso_etr_per_s)]
    return {(c.table, c.row, c.column): c for c in cells}


def published_cell(table: str, row: str, column: str) -> Published:
    """One published cell by its name."""
    return published_cells()[(table, row, column)]


#: The step at which the document prints each row (in the row's unit); the default is 0.01.
PRINTED_STEP = {"RESP (ms)": 1.0, "IOSQ (ms)": 1.0, "IMS IN Q (s)": 0.1, "IMS EXEC (s)": 0.1, "IMS OUT Q (s)": 0.1}


def printed_step(cell: Published) -> float:
    """The resolution of a published cell: Table 2 prints RESP and IOSQ in whole ms, Table 3 three queue
    times to 0.1 s; everything else is printed to two decimals."""
    if cell.table == "Table 2":
        return next((step for suffix, step in PRINTED_STEP.items() if cell.row.endswith(suffix)), 0.01)
    return PRINTED_STEP.get(cell.row, 0.01) if cell.table == "Table 3" else 0.01


def tolerance(cell: Published) -> Tolerance:
    """The project's policy for one cell: 10% of the published value, or one printed step where that is wider.

    The document states no measurement variability for Tables 1-4 (its only
    figure of the kind, Section 2.0's 10% on the count of RMF samples, is a
    check on a report's validity, not a spread of its values), so no cell
    has a documented tolerance.  A value printed as ``7`` (ms) or ``0.2`` (s)
    cannot be read closer than its last digit, so where 10% of it is less
    than one printed step the tolerance is that step; a published zero gets
    it too.
    """
    step = printed_step(cell)
    if DEFAULT.allowed_error(cell.value) >= step:
        return DEFAULT
    unit = cell.row[cell.row.rindex("(") + 1:-1]
    if cell.value == 0:
        return resolution(step, f"a published zero, printed to {step:g} {unit}: ±1 in the last printed digit")
    return resolution(step, f"printed to {step:g} {unit}: ±1 in the last printed digit "
                            f"(10% of {cell.value:g} {unit} is finer than the print)")


#: Table 3's data columns -> (model metric, row label).
TABLE3 = {
    "rate_4705_per_s": ("frontend_messages_per_s", "4705 RATE (I/O/s)"),
    "tpns_queue_s": ("tpns_queue_s", "TPNS Q (s)"),
    "ims_input_queue_s": ("ims_input_queue_s", "IMS IN Q (s)"),
    "ims_exec_s": ("ims_exec_s", "IMS EXEC (s)"),
    "ims_output_queue_s": ("ims_output_queue_s", "IMS OUT Q (s)"),
    "ims_response_s": ("ims_response_s", "IMS RESP TIME (s)"),
    "ims_etr_per_s": ("ims_etr_per_s", "IMS ETR (tx/s)"),
    "cpu_busy_pct": ("cpu_busy_pct", "CPU (%)"),
}
CALIBRATED_TABLE3 = ("rate_4705_per_s", "ims_etr_per_s", "cpu_busy_pct")
TABLE3_NOTES = {
    "rate_4705_per_s": "sets channel I/Os per message",
    "ims_etr_per_s": "sets the 4705 time per message",
    "cpu_busy_pct": "sets CPU per transaction",
}


def _by_parameter(run, base: DomainSetup, parameters=PARAMETERS) -> pd.DataFrame:
    points = [base.replace(scheduling_parameter=p) for p in parameters]
    runs = run_sweep(run, points, REPLICATIONS, SEED, progress=False, max_workers=2)
    return summarize(runs, by=["scheduling_parameter", "metric"])


def device_points(calibrations: tuple[DeviceCalibration, ...], ims_etr: pd.Series,
                  tso_etr: pd.Series) -> list[DeviceParams]:
    """Every device at every column, with its predicted (or calibration) activity rate."""
    devices = tables()["device_activity"].set_index(["device", "scheduling_parameter"])
    named = [c for c in calibrations if not c.name.endswith("average")]
    etr = {"IMS": ims_etr, "TSO": tso_etr}

    def device_rate(device: DeviceCalibration, column: str) -> float:
        if column == "BASE":
            return device.base_rate
        anchor = devices.loc[(device.name, str(CALIBRATION_PARAMETER)), "rate_per_s"]
        ratio = etr[device.domain][int(column)] / etr[device.domain][CALIBRATION_PARAMETER]
        return float(anchor * ratio)

    points = []
    for device in calibrations:
        for column in COLUMNS:
            if device.name.endswith("average"):
                peers = [d for d in named if d.domain == device.domain]
                load = np.mean([device_rate(d, column) / d.base_rate for d in peers])
                rate = device.base_rate * float(load)
            else:
                rate = device_rate(device, column)
            points.append(device_point(device, column, rate))
    return points


def device_point(device: DeviceCalibration, column: str, rate: float) -> DeviceParams:
    """One device at one column: sliced at its scheduling parameter, or BASE (no slicing)."""
    return DeviceParams(scheduling_parameter=int(column) if column != "BASE" else CALIBRATION_PARAMETER,
                        sliced=column != "BASE", domain=device.domain, rate=rate,
                        service_ms=device.service_ms, scv=device.scv)


@functools.cache
def model_results() -> dict[str, pd.DataFrame]:
    """Every simulated number the comparison needs (summaries with 95% CIs)."""
    calibration: Calibration = calibrate()
    ims = _by_parameter(ims_model, calibration.ims)
    tso = _by_parameter(tso_model, calibration.tso)
    ims_etr = ims.xs("ims_etr_per_s", level="metric")["mean"]
    tso_etr = tso.xs("tso_etr_per_s", level="metric")["mean"]
    points = device_points(calibration.devices, ims_etr, tso_etr)
    runs = run_sweep(model, points, REPLICATIONS, SEED, progress=False, max_workers=2)
    devices = summarize(runs, by=["point", "metric"]).reset_index()
    labels = [(c.name, column) for c in calibration.devices for column in COLUMNS]
    devices["device"] = [labels[i][0] for i in devices["point"]]
    devices["column"] = [labels[i][1] for i in devices["point"]]
    return {"ims": ims, "tso": tso, "devices": devices.set_index(["device", "column", "metric"])}


def _cell(table, row, column, summary, role, note="") -> Cell:
    published = published_cell(table, row, column)
    reference = baseline(table, row, column) if role == "prediction" else float("nan")
    return Cell(published, float(summary["mean"]), role, ci_half_width=float(summary["half_width"]),
                baseline=reference, tolerance=tolerance(published), note=note)


def _device_cells(devices: pd.DataFrame) -> list[Cell]:
    cells = []
    domains = tables()["io_response_by_domain"]
    for row in domains.itertuples():
        column = row.scheduling_parameter
        role = "calibration" if column == "BASE" else "prediction"
        note = "BASE sets service time and rate" if role == "calibration" else ""
        key = f"{row.domain} average"
        cells.append(_cell("Table 1", f"{row.domain} AVG RESP (ms)", column,
                           devices.loc[(key, column, "resp_ms")], role, note))
        cells.append(_cell("Table 1", f"{row.domain} AVG IOSQ (ms)", column,
                           devices.loc[(key, column, "iosq_ms")], role, note))
    for row in tables()["device_activity"].itertuples():
        column = row.scheduling_parameter
        for metric, label in (("rate_per_s", "RATE (I/O/s)"), ("resp_ms", "RESP (ms)"), ("iosq_ms", "IOSQ (ms)")):
            anchored = column == "BASE" or (metric == "rate_per_s" and column == str(CALIBRATION_PARAMETER))
            role = "calibration" if anchored else "prediction"
            note = ("BASE sets service time and variability" if column == "BASE" else
                    "parameter 3 rate anchors the device's load" if anchored else
                    "rate follows the model's ETR" if metric == "rate_per_s" else "")
            cells.append(_cell("Table 2", f"{row.device} {label}", column,
                               devices.loc[(row.device, column, metric)], role, note))
    return cells


def _ims_cells(ims: pd.DataFrame) -> list[Cell]:
    cells = []
    per_message = calibrate().channel_ios_per_message
    for row in tables()["ims_front_end"].itertuples():
        p = row.scheduling_parameter
        for column, (metric, label) in TABLE3.items():
            summary = ims.loc[(p, metric)].copy()
            if column == "rate_4705_per_s":  # messages -> channel I/Os
                summary[["mean", "half_width"]] *= per_message
            role = "calibration" if p == CALIBRATION_PARAMETER and column in CALIBRATED_TABLE3 else "prediction"
            note = TABLE3_NOTES.get(column, "") if role == "calibration" else ""
            cells.append(_cell("Table 3", label, str(p), summary, role, note))
    return cells


def _tso_cells(tso: pd.DataFrame) -> list[Cell]:
    cells = []
    for row in tables()["tso_effects"].itertuples():
        p = row.scheduling_parameter
        role = "calibration" if p == CALIBRATION_PARAMETER else "prediction"
        cells.append(_cell("Table 4", "TSO RESPONSE TIME (s)", str(p), tso.loc[(p, "tso_response_s")], role,
                           "sets think time (Little's law)" if role == "calibration" else ""))
        cells.append(_cell("Table 4", "TSO ETR (tx/s)", str(p), tso.loc[(p, "tso_etr_per_s")], role,
                           "sets CPU per command" if role == "calibration" else ""))
    return cells


def comparison() -> pd.DataFrame:
    """The standard comparison table: every cell of Tables 1-4, calibrated or predicted."""
    results = model_results()
    cells = _device_cells(results["devices"]) + _ims_cells(results["ims"]) + _tso_cells(results["tso"])
    return comparison_table(cells, study=STUDY, document=DOCUMENT)
