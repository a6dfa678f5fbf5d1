"""Every published cell of Tables 1-4 beside the model: its role, its tolerance and its no-change baseline.

**Roles** (the rule of :mod:`perfstudies.compare`, cell by cell; :func:`role`):

* *calibration*: the BASE columns of Tables 1 and 2 (they set each device's
  transfer time, variability and rate), Table 2's parameter-3 rates (they set
  the devices' load), Table 1's IMS AVG IOSQ at parameter 3 (it chooses RMF's
  rule for a timer pop outside the slice), Table 3's ETR, CPU and 4705 rate
  and Table 4's two cells at parameter 3 (they set the domains' parameters).
* *derived*, because the model makes them so: RMF's RESP is its IOSQ estimate
  plus the transfer time read from BASE (Tables 1 and 2); a device's rate at
  parameters 1 and 5 is its parameter-3 rate times the model's ETR ratio of
  its domain; the 4705 rate and CPU busy are proportional to the IMS ETR; a
  closed loop's response time is ``N / ETR - Z`` by Little's law (IMS and TSO
  response times); the 4705's two queues (TPNS and IMS output) are one FIFO
  queue in the model, so they are equal, and together they are what Little's
  law leaves of the response after the processor wait and the execution time;
  TSO's ETR at parameter 5 is 2% below the one at parameter 1, because the
  switch overhead is set from Section 7.0's statement of that fall.
* *prediction*: every other IOSQ at parameters 1, 3 and 5 (RMF's estimate, as
  the document reports it), the IMS ETR at parameters 1 and 5 and the TSO ETR
  at parameter 1, and the IMS input queue and execution time at every
  parameter.

**Baselines** (:func:`baseline`): the published value of the same quantity in
the column the model is calibrated on: BASE for the devices, parameter 3 for
the domains.

**Tolerances** (:func:`tolerance`): 10% of the published value, or one printed
step where that is coarser.

**Precision**: each simulated configuration gets replications
(:func:`perfstudies.sweep.sweep_until`) until every predicted number it
produces has a 95% half-width of at most a quarter of its tolerance; the ETR
of each domain at every parameter until it is within 0.5%, because the
devices' load follows it.  The dearest cell is IMS's input queue at parameter 5
(0.1 s tolerance on a processor queue near saturation): a few hundred
replications of the IMS domain, most of the comparison's cost.
"""

import dataclasses
import functools
import math
from collections.abc import Callable

import pandas as pd

from perfstudies.compare import (DEFAULT, Cell, Published, Tolerance, comparison_table, imprecise_note,
                                 required_half_width, resolution)
from perfstudies.models.mdf.calibration import (CALIBRATION_PARAMETER, COLUMNS, PARAMETERS, SWITCH_PARAMETERS,
                                                Calibration, DeviceCalibration, calibrate, rule_cell, tables)
from perfstudies.models.mdf.network import ims_model, model, tso_model
from perfstudies.models.mdf.params import DOCUMENT, KEY, SEED, DeviceParams
from perfstudies.runner import summarize
from perfstudies.sweep import sweep_until

#: Replications every simulated configuration starts with, and the most any may get.
INITIAL = 5
DEVICE_CAP = 400
DOMAIN_CAP = 400
#: Largest 95% half-width of each domain's ETR, relative: the devices' load at parameters 1 and 5
#: is their parameter-3 rate times an ETR ratio, and 0.5% on each ETR keeps that load within about
#: 0.7%, which moves a device's IOSQ by about 2-3%: a quarter of its 10% tolerance.
ETR_PRECISION = 0.005
WORKERS = 1

#: Rows of Tables 3 and 4 -> the model's metric.
IMS_METRICS = {"4705 RATE (I/O/s)": "frontend_messages_per_s", "TPNS Q (s)": "tpns_queue_s",
               "IMS IN Q (s)": "ims_input_queue_s", "IMS EXEC (s)": "ims_exec_s",
               "IMS OUT Q (s)": "ims_output_queue_s", "IMS RESP TIME (s)": "ims_response_s",
               "IMS ETR (tx/s)": "ims_etr_per_s", "CPU (%)": "cpu_busy_pct"}
