"""Calibration on named published cells: which cells set which parameter, and how.

What is calibrated, on which cells, and how (everything else is predicted or
follows by construction; :mod:`.comparison` says which):

* **Devices (Tables 1 and 2), on the BASE column.**  PEND + DISC + CONN is
  BASE RESP minus BASE IOSQ (RMF adds them up); the service-time variability
  is the one that makes Pollaczek-Khinchine give BASE IOSQ at the BASE rate
  (:func:`~perfstudies.models.mdf.analytic.scv_from_wait`).  Table 1's domain
  averages stand for one representative device per domain, with the mean
  variability of that domain's Table 2 devices; its rate is the one that gives
  BASE IOSQ (:func:`~perfstudies.models.mdf.analytic.rate_from_wait`).
* **Device load at parameter 3, on Table 2's parameter-3 rates.**  Away from
  parameter 3 a device's rate is its parameter-3 rate scaled by the model's
  own ETR of its domain (:mod:`.comparison`); a representative device (Table 1)
  carries the mean relative load of its domain's Table 2 devices.
* **RMF's rule for a late timer pop, on Table 1's IMS AVG IOSQ at parameter 3.**
  Section 2.0 allows three outcomes for a pop that falls while the domain is
  away (:data:`~perfstudies.models.mdf.params.RMF_RULES`); the IMS
  representative device is simulated at parameter 3 and the rule whose
  expected estimate is nearest the published cell is the study's rule.
* **The domain switch overhead per dispatch, on a stated fact of Section 7.0.**
  The text says TSO's ETR "shows a slight 2% decrease" from parameter 1 to 5 and
  explains it by the CPU overhead of dispatching domains more often; TSO is
  CPU-bound, so its ETR is proportional to the share of each slice left after
  the switch, ``(L - d) / L``, and the stated ratio at 10 and 30 ms slices
  gives ``d`` (:func:`switch_from_etr_ratio`).  The fact restates Table 4's
  ETR at parameters 1 and 5, so the ETR at parameter 5 follows from the one at
  parameter 1 by construction and is labelled derived (:mod:`.comparison`).
* **IMS (Table 3), on the parameter-3 column.**  The 4705 time per message is
  the one whose held-exchange capacity
  (:func:`~perfstudies.models.mdf.analytic.frontend_capacity`) carries two
  messages per transaction at the published ETR; CPU per transaction comes
  from the utilisation law on the published CPU busy; channel I/Os per message
  from the 4705 rate.  The think time is not calibrated: 1,000 terminals
  offering 62.5 transactions per second think for 16 s.
* **TSO (Table 4), on the parameter-3 column.**  Think time from Little's law
  on the published response and ETR; CPU per command by a fixed-point
  root-find on the simulated ETR.

The switch is charged to neither domain's measured CPU busy (MVS in a domain
does not see the time it is not dispatched), which is why Table 3's CPU per
transaction (17.9, 17.7, 17.8 ms at parameters 1, 3, 5 by the utilisation law
on the slice's whole share) can stay flat while TSO loses 2%.
"""

import dataclasses
import functools

import numpy as np
import pandas as pd

from perfstudies.cache import memoized
from perfstudies.compare import Published
from perfstudies.data import load
from perfstudies.models.mdf import analytic
from perfstudies.models.mdf.mechanism import windows_of
from perfstudies.models.mdf.network import RULE_METRICS, model, tso_model
from perfstudies.models.mdf.params import KEY, RMF_RULES, SEED, SLICE_MS_AT_HALF, DeviceParams, ImsParams, TsoParams
from perfstudies.runner import replicate

#: The scheduling parameters the document measured, and the one the domains are calibrated on.
PARAMETERS = (1, 3, 5)
CALIBRATION_PARAMETER = 3
#: Columns of Tables 1 and 2 (BASE: no domain slicing).
COLUMNS = ("1", "3", "5", "BASE")
#: Replications per step of the TSO root-find.
REPLICATIONS = 4
#: Replications of the IMS representative device that choose RMF's rule (its three estimates differ by
#: 15-25%, far more than their 95% intervals at this count).
RULE_REPLICATIONS = 6
TSO_ITERATIONS = 4
TSO_CONVERGED = 0.002       # relative ETR error at which the TSO root-find stops

