"""The chapter's interactive and exploratory parts: the live panel, the slider sweep, theory beside simulation.

* :data:`PANEL` declares the live panel (:class:`perfstudies.panel.Panel`;
  its main control is the number of real processors) and :func:`widget_run`
  is what one change runs: :func:`perfstudies.panel.run_panel`, three
  replications from :data:`~.params.SEED` and their paired change from
  :data:`WIDGET_DEFAULTS`, the 9-way fast-path run with a shorter simulated time;
* :data:`SWEEPS` declares the precomputed sweep behind the kernel-free slider charts
  (points :func:`sweep_points`, summary :func:`vp_sweep`): percent fast path and CP time per transaction
  against the client virtual processors (2 to 8), one slice per
  real-processor count (5 to 13, step 2), with the fast path on and the
  9-way's calibrated workload.  One VP per client is left out: a lone VP has
  no sibling to hold a guest lock, so the model's clients never yield;
* :func:`theory_table`, :func:`sibling_table` and :func:`mva_table` set the
  closed forms of :mod:`.analytic` beside the report and the simulation;
  :func:`expected_results` sets the report's eight expected results beside the model;
* :func:`scoreboard_table`, :func:`worst_table` and :func:`panel_by_processors` are the
  chapter's other tables: the scoreboard as rows, the worst misses, and the live
  panel's default run stepped down in real processors (its predict-first exercise);
  :func:`pairing_table` measures what the comparisons' common seeds buy.
"""

import numpy as np
import pandas as pd

from perfstudies import compare, student_t, tables
from perfstudies.panel import Panel, run_panel
from perfstudies.runner import summarize
from perfstudies.stored_sweeps import Sweep

from . import analytic
from .calibration import measurements, run_config, run_values
from .comparison import PAIRS
from .network import model
from .params import KEY, SEED, DiagParams

#: The live panel's starting point: the document's 9-way fast-path run, shorter simulated time.
WIDGET_DEFAULTS = DiagParams(max_time_us=1.5e6, warmup_us=5.0e5)
WIDGET_REPLICATIONS = 3
#: The fields the live panel lets a reader change, and the metrics it shows.
LIVE_CONTROLS = ("real_processors", "client_vps", "fast_path", "connections")
LIVE_METRICS = ("tx_rate", "pct_fast", "diag_normal", "diag_fast", "cp_us_per_tx", "total_util", "system_util")
#: The reader's name (quantity and unit) of each of :data:`LIVE_METRICS`, as the live panel shows it.
LIVE_LABELS = {"tx_rate": "transactions a second", "pct_fast": "DIAG 44s on the fast path (%)",
               "diag_normal": "normal-path DIAG 44s a second", "diag_fast": "fast-path DIAG 44s a second",
               "cp_us_per_tx": "CP time per transaction (µs)", "total_util": "utilization per processor (%)",
               "system_util": "system utilization per processor (%)"}

#: The fast-path runs of the report: 9-way with 3 VPs, 5-way with 3 VPs, 9-way with 6 VPs.
FAST_RUNS = ("EXPTD440", "EXPTD442", "EXPTD441")
#: Every run of the report, in its tables' order.
RUNS = ("EXPT5200", "EXPTD440", "EXPT5209", "EXPTD442", "EXPTD441")

PROCESSORS = (5, 7, 9, 11, 13)
CLIENT_VPS = tuple(range(2, 9))
SWEEP_METRICS = ("pct_fast", "cp_us_per_tx", "tx_rate", "total_util")
SWEEP_TIME_US = 1.5e6
SWEEP_REPLICATIONS = 3


#: The live panel, declared: the real processors are the chapter's main control (its predict-first
#: exercise lowers them one at a time from the 9-way).
PANEL = Panel(DiagParams, controls=LIVE_CONTROLS, main="real_processors", defaults=lambda: WIDGET_DEFAULTS,
              model=model, shown=LIVE_LABELS, seed=SEED, replications=WIDGET_REPLICATIONS)


def widget_run(params: DiagParams | None = None) -> pd.DataFrame:
    """One change of the live panel: :func:`perfstudies.panel.run_panel` of :data:`PANEL`.

    Each of :data:`LIVE_METRICS` at ``params`` (mean and 95% interval of three
    seeded replications) and its paired change from :data:`WIDGET_DEFAULTS`
    (``None`` runs the default itself).
    """
    return run_panel(PANEL, params)


def sweep_points() -> list[DiagParams]:
    """Every (real processors, client VPs) pair of the slider sweep, shorter runs than the comparison's."""
    base = DiagParams(max_time_us=SWEEP_TIME_US)
    return [base.replace(real_processors=c, client_vps=v) for c in PROCESSORS for v in CLIENT_VPS]