TSO_METRICS = {"TSO RESPONSE TIME (s)": "tso_response_s", "TSO ETR (tx/s)": "tso_etr_per_s"}
#: Table 3's data columns -> row label.
TABLE3_ROWS = dict(zip(("rate_4705_per_s", "tpns_queue_s", "ims_input_queue_s", "ims_exec_s", "ims_output_queue_s",
                        "ims_response_s", "ims_etr_per_s", "cpu_busy_pct"), IMS_METRICS))


# --- the published cells ------------------------------------------------------------------------

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
                  for column, label in TABLE3_ROWS.items()]
    for row in tables()["tso_effects"].itertuples():
        cells += [Published("Table 4", "TSO RESPONSE TIME (s)", str(row.scheduling_parameter), row.tso_response_s),
                  Published("Table 4", "TSO ETR (tx/s)", str(row.scheduling_parameter), row.tso_etr_per_s)]
    return {(c.table, c.row, c.column): c for c in cells}


def published_cell(table: str, row: str, column: str) -> Published:
    """One published cell by its name."""
    return published_cells()[(table, row, column)]


# --- roles ------------------------------------------------------------------------------------------

#: The cell that chooses RMF's rule.
RULE_CELL = rule_cell()

NOTES = {
    "base": "BASE sets this device's transfer time (RESP - IOSQ), variability and rate (Pollaczek-Khinchine)",
    "base average": "BASE sets the representative device's transfer time (RESP - IOSQ) and its rate "
                    "(Pollaczek-Khinchine at the domain's mean variability)",
    "anchor": "the parameter-3 rate sets the device's load",
    "rmf rule": "sets RMF's rule for a timer pop outside the IMS slice (the rule whose expected estimate "
                "for the IMS representative device is nearest)",
    "switch": "by construction: the switch overhead d is set from Section 7.0's statement that TSO's ETR falls "
              "2% from parameter 1 to 5 (CPU-bound TSO: ETR(5) / ETR(1) = (1 - d/10) / (1 - d/30)), which "
              "restates this cell and the one at parameter 1",
    "etr": "sets the 4705 time per message (held-exchange capacity at two messages per transaction)",
    "cpu": "sets CPU per transaction (utilisation law)",
    "4705": "sets channel I/Os per message",
    "tso response": "sets think time (Little's law)",
    "tso etr": "sets CPU per command (root-find on the simulated ETR)",
    "resp": "by construction: the model's RMF IOSQ estimate plus the transfer time BASE RESP - BASE IOSQ (RMF "
            "adds IOSQ to PEND + DISC + CONN, which slicing does not change); the IOSQ cell carries the prediction",
    "rate": "by construction: the parameter-3 rate times the model's ETR ratio of the domain (computed per "
            "replication); the ETR cells carry the prediction",
    "4705 derived": "by construction: proportional to the model's IMS ETR (2 messages per transaction times the "
                    "calibrated channel I/Os per message); the ETR cell carries the prediction",
    "cpu derived": "by construction: proportional to the model's IMS ETR (utilisation law with the calibrated CPU "
                   "per transaction); the ETR cell carries the prediction",
    "ims resp": "by construction: Little's law on the closed loop, N / ETR - Z with N = 1,000 terminals and "
                "Z = 16 s; the ETR cell carries the prediction",
    "tso resp": "by construction: Little's law on the closed loop, N / ETR - Z with N = 450 users and the think "
                "time set at parameter 3; the ETR cell carries the prediction",
    "4705 queue": "by construction: the 4705 is one FIFO queue for messages in and out, so TPNS Q and IMS OUT Q "
                  "are equal, and together they are what Little's law leaves of the response after IMS IN Q "
                  "and IMS EXEC; those cells and the ETR carry the prediction",
}


