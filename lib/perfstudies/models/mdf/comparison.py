"""Every published cell of Tables 1-4, declared: its role, tolerance, baseline and how the model gets it.

The evaluator (:func:`perfstudies.evaluate.evaluate`) runs the declarations;
this module only states them (:func:`cells`, :func:`experiments`).

**Roles**, cell by cell where each cell is declared:

* *calibration*: the BASE columns of Tables 1 and 2 (they set each device's
  transfer time, variability and rate), Table 2's parameter-3 rates (they set
  the devices' load), Table 1's IMS AVG IOSQ at parameter 3 (it chooses RMF's
  rule for a timer pop outside the slice), Table 3's ETR, CPU and 4705 rate
  and Table 4's two cells at parameter 3 (they set the domains' parameters).
  Each names the one parameter it sets.
* *derived*, each with the identity that gives it from other *published*
  cells (the evaluator checks it on the published values): RMF's RESP is its
  IOSQ plus the transfer time BASE RESP - BASE IOSQ (Tables 1 and 2); a
  device's rate at parameters 1 and 5 is its parameter-3 rate times its
  domain's ETR ratio; the 4705 rate and CPU busy follow the IMS ETR; a closed
  loop's ETR and response time are tied by Little's law, ``R = N / ETR - Z``
  (IMS and TSO); TSO's ETR at parameter 5 is 2% below the one at parameter 1
  (Section 7.0's statement, from which the switch overhead is set).
* *prediction*: every other IOSQ at parameters 1, 3 and 5 (RMF's estimate, as
  the document reports it), the IMS response time at parameters 1 and 5 and
  the TSO response time at parameter 1, the four parts of the IMS response
  (TPNS Q, IMS IN Q, IMS EXEC, IMS OUT Q) at every parameter, and IMS-8C2's
  rate at parameter 5 (the published ETR ratio does not give it: 29.87
  against 26.85 published).

**The stricter of two tied cells** (issue 29): where an identity ties two
published cells both ways (each follows from the other within its
tolerance), the one the model misses by more, in relative error, is scored
and the other is derived from it.  Little's law ties each domain's response
time to its ETR (``R = N / ETR - Z``): the response is the stricter one (IMS at
parameter 1: ETR +5%, response -19% in the model), so the response times at
parameters 1 and 5 (TSO: at 1, the one at 5 following by the 2% fall) are
scored, and the ETRs, and everything that follows the ETR (the devices'
rates, the 4705 rate, the CPU busy), are derived.  RMF's RESP and IOSQ are
tied by the transfer time; IOSQ, the smaller number with the same absolute
error, is the stricter and stays scored (:data:`TIED_PAIRS` lists every pair).

**Baselines** (:func:`baseline`): the answer a capacity planner without a
model of 580/MDF gives for a cell from the document's *other* measured
columns of the same row (:func:`planner_answers`): the BASE column where the
table has one (persistence: "partitioning changes nothing"), the nearest
measured scheduling parameter (3 for a cell at 1 or 5; for a cell at 3, the
parameters 1 and 5 each, and linear in the slice between them, their mean,
since parameter 3's 20 ms slice is midway between 30 and 10 ms).  Of these
the one closest to the published value, so that beating it is real evidence.
A cell's own value is never its baseline; where another column's value
equals it (IMS IN Q and IMS EXEC are flat from parameter 1 to 3) the model
can match the baseline but not beat it, and the cell stays scored because
the model can still miss it.

**Tolerances** (:func:`tolerance`): 10% of the published value, or one printed
step where that is coarser.

**Precision**: the evaluator replicates each simulated configuration until
every calibrated or predicted number it produces has a 95% half-width of at
most a quarter of its tolerance; each domain's ETR at every parameter is also
held to 0.5% (a :class:`~perfstudies.cells.Precision`), because the devices'
load follows it.  A replication of the IMS domain costs about ten of a device's,
so the IMS domain's replications are most of the comparison's cost; the
dearest cells are the parts of the IMS response at parameter 3 and the IMS
response time at parameter 5 (a near miss, 0.18 s tolerance).
"""

import functools

import numpy as np
import pandas as pd

from perfstudies.cells import Baseline, CellSpec, Derivation, Exact, Experiment, Precision, Simulated, metric
from perfstudies.compare import DEFAULT, Published, Tolerance, resolution
from perfstudies.models.mdf import analytic
from perfstudies.models.mdf.calibration import (CALIBRATION_PARAMETER, COLUMNS, DeviceCalibration,
                                                channel_ios_per_message, device, devices, fact, ims_calibrated,
                                                published_tables, rmf_rule, switch_calibration, tso_calibrated)
from perfstudies.models.mdf.mechanism import windows_of
from perfstudies.models.mdf.network import ims_model, model, tso_model
from perfstudies.models.mdf.params import DeviceParams, ImsParams