#: The chapter's precomputed sweep (stored by ``make runs``, :mod:`perfstudies.stored_sweeps`).
SWEEPS = {"vps": Sweep(name=f"{KEY}-vps", scope=KEY, model=model, points=sweep_points,
                       replications=SWEEP_REPLICATIONS, seed=SEED)}


def vp_sweep() -> pd.DataFrame:
    """Mean and 95% interval of :data:`SWEEP_METRICS` per point: ``real_processors, client_vps, metric, ...``."""
    runs = SWEEPS["vps"].runs()
    runs = runs[runs["metric"].isin(SWEEP_METRICS)]
    return summarize(runs, by=["real_processors", "client_vps", "metric"]).reset_index()


def theory_table() -> pd.DataFrame:
    """The closed form of the fast path for each fast-path run, from the report's utilizations, before any simulation.

    The chance a sibling is queued is the M/M/c waiting share at the run's
    published utilization; the chance that none is queued is its binomial
    zero term; the percent of DIAG 44s weights fast and normal yields by the
    DIAG 44s each stands for (the calibrated ``fast_diags_per_yield`` and the
    coarsening ``normal_diags_per_yield``).
    """
    published, weights = measurements(), DiagParams()
    rows = []
    for run in FAST_RUNS:
        config, values = run_config(published, run), run_values(published, run)
        pi = analytic.queued_share(config["real_processors"], values["total_util"] / 100)
        rows.append({"run": run, "processors": config["real_processors"], "client VPs": config["client_vps"],
                     "utilization %": values["total_util"], "pi": pi,
                     "P(no sibling queued)": analytic.no_sibling_queued(config["client_vps"], pi),
                     "theory % fast": analytic.fast_path_percent(
                         config["real_processors"], values["total_util"] / 100, config["client_vps"],
                         weights.fast_diags_per_yield, weights.normal_diags_per_yield),
                     "published % fast": values["pct_fast"]})
    return pd.DataFrame(rows)


def run_summaries(runs: dict) -> pd.DataFrame:
    """The comparison's replications of every run, summarized per run and metric.

    ``runs`` is what the comparison simulated (``STUDY.runs()``:
    ``{comparison: {run: per-replication frame}}``).  Each run is taken from
    the first of :data:`.comparison.PAIRS` it is in, so the numbers are the
    ones the comparison table shows, without simulating anything again.
    """
    frames, seen = [], set()
    for name in PAIRS:
        for run, frame in runs[name].items():
            if run not in seen:
                seen.add(run)
                frames.append(frame.rename_axis("replication").reset_index()
                              .melt(id_vars="replication", var_name="metric", value_name="value").assign(run_id=run))
    return summarize(pd.concat(frames, ignore_index=True), by=["run_id", "metric"]).reset_index()


def fast_path_runs(summary: pd.DataFrame) -> pd.DataFrame:
    """The rows of a :func:`run_summaries` summary of the three fast-path runs only."""
    return summary[summary["run_id"].isin(FAST_RUNS)].reset_index(drop=True)


def sibling_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The simulated chance a sibling is queued beside the closed forms, from :func:`fast_path_runs`.

    ``simulated pi`` is the mean share of a yielding VP's siblings that are
    queued at the yield; the binomial column is ``(1 - pi)^(V-1)`` of it, beside
    the simulated share of yields that find none queued (the binomial step
    alone); ``M/M/c pi`` is the waiting share at the simulated utilization
    (the Erlang step alone).
    """
    wide = summary.pivot(index="run_id", columns="metric", values="mean").loc[list(FAST_RUNS)]
    half = summary[summary["metric"] == "pct_fast"].set_index("run_id").loc[list(FAST_RUNS), "half_width"]
    configs = [run_config(measurements(), run) for run in FAST_RUNS]
    vps = np.array([config["client_vps"] for config in configs])
    erlang = [analytic.queued_share(config["real_processors"], min(util / 100, 0.999))
              for config, util in zip(configs, wide["total_util"])]
    return pd.DataFrame({
        "run": list(FAST_RUNS),
        "simulated utilization %": wide["total_util"].to_numpy(),
        "M/M/c pi": erlang,
        "simulated pi": wide["sibling_queued_share"].to_numpy(),
        "binomial (1 - pi)^(V-1)": ((1 - wide["sibling_queued_share"]) ** (vps - 1)).to_numpy(),
        "simulated share with none queued": wide["no_sibling_share"].to_numpy(),
        "simulated % fast": wide["pct_fast"].to_numpy(),
        "95% CI half-width": half.to_numpy(),
    })


def mva_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Exact MVA of the closed network beside the simulation and the report, for every run.

    Two MVA answers per run: with the report's own processor time per
    transaction (Total usec/Tx, in processor time through the accounting
    ratio) as the demand, and with the simulation's; both with the calibrated
    time away from the processors and the 40 connections.  The second isolates
    what product form leaves out of the model (the gap to the simulated rate),
    the first what it predicts from the document's numbers alone.
    """
    published, p = measurements(), DiagParams()
    wide = summary.pivot(index="run_id", columns="metric", values="mean")
    rows = []
    for run in RUNS:
        config, values = run_config(published, run), run_values(published, run)
        processors = config["real_processors"]
        documented = analytic.mva_solution(values["total_us_per_tx"] * p.accounting_ratio, p.off_processor_us,
                                           processors, p.connections)
        simulated = analytic.mva_solution(wide.loc[run, "total_us_per_tx"] * p.accounting_ratio,
                                          p.off_processor_us, processors, p.connections)
        rows.append({"run": run, "processors": processors, "published Tx rate": values["tx_rate"],
                     "MVA, report's demand": documented.throughput * 1e6,
                     "simulated Tx rate": wide.loc[run, "tx_rate"],
                     "MVA, simulated demand": simulated.throughput * 1e6,
                     "published util %": values["total_util"],
                     "MVA util %": 100 * simulated.utilisation["real processors"],
                     "simulated util %": wide.loc[run, "total_util"]})
    return pd.DataFrame(rows)


