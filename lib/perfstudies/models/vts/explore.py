"""The chapter's interactive parts (the live panel's re-run, the precomputed sweeps) and its tables.

:data:`PANEL` declares the live panel (:class:`perfstudies.panel.Panel`; its
main control is the compressibility, the x axis of the paper's Figs. 7-8) and
:func:`widget_run` is what one change runs: :func:`perfstudies.panel.run_panel`,
a few short replications of both models and their paired change from the
chapter's default; :func:`widget_theory` is the closed forms at the same setting.  :data:`SWEEPS` declares
the two sweeps behind the chapter's kernel-free
slider charts: write throughput against compressibility for every cache
configuration of Table 3 (the slider moves over the configuration's index,
since the capacities are unevenly spaced), and the recall mount response
against the recall queue length for 3 to 6 drives (Fig. 6).  Every simulated
number here uses the study's one seed, :data:`~perfstudies.models.vts.params.SEED`.
"""

import numpy as np
import pandas as pd

from perfstudies import data
from perfstudies.compare import cell_names, scoreboard, worst_cells
from perfstudies.models.vts.analytic import (
    RESOURCES, TRACK_MB, arm_ops_per_track, arms, bottleneck, bound, capacities, contended_task_minutes,
    copy_ceiling, customer_mb, equation3, hours_at_peak, implied_arm_ops_per_track, import_export_minutes,
    internal_cf, mva_solution, processor_terms, processors, recall_response_s, stations, typical_mix_bound,
)
from perfstudies.models.vts.calibration import LIMITED_BY, calibrate, calibration_cells, contention_slowdown
from perfstudies.models.vts.network import model, recall_model
from perfstudies.models.vts.params import (
    KEY, SEED, VTSParams, base, cache_configurations, ehpo, paf, statement, text_value,
)
from perfstudies.panel import Panel, run_panel
from perfstudies.params import check_record
from perfstudies.runner import check_seed, replicate, summarize
from perfstudies.stored_sweeps import Sweep
from perfstudies.tables import exact, long_format, number

#: Replications and run length of one live-panel re-run (a fraction of a second).
WIDGET_REPLICATIONS = 3
WIDGET_COMPLETIONS = 600
#: The fields the live panel offers.
WIDGET_FIELDS = ("feature", "capacity_gb", "hdd_gb", "drives", "drive_model", "compressibility", "escon_channels",
                 "block_kb", "workload", "volume_mb", "recall_queue", "import_export_drives")
#: The live panel's compressibility range: the measured range of Figs. 7-8.
WIDGET_RANGES = {"compressibility": (1.0, 4.0)}

#: Compressibilities of the chapter's tables and of Fig. 10's curves (the measured range, equation 3).
COMPRESSIBILITIES = (1.0, 2.0, 3.0, 4.0)
#: Cache capacities of the PAF column of Table 3 (GB).
PAF_CACHES_GB = (216, 432, 864, 1728)
#: Independent replications of the chapter's example run.
EXAMPLE_REPLICATIONS = 5

WRITE_CF = tuple(float(cf) for cf in np.round(np.arange(1.0, 4.01, 0.5), 2))
WRITE_REPLICATIONS = 3
WRITE_COMPLETIONS = 250
RECALL_QUEUES = tuple(range(0, 33, 4))
RECALL_DRIVES = (3, 4, 5, 6)
RECALL_REPLICATIONS = 12


def panel_model(params: VTSParams, seed: int) -> dict[str, float]:
    """One replication as the live panel runs it: the throughput model at a short run length
    (at most :data:`WIDGET_COMPLETIONS` customers) and the recall model, from the same seed."""
    params, seed = check_record("params", params, VTSParams), check_seed(seed)
    quick = params.replace(completions=min(params.completions, WIDGET_COMPLETIONS))
    return {"host_mb_s": model(quick, seed)["host_mb_s"], **recall_model(params, seed)}


#: The live panel, declared: compressibility is the chapter's main axis (Figs. 7-8); the default is the
#: fully configured PAF machine of :class:`VTSParams`.
PANEL = Panel(VTSParams, controls=WIDGET_FIELDS, main="compressibility", defaults=VTSParams, model=panel_model,
              shown={"host_mb_s": "host MB/s", "mount_response_s": "recall mount response (s)"}, seed=SEED,
              replications=WIDGET_REPLICATIONS, ranges=WIDGET_RANGES)