#: Replications every simulated configuration starts with, and the most any may get.
INITIAL = 5
DEVICE_CAP = 400
DOMAIN_CAP = 400
#: Largest 95% half-width of each domain's ETR, relative: the devices' load at parameters 1 and 5
#: is their parameter-3 rate times an ETR ratio, and 0.5% on each ETR keeps that load within about
#: 0.7%, which moves a device's IOSQ by about 2-3%: a quarter of its 10% tolerance.
ETR_PRECISION = 0.005

#: Rows of Tables 3 and 4 -> the model's metric.
IMS_METRICS = {"4705 RATE (I/O/s)": "frontend_messages_per_s", "TPNS Q (s)": "tpns_queue_s",
               "IMS IN Q (s)": "ims_input_queue_s", "IMS EXEC (s)": "ims_exec_s",
               "IMS OUT Q (s)": "ims_output_queue_s", "IMS RESP TIME (s)": "ims_response_s",
               "IMS ETR (tx/s)": "ims_etr_per_s", "CPU (%)": "cpu_busy_pct"}
TSO_METRICS = {"TSO RESPONSE TIME (s)": "tso_response_s", "TSO ETR (tx/s)": "tso_etr_per_s"}
#: Table 3's data columns -> row label.
TABLE3_ROWS = dict(zip(("rate_4705_per_s", "tpns_queue_s", "ims_input_queue_s", "ims_exec_s", "ims_output_queue_s",
                        "ims_response_s", "ims_etr_per_s", "cpu_busy_pct"), IMS_METRICS))
#: The experiments: each domain over the scheduling parameters, then every device at every column.
IMS, TSO, DEVICES = "IMS domain", "TSO domain", "devices"
#: Each domain's experiment and ETR metric.
ETR = {"IMS": (IMS, "ims_etr_per_s"), "TSO": (TSO, "tso_etr_per_s")}
#: Each domain's published ETR row: (table, row).
ETR_CELL = {"IMS": ("Table 3", "IMS ETR (tx/s)"), "TSO": ("Table 4", "TSO ETR (tx/s)")}
#: The scheduling parameters other than the calibration one, as column names.
AWAY = ("1", "5")
#: Table 2's devices and Table 1's domains.
TABLE2_DEVICES = ("IMS-C23", "IMS-8C2", "TSO-CC1", "TSO-CC2")
DOMAINS = ("IMS", "TSO")


# --- the published cells ------------------------------------------------------------------------

@functools.cache
def published_cells() -> dict[tuple[str, str, str], Published]:
    """Every published cell of Tables 1-4, keyed by (table, row, column)."""
    cells = []
    for row in published_tables()["io_response_by_domain"].itertuples():
        cells += [Published("Table 1", f"{row.domain} AVG RESP (ms)", row.scheduling_parameter, row.avg_resp_ms),
                  Published("Table 1", f"{row.domain} AVG IOSQ (ms)", row.scheduling_parameter, row.avg_iosq_ms)]
    for row in published_tables()["device_activity"].itertuples():
        cells += [Published("Table 2", f"{row.device} {label}", row.scheduling_parameter, value)
                  for label, value in (("RATE (I/O/s)", row.rate_per_s), ("RESP (ms)", row.resp_ms),
                                       ("IOSQ (ms)", row.iosq_ms))]
    for row in published_tables()["ims_front_end"].itertuples():
        cells += [Published("Table 3", label, str(row.scheduling_parameter), getattr(row, column))
                  for column, label in TABLE3_ROWS.items()]
    for row in published_tables()["tso_effects"].itertuples():
        cells += [Published("Table 4", "TSO RESPONSE TIME (s)", str(row.scheduling_parameter), row.tso_response_s),
                  Published("Table 4", "TSO ETR (tx/s)", str(row.scheduling_parameter), row.tso_etr_per_s)]
    return {(c.table, c.row, c.column): c for c in cells}


def published_cell(table: str, row: str, column: str) -> Published:
    """One published cell by its name."""
    return published_cells()[(table, row, column)]


def _key(table: str, row: str, column: str) -> str:
    return published_cell(table, row, column).where


# --- tolerances and baselines -----------------------------------------------------------------------

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


#: The scheduling parameters nearest each measured column (the planner's neighbouring measurements).
NEIGHBOURS = {"1": ("3",), "3": ("1", "5"), "5": ("3",)}


def _slice_ms(column: str) -> float:
    return fact(f"slice_ms_parameter_{column}")