#: The report's eight expected results: (statement, comparison table, run pair or cell, metric, expected sign).
EXPECTED = (
    ("An increase in the total virtual DIAG 44 rate", "change in total DIAG 44 rate", +1),
    ("A high percentage of the virtual DIAG 44s handled by the fast path", "Percent Fast Path", None),
    ("Increased transaction rate", "change in transaction rate", +1),
    ("Increased virtual µsec per transaction", "change in virtual (emulation) usec per transaction", +1),
    ("Decreased CP µsec per transaction", "change in CP usec per transaction", -1),
    ("Decreased CP system utilization", "change in CP system utilization", -1),
    ("Less benefit as the base becomes more processor constrained", "change in transaction rate", None),
    ("Lower fast path percentage as the number of virtual processors is increased", "Percent Fast Path", None),
)
#: The two fast-path comparisons of the first six expected results, in the report's order.
MACHINES = ("9-way", "5-way")
#: Share of DIAG 44s on the fast path the chapter calls "high".
HIGH_FAST_PERCENT = 80.0


def expected_results(table: pd.DataFrame) -> pd.DataFrame:
    """The report's eight expected results beside the model, from the comparison table.

    Each row gives the report's numbers and the model's (the two fast-path
    comparisons for the first six, the three fast-path runs for the high
    share, the two transaction-rate gains for "less benefit", the 3- and 6-VP
    runs for the last) and whether each shows the expected direction.
    """
    changes = table[table["table"].str.startswith("text:")]
    fast = table[(table["row"] == "Percent Fast Path") & table["column"].str.contains("|".join(FAST_RUNS))]
    fast = fast.set_index(fast["column"].str.extract(r"\((\w+)\)")[0])

    def pair(statement):
        rows = changes[(changes["row"] == statement) & changes["table"].isin(["text: 9-way fast path",
                                                                              "text: 5-way fast path"])]
        return rows["published"].to_numpy(), rows["model"].to_numpy()

    def words(values):
        return ", ".join(f"{value:+.1f}%" for value in values)

    rows = []
    for statement, row, sign in EXPECTED[:6]:
        if sign is None:
            published, modelled = fast["published"].to_numpy(), fast["model"].to_numpy()
            rows.append({"expected result": statement,
                         "report": ", ".join(f"{v:.0f}%" for v in published),
                         "model": ", ".join(f"{v:.1f}%" for v in modelled),
                         "report shows it": bool((published >= HIGH_FAST_PERCENT).all()),
                         "model shows it": bool((modelled >= HIGH_FAST_PERCENT).all()),
                         "model misses on": ", ".join(run for run, v in zip(fast.index, modelled)
                                                      if v < HIGH_FAST_PERCENT)})
            continue
        published, modelled = pair(row)
        rows.append({"expected result": statement, "report": words(published), "model": words(modelled),
                     "report shows it": bool((np.sign(published) == sign).all()),
                     "model shows it": bool((np.sign(modelled) == sign).all()),
                     "model misses on": ", ".join(machine for machine, v in zip(MACHINES, modelled)
                                                  if np.sign(v) != sign)})
    published, modelled = pair("change in transaction rate")
    rows.append({"expected result": EXPECTED[6][0], "report": f"9-way {published[0]:+.1f}% vs 5-way {published[1]:+.1f}%",
                 "model": f"9-way {modelled[0]:+.1f}% vs 5-way {modelled[1]:+.1f}%",
                 "report shows it": bool(published[0] > published[1]),
                 "model shows it": bool(modelled[0] > modelled[1]),
                 "model misses on": "" if modelled[0] > modelled[1] else "both"})
    three, six = fast.loc["EXPTD440"], fast.loc["EXPTD441"]
    rows.append({"expected result": EXPECTED[7][0],
                 "report": f"{three['published']:.0f}% -> {six['published']:.0f}%",
                 "model": f"{three['model']:.1f}% -> {six['model']:.1f}%",
                 "report shows it": bool(six["published"] < three["published"]),
                 "model shows it": bool(six["model"] < three["model"]),
                 "model misses on": "" if six["model"] < three["model"] else "3 vs 6 VPs"})
    return pd.DataFrame(rows)