def role(cell: Published) -> tuple[str, str]:
    """The role of a published cell and the note that says why (see the module docstring)."""
    table, row, column = cell.table, cell.row, cell.column
    calibration_column = column == str(CALIBRATION_PARAMETER)
    if table in ("Table 1", "Table 2"):
        if column == "BASE":
            return "calibration", NOTES["base average" if table == "Table 1" else "base"]
        if row.endswith("RESP (ms)"):
            return "derived", NOTES["resp"]
        if row.endswith("RATE (I/O/s)"):
            return ("calibration", NOTES["anchor"]) if calibration_column else ("derived", NOTES["rate"])
        if (table, row, column) == (RULE_CELL.table, RULE_CELL.row, RULE_CELL.column):
            return "calibration", NOTES["rmf rule"]
        return "prediction", ""
    if table == "Table 3":
        calibrated = {"IMS ETR (tx/s)": "etr", "CPU (%)": "cpu", "4705 RATE (I/O/s)": "4705"}
        if calibration_column and row in calibrated:
            return "calibration", NOTES[calibrated[row]]
        derived = {"4705 RATE (I/O/s)": "4705 derived", "CPU (%)": "cpu derived", "IMS RESP TIME (s)": "ims resp",
                   "TPNS Q (s)": "4705 queue", "IMS OUT Q (s)": "4705 queue"}
        if row in derived:
            return "derived", NOTES[derived[row]]
        return "prediction", ""
    if calibration_column:
        return "calibration", NOTES["tso response" if row.startswith("TSO RESPONSE") else "tso etr"]
    if row.startswith("TSO RESPONSE"):
        return "derived", NOTES["tso resp"]
    if column == str(SWITCH_PARAMETERS[-1]):
        return "derived", NOTES["switch"]
    return "prediction", ""


# --- baselines and tolerances -----------------------------------------------------------------------

#: The reference column of each table: the one its model is calibrated on.
REFERENCE = {"Table 1": "BASE", "Table 2": "BASE", "Table 3": str(CALIBRATION_PARAMETER),
             "Table 4": str(CALIBRATION_PARAMETER)}


def baseline(table: str, row: str, column: str) -> float:
    """The no-change baseline of a cell: the published value of the same quantity in the reference column.

    A capacity planner without a model of 580/MDF answers from the measurement
    they have, the same one the model is calibrated on.  Tables 1 and 2 (the
    devices): the BASE column, the same workload without domain slicing; the
    planner who measured the system unpartitioned expects the same I/O times
    under it (the device model is calibrated on BASE).  Tables 3 and 4 (the
    domains), which have no BASE column: the parameter-3 column; the planner
    asked about another scheduling parameter expects what parameter 3 gave (the
    domains are calibrated on parameter 3).  A parameter-3 cell the model
    predicts therefore has itself as baseline: the planner measured it, so the
    model cannot beat it there and the cell counts as weak evidence.
    """
    return published_cell(table, row, REFERENCE[table]).value


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


def precision_target(cell: Published) -> Callable[[float], float]:
    """The largest 95% half-width at which the model's value of ``cell`` may be compared, given the model's mean.

    A quarter of the tolerance, or a quarter of the error for a decisive miss
    (:func:`perfstudies.compare.required_half_width`).
    """
    return functools.partial(required_half_width, cell.value, tolerance(cell))


# --- the simulated numbers ----------------------------------------------------------------------------

def _domain_targets(table: str, metrics: dict[str, str], etr_row: str) -> list[dict[str, float]]:
    """Per parameter: a precision target for every predicted cell, and the ETR's for the devices' load."""
    targets = []
    for p in PARAMETERS:
        wanted = {metrics[row]: precision_target(cell) for (t, row, column), cell in published_cells().items()
                  if t == table and column == str(p) and role(cell)[0] == "prediction"}
        etr = ETR_PRECISION * published_cell(table, etr_row, str(p)).value
        own = wanted.get(metrics[etr_row])
        wanted[metrics[etr_row]] = etr if own is None else functools.partial(_tighter, etr, own)
        targets.append(wanted)
    return targets


def _tighter(fixed: float, target: Callable[[float], float], mean: float) -> float:
    """The smaller of a fixed half-width and a target that depends on the mean."""
    return min(fixed, target(mean))


@dataclasses.dataclass(frozen=True)
class Domain:
    """One domain's sequential sweep over the scheduling parameters."""

    runs: pd.DataFrame
    summary: pd.DataFrame
    missed: tuple