def planner_answers(table: str, row: str, column: str) -> dict[str, Baseline]:
    """Every answer a capacity planner without a model of 580/MDF would give for one cell, from the
    document's other measured columns of the same row.

    * the BASE column, where the table has one (Tables 1 and 2): the same workload measured without
      domain slicing ("partitioning changes nothing");
    * the same quantity at the nearest measured scheduling parameter: parameter 3 for a cell at 1 or 5
      (the sliced run the domains and the devices' load are calibrated on);
    * for a cell at parameter 3, whose own column is that run, its two neighbours 1 and 5, each, and
      the answer linear in the time slice between them: Section 7.0 gives 30, 20 and 10 ms slices at
      parameters 1, 3 and 5 and ties the delays to the slice's length, and 20 ms is midway, so the
      mean of the two.

    A cell's own value is never among them.
    """
    cells = published_cells()
    value = lambda col: cells[(table, row, col)].value  # noqa: E731
    answers = {}
    if (table, row, "BASE") in cells and column != "BASE":
        answers["BASE"] = Baseline(value("BASE"), "persistence",
                                   "the BASE column, the same workload measured without domain slicing: the planner "
                                   "who measured the system unpartitioned expects the same under it")
    for neighbour in NEIGHBOURS[column]:
        answers[f"parameter {neighbour}"] = Baseline(
            value(neighbour), "persistence", f"the parameter-{neighbour} column, the nearest measured scheduling "
                                             f"parameter: the planner expects what parameter {neighbour} gave")
    if column == "3":
        low, middle, high = (_slice_ms(c) for c in ("1", "3", "5"))
        weight = (low - middle) / (low - high)
        answers["linear in the slice between parameters 1 and 5"] = Baseline(
            value("1") + weight * (value("5") - value("1")), "scaling",
            f"linear in the time slice between the measured parameters 1 and 5 (Section 7.0's slices are {low:g}, "
            f"{middle:g} and {high:g} ms, so parameter 3 is midway; the document ties the I/O delays and the queue "
            "times to the slice's length): the mean of their values")
    return answers


def baseline(table: str, row: str, column: str, also: str = "") -> Baseline:
    """The stronger of the planner's answers (:func:`planner_answers`): the one closest to the published value,
    so that beating it is real evidence; its ground names the others.  ``also`` adds words to the ground."""
    published = published_cell(table, row, column).value
    answers = planner_answers(table, row, column)
    chosen = min(answers, key=lambda label: abs(answers[label].value - published))
    best = answers[chosen]
    others = [f"{label} {answer.value:.4g}" for label, answer in answers.items() if label != chosen]
    ground = best.ground
    if others:
        ground += f" (the closest to the published value of the planner's answers; the others: {', '.join(others)})"
    if best.value == published:
        ground += ("; it equals the published value, so the model can match but never beat it (weak evidence), "
                   "and the cell stays scored because the model can still miss it")
    if also:
        ground += f"; {also}"
    return Baseline(best.value, best.kind, ground)


# --- the experiments ------------------------------------------------------------------------------------

def etr_ratio(finished: dict[str, dict[str, pd.DataFrame]], domain: str, column: str) -> float:
    """The mean over replications of a domain's ETR at ``column`` over its ETR at parameter 3.

    Replication *i* has the same seed at every parameter (common random
    numbers), so the ratio is taken within each replication both ran.
    """
    experiment, etr = ETR[domain]
    reference = finished[experiment][str(CALIBRATION_PARAMETER)][etr].to_numpy(float)
    changed = finished[experiment][column][etr].to_numpy(float)
    count = min(len(reference), len(changed))
    return float(np.mean(changed[:count] / reference[:count]))


def device_point(calibrated: DeviceCalibration, column: str, rate: float) -> DeviceParams:
    """One device at one column: sliced at its scheduling parameter, or BASE (no slicing)."""
    return DeviceParams(scheduling_parameter=int(column) if column != "BASE" else CALIBRATION_PARAMETER,
                        sliced=column != "BASE", domain=calibrated.domain, rate=rate, service_ms=calibrated.service_ms,
                        scv=calibrated.scv, switch_ms=switch_calibration(), rmf_rule=rmf_rule())


def device_rate(calibrated: DeviceCalibration, column: str, finished: dict[str, dict[str, pd.DataFrame]]) -> float:
    """A device's activity rate at a column: BASE's calibrated rate, or its parameter-3 load times its
    domain's simulated ETR ratio (1 at parameter 3)."""
    if column == "BASE":
        return calibrated.base_rate
    return calibrated.anchor_rate * etr_ratio(finished, calibrated.domain, column)


def device_configurations(finished: dict[str, dict[str, pd.DataFrame]]) -> dict[str, DeviceParams]:
    """Every device at every column, loaded from the finished domain experiments (``"<device> <column>"``)."""
    return {f"{calibrated.name} {column}": device_point(calibrated, column, device_rate(calibrated, column, finished))
            for calibrated in devices() for column in COLUMNS}


