"""Every number the Diagnose X'44' chapter's prose and solutions quote, computed by the study's library.

:func:`facts` returns ``{name: Fact}``; the chapter glues them with its one
``glue_facts(KEY, facts())`` and quotes each as ``{glue:text}`diag44-<name>:<format>```.
They come from the report's tables (:mod:`.calibration`), the closed forms
(:mod:`.analytic`), the calibrated record, the comparison table and its
replications (the same disk-memoized runs the chapter shows), the slider's
precomputed sweep and the live panel's default run, so the words cannot drift
from the model.  A cell of the comparison is looked up by its (row, column)
label, a stated change by its (table, row), never by position.
"""

import pandas as pd

from perfstudies import compare
from perfstudies.facts import Fact
from perfstudies.tables import readable

from . import analytic
from .calibration import FAST_RUN, measurements, run_config, run_values
from .comparison import CAPS
from .explore import (PANEL_PROCESSORS, SWEEP_REPLICATIONS, WIDGET_REPLICATIONS, expected_results, fast_path_runs,
                      mva_table, pairing_table, panel_by_processors, run_summaries, sibling_table, theory_table,
                      vp_sweep)
from .params import KEY, DiagParams

#: The chance a sibling is queued that the binomial exercise starts from, and the share of yields on the fast
#: path it asks a six-VP guest to keep (the exercise's own numbers, not the report's).
EXERCISE_PI = 0.02
EXERCISE_FAST_SHARE = 0.9
#: Percent fast path below which the predict-first panel exercise looks for its crossing.
PANEL_CROSSING_PERCENT = 90.0
#: How many times the normal-path DIAG 44s grow in the scheduler-lock exercise (about 3 to 6 VPs in the report).
LOCK_EXERCISE_GROWTH = 4
#: The comparisons of the report's text, by the chapter's short names.
NINE_FAST, FIVE_FAST, NINE_VPS = "text: 9-way fast path", "text: 5-way fast path", "text: 9-way virtual processors"
#: The report's runs by their comparison-table columns.
COLUMNS = {"EXPTD440": "Yes (EXPTD440)", "EXPTD442": "Yes (EXPTD442)",
           "EXPTD441": "6 (EXPTD441)"}


def setting_facts() -> dict[str, Fact]:
    """The workload and coarsening the prose quotes, from the record and the report's tables."""
    defaults, base = DiagParams(), run_values(measurements(), "EXPT5200")
    return {
        "vps-9way": Fact(defaults.client_guests * defaults.client_vps + defaults.server_guests, "",
                         "virtual processors competing on the 9-way"),
        "processors-9way": Fact(defaults.real_processors, "", "real processors of the 9-way"),
        "base-util": Fact(base["total_util"], "%", "EXPT5200's published utilization"),
        "base-normal": Fact(base["diag_normal"], "DIAG/s", "EXPT5200's published normal-path DIAG 44 rate"),
        "connections": Fact(defaults.connections, "", "client-server connections"),
        "normal-per-yield": Fact(defaults.normal_diags_per_yield, "DIAG/yield", "normal-path DIAG 44s per yield"),
        "sweep-reps": Fact(SWEEP_REPLICATIONS, "", "replications per point of the slider sweep"),
        "widget-reps": Fact(WIDGET_REPLICATIONS, "", "replications of one live-panel run"),
        "ex-off-ms": Fact(defaults.off_processor_us / 1e3, "ms", "a transaction's time away from the processors"),
        "ex-normal-cp": Fact(defaults.normal_cp_us, "us/DIAG", "CP time of a normal-path DIAG 44"),
        "ex-fast-cp": Fact(defaults.fast_cp_us, "us/DIAG", "CP time of a fast-path DIAG 44"),
        "ex-cp-ratio": Fact(defaults.normal_cp_us / defaults.fast_cp_us, "", "normal over fast CP per DIAG 44"),
    }


