"""Every number the 580/MDF chapter's prose and solutions quote, computed by the study's library.

:func:`facts` returns ``{name: Fact}``; the chapter glues them with its one
``glue_facts(KEY, facts())`` and quotes each as ``{glue:text}`mdf-<name>:<format>```.
They come from the theory tables (:mod:`.explore`), the calibration, the
comparison table (the same disk-memoized runs the chapter shows), the live
panel's default run and the slider's precomputed sweep, so the words cannot
drift from the model.  Cells of the comparison are looked up by their
(table, row, column) label, never by position.
"""

import pandas as pd

from perfstudies import compare
from perfstudies.facts import Fact
from perfstudies.models.mdf import analytic
from perfstudies.models.mdf.calibration import calibrate, ims_calibrated, rmf_rule, tso_calibrated
from perfstudies.models.mdf.explore import (ALL_PARAMETERS, ARRIVAL_REPLICATIONS, arrivals_summary, capacity_table,
                                            held_iosq_table, hold_table, ims_bounds_table, mva_table, panel_defaults,
                                            rates_sweep, sweep_curves, widget_run)
from perfstudies.models.mdf.mechanism import domain_windows, windows_of
from perfstudies.models.mdf.params import KEY, DeviceParams

#: The predictions the chapter's list of worst misses names (its table above lists eight).
WORST_LISTED = 5
#: Activity rates and scheduling parameters of the slider sweep the solutions quote: the true IOSQ at
#: both rates, RMF's estimate at the busier.
SWEEP_QUOTED = ((5, 1), (5, 5), (30, 1), (30, 5))
SWEEP_RMF_QUOTED = ((30, 1), (30, 5))
#: The arrival mechanisms the chapter quotes (name, short name); at BASE they agree, so only the study's.
ARRIVAL_KINDS = (("in-slice", "in"), ("at-dispatch", "at"))


def _cells(comparison: pd.DataFrame) -> pd.DataFrame:
    return comparison.set_index(["table", "row", "column"])


def theory_facts() -> dict[str, Fact]:
    """The theory section's quoted numbers: holds, Pollaczek-Khinchine for C23, capacities, IMS bounds."""
    holds = hold_table().set_index("scheduling parameter")["mean hold E[H] (ms)"]
    c23 = held_iosq_table("IMS-C23").set_index("column")
    capacity = capacity_table().set_index("scheduling parameter")["3350: capacity (I/O per s)"]
    bounds = ims_bounds_table().set_index("scheduling parameter")
    first, last = ALL_PARAMETERS[0], ALL_PARAMETERS[-1]
    found = {
        "hold-1": Fact(holds[first], "ms", "mean hold E[H] at parameter 1"),
        "hold-5": Fact(holds[last], "ms", "mean hold E[H] at parameter 5"),
        "c23-5-held": Fact(c23.loc["5", "M/G/1 with hold (ms)"], "ms", "C23's M/G/1 IOSQ with the hold, parameter 5"),
        "c23-5-unheld": Fact(c23.loc["5", "M/G/1 without hold (ms)"], "ms",
                             "C23's M/G/1 IOSQ without a hold at parameter 5's rate"),
        "3350-base": Fact(capacity["BASE"], "I/O per s", "a 3350's capacity without slicing"),
        "3350-first": Fact(min(p for p in ALL_PARAMETERS if capacity[p] > 30), "",
                           "the first scheduling parameter at which a 3350 takes 30 I/Os per second"),
        "frontend-1": Fact(bounds.loc[first, "4705 capacity (tx/s)"], "tx/s", "the 4705's capacity at parameter 1"),
        "cpu-1": Fact(bounds.loc[first, "processor capacity (tx/s)"], "tx/s", "IMS processor capacity, parameter 1"),
    }
    found |= {f"3350-p{p}": Fact(capacity[p], "I/O per s", f"a 3350's capacity at parameter {p}") for p in (1, 2, 3, 5)}
    return found