def experiments() -> list[Experiment]:
    """The IMS and TSO domains at parameters 1, 3 and 5, then the devices at the load their ETR ratios give."""
    ims, tso = ims_calibrated(), tso_calibrated()
    return [
        Experiment(IMS, ims_model, {column: ims.replace(scheduling_parameter=int(column))
                                    for column in ("1", "3", "5")}, initial=INITIAL, cap=DOMAIN_CAP),
        Experiment(TSO, tso_model, {column: tso.replace(scheduling_parameter=int(column))
                                    for column in ("1", "3", "5")}, initial=INITIAL, cap=DOMAIN_CAP),
        Experiment(DEVICES, model, device_configurations, initial=INITIAL, cap=DEVICE_CAP),
    ]


# --- how the model gets a value -----------------------------------------------------------------------

def _scaled_rate(name: str, reference: np.ndarray, changed: np.ndarray) -> np.ndarray:
    """A device's parameter-3 load times its domain's ETR ratio, per replication."""
    return device(name).anchor_rate * changed / reference


def _channel_ios(messages: np.ndarray) -> np.ndarray:
    """4705 messages per second -> channel I/Os per second (the calibrated I/Os per message)."""
    return channel_ios_per_message() * messages


def _device(name: str, column: str, quantity: str) -> Simulated:
    return metric(DEVICES, f"{name} {column}", quantity)


def _etr_scaled(domain: str, column: str, combine) -> Simulated:
    experiment, etr = ETR[domain]
    return Simulated(experiment, ((str(CALIBRATION_PARAMETER), etr), (column, etr)), combine)


def _ims_fraction(column: str) -> float:
    """The share of the processors' time the IMS domain is given at a parameter (after the switch)."""
    return windows_of(ImsParams(scheduling_parameter=int(column), switch_ms=switch_calibration()), "IMS").fraction


# --- the identities of the derived cells, on published values -------------------------------------------

def plus_transfer(iosq: float, resp_base: float, iosq_base: float) -> float:
    """RMF's RESP: this column's IOSQ plus the transfer time BASE RESP - BASE IOSQ."""
    return iosq + resp_base - iosq_base


def follows_etr(value_3: float, etr: float, etr_3: float) -> float:
    """A quantity proportional to the domain's ETR: its parameter-3 value times the ETR ratio."""
    return value_3 * etr / etr_3


def cpu_busy(share_ratio: float, cpu_3: float, etr: float, etr_3: float) -> float:
    """The utilisation law at a fixed CPU per transaction, over the domain's processor share
    (``share_ratio``: parameter 3's share over this parameter's)."""
    return cpu_3 * etr / etr_3 * share_ratio


def think_then_respond(population: float, think_s: float, etr: float) -> float:
    """Little's law on a closed loop: ``N / ETR - Z``."""
    return analytic.closed_response(population, etr, think_s)


def respond_as_at_3(population: float, etr: float, etr_3: float, resp_3: float) -> float:
    """Little's law with the think time parameter 3's response and ETR give: ``N / ETR - (N / ETR_3 - R_3)``."""
    return analytic.closed_response(population, etr, analytic.closed_response(population, etr_3, resp_3))


def throughput_of(population: float, think_s: float, response: float) -> float:
    """Little's law on a closed loop, solved for the throughput: ``N / (R + Z)``."""
    return population / (response + think_s)


def throughput_as_at_3(population: float, response: float, etr_3: float, resp_3: float) -> float:
    """Little's law with the think time parameter 3's response and ETR give: ``N / (R + N / ETR_3 - R_3)``."""
    return throughput_of(population, analytic.closed_response(population, etr_3, resp_3), response)


def after_fall(fall: float, etr_1: float) -> float:
    """The ETR at parameter 5 from the one at 1 and the stated fractional fall."""
    return etr_1 * (1.0 - fall)


def _calibrated(name: str, field: str) -> float:
    """One calibrated number of a device (its BASE rate, its parameter-3 load)."""
    return getattr(device(name), field)


# --- the cells, table by table ------------------------------------------------------------------------

def _spec(table: str, row: str, column: str, role: str, model_value, **declared) -> CellSpec:
    """A cell of the document, with the tolerance policy's tolerance."""
    published = published_cell(table, row, column)
    return CellSpec(published, role, model_value, tolerance(published), **declared)


def _resp_from_iosq(table: str, name: str, row: str, column: str) -> CellSpec:
    """RMF's RESP at a sliced column: its IOSQ plus the transfer time BASE RESP - BASE IOSQ."""
    resp, iosq = f"{row} RESP (ms)", f"{row} IOSQ (ms)"
    return _spec(table, resp, column, "derived", _device(name, column, "resp_ms"), derivation=Derivation(
        (_key(table, iosq, column), _key(table, resp, "BASE"), _key(table, iosq, "BASE")),
        plus_transfer,
        "RMF's RESP is IOSQ plus PEND + DISC + CONN, which slicing does not change: this column's IOSQ plus "
        "BASE RESP - BASE IOSQ"),
        note="The model's RMF IOSQ estimate plus the calibrated transfer time; the IOSQ cell carries the prediction.")


