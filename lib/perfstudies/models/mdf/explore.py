"""The chapter's interactive parts and its own runs: the live panel, the slider sweep, the theory tables.

:data:`PANEL` declares the live panel (:class:`perfstudies.panel.Panel`; its
main control is the scheduling parameter) and ``widget_run(params=None)`` is
what one change re-runs: :func:`perfstudies.panel.run_panel`, the IMS
representative device simulated (three replications, with a 95% interval, and
the paired change from the chapter's default); :func:`widget_theory` sets the
mean hold and the IMS domain's theory-first bounds
(:func:`~perfstudies.models.mdf.analytic.ims_bounds`) beside it, because a simulation of
1,000 terminals long enough to trust takes seconds, not the fraction of a
second a slider allows.  :data:`SWEEPS` declares the precomputed sweeps; ``sweep_points()`` are
the records behind the kernel-free slider chart: the same device over every scheduling parameter and
activity rate, so the sweep is the model the comparison uses, not a separate
toy.  The panel's record (:class:`~perfstudies.models.mdf.params.PanelParams`)
holds what a reader changes and the device's calibrated service (:func:`panel_defaults`);
everything else comes from the calibration.  :func:`arrivals_table` (issue 29) runs Table 1's
representative devices at the comparison's loads under each of ``DeviceParams.arrivals``'s streams.
"""

import functools

import pandas as pd

from perfstudies.models.mdf import analytic
from perfstudies.models.mdf.calibration import calibrate, device, ims_calibrated, published_tables, tso_calibrated
from perfstudies.models.mdf.analytic import check_device_load, held_busy_time
from perfstudies.models.mdf.comparison import device_point, device_rate, published_cell
from perfstudies.models.mdf.mechanism import windows_of
from perfstudies.models.mdf.network import RULE_METRICS, check_stable, model
from perfstudies.models.mdf.params import (ARRIVALS, DEVICE_SPEED, KEY, RMF_RULES, SEED, SLICE_MS_AT_HALF, DeviceParams,
                                           PanelParams)
from perfstudies.panel import Panel, run_panel
from perfstudies.params import check_field_values, check_record
from perfstudies.runner import check_seed, summarize
from perfstudies.stored_sweeps import Sweep
from perfstudies.tables import interval

#: Every scheduling parameter the chapter shows (2 and 4 with interpolated slices).
ALL_PARAMETERS = tuple(SLICE_MS_AT_HALF)
#: Replications per simulated number of the chapter's own device table.
CHAPTER_REPLICATIONS = 5
#: The device's activity rate in the chapter's first simulated table (I/O per s).
CHAPTER_RATE = 14.0

#: Run length of the panel's device, and its replications: short runs, with the 95% interval shown,
#: so that a re-run stays within the live panel's time budget (a tenth of a second or so).
DEVICE_RUN = dict(max_time=50.0, warmup=5.0)
DEVICE_REPLICATIONS = 3
#: (metric, label) of the simulated device rows the panel shows.
DEVICE_ROWS = [
    ("iosq_ms", "device IOSQ, true mean (ms)"),
    ("rmf_iosq_ms", "device AVG IOSQ as RMF reports it (ms)"),
    ("resp_ms", "device AVG RESP as RMF reports it (ms)"),
    ("held_ms", "device busy after its transfer, per I/O (ms)"),
]
#: (metric, label) of the IMS bound rows.
IMS_ROWS = [
    ("frontend_capacity_tx_per_s", "4705 capacity (transactions/s), theory"),
    ("cpu_capacity_tx_per_s", "IMS processor capacity (transactions/s), theory"),
    ("etr_bound_per_s", "IMS ETR bound (transactions/s), theory"),
    ("response_bound_s", "IMS response at that ETR (s), theory"),
]