def widget_run(params: VTSParams | None = None) -> pd.DataFrame:
    """One change of the live panel: :func:`perfstudies.panel.run_panel` of :data:`PANEL`.

    Host MB/s and the recall mount response at ``params`` (mean and 95%
    interval) and their paired change from the default; ``None`` runs the
    chapter's default configuration, :class:`VTSParams`'s defaults.
    """
    return run_panel(PANEL, params)


def widget_theory(params: VTSParams) -> pd.DataFrame:
    """The closed forms the live panel sets beside the simulation, at ``params``: one row per quantity."""
    params = check_record("params", params, VTSParams)
    rows = [("host MB/s, bottleneck bound", bound(params)),
            ("bottleneck", bottleneck(params))]
    rows += [(f"capacity of {name}, MB/s", value) for name, value in capacities(params).items()]
    rows += [("recall mount response, s, closed form", recall_response_s(params)),
             ("typical mix host MB/s, bound", typical_mix_bound(params)),
             ("hours at peak write from an empty cache", hours_at_peak(params))]
    return pd.DataFrame(rows, columns=["quantity", "theory"])


#: The eight calibrated constants as the chapter names them: field -> (symbol, meaning, unit shown, scale
#: from seconds, the calibration cells it is solved from).
CONSTANTS = {
    "write_block_overhead_s": ("o (write)", "ESCON time per host block written, beyond the transfer", "ms", 1000,
                               ("write_block_overhead_s",)),
    "read_block_overhead_s": ("o (read)", "ESCON time per host block read, beyond the transfer", "ms", 1000,
                              ("read_block_overhead_s",)),
    "cpu_s_per_host_mb": ("a", "processor time per host MB", "ms", 1000,
                          ("cpu_base_peak", "cpu_paf_peak", "cpu_paf_sustained")),
    "cpu_s_per_mb_pass": ("b", "processor time per compressed MB per pass through memory", "ms", 1000, ()),
    "cpu_s_per_disk_op": ("e", "processor time per cache disk operation issued", "ms", 1000, ()),
    "disk_op_s": ("t", "disk arm time per 64 KB track operation", "ms", 1000, ("disk_op_s",)),
    "disk_fixed_s": ("t₀", "the part of t an unbuffered write pays at any compressibility", "ms", 1000,
                     ("disk_fixed_s",)),
    "mount_s": ("M", "drive time per volume beyond search and transfer (mount)", "s", 1, ("mount_s",)),
}


def calibrated_constants() -> pd.DataFrame:
    """The eight calibrated constants: symbol, meaning, value, unit, the published cell(s) each is solved
    from and the resource that limits those cells (``a``, ``b`` and ``e`` come from three cells jointly)."""
    calibrated, cells = calibrate(), calibration_cells()
    rows = []
    for field, (symbol, meaning, unit, scale, keys) in CONSTANTS.items():
        if keys:
            solved = "; ".join(f"{cells[k].published.where} ({cells[k].published.value:g} MB/s)" for k in keys)
            if len(keys) > 1:
                solved = f"a, b and e jointly: {solved}"
            limited = LIMITED_BY[keys[0]]
        else:
            solved, limited = "with a (above)", LIMITED_BY["cpu_base_peak"]
        rows.append({"symbol": symbol, "constant": meaning, "value": getattr(calibrated, field) * scale, "unit": unit,
                     "solved from": solved, "limited by": limited})
    return pd.DataFrame(rows)


def headline_configurations() -> dict[str, VTSParams]:
    """The paper's headline configurations, by name, for the table of resource capacities."""
    return {
        "base, 4(2+P), peak write": VTSParams(feature="base", capacity_gb=288, escon_channels=4,
                                              compressibility=1.0, workload="peak_write"),
        "base, 16(2+P), sustained": VTSParams(feature="base", capacity_gb=1152, escon_channels=4,
                                              compressibility=1.0, workload="sustained_write"),
        "EHPO, 16(2+P), CF 3, sustained": VTSParams(feature="EHPO", capacity_gb=1152, compressibility=3.0),
        "PAF, CF 1, sustained": paf(compressibility=1.0, workload="sustained_write"),
        "PAF, CF 2, sustained": paf(compressibility=2.0, workload="sustained_write"),
        "PAF, CF 3, sustained": paf(compressibility=3.0, workload="sustained_write"),
        "PAF, CF 4, sustained": paf(compressibility=4.0, workload="sustained_write"),
        "PAF, CF 1, peak write": paf(compressibility=1.0, workload="peak_write"),
        "PAF, CF 2.66, peak write": paf(compressibility=2.66, workload="peak_write"),
        "PAF, CF 2.66, read recall": paf(compressibility=2.66, workload="read_recall"),
    }