def theory_facts() -> dict[str, Fact]:
    """The closed form's percent fast path beside the report's, per fast-path run."""
    rows = theory_table().set_index("run")
    found = {f"theory-fast-{run[-3:]}": Fact(rows.loc[run, "theory % fast"], "%", f"{run}'s % fast, theory")
             for run in rows.index}
    found |= {f"published-fast-{run[-3:]}": Fact(rows.loc[run, "published % fast"], "%", f"{run}'s % fast, report")
              for run in ("EXPTD442", "EXPTD441")}
    return found


def lock_facts() -> dict[str, Fact]:
    """CP's scheduler lock from EXPTD440's spin rows, and the exercise in which its normal-path DIAG 44s grow."""
    base = run_values(measurements(), FAST_RUN)
    processors = run_config(measurements(), FAST_RUN)["real_processors"]
    lock = analytic.lock_from_spin_rows(base["spin_rate"], base["pct_spin"] / 100 * processors, base["diag_normal"],
                                        base["tx_rate"])
    rho, hold, acquisitions = lock["utilisation"], lock["hold_us"], lock["acquisitions_per_s"]
    extra = (LOCK_EXERCISE_GROWTH - 1) * base["diag_normal"]
    more = acquisitions + extra
    rho_more = more * hold / 1e6
    wait, wait_more = analytic.mm1_wait(rho, hold), analytic.mm1_wait(rho_more, hold)
    return {
        "lock-spin-rate": Fact(base["spin_rate"], "1/s", "EXPTD440's scheduler spin lock rate"),
        "lock-pct-spin": Fact(base["pct_spin"], "%", "EXPTD440's percent of each processor spinning"),
        "lock-other-per-tx": Fact(lock["other_per_tx"], "1/tx", "other CP work's acquisitions per transaction"),
        "ex-rho": Fact(rho, "", "the scheduler lock's utilization on EXPTD440"),
        "ex-hold": Fact(hold, "us", "the scheduler lock's hold per acquisition"),
        "ex-wait": Fact(wait, "us", "an acquisition's mean spin"),
        "ex-acquisitions": Fact(acquisitions, "1/s", "the scheduler lock's acquisitions a second"),
        "ex-normal": Fact(base["diag_normal"], "DIAG/s", "EXPTD440's published normal-path DIAG 44 rate"),
        "ex-extra": Fact(extra, "1/s", "acquisitions the normal-path DIAG 44s add when they quadruple"),
        "ex-rho-more": Fact(rho_more, "", "the lock's utilization with them"),
        "ex-wait-more": Fact(wait_more, "us", "an acquisition's mean spin with them"),
        "ex-wait-rise": Fact(wait_more / wait - 1, "", "the rise of the mean spin"),
        "ex-acq-rise": Fact(more / acquisitions - 1, "", "the rise of the acquisitions"),
        "ex-spin-rise": Fact(more * wait_more / (acquisitions * wait) - 1, "", "the rise of the time spinning"),
    }