def _predicted_iosq(table: str, name: str, row: str, column: str) -> CellSpec:
    return _spec(table, f"{row} IOSQ (ms)", column, "prediction", _device(name, column, "rmf_iosq_ms"),
                 baseline=baseline(table, f"{row} IOSQ (ms)", column),
                 note="RMF's expected IOSQ estimate under the calibrated rule, for the device simulated on its "
                      "domain's slices at this parameter's load.")


def _scaled_device_rate(device: str, column: str) -> CellSpec:
    """Table 2: a device's rate away from parameter 3, its parameter-3 rate times the domain's ETR ratio."""
    row, domain = f"{device} RATE (I/O/s)", device.split("-")[0]
    etr_table, etr_row = ETR_CELL[domain]
    scaled = _etr_scaled(domain, column, functools.partial(_scaled_rate, device))
    return _spec("Table 2", row, column, "derived", scaled,
                 derivation=Derivation(
                     (_key("Table 2", row, "3"), _key(etr_table, etr_row, column), _key(etr_table, etr_row, "3")),
                     follows_etr, f"the device's parameter-3 rate times the {domain} ETR ratio of this parameter to 3"),
                 note="The parameter-3 rate times the model's ETR ratio (per replication); the domain's response "
                      "time carries the prediction.")


def _published_scaled_rate(device: str, column: str) -> float:
    """What the published parameter-3 rate and IMS ETR ratio give for an IMS device's rate."""
    return follows_etr(published_cell("Table 2", f"{device} RATE (I/O/s)", "3").value,
                       published_cell("Table 3", "IMS ETR (tx/s)", column).value,
                       published_cell("Table 3", "IMS ETR (tx/s)", "3").value)


def table1_cells() -> list[CellSpec]:
    """Table 1: each domain's representative device (RESP and IOSQ) at BASE and parameters 1, 3 and 5."""
    return [
        *[_spec("Table 1", f"{d} AVG RESP (ms)", "BASE", "calibration", _device(f"{d} average", "BASE", "resp_ms"),
                sets=f'device("{d} average").service_ms',
                note="BASE RESP - BASE IOSQ is the representative device's transfer time (PEND + DISC + CONN).")
          for d in DOMAINS],
        *[_spec("Table 1", f"{d} AVG IOSQ (ms)", "BASE", "calibration",
                _device(f"{d} average", "BASE", "rmf_iosq_ms"), sets=f'device("{d} average").base_rate',
                note="The rate that gives BASE IOSQ by Pollaczek-Khinchine at the domain's mean variability.")
          for d in DOMAINS],
        _spec("Table 1", "IMS AVG IOSQ (ms)", "3", "calibration", _device("IMS average", "3", "rmf_iosq_ms"),
              sets="rmf_rule", note="RMF's rule for a timer pop outside the IMS slice: the rule whose expected "
                                    "estimate for the IMS representative device is nearest."),
        *[_predicted_iosq("Table 1", "IMS average", "IMS AVG", column) for column in AWAY],
        *[_predicted_iosq("Table 1", "TSO average", "TSO AVG", column) for column in ("1", "3", "5")],
        *[_resp_from_iosq("Table 1", f"{d} average", f"{d} AVG", column) for d in DOMAINS
          for column in ("1", "3", "5")],
    ]