def headline_bounds() -> pd.DataFrame:
    """Each resource's capacity (host MB/s) for the headline configurations, with the bound and its bottleneck."""
    table = pd.DataFrame({name: capacities(p) for name, p in headline_configurations().items()}).T
    table = table[[name for name in RESOURCES if name in table.columns]]
    table["bound"] = table.min(axis=1)
    table["bottleneck"] = table.drop(columns="bound").idxmin(axis=1)
    return table


def equation3_table() -> pd.DataFrame:
    """Equation 3 with Table 4's coefficients at the compressibilities of :data:`COMPRESSIBILITIES`
    (host MB/s; columns named for the reader)."""
    return pd.DataFrame([{"workload": w.replace("_", " "), "RAID-5 groups": g,
                          **{f"CF {cf:g} (MB/s)": equation3(w, g, cf) for cf in COMPRESSIBILITIES}}
                         for w in ("sustained_write", "peak_write") for g in (4, 8, 16)])


def contention_tasks() -> pd.DataFrame:
    """Sec. 7's two ten-volume tasks: minutes alone (equations 1-2) and under saturating peak write."""
    megabytes, slowdown = text_value("contention_task_mb"), contention_slowdown()
    rows = []
    for task in ("export", "import"):
        mounts = text_value(f"contention_{task}_mounts")
        rows.append({"task": task, "data (MB)": int(megabytes), "mounts": int(mounts),
                     "alone (min, eq. 1-2)": import_export_minutes(task, megabytes, mounts),
                     "under peak write (min)": contended_task_minutes(task, megabytes, mounts, slowdown)})
    return pd.DataFrame(rows)


def example_run() -> pd.DataFrame:
    """The chapter's example: PAF sustained write at CF 3, replicated, with 95% CIs.

    One row per metric of :func:`~perfstudies.models.vts.network.model`, indexed by
    the reader's name ("host MB/s", "utilisation of tape", ...).
    """
    example = paf(compressibility=3.0, workload="sustained_write")
    summary = replicate(model, example, EXAMPLE_REPLICATIONS, SEED, progress=False).summary()
    return summary.rename(index=lambda metric: "host MB/s" if metric == "host_mb_s"
                          else metric.replace("utilisation_", "utilisation of "))


def cache_choices() -> pd.DataFrame:
    """Table 3's configurations numbered 1..N, with the feature level each one is run at."""
    table = cache_configurations().reset_index(drop=True)
    table["index"] = np.arange(1, len(table) + 1)
    table["feature"] = np.where(table["features"] == "paf", "PAF", "EHPO")
    groups = table["parity_groups"].astype(str) + "(" + table["data_disks_per_group"].astype(str) + "+P)"
    table["label"] = (table["capacity_gb"].astype(str) + " GB, " + table["hdd_gb"].astype(str) + " GB disks, "
                      + groups + ", " + table["feature"])
    return table


def write_points() -> list[VTSParams]:
    """Peak and sustained write at every configuration and compressibility of the sweep."""
    return [VTSParams(feature=c.feature, capacity_gb=int(c.capacity_gb), hdd_gb=int(c.hdd_gb), escon_channels=8,
                      streams=64 if c.feature == "PAF" else 16, workload=w, compressibility=cf,
                      completions=WRITE_COMPLETIONS)
            for c in cache_choices().itertuples() for w in ("peak_write", "sustained_write") for cf in WRITE_CF]


def recall_points() -> list[VTSParams]:
    """Fig. 6's setting (CF 3, 3590B) for each volume size, drive count and queue length."""
    sizes = [text_value(f"fig6_volume_{k}") for k in ("small", "medium", "large")]
    return [VTSParams(feature="EHPO", capacity_gb=1152, workload="read_recall", drive_model="B",
                      compressibility=text_value("fig6_compressibility"), volume_mb=size, drives=d, recall_queue=q)
            for d in RECALL_DRIVES for size in sizes for q in RECALL_QUEUES]