#: Activity rates the slider moves over (I/O per s; evenly spaced, as the chart requires).
SLIDER_RATES = (5.0, 10.0, 15.0, 20.0, 25.0, 30.0)
SWEEP_RUN = dict(max_time=200.0, warmup=10.0)
SWEEP_REPLICATIONS = 3


@functools.cache
def panel_defaults() -> PanelParams:
    """The live panel's starting point: the record's defaults with the calibrated device, switch and RMF rule."""
    calibrated = calibrate()
    return PanelParams(service_ms=calibrated.service_ms, scv=calibrated.scv, switch_ms=calibrated.switch_ms,
                       rmf_rule=calibrated.rmf_rule)


def _setup(scheduling_parameter: int, sliced: bool = True) -> DeviceParams:
    """A device record at a scheduling parameter with the calibrated switch (for its windows)."""
    return DeviceParams(scheduling_parameter=scheduling_parameter, sliced=sliced, switch_ms=calibrate().switch_ms)


def _device(panel: PanelParams) -> DeviceParams:
    """The simulated IMS device at the panel's settings (short runs, :data:`DEVICE_RUN`)."""
    return DeviceParams(domain="IMS", rate=panel.device_rate, device=panel.device, service_ms=panel.service_ms,
                        scv=panel.scv, rmf_rule=panel.rmf_rule, scheduling_parameter=panel.scheduling_parameter,
                        ims_share=panel.ims_share, tso_share=panel.tso_share, switch_ms=panel.switch_ms,
                        sliced=panel.sliced, **DEVICE_RUN)


def check_panel_load(params: PanelParams) -> PanelParams:
    """``params`` if its IMS device can take ``device_rate`` with completions held, else a ValueError.

    The message names ``params.device_rate`` and the largest rate allowed
    (:func:`~perfstudies.models.mdf.analytic.check_device_load`); the record
    itself cannot check it, as it needs the schedule and the theory above it.
    """
    check_device_load("params", "device_rate", params.device_rate, params.hardware_s, params.scv,
                      windows_of(params, "IMS"), params.scheduling_parameter)
    return params


def panel_model(params: PanelParams, seed: int) -> dict[str, float]:
    """One replication as the live panel runs it: the IMS device's metrics at the panel's settings.

    A setting the device cannot take is refused before it runs (:func:`check_panel_load`), so the
    simulated rows are always a steady state.
    """
    params, seed = check_record("params", params, PanelParams), check_seed(seed)
    return model(_device(check_panel_load(params)), seed)


#: The live panel, declared: the scheduling parameter is what the chapter is about.
PANEL = Panel(PanelParams, controls=("scheduling_parameter", "ims_share", "tso_share", "device_rate", "device",
                                     "terminals"),
              main="scheduling_parameter", defaults=panel_defaults, model=panel_model, shown=dict(DEVICE_ROWS),
              seed=SEED, replications=DEVICE_REPLICATIONS, check=check_panel_load)


def widget_run(params: PanelParams | None = None) -> pd.DataFrame:
    """One change of the live panel: :func:`perfstudies.panel.run_panel` of :data:`PANEL`.

    ``params=None`` runs the chapter's defaults (:func:`panel_defaults`).  A
    device its held completions would make unstable is refused before it runs
    (:func:`panel_model`), so the simulated rows are always a steady state.
    """
    return run_panel(PANEL, params)


def widget_theory(panel: PanelParams) -> pd.DataFrame:
    """The closed forms the live panel sets beside the simulation: the mean hold and the IMS bounds."""
    panel = check_record("panel", panel, PanelParams)
    setup = dict(scheduling_parameter=panel.scheduling_parameter, ims_share=panel.ims_share,
                 tso_share=panel.tso_share, switch_ms=panel.switch_ms, sliced=panel.sliced)
    rows = [{"quantity": "mean hold of a random completion (ms)",
             "theory": 1000.0 * analytic.mean_hold(windows_of(panel, "IMS"))}]
    bounds = analytic.ims_bounds(ims_calibrated().replace(terminals=panel.terminals, **setup))
    rows += [{"quantity": label.removesuffix(", theory"), "theory": bounds[metric]} for metric, label in IMS_ROWS]
    return pd.DataFrame(rows)