def table2_cells() -> list[CellSpec]:
    """Table 2: each device's RATE, RESP and IOSQ at BASE and parameters 1, 3 and 5."""
    return [
        *[_spec("Table 2", f"{name} RATE (I/O/s)", "BASE", "calibration",
                Exact(functools.partial(_calibrated, name, "base_rate")),
                sets=f'device("{name}").base_rate', note="The device's rate without slicing, as run.")
          for name in TABLE2_DEVICES],
        *[_spec("Table 2", f"{name} RESP (ms)", "BASE", "calibration", _device(name, "BASE", "resp_ms"),
                sets=f'device("{name}").service_ms',
                note="BASE RESP - BASE IOSQ is the device's transfer time (PEND + DISC + CONN).")
          for name in TABLE2_DEVICES],
        *[_spec("Table 2", f"{name} IOSQ (ms)", "BASE", "calibration", _device(name, "BASE", "rmf_iosq_ms"),
                sets=f'device("{name}").scv',
                note="The service-time variability that makes Pollaczek-Khinchine give BASE IOSQ at the BASE rate.")
          for name in TABLE2_DEVICES],
        *[_spec("Table 2", f"{name} RATE (I/O/s)", "3", "calibration",
                Exact(functools.partial(_calibrated, name, "anchor_rate")),
                sets=f'device("{name}").anchor_rate',
                note="The device's load at parameter 3; at 1 and 5 it follows its domain's ETR.")
          for name in TABLE2_DEVICES],
        *[_scaled_device_rate(name, "1") for name in TABLE2_DEVICES],
        _scaled_device_rate("IMS-C23", "5"),
        _spec("Table 2", "IMS-8C2 RATE (I/O/s)", "5", "prediction",
              _etr_scaled("IMS", "5", functools.partial(_scaled_rate, "IMS-8C2")),
              baseline=baseline("Table 2", "IMS-8C2 RATE (I/O/s)", "5", also=(
                  "the published IMS ETR ratio, the rule the other rates at parameter 5 follow, would give "
                  f"{_published_scaled_rate('IMS-8C2', '5'):.2f}, further off still")),
              note="The parameter-3 rate times the model's IMS ETR ratio of parameter 5 to 3 (per replication). "
                   "The published rate falls from parameter 3 to 5 while the published IMS ETR rises, so the "
                   f"published ETR ratio does not give it ({_published_scaled_rate('IMS-8C2', '5'):.2f} I/O/s)."),
        _scaled_device_rate("TSO-CC1", "5"),
        _scaled_device_rate("TSO-CC2", "5"),
        *[_resp_from_iosq("Table 2", name, name, column) for name in TABLE2_DEVICES for column in ("1", "3", "5")],
        *[_predicted_iosq("Table 2", name, name, column) for name in TABLE2_DEVICES for column in ("1", "3", "5")],
    ]


def _etr_precision(table: str, row: str, column: str) -> Precision:
    return Precision(ETR_PRECISION * published_cell(table, row, column).value,
                     "0.5% of the published ETR, because the devices' load at parameters 1 and 5 is their "
                     "parameter-3 rate times this domain's ETR ratio (0.7% on the load, 2-3% on a device's IOSQ)")


def _ims(column: str, row: str) -> Simulated:
    return metric(IMS, column, IMS_METRICS[row])


def _ims_part(row: str, column: str, how: str) -> CellSpec:
    """One of the four parts of the IMS response time, predicted."""
    return _spec("Table 3", row, column, "prediction", _ims(column, row),
                 baseline=baseline("Table 3", row, column), note=f"Simulated: {how}.")


#: How the model gets each part of the IMS response.
IMS_PARTS = {
    "TPNS Q (s)": "an inbound message's time at the 4705 (queue plus exchange); the model's 4705 is one "
                  "first-come, first-served queue for messages both ways, held while IMS is away",
    "IMS IN Q (s)": "the wait for one of the sixty message-processing regions (Section 6.0)",
    "IMS EXEC (s)": "the time in the region: the wait for an IMS processor, the CPU work stretched over the IMS "
                    "slices, and the database I/O",
    "IMS OUT Q (s)": "an outbound reply's time at the 4705 (queue plus exchange), the same queue as the inbound "
                     "messages'",
}