#: The chapter's two precomputed sweeps (stored by ``make runs``, :mod:`perfstudies.stored_sweeps`): write
#: throughput (the throughput model) and recall mount response (the recall model).
SWEEPS = {"write": Sweep(name=f"{KEY}-write", scope=KEY, model=model, points=write_points,
                         replications=WRITE_REPLICATIONS, seed=SEED, max_workers=2),
          "recall": Sweep(name=f"{KEY}-recall", scope=KEY, model=recall_model, points=recall_points,
                          replications=RECALL_REPLICATIONS, seed=SEED, max_workers=2)}


def write_sweep() -> pd.DataFrame:
    """Mean host MB/s with 95% CI per configuration index, workload and compressibility."""
    runs = SWEEPS["write"].runs()
    summary = summarize(runs[runs["metric"] == "host_mb_s"],
                        by=["capacity_gb", "hdd_gb", "feature", "workload", "compressibility"]).reset_index()
    labels = cache_choices()[["capacity_gb", "hdd_gb", "feature", "index", "label"]]
    return summary.merge(labels, on=["capacity_gb", "hdd_gb", "feature"])


def paf_against_bound(sweep: pd.DataFrame) -> pd.DataFrame:
    """The write sweep's 1728 GB PAF rows beside the bottleneck bound of each point."""
    rows = sweep[(sweep["feature"] == "PAF") & (sweep["capacity_gb"] == 1728)].copy()
    rows["bound"] = [bound(paf(compressibility=cf, workload=w))
                     for cf, w in zip(rows["compressibility"], rows["workload"])]
    rows["workload"] = rows["workload"].str.replace("_", " ")
    return rows[["workload", "compressibility", "mean", "half_width", "bound"]].rename(columns={
        "compressibility": "CF", "mean": "simulated (MB/s)", "half_width": "95% CI ±", "bound": "bound (MB/s)"})


def recall_sweep() -> pd.DataFrame:
    """Mean recall mount response (minutes) with 95% CI per drives, volume size and queue length."""
    runs = SWEEPS["recall"].runs()
    runs = runs.assign(value=runs["value"] / 60.0)
    return summarize(runs, by=["drives", "volume_mb", "recall_queue"]).reset_index()


def flattening_candidates() -> pd.DataFrame:
    """The resources the paper names that could flatten PAF sustained write above CF 3, each tested.

    For each candidate: what it would predict for PAF sustained write at CF 3 and
    CF 4 (host MB/s, closed form), the evidence that tests it, and the verdict.
    Published: 50 MB/s at CF 3, "not sensitive to compression factor" above it.
    """
    sustained = {cf: paf(workload="sustained_write", compressibility=cf) for cf in (1.0, 3.0, 4.0)}
    published_cf1, published_cf3 = text_value("paf_sustained_write_cf1"), text_value("paf_sustained_write_cf3")
    # 1. Work per host block at the processors.  One pool whose demand is alpha + beta / CF,
    #    through 19 MB/s at CF 1 and 50 MB/s at CF 3, predicts at CF 4:
    servers = processors(sustained[3.0])
    beta = (servers / published_cf1 - servers / published_cf3) / (1 - 1 / 3)
    alpha = servers / published_cf1 - beta
    one_pool_cf4 = servers / (alpha + beta / 4)
    #    Table 2's 64 KB peak write (103 MB/s at CF 2.66) leaves the processors this much room per 64 KB block:
    peak_64 = paf(workload="peak_write", compressibility=2.66, block_kb=64)
    room_s_per_mb = processors(peak_64) / _published_table2("peak_write", 64) - stations(peak_64)["processors"].s_per_mb
    per_block_s = room_s_per_mb * peak_64.block_kb / 1024
    blocks_per_mb = 1024 / sustained[3.0].block_kb
    thrice_cap = servers / (3 * blocks_per_mb * per_block_s)
    # 2. The cache arms (full strides): the smallest PAF cache has a quarter of the largest one's arms.
    smallest = {cf: p.replace(capacity_gb=216) for cf, p in sustained.items()}
    # 4. The copy to tape.
    copy = {cf: capacities(p)["tape"] for cf, p in sustained.items()}
    rows = [
        {"candidate": "work per host block (processors)",
         "evidence": (f"one processor pool through {exact(published_cf1)} MB/s at CF 1 and {exact(published_cf3)} at CF 3 "
                      f"gives {number(one_pool_cf4)} at CF 4; Table 2's 64 KB peak write leaves the processors at most "
                      f"{number(1000 * per_block_s)} ms per block, a cap of {number(thrice_cap)} MB/s even if paid three "
                      "times per block in sustained write"),
         "CF 3": published_cf3, "CF 4": one_pool_cf4, "verdict": "rejected: rises with CF (CF 3 by construction)"},
        {"candidate": "full-stride buffering, cache arms",
         "evidence": (f"the 216 GB PAF cache has {smallest[3.0].raid[0] * 7} arms against "
                      f"{sustained[3.0].raid[0] * 7}; the paper finds it about as fast (Sec. 3.5.3)"),
         "CF 3": capacities(smallest[3.0])["cache"], "CF 4": capacities(smallest[4.0])["cache"],
         "verdict": "rejected: scales with arms and CF"},
        {"candidate": "input throttling (Sec. 5)",
         "evidence": "with the PAF, input is not throttled for copying to tape (Sec. 5)",
         "CF 3": float("nan"), "CF 4": float("nan"), "verdict": "rejected by the text"},
        {"candidate": "copy from cache to tape (drives)",
         "evidence": (f"a mount per volume copied ({number(sustained[3.0].mount_s)} s, from Table 1's recall) plus the "
                      f"write at the native rate, on {sustained[3.0].drives} drives; tends to "
                      f"{number(copy_ceiling(sustained[3.0]))} MB/s"),
         "CF 3": copy[3.0], "CF 4": copy[4.0], "verdict": "adopted"},
    ]
    return pd.DataFrame(rows)