def sweep_points(rates=SLIDER_RATES, parameters=ALL_PARAMETERS) -> list[DeviceParams]:
    """The IMS representative device at every (scheduling parameter, activity rate) of the slider chart.

    ``rates`` and ``parameters`` are non-empty tuples of allowed ``DeviceParams.rate`` and
    ``DeviceParams.scheduling_parameter`` values, refused by name before the calibration is read; a
    rate the calibrated device cannot sustain at a parameter (its held completions keep it busy
    all the time) is refused naming both arguments.
    """
    rates = check_field_values("rates", rates, DeviceParams, "rate")
    parameters = check_field_values("parameters", parameters, DeviceParams, "scheduling_parameter")
    calibrated = calibrate()
    try:
        return [check_stable(calibrated.replace(scheduling_parameter=p, rate=rate, **SWEEP_RUN), "DeviceParams")
                for rate in rates for p in parameters]
    except ValueError as error:
        raise ValueError(f"rates = {rates!r} with parameters = {parameters!r} is not allowed for the calibrated "
                         f"IMS device: {error}") from None


def rates_sweep() -> pd.DataFrame:
    """The slider chart's sweep: every point of :func:`sweep_points`, ``SWEEP_REPLICATIONS`` each (tidy rows)."""
    return SWEEPS["rates"].runs()


def sweep_curves(runs: pd.DataFrame) -> pd.DataFrame:
    """IOSQ and RESP by rate and scheduling parameter, with 95% intervals, from :func:`rates_sweep`'s rows."""
    names = {"iosq_ms": "IOSQ, true mean", "rmf_iosq_ms": "AVG IOSQ, RMF", "resp_ms": "AVG RESP, RMF"}
    curves = summarize(runs[runs["metric"].isin(list(names))],
                       by=["rate", "scheduling_parameter", "metric"]).reset_index()
    curves["metric"] = curves["metric"].map(names)
    return curves


# --- the chapter's theory tables and its first simulated table --------------------------------

def slice_table() -> pd.DataFrame:
    """Slice per domain at 50% for every scheduling parameter, and whether the document gives it."""
    return pd.DataFrame({"scheduling parameter": list(SLICE_MS_AT_HALF),
                         "slice per domain at 50% (ms)": list(SLICE_MS_AT_HALF.values()),
                         "source": ["document" if p in (1, 3, 5) else "interpolated" for p in SLICE_MS_AT_HALF]})


def hold_table() -> pd.DataFrame:
    """The mean hold E[H] of a completion at a random moment, per scheduling parameter (default setup)."""
    return pd.DataFrame([{"scheduling parameter": p, "slice (ms)": SLICE_MS_AT_HALF[p],
                          "mean hold E[H] (ms)":
                              1000 * analytic.mean_hold(windows_of(_setup(p), "IMS"))}
                         for p in ALL_PARAMETERS])


def held_iosq_table(name: str = "IMS-C23") -> pd.DataFrame:
    """Pollaczek-Khinchine with and without the hold, for one Table 2 device at each column's published rate."""
    calibration = device(name)
    service = calibration.service_ms / 1000
    unsliced = windows_of(_setup(3, sliced=False), calibration.domain)
    devices = published_tables()["device_activity"]
    rows = []
    for row in devices[devices["device"] == name].itertuples():
        sliced = row.scheduling_parameter != "BASE"
        p = int(row.scheduling_parameter) if sliced else 3
        windows = windows_of(_setup(p, sliced), calibration.domain)
        rows.append({"column": row.scheduling_parameter, "rate (I/O/s)": row.rate_per_s,
                     "published IOSQ (ms)": row.iosq_ms,
                     "M/G/1 with hold (ms)": 1000 * analytic.held_device_iosq(row.rate_per_s, service,
                                                                              calibration.scv, windows),
                     "M/G/1 without hold (ms)": 1000 * analytic.held_device_iosq(row.rate_per_s, service,
                                                                                 calibration.scv, unsliced)})
    return pd.DataFrame(rows)