def simulation_facts(summaries: pd.DataFrame) -> dict[str, Fact]:
    """MVA beside the simulation, the sibling table's two steps, and the response-time exercise."""
    mva = mva_table(summaries).set_index("run")
    gap = (mva["simulated Tx rate"] / mva["MVA, simulated demand"] - 1).abs()
    documented = (mva["MVA, report's demand"] / mva["published Tx rate"] - 1).abs()
    worst = gap.idxmax()
    nine, five = gap[mva["processors"] == 9], gap[mva["processors"] == 5]
    found = {
        "mva-documented-max": Fact(documented.max(), "", "MVA with the report's demand: largest relative gap"),
        "mva-gap-min": Fact(gap.min(), "", "MVA beside the simulation: smallest relative gap"),
        "mva-gap-max": Fact(gap.max(), "", "MVA beside the simulation: largest relative gap"),
        "mva-worst-run": Fact(worst, "", "the run with the largest gap"),
        "mva-worst-mva": Fact(mva.loc[worst, "MVA, simulated demand"], "tx/s", "MVA's rate on that run"),
        "mva-worst-sim": Fact(mva.loc[worst, "simulated Tx rate"], "tx/s", "the simulated rate on that run"),
        "mva-gap-9-min": Fact(nine.min(), "", "smallest gap on the 9-way"),
        "mva-gap-9-max": Fact(nine.max(), "", "largest gap on the 9-way"),
        "mva-gap-5-max": Fact(five.max(), "", "largest gap on the 5-way"),
    }
    s = sibling_table(fast_path_runs(summaries)).set_index("run")
    for run in ("EXPTD440", "EXPTD441"):
        found[f"sib-{run[-3:]}-binomial"] = Fact(s.loc[run, "binomial (1 - pi)^(V-1)"], "",
                                                 f"{run}: (1 - pi)^(V-1) of the simulated pi")
        found[f"sib-{run[-3:]}-none"] = Fact(s.loc[run, "simulated share with none queued"], "",
                                             f"{run}: simulated share of yields with no sibling queued")
    found["sib-440-gap"] = Fact(abs(s.loc["EXPTD440", "binomial (1 - pi)^(V-1)"]
                                    - s.loc["EXPTD440", "simulated share with none queued"]), "",
                                "EXPTD440: the binomial step's error")
    for run in ("EXPTD440", "EXPTD442", "EXPTD441"):
        found[f"sib-{run[-3:]}-erlang"] = Fact(s.loc[run, "M/M/c pi"], "", f"{run}: M/M/c pi")
    for run in ("EXPTD442", "EXPTD441"):
        found[f"sib-{run[-3:]}-pi"] = Fact(s.loc[run, "simulated pi"], "", f"{run}: simulated pi")
    pi_440 = s.loc["EXPTD440", "simulated pi"]
    found |= {"ex-pi-440": Fact(pi_440, "", "EXPTD440: simulated pi"),
              "ex-none-3": Fact(analytic.no_sibling_queued(3, pi_440), "", "(1 - pi)^2 at EXPTD440's pi"),
              "ex-none-8": Fact(analytic.no_sibling_queued(8, pi_440), "", "(1 - pi)^7 at EXPTD440's pi")}
    defaults = DiagParams()
    sim = summaries.pivot(index="run_id", columns="metric", values="mean").loc[FAST_RUN]
    throughput, think_s = sim["tx_rate"], defaults.off_processor_us / 1e6
    demand_s = sim["total_us_per_tx"] * defaults.accounting_ratio / 1e6
    response_s = defaults.connections / throughput - think_s
    found |= {
        "ex-x": Fact(throughput, "tx/s", "EXPTD440's simulated transaction rate"),
        "ex-z-ms": Fact(1e3 * think_s, "ms", "the think time, the time away"),
        "ex-cycle-ms": Fact(1e3 * defaults.connections / throughput, "ms", "a connection's cycle N / X"),
        "ex-r-ms": Fact(1e3 * response_s, "ms", "the response-time law's R"),
        "ex-d-ms": Fact(1e3 * demand_s, "ms", "processor time of a transaction"),
        "ex-q-ms": Fact(1e3 * (response_s - demand_s), "ms", "the waiting part of R"),
        "ex-u-law": Fact(100 * throughput * demand_s / defaults.real_processors, "%", "the utilisation law's U"),
        "ex-u-sim": Fact(sim["total_util"], "%", "EXPTD440's simulated utilization"),
    }
    return found