#: The base machine's 2+P caches of Fig. 3 and Table 4, by parity groups (12, 24 and 48 disk arms).
BASE_GROUPS = (4, 8, 16)
#: The two write workloads of Fig. 3 and Table 4.
WRITES = ("peak_write", "sustained_write")


def cf1_rate(workload: str, groups: int) -> tuple[float, str]:
    """The paper's host MB/s for the base machine at CF 1 on a 2+P cache of ``groups`` parity groups, and where
    it is printed: Fig. 3's text for the smallest (4 groups) and the largest (16 groups) cache, Table 4's line at
    CF 1 (equation 3; the EHPO lines start from the base rate, Sec. 3.5.3) for the 8 groups between them."""
    if workload not in WRITES:
        raise ValueError(f"workload = {workload!r} is not allowed: allowed one of {list(WRITES)}")
    if groups not in BASE_GROUPS:
        raise ValueError(f"groups = {groups!r} is not allowed: allowed one of {list(BASE_GROUPS)}")
    if groups == 8:
        return equation3(workload, groups, 1.0), "Table 4, m + b"
    end = "smallest" if groups == 4 else "largest"
    return text_value(f"base_{workload}_{end}_cache"), f"Fig. 3 text, {end} cache"


def cache_arm_check() -> pd.DataFrame:
    """Issue 30's cells read against the base machine's resources at CF 1, one row per write workload and cache.

    For each: the published rate and its source, the processors' and the arms'
    capacities, the bound and its bottleneck, exact MVA of the closed network
    with the paper's 16 writers, the arm operations per track the model
    charges, and the operations per track the published rate would mean if
    the arms alone limited it (:func:`.analytic.implied_arm_ops_per_track`).
    """
    rows = []
    for workload in WRITES:
        for groups in BASE_GROUPS:
            p = base(groups, workload=workload)
            published, source = cf1_rate(workload, groups)
            found = capacities(p)
            rows.append({"workload": workload.replace("_", " "), "parity groups": groups, "arms": arms(p),
                         "published": published, "source": source, "processors": found["processors"],
                         "cache arms": found["cache"], "bound": min(found.values()), "bottleneck": bottleneck(p),
                         "MVA, 16 writers": _mva_host_mb_s(p),
                         "arm ops per track": arm_ops_per_track(p),
                         "implied arm ops per track": implied_arm_ops_per_track(p, published)})
    return pd.DataFrame(rows)


def _mva_host_mb_s(p: VTSParams) -> float:
    """Host MB/s of exact MVA with the record's writers (the closed network of Sec. 3.1)."""
    return mva_solution(p).throughput * customer_mb(p)