#: Table names of the document, by data file.
TABLE_NAMES = {"io_response_by_domain": "Table 1", "device_activity": "Table 2",
               "ims_front_end": "Table 3", "tso_effects": "Table 4"}


@functools.cache
def published_tables() -> dict[str, pd.DataFrame]:
    """The transcribed tables and workload facts, as loaded (and checked) from ``data/mdf``."""
    return {name: load(KEY, name) for name in (*TABLE_NAMES, "workload")}


def fact(name: str) -> float:
    """One workload fact from ``workload.csv``."""
    facts = published_tables()["workload"].set_index("fact")["value"]
    return float(facts[name])


@dataclasses.dataclass(frozen=True)
class DeviceCalibration:
    """Calibrated service of one device (or a domain's representative device).

    ``cells`` names the published cells the values were set from.
    """

    name: str
    domain: str
    service_ms: float
    scv: float
    base_rate: float
    anchor_rate: float
    cells: tuple[Published, ...] = ()

    def as_row(self) -> dict:
        """The calibrated values and the cells they come from, as one table row."""
        return {"device": self.name, "domain": self.domain, "service_ms": self.service_ms, "scv": self.scv,
                "base_rate_per_s": self.base_rate, "anchor_rate_per_s": self.anchor_rate,
                "set from": "; ".join(c.where for c in self.cells)}


def device_calibrations() -> list[DeviceCalibration]:
    """Table 2 devices and Table 1 representative devices, calibrated on BASE and loaded at parameter 3.

    A Table 2 device's parameter-3 load is its published parameter-3 rate; a
    representative device's is its BASE rate times the mean ratio of the
    parameter-3 to the BASE rate of its domain's Table 2 devices.
    """
    devices = published_tables()["device_activity"]
    base = devices[devices["scheduling_parameter"] == "BASE"]
    anchors = devices[devices["scheduling_parameter"] == str(CALIBRATION_PARAMETER)].set_index("device")["rate_per_s"]
    found = []
    for row in base.itertuples():
        service = (row.resp_ms - row.iosq_ms) / 1000.0
        scv = analytic.scv_from_wait(row.rate_per_s, service, row.iosq_ms / 1000.0)
        anchor = float(anchors[row.device])
        cells = tuple(Published("Table 2", f"{row.device} {label}", "BASE", value) for label, value in
                      (("RATE (I/O/s)", row.rate_per_s), ("RESP (ms)", row.resp_ms), ("IOSQ (ms)", row.iosq_ms)))
        cells += (Published("Table 2", f"{row.device} RATE (I/O/s)", str(CALIBRATION_PARAMETER), anchor),)
        found.append(DeviceCalibration(row.device, row.domain, 1000.0 * service, scv, row.rate_per_s, anchor, cells))
    domains = published_tables()["io_response_by_domain"]
    for row in domains[domains["scheduling_parameter"] == "BASE"].itertuples():
        service = (row.avg_resp_ms - row.avg_iosq_ms) / 1000.0
        peers = [d for d in found if d.domain == row.domain]
        scv = float(np.mean([d.scv for d in peers]))
        rate = analytic.rate_from_wait(service, scv, row.avg_iosq_ms / 1000.0)
        anchor = rate * float(np.mean([d.anchor_rate / d.base_rate for d in peers]))
        cells = (Published("Table 1", f"{row.domain} AVG RESP (ms)", "BASE", row.avg_resp_ms),
                 Published("Table 1", f"{row.domain} AVG IOSQ (ms)", "BASE", row.avg_iosq_ms))
        found.append(DeviceCalibration(f"{row.domain} average", row.domain, 1000.0 * service, scv, rate, anchor,
                                       cells))
    return found


def switch_from_etr_ratio(ratio: float, slice_ms: float, reference_slice_ms: float) -> float:
    """The switch overhead per dispatch (ms) that makes a CPU-bound domain's ETR fall by ``ratio``.

    A CPU-bound domain's ETR is proportional to the share of its slice left
    after the switch, ``(L - d) / L``: ``ratio = (1 - d / L) / (1 - d / L_ref)``,
    so ``d = (1 - ratio) / (1 / L - ratio / L_ref)``.
    """
    if not (0 < ratio <= 1 and 0 < slice_ms < reference_slice_ms):
        raise ValueError(f"ratio, slice_ms, reference_slice_ms = {(ratio, slice_ms, reference_slice_ms)!r} are out "
                         "of range: allowed 0 < ratio <= 1 and 0 < slice_ms < reference_slice_ms")
    return (1.0 - ratio) / (1.0 / slice_ms - ratio / reference_slice_ms)