def capacity_table() -> pd.DataFrame:
    """How many I/Os per second the IMS representative device can take, holds included, per device type.

    When requests queue, each keeps the device busy for its transfer plus the
    hold (:func:`~perfstudies.models.mdf.analytic.held_busy_time`); the device is
    stable only below one over that.  Parameter 0 stands for BASE (no slicing).
    """
    average = calibrate()
    rows = []
    for p in (0, *ALL_PARAMETERS):
        setup = _setup(p or 3, p != 0)
        row = {"scheduling parameter": p or "BASE"}
        for kind, speed in DEVICE_SPEED.items():
            busy = held_busy_time(windows_of(setup, "IMS"), average.service_ms * speed / 1000, average.scv)
            row[f"{kind}: busy per I/O (ms)"] = 1000 * busy
            row[f"{kind}: capacity (I/O per s)"] = 1 / busy
        rows.append(row)
    return pd.DataFrame(rows)


def ims_bounds_table() -> pd.DataFrame:
    """The IMS domain's capacities, bottleneck and bounds per scheduling parameter (calibrated values)."""
    ims = ims_calibrated()
    bounds = pd.DataFrame([{"scheduling parameter": p, **analytic.ims_bounds(ims.replace(scheduling_parameter=p))}
                           for p in ALL_PARAMETERS]).drop(columns="unloaded_response_s")
    bounds.columns = ["scheduling parameter", "4705 capacity (tx/s)", "processor capacity (tx/s)", "bottleneck",
                      "ETR bound (tx/s)", "response at that ETR (s)"]
    return bounds


def device_by_parameter_points() -> list[DeviceParams]:
    """The IMS representative device at ``CHAPTER_RATE`` for every scheduling parameter."""
    calibrated = calibrate()
    return [DeviceParams(scheduling_parameter=p, rate=CHAPTER_RATE, service_ms=calibrated.service_ms,
                         scv=calibrated.scv, switch_ms=calibrated.switch_ms, rmf_rule=calibrated.rmf_rule)
            for p in ALL_PARAMETERS]


def device_by_parameter() -> pd.DataFrame:
    """True IOSQ, RMF's estimate under each rule, and the hold per I/O of :func:`device_by_parameter_points`.

    Simulated (means with 95% intervals), beside the theory's E[H].  The
    ``before clearing`` rule samples every moment alike, so it agrees with the
    true mean by Little's law; the other two are RMF's measurement effect.
    """
    summary = summarize(SWEEPS["parameters"].runs(), by=["scheduling_parameter", "metric"])

    def shown(metric):
        values = summary.xs(metric, level="metric")[["mean", "half_width"]].values
        return [interval(mean, half) for mean, half in values]

    rules = {f"RMF, {rule} (ms)": shown(RULE_METRICS[rule]) for rule in RMF_RULES}
    return pd.DataFrame({"scheduling parameter": list(ALL_PARAMETERS), "IOSQ, true mean (ms)": shown("iosq_ms"),
                         **rules, "hold per I/O (ms)": shown("held_ms"),
                         "theory E[H] (ms)": hold_table()["mean hold E[H] (ms)"]})


# --- issue 29: the device's arrival mechanisms side by side ------------------------------------------

#: Table 1's representative devices, the columns (every parameter and BASE) and the replications per
#: configuration of the arrival mechanisms' comparison (:func:`arrivals_summary`).
ARRIVAL_DEVICES = ("IMS average", "TSO average")
ARRIVAL_COLUMNS = (*map(str, ALL_PARAMETERS), "BASE")
ARRIVAL_REPLICATIONS = 10