def _sweep_domain(run, base, table: str, metrics: dict[str, str], etr_row: str) -> Domain:
    points = [base.replace(scheduling_parameter=p) for p in PARAMETERS]
    runs, missed = sweep_until(run, points, _domain_targets(table, metrics, etr_row), seed=SEED, initial=INITIAL,
                               cap=DOMAIN_CAP, max_workers=WORKERS)
    return Domain(runs, summarize(runs, by=["scheduling_parameter", "metric"]),
                  tuple((PARAMETERS[point], metric) for point, metric in missed))


def etr_ratios(runs: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Each parameter's ETR over parameter 3's, replication by replication (common random numbers).

    Replication *i* has the same seed at every parameter, so the ratio is
    taken within each replication the two parameters share; its mean and 95%
    half-width (columns ``mean``, ``half_width``, ``n``) come from those
    per-replication ratios.  Parameter 3's own ratio is 1.
    """
    etr = runs[runs["metric"] == metric].pivot(index="replication", columns="scheduling_parameter", values="value")
    rows = []
    for p in PARAMETERS:
        if p == CALIBRATION_PARAMETER:
            rows.append({"scheduling_parameter": p, "n": len(etr[p].dropna()), "mean": 1.0, "half_width": 0.0})
            continue
        pair = etr[[p, CALIBRATION_PARAMETER]].dropna()
        ratio = pd.DataFrame({"metric": "ratio", "value": pair[p] / pair[CALIBRATION_PARAMETER]})
        summary = summarize(ratio).loc["ratio"]
        rows.append({"scheduling_parameter": p, "n": int(summary["n"]), "mean": float(summary["mean"]),
                     "half_width": float(summary["half_width"])})
    return pd.DataFrame(rows).set_index("scheduling_parameter")


def device_rates(calibrations: tuple[DeviceCalibration, ...], ratios: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Every device's activity rate at every column, with the half-width the ETR ratio gives it.

    BASE: the calibrated rate (Table 2's published one, or the rate that gives
    Table 1's BASE IOSQ).  Parameter 3: the device's parameter-3 load
    (:attr:`DeviceCalibration.anchor_rate`).  Parameters 1 and 5: that load
    times the model's ETR ratio of the domain.
    """
    rows = []
    for device in calibrations:
        for column in COLUMNS:
            if column == "BASE":
                rate, half = device.base_rate, math.nan
            else:
                ratio = ratios[device.domain].loc[int(column)]
                rate = float(device.anchor_rate * ratio["mean"])
                half = math.nan if int(column) == CALIBRATION_PARAMETER else float(device.anchor_rate
                                                                                   * ratio["half_width"])
            rows.append({"device": device.name, "column": column, "rate": rate, "half_width": half})
    return pd.DataFrame(rows)


def device_point(device: DeviceCalibration, column: str, rate: float, calibration: Calibration) -> DeviceParams:
    """One device at one column: sliced at its scheduling parameter, or BASE (no slicing)."""
    return DeviceParams(scheduling_parameter=int(column) if column != "BASE" else CALIBRATION_PARAMETER,
                        sliced=column != "BASE", domain=device.domain, rate=rate, service_ms=device.service_ms,
                        scv=device.scv, switch_ms=calibration.switch_ms, rmf_rule=calibration.rmf_rule)


def _device_iosq_cell(device: DeviceCalibration, column: str) -> Published:
    if device.name.endswith("average"):
        return published_cell("Table 1", f"{device.domain} AVG IOSQ (ms)", column)
    return published_cell("Table 2", f"{device.name} IOSQ (ms)", column)


@functools.cache
def model_results() -> dict:
    """Every simulated number the comparison needs, each replicated until precise enough.

    Returns ``{"ims", "tso", "devices"}`` summaries (mean, 95% half-width, n
    per metric), the ``"rates"`` the devices ran at, the ETR ``"ratios"`` and
    the targets still ``"missed"`` at a cap.
    """
    calibration: Calibration = calibrate()
    ims = _sweep_domain(ims_model, calibration.ims, "Table 3", IMS_METRICS, "IMS ETR (tx/s)")
    tso = _sweep_domain(tso_model, calibration.tso, "Table 4", TSO_METRICS, "TSO ETR (tx/s)")
    ratios = {"IMS": etr_ratios(ims.runs, "ims_etr_per_s"), "TSO": etr_ratios(tso.runs, "tso_etr_per_s")}
    rates = device_rates(calibration.devices, ratios)
    labels = [(device, column) for device in calibration.devices for column in COLUMNS]
    points = [device_point(device, column, rate, calibration) for (device, column), rate in zip(labels, rates["rate"])]
    targets = [{"rmf_iosq_ms": precision_target(_device_iosq_cell(device, column))} for device, column in labels]
    runs, missed = sweep_until(model, points, targets, seed=SEED, initial=INITIAL, cap=DEVICE_CAP,
                               max_workers=WORKERS)
    devices = summarize(runs, by=["point", "metric"]).reset_index()
    devices["device"] = [labels[i][0].name for i in devices["point"]]
    devices["column"] = [labels[i][1] for i in devices["point"]]
    missed_all = ([("Table 3", p, m) for p, m in ims.missed] + [("Table 4", p, m) for p, m in tso.missed]
                  + [("devices", f"{labels[i][0].name} {labels[i][1]}", m) for i, m in missed])
    return {"ims": ims.summary, "tso": tso.summary, "devices": devices.set_index(["device", "column", "metric"]),
            "rates": rates.set_index(["device", "column"]), "ratios": ratios, "missed": missed_all}


# --- the cells --------------------------------------------------------------------------------------------

def _cell(published: Published, value: float, half_width: float, count: float | None = None,
          cap: int | None = None) -> Cell:
    kind, note = role(published)
    reference = baseline(published.table, published.row, published.column) if kind == "prediction" else math.nan
    cell = Cell(published, float(value), kind, ci_half_width=float(half_width), baseline=reference,
                tolerance=tolerance(published), note=note)
    if kind == "prediction" and count is not None:
        reference = REFERENCE[published.table]
        note = f"{count:.0f} replications; baseline: the {'BASE' if reference == 'BASE' else 'parameter-3'} column"
        imprecise = imprecise_note(cell, int(count), cap)
        cell = dataclasses.replace(cell, note=f"{imprecise}; {note}" if imprecise else note)
    return cell


def _device_cells(results: dict) -> list[Cell]:
    devices, rates = results["devices"], results["rates"]
    cells = []
    for (table, row, column), published in published_cells().items():
        if table not in ("Table 1", "Table 2"):
            continue
        name = f"{row.split()[0]} average" if table == "Table 1" else row.split()[0]
        if row.endswith("RATE (I/O/s)"):
            rate = rates.loc[(name, column)]
            cells.append(_cell(published, rate["rate"], rate["half_width"]))
            continue
        summary = devices.loc[(name, column, "resp_ms" if row.endswith("RESP (ms)") else "rmf_iosq_ms")]
        cells.append(_cell(published, summary["mean"], summary["half_width"], summary["n"], DEVICE_CAP))
    return cells


def _domain_cells(results: dict, table: str, metrics: dict[str, str], key: str) -> list[Cell]:
    summary = results[key]
    per_message = calibrate().channel_ios_per_message
    cells = []
    for (t, row, column), published in published_cells().items():
        if t != table:
            continue
        found = summary.loc[(int(column), metrics[row])]
        scale = per_message if row == "4705 RATE (I/O/s)" else 1.0  # messages -> channel I/Os
        cells.append(_cell(published, scale * found["mean"], scale * found["half_width"], found["n"], DOMAIN_CAP))
    return cells


def comparison() -> pd.DataFrame:
    """The standard comparison table: every cell of Tables 1-4 with its role, tolerance and baseline."""
    results = model_results()
    cells = (_device_cells(results) + _domain_cells(results, "Table 3", IMS_METRICS, "ims")
             + _domain_cells(results, "Table 4", TSO_METRICS, "tso"))
    return comparison_table(cells, study=KEY, document=DOCUMENT)