#: The scheduling parameters between which Section 7.0 states TSO's fall in ETR.
SWITCH_PARAMETERS = (1, 5)


def switch_calibration() -> float:
    """The domain switch overhead per dispatch (ms), from Section 7.0's 2% fall in TSO ETR from parameter 1 to 5."""
    first, last = SWITCH_PARAMETERS
    return switch_from_etr_ratio(1.0 - fact("tso_etr_fall_1_to_5") / 100.0, SLICE_MS_AT_HALF[last],
                                 SLICE_MS_AT_HALF[first])


def rule_estimates(device: DeviceCalibration, switch_ms: float) -> dict[str, float]:
    """Every RMF rule's expected IOSQ (ms) for ``device`` at parameter 3 and its parameter-3 rate."""
    params = DeviceParams(scheduling_parameter=CALIBRATION_PARAMETER, domain=device.domain, rate=device.anchor_rate,
                          service_ms=device.service_ms, scv=device.scv, switch_ms=switch_ms)
    runs = replicate(model, params, RULE_REPLICATIONS, SEED, progress=False)
    return {rule: runs.mean(RULE_METRICS[rule]) for rule in RMF_RULES}


def nearest_rule(estimates: dict[str, float], published: float) -> str:
    """The rule whose expected estimate lies nearest the published value."""
    return min(estimates, key=lambda rule: abs(estimates[rule] - published))


def rule_cell() -> Published:
    """The cell RMF's rule is calibrated on: Table 1, IMS AVG IOSQ at the calibration parameter."""
    row = published_tables()["io_response_by_domain"].set_index(["domain", "scheduling_parameter"])
    column = str(CALIBRATION_PARAMETER)
    return Published("Table 1", "IMS AVG IOSQ (ms)", column, float(row.loc[("IMS", column), "avg_iosq_ms"]))


def ims_calibration(switch_ms: float | None = None) -> ImsParams:
    """The IMS parameters at the calibration column (closed forms on Table 3, parameter 3)."""
    row = published_tables()["ims_front_end"].set_index("scheduling_parameter").loc[CALIBRATION_PARAMETER]
    base_resp = published_tables()["io_response_by_domain"].set_index(["domain", "scheduling_parameter"])
    switch_ms = switch_calibration() if switch_ms is None else switch_ms
    defaults = ImsParams(scheduling_parameter=CALIBRATION_PARAMETER, switch_ms=switch_ms)
    windows = windows_of(defaults, "IMS")
    etr = row["ims_etr_per_s"]
    return defaults.replace(
        terminals=int(fact("ims_terminals")),
        think_s=fact("ims_terminals") / fact("ims_offered_rate"),
        frontend_ms=1000.0 * analytic.frontend_time_for_capacity(windows, 2.0 * etr),
        cpu_ms=1000.0 * row["cpu_busy_pct"] / 100.0 * defaults.processors * windows.fraction / etr,
        processors=int(fact("processors_per_domain")),
        io_per_transaction=fact("ims_io_per_transaction"),
        io_response_ms=float(base_resp.loc[("IMS", "BASE"), "avg_resp_ms"]),
    )


def channel_ios_per_message() -> float:
    """4705 channel I/Os per message moved, from Table 3's parameter-3 row (two messages per transaction)."""
    row = published_tables()["ims_front_end"].set_index("scheduling_parameter").loc[CALIBRATION_PARAMETER]
    return row["rate_4705_per_s"] / (2.0 * row["ims_etr_per_s"])