#: What each count of the scoreboard is, as the chapter's scoreboard table names it, in its order.
SCOREBOARD_ROWS = {"cells": "all cells", "calibration": "calibration cells", "derived": "derived cells",
                   "prediction": "predictions", "within_10pct": "predictions within 10%",
                   "hits": "hits (within tolerance)", "misses": "misses (outside tolerance)",
                   "bounds": "predictions scored as a stated range", "bounds_held": "stated ranges held",
                   "beats_baseline": "predictions that beat the baseline",
                   "weak_evidence": "predictions that are weak evidence",
                   "undecided": "predictions undecided (interval too wide)"}


def scoreboard_table(table: pd.DataFrame) -> pd.DataFrame:
    """The study's scoreboard (:func:`perfstudies.compare.scoreboard`) as rows: ``compared cells``, ``count``."""
    board = compare.scoreboard(table)
    board = board[board["study"] == KEY][["study", *SCOREBOARD_ROWS]]
    return tables.long_format(board, keep=["study"], variable="compared cells", value="count",
                              names=SCOREBOARD_ROWS).drop(columns="study")


def worst_table(table: pd.DataFrame, count: int = 8) -> pd.DataFrame:
    """The ``count`` predicted cells furthest outside their tolerance, one labelled cell per row."""
    worst = compare.worst_cells(table, count=count)
    return pd.DataFrame({"cell": worst["table"].str.removeprefix("text: ") + " · " + worst["row"] + " · "
                                 + worst["column"],
                         "published": worst["published"], "model": worst["model"], "error": worst["rel_error"],
                         "tolerances off": worst["tolerances_off"]})


#: Real processors the live panel's predict-first exercise steps through, from the 9-way down.
PANEL_PROCESSORS = tuple(range(9, 2, -1))
#: The panel metrics that exercise reads.
PANEL_STEP_METRICS = ("pct_fast", "tx_rate", "total_util")


def panel_by_processors(processors=PANEL_PROCESSORS) -> pd.DataFrame:
    """The live panel's default run (:func:`widget_run`) at each real-processor count: the mean of
    :data:`PANEL_STEP_METRICS`, one row per count (column ``real processors``)."""
    rows = [widget_run(WIDGET_DEFAULTS.replace(real_processors=count)).set_index("metric")
            .loc[list(PANEL_STEP_METRICS), "mean"].rename(count) for count in processors]
    return pd.DataFrame(rows).rename_axis("real processors").reset_index()


#: The rows whose change between two runs the report's text states (the changes :func:`pairing_table` measures).
CHANGE_METRICS = ("tx_rate", "diag_total", "diag_normal", "cp_us_per_tx", "emul_us_per_tx", "system_util",
                  "spin_rate", "pct_spin")


def pairing_table(runs: dict, confidence: float = 0.95) -> pd.DataFrame:
    """What the common seeds of each comparison buy: paired against unpaired intervals of its changes.

    ``runs`` is ``STUDY.runs()``.  For each comparison and each row of
    :data:`CHANGE_METRICS` that its "before" run never has at 0: the
    correlation of a replication's before and after values, the half-width of
    the paired change (the mean of the per-replication changes, as the
    comparison scores it) and that of the change of the means with the two
    runs taken as independent (the delta method), and their ratio (above 1:
    pairing narrows the interval).
    """
    rows = []
    for name, (before, after) in PAIRS.items():
        first, second = runs[name][before], runs[name][after]
        n = len(first)
        t = student_t.quantile((1 + confidence) / 2, n - 1)
        for metric in CHANGE_METRICS:
            b, a = first[metric].to_numpy(), second[metric].to_numpy()
            if (b == 0).any():
                continue
            paired = t * np.std(100 * (a / b - 1), ddof=1) / np.sqrt(n)
            unpaired = t * 100 * a.mean() / b.mean() * np.sqrt(a.var(ddof=1) / (n * a.mean() ** 2)
                                                               + b.var(ddof=1) / (n * b.mean() ** 2))
            rows.append({"comparison": name, "metric": metric, "replications": n,
                         "correlation": np.corrcoef(a, b)[0, 1], "paired half-width": paired,
                         "unpaired half-width": unpaired, "unpaired / paired": unpaired / paired})
    return pd.DataFrame(rows)