def arrival_rates(runs: dict) -> tuple[tuple[str, str, float], ...]:
    """``(device, column, rate)`` of each representative device at each column of :data:`ARRIVAL_COLUMNS`.

    At 1, 3, 5 and BASE the comparison's own load (:func:`~.comparison.device_rate`: BASE's calibrated
    rate, or the parameter-3 load times the domain's ETR ratio in ``runs``, the comparison's finished
    replications, :meth:`perfstudies.study.Study.runs`); at 2 and 4, where no domain was run, the mean of
    the two neighbours' loads, as their slices are the neighbours' mean (``SLICE_MS_AT_HALF``).
    """
    rates = []
    for name in ARRIVAL_DEVICES:
        own = {column: device_rate(device(name), column, runs) for column in ("1", "3", "5", "BASE")}
        own |= {"2": (own["1"] + own["3"]) / 2, "4": (own["3"] + own["5"]) / 2}
        rates += [(name, column, own[column]) for column in ARRIVAL_COLUMNS]
    return tuple(rates)


def arrival_points(rates: tuple[tuple[str, str, float], ...]) -> list[DeviceParams]:
    """The comparison's device record (:func:`~.comparison.device_point`) at each rate, under every mechanism."""
    return [device_point(device(name), column, rate).replace(arrivals=kind)
            for name, column, rate in rates for kind in ARRIVALS]


def arrival_sweep_points() -> list[DeviceParams]:
    """:func:`arrival_points` at the comparison's loads (:func:`arrival_rates` of the study's runs)."""
    from perfstudies.studies import study   # the registry's runs, the comparison's own (the package sits above)

    return arrival_points(arrival_rates(study(KEY).runs()))


#: The chapter's precomputed sweeps (stored by ``make runs``, :mod:`perfstudies.stored_sweeps`): the slider
#: chart's rates and parameters, the device table's parameters at ``CHAPTER_RATE``, and the arrival
#: mechanisms' comparison (the same seeds at every point: common random numbers).
SWEEPS = {"rates": Sweep(name=f"{KEY}-rates", scope=KEY, model=model, points=sweep_points,
                         replications=SWEEP_REPLICATIONS, seed=SEED),
          "parameters": Sweep(name=f"{KEY}-parameters", scope=KEY, model=model, points=device_by_parameter_points,
                              replications=CHAPTER_REPLICATIONS, seed=SEED),
          "arrivals": Sweep(name=f"{KEY}-arrivals", scope=KEY, model=model, points=arrival_sweep_points,
                            replications=ARRIVAL_REPLICATIONS, seed=SEED)}