def table3_cells() -> list[CellSpec]:
    """Table 3: the IMS domain and its 4705 front end at parameters 1, 3 and 5."""
    terminals, think_s = fact("ims_terminals"), fact("ims_terminals") / fact("ims_offered_rate")
    return [
        _spec("Table 3", "IMS ETR (tx/s)", "3", "calibration", _ims("3", "IMS ETR (tx/s)"),
              sets="ims_calibrated().frontend_ms",
              precision=_etr_precision("Table 3", "IMS ETR (tx/s)", "3"),
              note="The 4705 time per message whose held-exchange capacity carries two messages per transaction "
                   "at this ETR."),
        *[_spec("Table 3", "IMS ETR (tx/s)", column, "derived", _ims(column, "IMS ETR (tx/s)"),
                derivation=Derivation(
                    (_key("Table 3", "IMS RESP TIME (s)", column),),
                    functools.partial(throughput_of, terminals, think_s),
                    "Little's law on the closed loop, N / (R + Z) with N = 1,000 terminals and Z = 16 s"),
                precision=_etr_precision("Table 3", "IMS ETR (tx/s)", column),
                note="Simulated: the IMS domain's closed loop of 1,000 terminals on its slices. The response time "
                     "it determines carries the prediction: of the two cells Little's law ties, it is the one the "
                     "model misses by more (relative error), so it is the one scored.")
          for column in AWAY],
        _spec("Table 3", "CPU (%)", "3", "calibration", _ims("3", "CPU (%)"), sets="ims_calibrated().cpu_ms",
              note="CPU per transaction by the utilisation law."),
        *[_spec("Table 3", "CPU (%)", column, "derived", _ims(column, "CPU (%)"), derivation=Derivation(
            (_key("Table 3", "CPU (%)", "3"), _key("Table 3", "IMS ETR (tx/s)", column),
             _key("Table 3", "IMS ETR (tx/s)", "3")),
            functools.partial(cpu_busy, _ims_fraction("3") / _ims_fraction(column)),
            "the utilisation law at a fixed CPU per transaction: parameter 3's CPU busy times the ETR ratio, over "
            "the ratio of the domain's processor shares after the switch"),
            note="The utilisation law on the model's IMS ETR; the response time carries the prediction.")
          for column in AWAY],
        _spec("Table 3", "4705 RATE (I/O/s)", "3", "calibration",
              Simulated(IMS, (("3", IMS_METRICS["4705 RATE (I/O/s)"]),), _channel_ios),
              sets="channel_ios_per_message", note="Channel I/Os per message, at two messages per transaction."),
        *[_spec("Table 3", "4705 RATE (I/O/s)", column, "derived",
                Simulated(IMS, ((column, IMS_METRICS["4705 RATE (I/O/s)"]),), _channel_ios),
                derivation=Derivation(
                    (_key("Table 3", "4705 RATE (I/O/s)", "3"), _key("Table 3", "IMS ETR (tx/s)", column),
                     _key("Table 3", "IMS ETR (tx/s)", "3")),
                    follows_etr, "two messages per transaction at fixed channel I/Os per message: parameter 3's "
                    "rate times the ETR ratio"),
                note="The model's 4705 messages per second times the calibrated channel I/Os per message; the "
                     "response time carries the prediction.")
          for column in AWAY],
        _spec("Table 3", "IMS RESP TIME (s)", "3", "derived", _ims("3", "IMS RESP TIME (s)"),
              derivation=Derivation(
                  (_key("Table 3", "IMS ETR (tx/s)", "3"),),
                  functools.partial(think_then_respond, terminals, think_s),
                  "Little's law on the closed loop, N / ETR - Z with N = 1,000 terminals and Z = 16 s"),
              note="The sum of the model's four parts; the ETR it follows from is a calibration cell."),
        *[_spec("Table 3", "IMS RESP TIME (s)", column, "prediction", _ims(column, "IMS RESP TIME (s)"),
                baseline=baseline("Table 3", "IMS RESP TIME (s)", column),
                note="Simulated: the sum of the model's four parts. Little's law ties it to the IMS ETR "
                     "(N / ETR - Z); of the two it is the one the model misses by more (relative error), so it is "
                     "scored and the ETR is shown as derived.")
          for column in AWAY],
        *[_ims_part(row, column, how) for row, how in IMS_PARTS.items() for column in ("1", "3", "5")],
    ]


def _tso(column: str, row: str) -> Simulated:
    return metric(TSO, column, TSO_METRICS[row])


def table4_cells() -> list[CellSpec]:
    """Table 4: the TSO domain's response time and ETR at parameters 1, 3 and 5."""
    users, fall = fact("tso_users"), fact("tso_etr_fall_1_to_5") / 100.0
    resp, etr = "TSO RESPONSE TIME (s)", "TSO ETR (tx/s)"
    return [
        _spec("Table 4", resp, "3", "calibration", _tso("3", resp), sets="tso_calibrated().think_s",
              note="Think time by Little's law on the published response and ETR."),
        _spec("Table 4", etr, "3", "calibration", _tso("3", etr), sets="tso_calibrated().cpu_ms",
              precision=_etr_precision("Table 4", etr, "3"),
              note="CPU per command by a root-find on the simulated ETR."),
        *[_spec("Table 4", resp, column, "derived", _tso(column, resp), derivation=Derivation(
            (_key("Table 4", etr, column), _key("Table 4", etr, "3"), _key("Table 4", resp, "3")),
            functools.partial(respond_as_at_3, users),
            "Little's law on the closed loop, N / ETR - Z with N = 450 users and Z from parameter 3's response "
            "and ETR"),
            note="The model's response time; it follows from the ETR at parameter 5, which follows from the one "
                 "at parameter 1, which follows from the response time there: that cell carries the prediction.")
          for column in ("5",)],
        _spec("Table 4", resp, "1", "prediction", _tso("1", resp), baseline=baseline("Table 4", resp, "1"),
              note="Simulated: TSO's closed loop of 450 users, CPU-bound on its slices, less the switch overhead. "
                   "Little's law ties it to the TSO ETR; of the two it is the one the model misses by more "
                   "(relative error), so it is scored and the ETR is shown as derived."),
        _spec("Table 4", etr, "1", "derived", _tso("1", etr), precision=_etr_precision("Table 4", etr, "1"),
              derivation=Derivation(
                  (_key("Table 4", resp, "1"), _key("Table 4", etr, "3"), _key("Table 4", resp, "3")),
                  functools.partial(throughput_as_at_3, users),
                  "Little's law on the closed loop, N / (R + Z) with N = 450 users and Z from parameter 3's "
                  "response and ETR"),
              note="Simulated: TSO's closed loop; the response time at parameter 1 carries the prediction."),
        _spec("Table 4", etr, "5", "derived", _tso("5", etr), precision=_etr_precision("Table 4", etr, "5"),
              derivation=Derivation(
                  (_key("Table 4", etr, "1"),), functools.partial(after_fall, fall),
                  "Section 7.0: TSO's ETR shows a 2% decrease from parameter 1 to 5"),
              note="The switch overhead is set from that statement; the response time at parameter 1 carries the "
                   "prediction."),
    ]