def calibration_facts() -> dict[str, Fact]:
    """The calibrated values the prose quotes, and each run's warm-up and length."""
    device, ims, tso = calibrate(), ims_calibrated(), tso_calibrated()
    unsliced = 1000.0 / (2.0 * ims.frontend_ms)
    return {
        "switch-ms": Fact(device.switch_ms, "ms", "the domain switch overhead per dispatch"),
        "switch-share-1": Fact(device.switch_ms / 30, "", "share of a 30 ms slice lost to the switch"),
        "switch-share-5": Fact(device.switch_ms / 10, "", "share of a 10 ms slice lost to the switch"),
        "rmf-rule": Fact(rmf_rule(), "", "RMF's rule for a timer pop outside the slice"),
        "frontend-ms": Fact(ims.frontend_ms, "ms", "the 4705's time per message"),
        "device-warmup": Fact(DeviceParams().warmup, "s", "a device run's warm-up"),
        "device-run": Fact(DeviceParams().max_time, "s", "a device run's length"),
        "ims-warmup": Fact(ims.warmup, "s", "the IMS domain run's warm-up"),
        "ims-run": Fact(ims.max_time, "s", "the IMS domain run's length"),
        "tso-warmup": Fact(tso.warmup, "s", "the TSO domain run's warm-up"),
        "tso-run": Fact(tso.max_time, "s", "the TSO domain run's length"),
        "extra-tx": Fact(1 / windows_of(ims.replace(scheduling_parameter=1), "IMS").cycle / 2, "tx/s",
                         "transactions per second one held exchange per cycle carries at parameter 1"),
        "never-held-tx": Fact(unsliced, "tx/s", "the 4705's capacity if exchanges were never held"),
    }


def exercise_facts() -> dict[str, Fact]:
    """The solutions' numbers: unequal slices, the live panel's default device at parameters 1 and 5."""
    switch_s = calibrate().switch_ms / 1000
    ims_75, tso_25 = domain_windows(1, 0.75, 0.25, switch_s)
    panel = panel_defaults()
    panel_5 = panel.replace(scheduling_parameter=5)
    found = {
        "hold-ims-75": Fact(1000 * analytic.mean_hold(ims_75), "ms", "an IMS completion's mean hold at 75/25"),
        "hold-tso-25": Fact(1000 * analytic.mean_hold(tso_25), "ms", "a TSO completion's mean hold at 75/25"),
        "hold-ratio": Fact(analytic.mean_hold(tso_25) / analytic.mean_hold(ims_75), "",
                           "how many times the TSO hold is the IMS hold at 75/25"),
        "panel-rate": Fact(panel.device_rate, "I/O per s", "the live panel's default activity rate"),
        "panel-service": Fact(panel.service_ms, "ms", "the panel device's calibrated service"),
    }
    runs = {}
    for name, setting in (("1", panel), ("5", panel_5)):
        found[f"panel-pk-{name}"] = Fact(1000 * analytic.held_device_iosq(
            setting.device_rate, setting.service_ms / 1000, setting.scv, windows_of(setting, "IMS")), "ms",
            f"Pollaczek-Khinchine with the hold for the panel device at parameter {name}")
        runs[name] = widget_run(setting).set_index("metric")["mean"]
        found[f"panel-true-{name}"] = Fact(runs[name]["iosq_ms"], "ms", f"the panel's true IOSQ at parameter {name}")
        found[f"panel-rmf-{name}"] = Fact(runs[name]["rmf_iosq_ms"], "ms", f"the panel's RMF IOSQ at parameter {name}")
        found[f"panel-held-{name}"] = Fact(runs[name]["held_ms"], "ms", f"the panel's hold per I/O at parameter {name}")
    found["panel-transfer"] = Fact(runs["1"]["resp_ms"] - runs["1"]["rmf_iosq_ms"], "ms",
                                   "RESP minus RMF's IOSQ of the panel's default run")
    curves = sweep_curves(rates_sweep()).set_index(["rate", "scheduling_parameter", "metric"])
    for rate, p in SWEEP_QUOTED:
        found[f"sweep-{rate}-{p}"] = Fact(curves.loc[(float(rate), p, "IOSQ, true mean"), "mean"], "ms",
                                          f"the sweep's true IOSQ at {rate} I/O per s, parameter {p}")
    for rate, p in SWEEP_RMF_QUOTED:
        found[f"sweep-rmf-{rate}-{p}"] = Fact(curves.loc[(float(rate), p, "AVG IOSQ, RMF"), "mean"], "ms",
                                              f"the sweep's RMF IOSQ at {rate} I/O per s, parameter {p}")
    return found