def extra_op_cost_s(workload: str) -> float:
    """Processor seconds per disk operation that the base machine's write on its largest cache issues beyond
    the PAF's at CF 1, if the processors limit both (the paper's rates, Fig. 3 and Figs. 7-8 text).

    At CF 1 the two differ only in the processors (two against four) and in
    the disk operations per MB (a read-modify-write against full strides), so
    ``(2 / X_base - 4 / X_PAF) / (n_base - n_PAF)``.  Peak write gives the
    calibrated ``cpu_s_per_disk_op`` (it is one of its equations); sustained
    write gives its own value, and the two differ.
    """
    if workload not in WRITES:
        raise ValueError(f"workload = {workload!r} is not allowed: allowed one of {list(WRITES)}")
    on_base, on_paf = base(16, workload=workload), paf(workload=workload, compressibility=1.0)
    rate_paf = text_value(f"paf_{workload}_cf1")
    demand = processors(on_base) / cf1_rate(workload, 16)[0] - processors(on_paf) / rate_paf
    return demand / (processor_terms(on_base)[2] - processor_terms(on_paf)[2])


def series_fit(workload: str) -> float:
    """The 8-group rate if arms and processors did not overlap: ``1/X = c + d/G`` through the paper's 4- and
    16-group rates at CF 1 (two constants fitted to the two cells; host MB/s at ``G = 8``)."""
    small, large = cf1_rate(workload, 4)[0], cf1_rate(workload, 16)[0]
    d = (1 / small - 1 / large) / (1 / 4 - 1 / 16)
    c = 1 / large - d / 16
    return 1 / (c + d / 8)


def stride_read_processors(p: VTSParams) -> float:
    """The processors' capacity (host MB/s) if a copy-out read cost them one request per 2+P stride, not one
    per track: the copy-out's reads per MB divided by the data disks of a stride."""
    check_record("p", p, VTSParams)
    _, data_disks = p.raid
    cf = internal_cf(p)
    reads = 1.0 / TRACK_MB / cf
    a, b, e = processor_terms(p)
    demand = a * p.cpu_s_per_host_mb + b * p.cpu_s_per_mb_pass + (e - reads + reads / data_disks) * p.cpu_s_per_disk_op
    return processors(p) / demand


def cache_arm_candidates() -> pd.DataFrame:
    """The mechanisms that could give issue 30's three cells, each in closed form with the verdict.

    Columns: the 8-group peak write at CF 1 and the base sustained write on
    the smallest and the largest cache (host MB/s).  The first row is the
    paper, the second today's model (its bound; MVA with 16 writers beside it
    in :func:`cache_arm_check`).
    """
    peak8 = base(8, workload="peak_write")
    small, large = base(4, workload="sustained_write"), base(16, workload="sustained_write")
    published = {"8 groups, peak": cf1_rate("peak_write", 8)[0],
                 "4 groups, sustained": cf1_rate("sustained_write", 4)[0],
                 "16 groups, sustained": cf1_rate("sustained_write", 16)[0]}
    # More arm work per track in sustained write, set by the smallest cache's 5.5 MB/s: the arms' capacity
    # then grows with the arms from that rate.
    ops = implied_arm_ops_per_track(small, published["4 groups, sustained"])
    more_ops_large = min(capacities(large)["processors"], published["4 groups, sustained"] * arms(large) / arms(small))
    strided = {name: min(stride_read_processors(p), capacities(p)["cache"]) for name, p in
               (("4 groups, sustained", small), ("16 groups, sustained", large))}
    rows = [
        {"candidate": "the paper", **published, "verdict": ""},
        {"candidate": "today's model (bound)", "8 groups, peak": bound(peak8), "4 groups, sustained": bound(small),
         "16 groups, sustained": bound(large), "verdict": "processors limit all three"},
        {"candidate": "finite population (exact MVA, 16 writers, Sec. 3.1)",
         "8 groups, peak": _mva_host_mb_s(peak8), "4 groups, sustained": _mva_host_mb_s(small),
         "16 groups, sustained": _mva_host_mb_s(large),
         "verdict": "rejected: 16 writers keep the processors saturated"},
        {"candidate": f"copy-out costs the arms more ({number(ops)} operations per track, set by 5.5 MB/s)",
         "8 groups, peak": bound(peak8), "4 groups, sustained": published["4 groups, sustained"],
         "16 groups, sustained": more_ops_large,
         "verdict": "rejected: no count stated; the largest cache stays processor-bound"},
        {"candidate": "copy-out reads whole 2+P strides (one processor request per stride)",
         "8 groups, peak": bound(peak8), **strided,
         "verdict": "rejected: not stated; the smallest cache stays arm-bound"},
        {"candidate": "arms and processors in series, 1/X = c + d/G through the 4- and 16-group cells",
         "8 groups, peak": series_fit("peak_write"), "4 groups, sustained": published["4 groups, sustained"],
         "16 groups, sustained": published["16 groups, sustained"],
         "verdict": "not adopted: two constants fitted to the cells; Sec. 3 calls the work overlapped"},
    ]
    return pd.DataFrame(rows)