def cells() -> list[CellSpec]:
    """Every published cell of Tables 1-4, declared."""
    return table1_cells() + table2_cells() + table3_cells() + table4_cells()


# --- the stricter of two tied cells ----------------------------------------------------------------------

def _rmf_pairs() -> dict[tuple[str, str, str], tuple[tuple[str, str, str], ...]]:
    """RMF's IOSQ and RESP at each sliced column, where the transfer time ties them both ways: the RESP follows
    from the IOSQ (a derived cell) and the IOSQ from the RESP, each within its own tolerance, on the published
    values.  (Where only the first holds, the IOSQ cannot be derived and is scored whatever its error.)"""
    pairs = {}
    rows = [("Table 1", f"{d} AVG") for d in DOMAINS] + [("Table 2", name) for name in TABLE2_DEVICES]
    for table, row in rows:
        resp_base = published_cell(table, f"{row} RESP (ms)", "BASE").value
        iosq_base = published_cell(table, f"{row} IOSQ (ms)", "BASE").value
        for column in ("1", "3", "5"):
            iosq = published_cell(table, f"{row} IOSQ (ms)", column)
            resp = published_cell(table, f"{row} RESP (ms)", column)
            back = resp.value - (resp_base - iosq_base)
            calibrated = (table, row, column) == ("Table 1", "IMS AVG", str(CALIBRATION_PARAMETER))
            if not calibrated and abs(back - iosq.value) <= tolerance(iosq).allowed_error(iosq.value):
                pairs[(table, f"{row} IOSQ (ms)", column)] = ((table, f"{row} RESP (ms)", column),)
    return pairs


def tied_cells() -> dict[tuple[str, str, str], tuple[tuple[str, str, str], ...]]:
    """Every scored cell an identity relates to other published cells -> the cells shown as derived from it.
    Issue 29's rule: of tied cells the one the model misses by more (relative error) is scored.  A cell is
    tied where the published values satisfy the identity to a quarter of its tolerance (the precision the
    verdict rule resolves): Little's law and the 2% fall hold to 0.3% or better.  The others here follow
    within their tolerance but not that closely (the 4705 rate at 1 and 5, 4-9%; TSO-CC1's rate at 5 and
    TSO-CC2's at 1 and 5, 3-5%; RMF's RESP of IMS-C23 at 5 and TSO-CC1 at 3): their model error is mostly
    the published values' own departure from the identity, so they stay derived (the tests check both).

    * Little's law, ``R = N / ETR - Z``, ties each domain's response time to its ETR, and the ETR carries the
      devices' rates, the 4705 rate and the CPU busy (the ETR ratio, the utilisation law); TSO's ETR at
      parameter 5 follows the one at 1 by the stated 2% fall, so TSO's whole columns 1 and 5 follow from one
      cell.  The response time is the stricter in the model, so it is scored.
    * RMF's RESP is its IOSQ plus the transfer time (:func:`_rmf_pairs`): the IOSQ, a smaller number with
      about the same absolute error, is the stricter.
    """
    ims = lambda row, column: ("Table 3", row, column)  # noqa: E731
    rate = lambda device, column: ("Table 2", f"{device} RATE (I/O/s)", column)  # noqa: E731
    tso = lambda row, column: ("Table 4", row, column)  # noqa: E731
    return {
        ims("IMS RESP TIME (s)", "1"): (ims("IMS ETR (tx/s)", "1"), ims("CPU (%)", "1"), ims("4705 RATE (I/O/s)", "1"),
                                        rate("IMS-C23", "1"), rate("IMS-8C2", "1")),
        ims("IMS RESP TIME (s)", "5"): (ims("IMS ETR (tx/s)", "5"), ims("CPU (%)", "5"), ims("4705 RATE (I/O/s)", "5"),
                                        rate("IMS-C23", "5")),
        tso("TSO RESPONSE TIME (s)", "1"): (tso("TSO ETR (tx/s)", "1"), tso("TSO ETR (tx/s)", "5"),
                                            tso("TSO RESPONSE TIME (s)", "5"),
                                            *[rate(name, column) for name in ("TSO-CC1", "TSO-CC2")
                                              for column in ("1", "5")]),
        **_rmf_pairs(),
    }