def mva_facts(comparison: pd.DataFrame) -> dict[str, Fact]:
    """Response times, exact MVA beside the simulation, where product form breaks."""
    mva = mva_table(comparison).set_index(["domain", "scheduling parameter"])
    found = {}
    for domain, p in (("IMS", 1), ("IMS", 5), ("TSO", 5)):
        for source in ("MVA", "simulated"):
            found[f"{domain.lower()}-{'mva' if source == 'MVA' else 'sim'}-{p}"] = Fact(
                mva.loc[(domain, p), f"response (s), {source}"], "s", f"{domain} response at parameter {p}, {source}")
    return found


def board_facts(comparison: pd.DataFrame) -> dict[str, Fact]:
    """The scoreboard in words, and how the predictions' baselines were chosen."""
    board = compare.scoreboard(comparison).set_index("study").loc[KEY]
    found = {f"board-{name.replace('_', '-')}": Fact(int(board[name]), "", f"scoreboard: {name.replace('_', ' ')}")
             for name in ("cells", "calibration", "derived", "prediction", "within_10pct", "hits", "misses",
                          "undecided", "beats_baseline", "weak_evidence")}
    found["board-pct-within-10pct"] = Fact(board["pct_within_10pct"], "%", "scoreboard: percent within 10%")
    predicted = comparison[comparison["role"] == "prediction"]
    kinds = predicted["baseline_ground"].str.extract(
        r"^(?:persistence|scaling): (the BASE column|the parameter-\d column|linear)")[0].value_counts()
    exact = predicted[predicted["baseline"] == predicted["published"]]
    found |= {
        "baseline-base": Fact(int(kinds.get("the BASE column", 0)), "", "predictions whose baseline is BASE"),
        "baseline-neighbour": Fact(int(kinds.filter(like="parameter-").sum()), "",
                                   "predictions whose baseline is a neighbouring parameter"),
        "baseline-linear": Fact(int(kinds.get("linear", 0)), "", "predictions whose baseline is the interpolation"),
        "baseline-exact": Fact(len(exact), "", "predictions whose baseline equals the published value"),
        "baseline-exact-names": Fact(", ".join(f"{row.row.split(' (')[0]} at parameter {row.column}"
                                               for row in exact.itertuples()) or "none", "",
                                     "the cells whose baseline equals the published value"),
    }
    return found