def comparison_facts(table: pd.DataFrame) -> dict[str, Fact]:
    """The roles, tolerances, precision and scoreboard of the comparison, in words."""
    texts = table[table["table"].str.startswith("text:")]
    band = texts.set_index(["table", "row"]).loc[(NINE_VPS, "change in transaction rate")]
    predicted = table[table["role"] == "prediction"]
    replications = table[table["role"] != "derived"].groupby("table")["replications"].max()
    board = compare.scoreboard(table).set_index("study").loc[KEY]
    util = table[table["row"] == "Total Util/Proc"].set_index("column")
    found = {
        "changes": Fact(len(texts), "", "the text's percentage changes"),
        "changes-derived": Fact(int((texts["role"] == "derived").sum()), "", "changes that restate the tables"),
        "changes-predicted": Fact(int((texts["role"] == "prediction").sum()), "", "changes that are predictions"),
        "band-example": Fact(band["published"], "%", "the 6-VP run's stated fall of the transaction rate"),
        "band-low": Fact(band["bound_low"], "%", "its range's low end"),
        "band-high": Fact(band["bound_high"], "%", "its range's high end"),
        "precision-caps": Fact("; ".join(f"{name}: cap {CAPS[name]}, {replications[name]} run" for name in CAPS), "",
                               "each experiment's cap and the replications it ran"),
        "undecided": Fact(int((predicted["verdict"] == "undecided").sum()), "", "predictions still undecided"),
        "util-max-off": Fact((util["model"] - util["published"]).abs().max(), "points",
                             "the largest utilization gap of any run"),
    }
    found |= {f"board-{name.replace('_', '-')}": Fact(int(board[name]), "", f"scoreboard: {name.replace('_', ' ')}")
              for name in ("prediction", "scored", "within_10pct", "bounds", "bounds_held", "beats_baseline",
                           "weak_evidence")}
    expected = expected_results(table)
    missed = expected[~expected["model shows it"]]
    found["expected-held"] = Fact(int(expected["model shows it"].sum()), "", "expected results the model shows")
    found["expected-missed"] = Fact("; ".join(
        f"*{row['expected result'][0].lower()}{row['expected result'][1:]}* (on the {row['model misses on']})"
        for _, row in missed.iterrows()) or "none", "", "the expected results the model misses, and where")
    return found