def _published_table2(operation: str, block_kb: int) -> float:
    """Table 2's host MB/s for an operation and block size."""
    table = data.load(KEY, "table2_block_size")
    row = table[(table["operation"] == operation) & (table["block_kb"] == block_kb)]
    return float(row["host_mb_s"].iloc[0])


#: Replications of each configuration of the theory-beside-simulation table.
THEORY_REPLICATIONS = 5


def theory_configurations() -> dict[str, tuple[VTSParams, float]]:
    """Configurations of the theory-beside-simulation table, each with its published value."""
    sixty = statement("paf_sustained_write_cf4").value
    return {
        "PAF sustained, CF 1": (paf(workload="sustained_write", compressibility=1.0),
                                text_value("paf_sustained_write_cf1")),
        "PAF sustained, CF 3": (paf(workload="sustained_write", compressibility=3.0),
                                text_value("paf_sustained_write_cf3")),
        "PAF sustained, CF 4": (paf(workload="sustained_write", compressibility=4.0), sixty),
        "PAF peak write, CF 2.66": (paf(workload="peak_write", compressibility=2.66),
                                    _published_table2("peak_write", 32)),
        "EHPO sustained, CF 3, 16(2+P)": (ehpo(16, workload="sustained_write", compressibility=3.0),
                                          text_value("ehpo_sustained_write_cf3_largest_cache")),
        "base sustained, 4(2+P)": (base(4, workload="sustained_write"),
                                   text_value("base_sustained_write_smallest_cache")),
    }


def theory_beside_simulation() -> pd.DataFrame:
    """Host MB/s: the bottleneck bound, exact MVA of the same closed network, the simulation, the paper
    (columns named for the reader; "simulated over MVA" and "next resource above the bound" are fractions)."""
    rows = []
    for name, (params, published) in theory_configurations().items():
        solution = mva_solution(params)
        runs = replicate(model, params, THEORY_REPLICATIONS, SEED, progress=False)
        simulated, half = runs.mean("host_mb_s"), runs.half_width("host_mb_s")
        by_mva = solution.throughput * customer_mb(params)
        runner_up = sorted(capacities(params).values())[1]
        rows.append({"configuration": name, "virtual drives": params.streams, "bottleneck": bottleneck(params),
                     "next resource above the bound": runner_up / bound(params) - 1,
                     "bound (MB/s)": bound(params), "exact MVA (MB/s)": by_mva, "simulated (MB/s)": simulated,
                     "95% CI ±": half, "simulated over MVA": simulated / by_mva - 1, "published (MB/s)": published})
    return pd.DataFrame(rows)


#: The scoreboard's counts the chapter lists, in its order, with the reader's name of each.
SCOREBOARD_COUNTS = {"cells": "all cells", "calibration": "calibration cells", "derived": "derived cells",
                     "prediction": "predictions", "within_10pct": "predictions within 10%",
                     "hits": "hits (within tolerance)", "misses": "misses (outside tolerance)",
                     "undecided": "undecided (interval too wide)", "bounds_held": "stated ranges held",
                     "beats_baseline": "predictions that beat the baseline",
                     "weak_evidence": "predictions that are weak evidence"}


def scoreboard_counts(table: pd.DataFrame) -> pd.DataFrame:
    """This study's row of the scoreboard (:func:`perfstudies.compare.scoreboard`) as one count per line."""
    board = scoreboard(table).set_index("study").loc[[KEY], list(SCOREBOARD_COUNTS)].reset_index()
    counts = long_format(board, keep=["study"], variable="compared cells", value="count", names=SCOREBOARD_COUNTS)
    return counts.drop(columns="study")


def worst_predictions(table: pd.DataFrame, count: int = 8) -> pd.DataFrame:
    """The ``count`` predictions furthest from the paper in multiples of their tolerance
    (:func:`perfstudies.compare.worst_cells`), each named as the paper names it."""
    worst = worst_cells(table, count=count)
    return pd.DataFrame({"cell": cell_names(worst), "published": worst["published"], "model": worst["model"],
                         "error": worst["rel_error"], "tolerances off": worst["tolerances_off"]})