def remark_facts(comparison: pd.DataFrame) -> dict[str, Fact]:
    """The Remarks' model values and errors, each by its cell's label; the worst misses in words."""
    cells = _cells(comparison)
    found = {}
    for domain in ("IMS", "TSO"):
        for column in ("1", "3", "5"):
            cell = cells.loc[("Table 1", f"{domain} AVG IOSQ (ms)", column)]
            found[f"{domain.lower()}-iosq-{column}"] = Fact(cell["model"], "ms", f"{domain} AVG IOSQ, model, {column}")
            found[f"{domain.lower()}-iosq-{column}-published"] = Fact(cell["published"], "ms",
                                                                       f"{domain} AVG IOSQ, published, {column}")
        found[f"{domain.lower()}-iosq-5-error"] = Fact(
            cells.loc[("Table 1", f"{domain} AVG IOSQ (ms)", "5"), "rel_error"], "", f"{domain} AVG IOSQ error, 5")
    response = {column: cells.loc[("Table 4", "TSO RESPONSE TIME (s)", column), "model"] for column in ("1", "5")}
    found["tso-resp-rise"] = Fact(response["5"] - response["1"], "s", "the model's TSO response rise from parameter 1 to 5")
    for column in ("1", "5"):
        found[f"tso-etr-{column}"] = Fact(cells.loc[("Table 4", "TSO ETR (tx/s)", column), "model"], "tx/s",
                                          f"the model's TSO ETR at parameter {column}")
    for device, columns in (("IMS-C23", "135"), ("IMS-8C2", "5"), ("TSO-CC2", "5"), ("TSO-CC1", "13")):
        for column in columns:
            found[f"{device.split('-')[1].lower()}-{column}-error"] = Fact(
                cells.loc[("Table 2", f"{device} IOSQ (ms)", column), "rel_error"], "", f"{device} IOSQ error, {column}")
    found["c23-5-model"] = Fact(cells.loc[("Table 2", "IMS-C23 IOSQ (ms)", "5"), "model"], "ms",
                                "the model's RMF IOSQ for C23 at parameter 5")
    for column in ("1", "3", "5"):
        found[f"exec-{column}"] = Fact(cells.loc[("Table 3", "IMS EXEC (s)", column), "model"], "s",
                                       f"the model's IMS execution time at parameter {column}")
        found[f"in-q-{column}"] = Fact(cells.loc[("Table 3", "IMS IN Q (s)", column), "model"], "s",
                                       f"the model's IMS IN Q (the wait for a region) at parameter {column}")
    found["resp-1"] = Fact(cells.loc[("Table 3", "IMS RESP TIME (s)", "1"), "model"], "s", "IMS response, model, 1")
    found["etr-1-error"] = Fact(cells.loc[("Table 3", "IMS ETR (tx/s)", "1"), "rel_error"], "", "IMS ETR error, 1")
    found["resp-1-error"] = Fact(cells.loc[("Table 3", "IMS RESP TIME (s)", "1"), "rel_error"], "",
                                 "IMS response error, 1")
    worst = compare.worst_cells(comparison, count=WORST_LISTED)
    for rank, row in enumerate(worst.itertuples(), start=1):
        found[f"worst-{rank}"] = Fact(
            f"{row.table}, {row.row} at parameter {row.column}: published {row.published:g}, model {row.model:.3g} "
            f"({100 * row.rel_error:+.0f}%; the baseline is {100 * row.baseline_rel_error:+.0f}% off)", "",
            f"the prediction that misses by most, number {rank}")
    return found


def arrival_facts() -> dict[str, Fact]:
    """Issue 29's measurement: RMF's IOSQ of the representative devices under the arrival mechanisms."""
    summary = arrivals_summary().set_index(["device", "column", "arrivals"])
    found = {"arrival-replications": Fact(ARRIVAL_REPLICATIONS, "", "replications per arrival configuration")}
    for domain in ("IMS", "TSO"):
        for column, kinds in (("1", ARRIVAL_KINDS), ("5", ARRIVAL_KINDS), ("BASE", ARRIVAL_KINDS[:1])):
            for kind, short in kinds:
                found[f"arr-{domain.lower()}-{column.lower()}-{short}"] = Fact(
                    summary.loc[(f"{domain} average", column, kind), "rmf_iosq_ms"], "ms",
                    f"{domain}'s representative device, RMF IOSQ at {column}, {kind} arrivals")
        for column in ("1", "5"):
            found[f"arr-{domain.lower()}-{column}-change"] = Fact(
                summary.loc[(f"{domain} average", column, "at-dispatch"), "change_ms"], "ms",
                f"{domain}'s representative device at {column}: at-dispatch minus in-slice RMF IOSQ (paired)")
    return found


def facts() -> dict[str, Fact]:
    """Every number the chapter quotes, ``{name: Fact}`` (glued as ``mdf-<name>``)."""
    from perfstudies.accuracy import study_comparison   # the registry's table, the one the chapter shows

    comparison = study_comparison(KEY)
    found = theory_facts() | calibration_facts() | exercise_facts()
    found |= mva_facts(comparison) | board_facts(comparison) | remark_facts(comparison) | arrival_facts()
    no_extra = found["frontend-1"].value - found["extra-tx"].value
    found["no-extra-tx"] = Fact(no_extra, "tx/s", "the 4705's bound at parameter 1 without the held exchange")
    return found