def tso_calibration(switch_ms: float | None = None) -> TsoParams:
    """TSO think time by Little's law and CPU per command by a fixed-point root-find, on Table 4 parameter 3.

    The TSO processors are saturated (450 users thinking 20 s offer more than
    they can serve), so the ETR is nearly inversely proportional to the CPU
    per command; the iteration ``cpu <- cpu * simulated ETR / published ETR``
    starts at the fully busy guess and converges in two or three steps.
    """
    row = published_tables()["tso_effects"].set_index("scheduling_parameter").loc[CALIBRATION_PARAMETER]
    users, target = int(fact("tso_users")), row["tso_etr_per_s"]
    switch_ms = switch_calibration() if switch_ms is None else switch_ms
    params = TsoParams(scheduling_parameter=CALIBRATION_PARAMETER, users=users, switch_ms=switch_ms,
                       processors=int(fact("processors_per_domain")),
                       think_s=analytic.closed_response(users, target, 0.0) - row["tso_response_s"])
    cpu_ms = 1000.0 * params.processors * windows_of(params, "TSO").fraction / target
    for _ in range(TSO_ITERATIONS):
        params = params.replace(cpu_ms=cpu_ms)
        simulated = replicate(tso_model, params, REPLICATIONS, SEED, progress=False).mean("tso_etr_per_s")
        if abs(simulated / target - 1) < TSO_CONVERGED:
            break
        cpu_ms *= simulated / target
    return params


def device(name: str) -> DeviceCalibration:
    """The calibration of one device (``"IMS-C23"``, ``"IMS average"``, ...)."""
    found = [d for d in devices() if d.name == name]
    if not found:
        raise ValueError(f"name = {name!r} is not a calibrated device: allowed one of {[d.name for d in devices()]}")
    return found[0]


@functools.cache
def devices() -> tuple[DeviceCalibration, ...]:
    """Table 2's four devices and Table 1's two representative devices, calibrated (closed forms, cached)."""
    return tuple(device_calibrations())


def device_table() -> pd.DataFrame:
    """The calibrated devices, one row each, with the cells they come from (the chapter's calibration table)."""
    return pd.DataFrame([d.as_row() for d in devices()])


@functools.cache
def rule_candidates() -> dict[str, float]:
    """Every RMF rule's expected IMS AVG IOSQ at parameter 3 (ms), the numbers the rule is chosen on.

    Simulated once per process and kept in the disk memo (:func:`perfstudies.cache.memoized`).
    """
    return memoized("mdf-rule-candidates", _simulated_rule_candidates)


def _simulated_rule_candidates() -> dict[str, float]:
    return rule_estimates(device("IMS average"), switch_calibration())


def rmf_rule() -> str:
    """The study's RMF rule: the one whose estimate is nearest Table 1's IMS AVG IOSQ at parameter 3."""
    return nearest_rule(rule_candidates(), rule_cell().value)


def rule_table() -> pd.DataFrame:
    """The RMF rule candidates: each rule's expected IMS AVG IOSQ at parameter 3 beside the published cell."""
    chosen, published = rmf_rule(), rule_cell().value
    return pd.DataFrame([{"rule": rule, "IMS AVG IOSQ at parameter 3 (ms)": value, "published (ms)": published,
                          "chosen": rule == chosen} for rule, value in rule_candidates().items()])


@functools.cache
def ims_calibrated() -> ImsParams:
    """The IMS domain's calibrated record at parameter 3 (:func:`ims_calibration` at the calibrated switch)."""
    return ims_calibration()


@functools.cache
def tso_calibrated() -> TsoParams:
    """The TSO domain's calibrated record at parameter 3: :func:`tso_calibration`, from the disk memo when any
    process computed it before (its root-find simulates)."""
    return memoized("mdf-tso-calibration", tso_calibration)


@functools.cache
def calibrate() -> DeviceParams:
    """The study's record (the device model's), every calibrated value of the device in its fields.

    The IMS representative device at parameter 3 and its parameter-3 load: service and its variability
    (Table 1 BASE), rate (Table 2's parameter-3 rates), the switch overhead (Section 7.0) and RMF's rule
    (Table 1, IMS AVG IOSQ at parameter 3).  The other calibrated records are their own functions: the
    Table 2 devices (:func:`devices`, :func:`device_table`), the IMS and TSO domains (:func:`ims_calibrated`,
    :func:`tso_calibrated`), the 4705's channel I/Os per message (:func:`channel_ios_per_message`) and the
    rule candidates (:func:`rule_table`).
    """
    average = device("IMS average")
    return DeviceParams(scheduling_parameter=CALIBRATION_PARAMETER, domain=average.domain, rate=average.anchor_rate,
                        service_ms=average.service_ms, scv=average.scv, switch_ms=switch_calibration(),
                        rmf_rule=rmf_rule())