def remark_facts(table: pd.DataFrame) -> dict[str, Fact]:
    """The Remarks' and open exercise's model values, report values, ratios and changes, by label."""
    cells = table.set_index(["row", "column"])
    texts = table[table["table"].str.startswith("text:")].set_index(["table", "row"])
    found = {}
    for run in ("EXPTD440", "EXPTD441"):
        found[f"tx-{run[-3:]}"] = Fact(cells.loc[("Tx rate", COLUMNS[run]), "model"], "tx/s", f"{run}'s rate, model")
        found[f"tx-{run[-3:]}-published"] = Fact(cells.loc[("Tx rate", COLUMNS[run]), "published"], "tx/s",
                                                 f"{run}'s rate, report")
    for run in ("EXPTD440", "EXPTD442", "EXPTD441"):
        found[f"pct-fast-{run[-3:]}"] = Fact(cells.loc[("Percent Fast Path", COLUMNS[run]), "model"], "%",
                                             f"{run}'s percent fast path, model")
        found[f"pct-fast-{run[-3:]}-published"] = Fact(cells.loc[("Percent Fast Path", COLUMNS[run]), "published"],
                                                       "%", f"{run}'s percent fast path, report")
    found["fast-441"] = Fact(cells.loc[("DIAG 44/sec - Fast Path", COLUMNS["EXPTD441"]), "model"], "DIAG/s",
                             "EXPTD441's fast-path rate, model")
    found["fast-441-published"] = Fact(cells.loc[("DIAG 44/sec - Fast Path", COLUMNS["EXPTD441"]), "published"],
                                       "DIAG/s", "EXPTD441's fast-path rate, report")
    for run in ("EXPTD440", "EXPTD441"):
        found[f"normal-{run[-3:]}-published"] = Fact(
            cells.loc[("DIAG 44/sec - Normal", COLUMNS[run]), "published"], "DIAG/s", f"{run}'s normal rate, report")
    found["util-440"] = Fact(cells.loc[("Total Util/Proc", COLUMNS["EXPTD440"]), "model"], "%",
                             "EXPTD440's utilization, model")
    found["util-440-published"] = Fact(cells.loc[("Total Util/Proc", COLUMNS["EXPTD440"]), "published"], "%",
                                       "EXPTD440's utilization, report")

    def ratio(row, run):
        return cells.loc[(row, COLUMNS[run]), "model"] / cells.loc[(row, COLUMNS[run]), "published"]

    found |= {
        "ratio-fast-442": Fact(ratio("DIAG 44/sec - Fast Path", "EXPTD442"), "", "EXPTD442's fast rate, model/report"),
        "ratio-system-441": Fact(ratio("System Util/Proc", "EXPTD441"), "", "EXPTD441's system util, model/report"),
        "ratio-system-442": Fact(ratio("System Util/Proc", "EXPTD442"), "", "EXPTD442's system util, model/report"),
        "ex-normal-ratio-440": Fact(ratio("DIAG 44/sec - Normal", "EXPTD440"), "", "EXPTD440's normal rate ratio"),
        "ex-normal-ratio-441": Fact(ratio("DIAG 44/sec - Normal", "EXPTD441"), "", "EXPTD441's normal rate ratio"),
        "ex-normal-share-model": Fact(100 - found["pct-fast-440"].value, "%", "EXPTD440's normal share, model"),
        "ex-normal-share-report": Fact(100 - found["pct-fast-440-published"].value, "%",
                                       "EXPTD440's normal share, report"),
    }
    for name, (comparison, row) in {"9-tx": (NINE_FAST, "change in transaction rate"),
                                    "5-tx": (FIVE_FAST, "change in transaction rate"),
                                    "6-tx": (NINE_VPS, "change in transaction rate"),
                                    "6-spin-rate": (NINE_VPS, "change in scheduler spin lock rate"),
                                    "6-spin-time": (NINE_VPS, "change in percent time spinning on the scheduler lock"),
                                    }.items():
        found[f"change-{name}"] = Fact(texts.loc[(comparison, row), "model"], "%", f"{comparison}: {row}, model")
        found[f"said-{name}"] = Fact(texts.loc[(comparison, row), "published"], "%", f"{comparison}: {row}, report")
    p, published = DiagParams(), measurements()
    normal_us = (p.normal_cp_us + p.normal_spin_us) / p.accounting_ratio   # charged time of one normal-path DIAG 44
    for run, name in (("EXPT5200", "spin-9"), ("EXPT5209", "spin-5")):
        values = run_values(published, run)
        found[name] = Fact(values["diag_normal"] / values["tx_rate"] * normal_us / 1e3, "ms/tx",
                           f"{run}'s normal-path DIAG 44 time per transaction")
    return found