def arrivals_summary() -> pd.DataFrame:
    """RMF's IOSQ of Table 1's representative devices under each arrival mechanism, beside the published.

    One row per device, column and mechanism (:data:`~.params.ARRIVALS`): the
    activity rate, RMF's expected IOSQ (``rmf_iosq_ms``, the metric the
    comparison scores) and the true mean IOSQ, each a mean over
    :data:`ARRIVAL_REPLICATIONS` replications with its 95% half-width; the
    paired change from the study's ``in-slice`` arrivals (same seeds); and
    the published Table 1 IOSQ (NaN at 2 and 4, which the document did not
    run).  The loads are the comparison's (:func:`arrival_rates` of the study's
    runs); the replications are the stored sweep ``SWEEPS["arrivals"]`` (``make runs`` stores it).
    """
    from perfstudies.studies import study   # the registry's runs, the comparison's own (the package sits above)

    rates = arrival_rates(study(KEY).runs())
    rows = SWEEPS["arrivals"].runs()
    rows = rows.assign(device=rows["domain"] + " average",
                       column=rows["scheduling_parameter"].astype(str).where(rows["sliced"], "BASE"))
    wide = rows.pivot_table(index=["device", "column", "replication"], columns=["arrivals", "metric"],
                            values="value", sort=False)
    records = []
    for name, column, rate in rates:
        one = wide.loc[(name, column)]
        published = (published_cell("Table 1", f"{name.split()[0]} AVG IOSQ (ms)", column).value
                     if column in ("1", "3", "5", "BASE") else float("nan"))
        for kind in ARRIVALS:
            measured = {metric: summarize(pd.DataFrame({"metric": metric, "value": one[(kind, metric)]}))
                        for metric in ("rmf_iosq_ms", "iosq_ms")}
            change = summarize(pd.DataFrame({"metric": "change",
                                             "value": one[(kind, "rmf_iosq_ms")] - one[("in-slice", "rmf_iosq_ms")]}))
            records.append({"device": name, "column": column, "arrivals": kind, "rate": rate,
                            "rmf_iosq_ms": measured["rmf_iosq_ms"]["mean"].iat[0],
                            "rmf_iosq_half_width": measured["rmf_iosq_ms"]["half_width"].iat[0],
                            "iosq_ms": measured["iosq_ms"]["mean"].iat[0],
                            "iosq_half_width": measured["iosq_ms"]["half_width"].iat[0],
                            "change_ms": change["mean"].iat[0], "change_half_width": change["half_width"].iat[0],
                            "published_ms": published})
    return pd.DataFrame(records)


def arrivals_table() -> pd.DataFrame:
    """:func:`arrivals_summary` as the chapter shows it: one row per device and column, RMF's IOSQ per mechanism."""
    summary = arrivals_summary()
    rows = []
    for (name, column), group in summary.groupby(["device", "column"], sort=False):
        by_kind = group.set_index("arrivals")
        published = by_kind["published_ms"].iat[0]
        row = {"device": name, "column": column, "rate (I/O/s)": round(by_kind["rate"].iat[0], 2),
               "published IOSQ (ms)": "–" if pd.isna(published) else f"{published:g}"}
        for kind in ARRIVALS:
            row[f"RMF IOSQ, {kind} (ms)"] = interval(by_kind.at[kind, "rmf_iosq_ms"],
                                                      by_kind.at[kind, "rmf_iosq_half_width"])
        row["at-dispatch minus in-slice (ms)"] = interval(by_kind.at["at-dispatch", "change_ms"],
                                                          by_kind.at["at-dispatch", "change_half_width"])
        rows.append(row)
    return pd.DataFrame(rows)


def mva_table(comparison: pd.DataFrame) -> pd.DataFrame:
    """Exact MVA of both domains beside the simulation (the comparison's model column) and the document.

    Per scheduling parameter 1, 3, 5: the ETR and response time exact MVA gives
    for the calibrated IMS and TSO domains (:func:`analytic.ims_mva`,
    :func:`analytic.tso_mva`: every mechanism entered only through its long-run
    capacity), the simulated ones and the published ones.
    """
    cells = comparison.set_index(["table", "row", "column"])
    rows = []
    for domain, table, etr_row, response_row in (("IMS", "Table 3", "IMS ETR (tx/s)", "IMS RESP TIME (s)"),
                                                 ("TSO", "Table 4", "TSO ETR (tx/s)", "TSO RESPONSE TIME (s)")):
        for p in (1, 3, 5):
            if domain == "IMS":
                solution = analytic.ims_mva(ims_calibrated().replace(scheduling_parameter=p))
            else:
                solution = analytic.tso_mva(tso_calibrated().replace(scheduling_parameter=p))
            etr, response = cells.loc[(table, etr_row, str(p))], cells.loc[(table, response_row, str(p))]
            rows.append({"domain": domain, "scheduling parameter": p,
                         "ETR, MVA": solution.throughput, "ETR, simulated": etr["model"],
                         "ETR, published": etr["published"],
                         "response (s), MVA": solution.response_time, "response (s), simulated": response["model"],
                         "response (s), published": response["published"]})
    return pd.DataFrame(rows)