def exercise_facts(sweep: pd.DataFrame) -> dict[str, Fact]:
    """The binomial exercise, the two sliders' points and the live panel stepped down in processors."""
    found = {"ex-pi": Fact(EXERCISE_PI, "", "the exercise's chance a sibling is queued"),
             "ex-p3": Fact(analytic.no_sibling_queued(3, EXERCISE_PI), "", "(1 - pi)^2"),
             "ex-p6": Fact(analytic.no_sibling_queued(6, EXERCISE_PI), "", "(1 - pi)^5"),
             "ex-pi-max": Fact(1 - EXERCISE_FAST_SHARE ** (1 / 5), "", "the largest pi that keeps 90% on six VPs")}
    by_point = sweep.pivot_table(index=["metric", "client_vps"], columns="real_processors", values="mean")
    for metric, name, points in (("pct_fast", "fast", ((9, 3), (13, 8), (9, 8), (5, 8), (9, 6), (5, 3))),
                                 ("cp_us_per_tx", "cp", ((9, 3), (9, 8), (5, 3), (5, 8))),
                                 ("total_util", "util", ((13, 8), (9, 8), (5, 8)))):
        for processors, vps in points:
            found[f"ex-{name}-{processors}-{vps}"] = Fact(by_point.loc[(metric, vps), processors], "",
                                                          f"the sweep's {metric} at {processors} processors, {vps} VPs")
    for processors in (9, 5):
        found[f"ex-cp-rise-{processors}"] = Fact(by_point.loc[("cp_us_per_tx", 8), processors]
                                                 / by_point.loc[("cp_us_per_tx", 3), processors] - 1, "",
                                                 f"CP per transaction from 3 to 8 VPs on {processors} processors")
    panel = panel_by_processors()
    at = panel.set_index("real processors")
    crossing = int(panel.loc[panel["pct_fast"] < PANEL_CROSSING_PERCENT, "real processors"].max())
    first, last = PANEL_PROCESSORS[0], 5
    found |= {
        "ex-panel-table": Fact(readable(panel, names={"pct_fast": "DIAG 44s on the fast path (%)",
                                                      "tx_rate": "transactions a second",
                                                      "total_util": "utilization per processor (%)"},
                                        formats={"real processors": "count"}).perfstudies_text
                               .set_index("real processors"), "", "the panel's default run, processor by processor"),
        "ex-crossing": Fact(crossing, "", "the processors at which the fast path falls below 90%"),
        "ex-crossing-fast": Fact(at.loc[crossing, "pct_fast"], "%", "the percent fast path there"),
        "ex-panel-tx-crossing": Fact(at.loc[crossing, "tx_rate"], "tx/s", "the transaction rate there"),
        "ex-panel-fast-9": Fact(at.loc[9, "pct_fast"], "%", "the panel's percent fast path on nine"),
        "ex-panel-fast-5": Fact(at.loc[5, "pct_fast"], "%", "the panel's percent fast path on five"),
        "ex-panel-fast-3": Fact(at.loc[3, "pct_fast"], "%", "the panel's percent fast path on three"),
        "ex-panel-util-8": Fact(at.loc[8, "total_util"], "%", "the panel's utilization on eight"),
        "ex-panel-util-5": Fact(at.loc[5, "total_util"], "%", "the panel's utilization on five"),
        "ex-panel-tx-low": Fact(at.loc[first:last, "tx_rate"].min(), "tx/s", "the lowest rate from nine to five"),
        "ex-panel-tx-high": Fact(at.loc[first:last, "tx_rate"].max(), "tx/s", "the highest rate from nine to five"),
        "ex-panel-tx-3": Fact(at.loc[3, "tx_rate"], "tx/s", "the panel's rate on three"),
    }
    return found


def pairing_facts(runs: dict) -> dict[str, Fact]:
    """What the comparisons' common seeds buy (:func:`.explore.pairing_table`), over all their changes."""
    pairing = pairing_table(runs)
    ratio = pairing["unpaired / paired"]
    return {"pairing-corr-max": Fact(pairing["correlation"].max(), "", "highest before-after correlation"),
            "pairing-ratio-max": Fact(ratio.max(), "", "largest unpaired over paired half-width"),
            "pairing-ratio-min": Fact(ratio.min(), "", "smallest unpaired over paired half-width"),
            "pairing-narrower": Fact(int((ratio > 1.05).sum()), "", "changes pairing narrows by over 5%"),
            "pairing-changes": Fact(len(pairing), "", "changes measured")}


def facts() -> dict[str, Fact]:
    """Every number the chapter quotes, ``{name: Fact}`` (glued as ``diag44-<name>``)."""
    from perfstudies.studies import study   # the registry's record: the comparison's own replications

    record = study(KEY)
    runs = record.runs()
    table, summaries = record.comparison(), run_summaries(runs)
    sweep = vp_sweep()
    found = setting_facts() | theory_facts() | lock_facts() | simulation_facts(summaries)
    found |= comparison_facts(table) | remark_facts(table) | exercise_facts(sweep) | pairing_facts(runs)
    found["ex-spin-rise-report"] = Fact(found["said-6-spin-time"].value, "%",
                                        "the report's rise of the time spinning from 3 to 6 VPs")
    return found
