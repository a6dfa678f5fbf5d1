"""Every number the VTS chapter's prose and solutions quote, by name (:mod:`perfstudies.facts`).

The chapter glues them with one call, ``glue_facts(KEY, facts())``, and quotes
each as ``{glue:text}`vts-<name>:<format>```.  Each is read off the library's
own tables, bounds and runs at the point the text names: the calibrated
constants, the closed forms, the stored sweeps, the memoized theory table the chapter
shows (the same memo entries), the example run and the comparison table.
Shares and errors are fractions (the text formats them as percentages).
"""

import pandas as pd

from perfstudies.accuracy import study_comparison
from perfstudies.cache import memoized
from perfstudies.compare import scoreboard
from perfstudies.facts import Fact
from perfstudies.models.vts import explore
from perfstudies.models.vts.analytic import (
    bound, capacities, copy_ceiling, import_export_minutes, processor_terms, processors, recall_service_s,
    sustained_crossover_cf,
)
from perfstudies.models.vts.calibration import calibrate, published_rate
from perfstudies.models.vts.comparison import BEST_CASE, FLAT, TABLE4, recall_bounds, statements
from perfstudies.models.vts.params import KEY, SEED, VTSParams, base, paf, statement, text_value
from perfstudies.tables import number, percent

#: The workloads of the typical-mix exercise and their shares of host megabytes (the live panel's mix).
MIX = {"sustained_write": 0.6, "read_hit": 0.2, "read_recall": 0.2}
#: The reader's words for each resource.
RESOURCE_WORDS = {"channels": "channels", "processors": "processors", "cache": "cache arms", "tape": "tape drives"}
#: Full-stride PAF writes: 16 tracks per MB, 7 disk operations for 6 tracks (the peak-crossover exercise).
STRIPE_OPS_PER_MB = 16 * 7 / 6
#: The recall exercises: recalls queued ahead of an 800 MB volume, and a job of 250 MB volumes.
QUEUED, BATCH = 16, 20


def facts() -> dict[str, Fact]:
    """Every number the chapter quotes, section by section."""
    return {**model_facts(), **theory_facts(), **mva_facts(), **example_facts(), **comparison_facts(),
            **misses_facts(), **cache_arm_facts(), **exercise_facts()}


def theory_table() -> pd.DataFrame:
    """The chapter's bound, MVA, simulation and paper table (the memo entry the chapter shows)."""
    return memoized("vts-theory-beside-simulation", explore.theory_beside_simulation, seed=SEED)


def example_run() -> pd.DataFrame:
    """The chapter's example run (the memo entry both the example's facts and the utilisation law read)."""
    return memoized("vts-example-run", explore.example_run, seed=SEED)


def model_facts() -> dict[str, Fact]:
    """Replication counts, the customer's size, and the calibrated constants the sanity check quotes."""
    defaults, calibrated = VTSParams(), calibrate()
    per_mount_s = import_export_minutes("export", 0, 1) * 60
    return {
        "theory-reps": Fact(explore.THEORY_REPLICATIONS, "replications", "per configuration of the MVA table"),
        "example-reps": Fact(explore.EXAMPLE_REPLICATIONS, "replications", "of the example run"),
        "write-reps": Fact(explore.WRITE_REPLICATIONS, "replications", "per point of the write sweep"),
        "widget-reps": Fact(explore.WIDGET_REPLICATIONS, "replications", "per change of the live panel"),
        "chunk-mb": Fact(defaults.chunk_mb, "MB", "host MB one simulated customer carries"),
        "volume-mb": Fact(defaults.volume_mb, "MB", "a logical volume"),
        "chunk-share": Fact(defaults.chunk_mb / defaults.volume_mb, "", "a chunk's share of its volume's mount"),
        "disk-op-ms": Fact(calibrated.disk_op_s * 1000, "ms", "one cache disk operation (calibrated t)"),
        "disk-fixed-ms": Fact(calibrated.disk_fixed_s * 1000, "ms", "its fixed part (calibrated t0)"),
        "mount-s": Fact(calibrated.mount_s, "s", "a drive's time per volume beyond search and transfer (M)"),
        "search-s": Fact(text_value("search_time"), "s", "the paper's search time"),
        "export-mount-s": Fact(per_mount_s, "s", "equation 1's time per cartridge mount of an export"),
        "mount-share-of-export": Fact(calibrated.mount_s / per_mount_s, "", "M over equation 1's mount"),
    }


def theory_facts() -> dict[str, Fact]:
    """The flattening of PAF sustained write, the bounds of the headline table and equations 1-2."""
    candidates = explore.flattening_candidates().set_index("candidate")
    one_pool = candidates.loc["work per host block (processors)"]
    smallest_paf, largest_paf = paf(capacity_gb=216), paf()
    sustained = paf(workload="sustained_write", compressibility=3.0)
    bounds = explore.headline_bounds()["bound"]
    return {
        "paf-sus-cf1": Fact(text_value("paf_sustained_write_cf1"), "MB/s", "Fig. 7: PAF sustained write at CF 1"),
        "paf-sus-cf3": Fact(text_value("paf_sustained_write_cf3"), "MB/s", "Fig. 7: PAF sustained write at CF 3"),
        "paf-peak-cf2": Fact(text_value("paf_peak_write_cf2"), "MB/s", "Fig. 8: PAF peak write from CF 2 up"),
        "table2-peak-64": Fact(published_rate("table2_block_size", operation="peak_write", block_kb=64), "MB/s",
                               "Table 2: PAF peak write, 64 KB blocks"),
        "one-pool-rise": Fact(one_pool["CF 4"] / one_pool["CF 3"] - 1, "", "one processor pool's rise, CF 3 to 4"),
        "smallest-paf-arms": Fact(smallest_paf.raid[0] * (smallest_paf.raid[1] + 1), "arms", "smallest PAF cache"),
        "largest-paf-arms": Fact(largest_paf.raid[0] * (largest_paf.raid[1] + 1), "arms", "largest PAF cache"),
        "drives": Fact(largest_paf.drives, "drives", "the fully configured machine's drives"),
        "crossover-cf": Fact(sustained_crossover_cf(sustained), "", "CF where the copy-out drives take over"),
        "copy-ceiling-mb": Fact(copy_ceiling(sustained), "MB/s", "the drives' capacity as CF grows"),
        "bound-cf3": Fact(bounds["PAF, CF 3, sustained"], "MB/s", "PAF sustained write bound at CF 3"),
        "bound-cf4": Fact(bounds["PAF, CF 4, sustained"], "MB/s", "PAF sustained write bound at CF 4"),
        "peak-limit": Fact(bounds["PAF, CF 2.66, peak write"], "MB/s", "PAF peak write bound (the channels)"),
        "export-mount-min": Fact(import_export_minutes("export", 0, 1), "min", "an export's time per mount"),
        "import-mount-min": Fact(import_export_minutes("import", 0, 1), "min", "an import's time per mount"),
        "export-gb-min": Fact(import_export_minutes("export", 1024, 0), "min", "an export's time per GB"),
        "export-elongation": Fact(text_value("export_elongation_peak_write"), "%", "export under peak write"),
        "import-elongation": Fact(text_value("import_elongation_peak_write"), "%", "import under peak write"),
    }


def mva_facts() -> dict[str, Fact]:
    """Where the simulation departs most from exact MVA, and how the paper's value stands beside them."""
    rows = theory_table().set_index("configuration")
    gaps = rows["simulated over MVA"]
    balanced = gaps.abs().idxmax()
    worst = rows.loc[balanced]
    below = worst["published (MB/s)"] < min(worst["exact MVA (MB/s)"], worst["simulated (MB/s)"])
    return {
        "mva-gap-elsewhere": Fact(gaps.drop(balanced).abs().max(), "", "largest gap to MVA elsewhere"),
        "mva-balanced": Fact(balanced, "", "the configuration furthest from MVA"),
        "mva-balanced-streams": Fact(int(worst["virtual drives"]), "streams", "its population"),
        "mva-balanced-next": Fact(worst["next resource above the bound"], "", "its runner-up above the bottleneck"),
        "mva-balanced-gap": Fact(gaps[balanced], "", "its simulation over MVA, minus 1"),
        "mva-where-published": Fact("below both, so this gap is not what the model misses there" if below
                                    else "beside them", "", "where the paper's value lies"),
    }


def example_facts() -> dict[str, Fact]:
    """The example run's utilisations (:func:`example_run`)."""
    busy = example_run()["mean"]
    return {f"example-{name}-util": Fact(busy[f"utilisation of {name}"], "", f"utilisation of {name}")
            for name in ("tape", "processors", "channels", "cache")}


def comparison_cell(table: pd.DataFrame, name: str, row: str, column: str) -> pd.Series:
    """The one row of the comparison ``table`` for the cell named (table, row, column)."""
    return table.set_index(["table", "row", "column"]).loc[(name, row, column)]


def comparison_facts() -> dict[str, Fact]:
    """The counts of the scoreboard and the cells the comparison section quotes."""
    table = study_comparison(KEY)
    board = scoreboard(table).set_index("study").loc[KEY]
    counts = {"n-prediction": "prediction", "n-hits": "hits", "n-misses": "misses", "n-bounds-held": "bounds_held",
              "n-bounds": "bounds", "n-undecided": "undecided", "n-beats": "beats_baseline",
              "n-weak": "weak_evidence"}
    weak = table[(table["role"] == "prediction") & table["weak_evidence"].fillna(False).astype(bool)]
    low, high = recall_bounds()
    best = statements(table).set_index("column")

    def baseline(*where: str) -> float:
        return comparison_cell(table, *where)["baseline"]

    return {
        **{name: Fact(int(board[column]), "cells", f"the scoreboard's {column}") for name, column in counts.items()},
        "weak-cells": Fact("; ".join(weak["table"] + ", " + weak["row"] + " (" + weak["column"] + ")"), "",
                           "the predictions whose baseline already passes"),
        "best-low-s": Fact(low, "s", "the paper's best-case recall, low end"),
        "best-high-s": Fact(high, "s", "the paper's best-case recall, high end"),
        "recall-baseline-cf1": Fact(baseline(BEST_CASE, "best-case recall mount response", "800 MB, CF 1"), "s",
                                    "the best-case recall's baseline at CF 1"),
        "recall-baseline-cf3": Fact(baseline(BEST_CASE, "best-case recall mount response", "800 MB, CF 3"), "s",
                                    "the best-case recall's baseline at CF 3"),
        "sixty": Fact(statement("peak_over_sustained").value, "", "peak over sustained write, Sec. 3.5.4"),
        "sixty-tolerance": Fact(0.1 * statement("peak_over_sustained").value, "", "its tolerance"),
        "base-peak-small": Fact(text_value("base_peak_write_smallest_cache"), "MB/s", "base peak write, small cache"),
        "drive-share": Fact(baseline("Sec. 7 (text)", "recall rate with import/export running", "relative to without"),
                            "", "the recall drives a task leaves"),
        "cf4-baseline": Fact(baseline(FLAT, "PAF sustained write", "CF 4"), "", "flat-above-CF-3 baseline"),
        "paf-cf3-baseline": Fact(baseline("Fig. 7 (text)", "PAF sustained write", "CF 3"), "MB/s",
                                 "PAF sustained write at CF 3, baseline"),
        "ehpo-cf3-baseline": Fact(baseline("Fig. 7 (text)", "EHPO sustained write", "CF 3, largest cache"), "MB/s",
                                  "EHPO sustained write at CF 3, baseline"),
        "recall-cf1-baseline": Fact(baseline("Table 1", "read recall", "CF 1"), "MB/s", "read recall at CF 1, baseline"),
        "recall-800-cf3-min": Fact(best.loc["800 MB, CF 3", "model"] / 60, "min", "a lone 800 MB recall at CF 3"),
        "recall-800-cf1-min": Fact(best.loc["800 MB, CF 1", "model"] / 60, "min", "a lone 800 MB recall at CF 1"),
        **recall_part_facts(),
    }


def recall_part_facts() -> dict[str, Fact]:
    """What a lone recall's drive time is made of, at CF 3 and CF 1."""
    search_s = text_value("search_time")
    reading = {cf: recall_service_s(p) - p.mount_s - search_s
               for cf, p in ((3, paf(workload="read_recall", compressibility=3.0)),
                             (1, paf(workload="read_recall", compressibility=1.0)))}
    return {
        "recall-read-cf3-s": Fact(reading[3], "s", "reading an 800 MB volume at CF 3"),
        "recall-read-cf1-s": Fact(reading[1], "s", "reading an 800 MB volume at CF 1"),
        "drive-e-over-b": Fact(text_value("drive_e_over_b_rate"), "", "3590E over 3590B data rate"),
    }


def misses_facts() -> dict[str, Fact]:
    """The cells the Remarks discuss: model, published, error and baseline as the text quotes them."""
    table = study_comparison(KEY)

    def cell(*where: str) -> pd.Series:
        return comparison_cell(table, *where)

    paf3 = cell("Fig. 7 (text)", "PAF sustained write", "CF 3")
    intercept = cell(TABLE4, "peak write b", "576/144 GB")
    peak_cf1 = cell(TABLE4, "peak write line m CF + b at CF 1", "576/144 GB")
    sustained_cf1 = cell(TABLE4, "sustained write line m CF + b at CF 1", "576/144 GB")
    slope4 = cell(TABLE4, "sustained write m", "288/72 GB")
    small, large = (cell("Fig. 3 (text)", "base sustained write", c) for c in ("smallest cache", "largest cache"))
    hit = cell("Table 1", "read hit", "CF 1")
    recall = cell("Sec. 7 (text)", "recall rate with import/export running", "relative to without")
    imported = cell("Sec. 7 (text)", "import time increase under peak write", "6 mounts, 2.3 GB")
    return {
        "paf-cf3-model": Fact(paf3["model"], "MB/s", "PAF sustained write at CF 3, model"),
        "paf-cf3-error": Fact(paf3["rel_error"], "", "its relative error"),
        "flat-ratio": Fact(cell(FLAT, "PAF sustained write, CF 4 over CF 3", "1728 GB")["model"], "",
                           "the model's PAF sustained write, CF 4 over CF 3"),
        "intercept": Fact(intercept["published"], "MB/s", "Table 4: the 8-group peak line's intercept"),
        "intercept-model": Fact(intercept["model"], "MB/s", "the model's 8-group peak line's intercept"),
        "sustained-b8": Fact(cell(TABLE4, "sustained write b", "576/144 GB")["published"], "MB/s",
                             "Table 4: the 8-group sustained line's intercept"),
        "sustained-b16": Fact(cell(TABLE4, "sustained write b", "1152/288 GB")["published"], "MB/s",
                              "Table 4: the 16-group sustained line's intercept"),
        "peak-cf1-model": Fact(peak_cf1["model"], "MB/s", "the 8-group peak line at CF 1, model"),
        "peak-cf1-published": Fact(peak_cf1["published"], "MB/s", "the 8-group peak line at CF 1, paper"),
        "peak-cf1-error": Fact(peak_cf1["rel_error"], "", "its relative error"),
        "sustained-cf1-model": Fact(sustained_cf1["model"], "MB/s", "the 8-group sustained line at CF 1, model"),
        "sustained-cf1-published": Fact(sustained_cf1["published"], "MB/s", "the same, paper"),
        "sustained-cf1-error": Fact(sustained_cf1["rel_error"], "", "its relative error"),
        "slope4-published": Fact(slope4["published"], "MB/s", "Table 4: the 4-group sustained slope"),
        "slope4-model": Fact(slope4["model"], "MB/s", "the model's 4-group sustained slope"),
        "base-sustained-small": Fact(small["published"], "MB/s", "Fig. 3: base sustained write, smallest cache"),
        "base-sustained-large": Fact(large["published"], "MB/s", "Fig. 3: base sustained write, largest cache"),
        "base-sustained-model": Fact((small["model"] + large["model"]) / 2, "MB/s", "the model's mean of the two"),
        "base-sustained-small-model": Fact(small["model"], "MB/s", "the model's base sustained write, smallest cache"),
        "base-sustained-small-error": Fact(small["rel_error"], "", "smallest cache, relative error"),
        "base-sustained-large-error": Fact(large["rel_error"], "", "largest cache, relative error"),
        "base-sustained-small-baseline": Fact(small["baseline"], "MB/s", "the 60% rule, smallest cache"),
        "base-sustained-large-baseline": Fact(large["baseline"], "MB/s", "the 60% rule, largest cache"),
        "read-hit-cf1-error": Fact(hit["rel_error"], "", "read hit at CF 1, relative error"),
        "recall-share-model": Fact(recall["model"], "", "recall rate with a task running, relative, model"),
        "recall-share-error": Fact(recall["rel_error"], "", "its relative error"),
        "import-increase-model": Fact(imported["model"], "%", "import time increase under peak write, model"),
        "import-increase-published": Fact(imported["published"], "%", "the same, paper"),
    }


def cache_arm_facts() -> dict[str, Fact]:
    """Issue 30's checks: what the published base rates would mean for the arms, the candidates' numbers, and
    the bound Table 1 puts on the library accessor's time per mount."""
    check = explore.cache_arm_check().set_index(["workload", "parity groups"])
    candidates = explore.cache_arm_candidates().set_index("candidate")
    mva_row = next(name for name in candidates.index if name.startswith("finite population"))
    stride_row = next(name for name in candidates.index if name.startswith("copy-out reads whole"))
    recall_volumes_s = text_value("measured_volume_size") / published_rate("table1_read_rates", operation="read_recall",
                                                                             cf=2.66)
    export_mount_s = import_export_minutes("export", 0, 1) * 60
    # The base machine's peak-write processors if an extra disk operation cost what sustained write says:
    # a + b from the PAF peak at CF 1, then the base machine's operations at that price.
    sustained_e = explore.extra_op_cost_s("sustained_write")
    paf_peak, base_peak = paf(workload="peak_write", compressibility=1.0), base(16, workload="peak_write")
    rest = processors(paf_peak) / text_value("paf_peak_write_cf1") - processor_terms(paf_peak)[2] * sustained_e
    return {
        "op-cost-peak-ms": Fact(explore.extra_op_cost_s("peak_write") * 1000, "ms",
                                "processor time per extra disk operation, base over PAF peak write at CF 1"),
        "op-cost-sustained-ms": Fact(sustained_e * 1000, "ms", "the same from sustained write"),
        "base-sustained-processors": Fact(check.loc[("sustained write", 16), "processors"], "MB/s",
                                          "the base machine's processors in sustained write (any cache)"),
        "base-peak-processors-at-sustained-cost": Fact(
            processors(base_peak) / (rest + processor_terms(base_peak)[2] * sustained_e), "MB/s",
            "the base machine's peak-write processors if an extra operation cost what sustained write says"),
        "implied-ops-peak8": Fact(check.loc[("peak write", 8), "implied arm ops per track"], "",
                                  "arm operations per track the 8-group peak (9.01 MB/s) needs if the arms limit"),
        "implied-ops-sus4": Fact(check.loc[("sustained write", 4), "implied arm ops per track"], "",
                                 "the same for the smallest cache's sustained 5.5 MB/s"),
        "implied-ops-sus16": Fact(check.loc[("sustained write", 16), "implied arm ops per track"], "",
                                  "the same for the largest cache's sustained 7 MB/s"),
        "series-peak8": Fact(explore.series_fit("peak_write"), "MB/s", "8-group peak, arms and processors in series"),
        "series-sus8": Fact(explore.series_fit("sustained_write"), "MB/s",
                            "8-group sustained, arms and processors in series"),
        "published-sus8": Fact(check.loc[("sustained write", 8), "published"], "MB/s",
                               "Table 4's 8-group sustained line at CF 1"),
        "mva-peak8": Fact(candidates.loc[mva_row, "8 groups, peak"], "MB/s", "8-group peak, exact MVA, 16 writers"),
        "mva-sus4": Fact(candidates.loc[mva_row, "4 groups, sustained"], "MB/s",
                         "smallest-cache sustained write, exact MVA, 16 writers"),
        "stride-sus16": Fact(candidates.loc[stride_row, "16 groups, sustained"], "MB/s",
                             "largest-cache sustained write if copy-out read whole strides"),
        "stride-sus4": Fact(candidates.loc[stride_row, "4 groups, sustained"], "MB/s",
                            "smallest-cache sustained write if copy-out read whole strides"),
        "accessor-max-s": Fact(recall_volumes_s, "s", "most accessor time per mount Table 1's recall rate allows"),
        "accessor-task-share": Fact(recall_volumes_s / export_mount_s, "",
                                    "most share of the accessor an export's mounts can take"),
    }


def utilisation_table(host: float, busy: pd.Series, capacity: dict[str, float]) -> pd.DataFrame:
    """The utilisation law beside the simulated utilisations, as the reader's text (one row per resource)."""
    return pd.DataFrame({"capacity c/D (MB/s)": [number(value) for value in capacity.values()],
                         "utilisation law X/(c/D)": [percent(host / value) for value in capacity.values()],
                         "simulated utilisation": [percent(busy[f"utilisation of {name}"]) for name in capacity]},
                        index=pd.Index(list(capacity), name="resource"))


def exercise_facts() -> dict[str, Fact]:
    """The numbers the exercises' solutions quote."""
    return {**_peak_crossover_facts(), **_cache_exercise_facts(), **_recall_exercise_facts(),
            **_utilisation_facts(), **_mix_facts(), **_drive_facts()}


def _peak_crossover_facts() -> dict[str, Fact]:
    """Where PAF peak write stops being limited by the processors: processors = channels."""
    peak = paf(workload="peak_write")
    channels = capacities(peak)["channels"]
    crossover = ((peak.cpu_s_per_mb_pass + STRIPE_OPS_PER_MB * peak.cpu_s_per_disk_op)
                 / (4 / channels - peak.cpu_s_per_host_mb))
    return {"ex-peak-crossover": Fact(crossover, "", "the CF where the channels take over PAF peak write"),
            "ex-channels": Fact(channels, "MB/s", "the eight channels' capacity"),
            "ex-stripe-ops": Fact(STRIPE_OPS_PER_MB, "operations", "disk operations per MB, full-stride write")}


def _cache_exercise_facts() -> dict[str, Fact]:
    """EHPO peak write at CF 3 on 4, 8 and 16 groups of 36 GB disks (the write slider's positions)."""
    positions = explore.cache_choices().set_index(["feature", "hdd_gb", "parity_groups"])["index"]
    writes = explore.write_sweep()
    at_cf3 = writes[(writes["workload"] == "peak_write") & (writes["compressibility"] == 3.0)].set_index("index")
    peaks, limits = {}, {}
    for groups, capacity_gb in ((4, 288), (8, 576), (16, 1152)):
        peaks[groups] = at_cf3.loc[int(positions.loc[("EHPO", 36, groups)]), "mean"]
        limits[groups] = capacities(VTSParams(feature="EHPO", capacity_gb=capacity_gb, workload="peak_write",
                                              compressibility=3.0))
    return {
        **{f"ex-position-{g}": Fact(int(positions.loc[("EHPO", 36, g)]), "", f"the slider position of {g} groups")
           for g in (4, 8, 16)},
        **{f"ex-peak-{g}": Fact(peaks[g], "MB/s", f"simulated peak write at CF 3, {g} groups") for g in (4, 8, 16)},
        **{f"ex-cache-{g}": Fact(limits[g]["cache"], "MB/s", f"the arms' capacity, {g} groups") for g in (4, 8)},
        "ex-arms-4": Fact(4 * 3, "arms", "4 groups of 2+P"),
        "ex-cpu-ehpo": Fact(limits[16]["processors"], "MB/s", "the two processors' capacity"),
    }


def _recall_exercise_facts() -> dict[str, Fact]:
    """Recalls queued ahead of an 800 MB volume on 4 and 6 drives, and a job of 250 MB volumes."""
    recalls = explore.recall_sweep()
    queued = recalls[(recalls["volume_mb"] == 800) & (recalls["recall_queue"] == QUEUED)].set_index("drives")
    fig6 = VTSParams(feature="EHPO", capacity_gb=1152, workload="read_recall", volume_mb=800.0, recall_queue=QUEUED)
    recall_min = recall_service_s(fig6) / 60
    rounds = {drives: QUEUED // drives + 1 for drives in (4, 6)}
    found = {"ex-recall-s": Fact(recall_min, "min", "one recall of 800 MB at CF 3")}
    for drives in (4, 6):
        found |= {f"ex-recall-{drives}": Fact(queued.loc[drives, "mean"], "min", f"simulated, {drives} drives"),
                  f"ex-recall-rounds-{drives}": Fact(rounds[drives], "rounds", f"recall times, {drives} drives"),
                  f"ex-recall-closed-{drives}": Fact(rounds[drives] * recall_min, "min", f"closed form, {drives} drives")}
    found["ex-recall-saved-rounds"] = Fact(rounds[4] - rounds[6], "rounds", "what two more drives save")
    found["ex-recall-saved"] = Fact(1 - rounds[6] / rounds[4], "", "the same, as a share of the response")
    batch = recall_service_s(VTSParams(volume_mb=250.0)) / 60
    ahead = BATCH - 1
    found |= {"ex-s250": Fact(batch, "min", "one recall of 250 MB at CF 3"),
              "ex-s250-four": Fact((ahead // 4 + 1) * batch, "min", "the last of 20 on four drives"),
              "ex-s250-six": Fact((ahead // 6 + 1) * batch, "min", "the last of 20 on six drives"),
              "ex-s250-saved": Fact(1 - (ahead // 6 + 1) / (ahead // 4 + 1), "", "what six drives save")}
    return found


def _utilisation_facts() -> dict[str, Fact]:
    """The utilisation law on the example run."""
    busy = example_run()["mean"]
    host = busy["host MB/s"]
    capacity = capacities(paf(workload="sustained_write", compressibility=3.0))
    return {"ex-host": Fact(host, "MB/s", "the example run's throughput"),
            "ex-utilisation-table": Fact(utilisation_table(host, busy, capacity), "",
                                         "the utilisation law beside the simulated utilisations")}


def _mix_facts() -> dict[str, Fact]:
    """The typical mix on the default machine: demands add, throughputs do not."""
    defaults = VTSParams()
    alone = {workload: capacities(defaults.replace(workload=workload)) for workload in MIX}
    mixed = {name: 1 / sum(share / alone[w][name] for w, share in MIX.items() if name in alone[w])
             for name in RESOURCE_WORDS}
    return {
        "ex-mix": Fact(min(mixed.values()), "MB/s", "the mix's bound"),
        "ex-mix-bottleneck": Fact(RESOURCE_WORDS[min(mixed, key=mixed.get)], "", "what limits the mix"),
        "ex-mix-arithmetic": Fact(sum(share * min(alone[w].values()) for w, share in MIX.items()), "MB/s",
                                  "the weighted mean of the bounds alone"),
        "ex-mix-harmonic": Fact(1 / sum(share / min(alone[w].values()) for w, share in MIX.items()), "MB/s",
                                "the harmonic mean of the bounds alone"),
        **{f"ex-alone-{w.replace('_', '-')}": Fact(min(alone[w].values()), "MB/s", f"{w} alone") for w in MIX},
    }


def _drive_facts() -> dict[str, Fact]:
    """3590E against 3590B drives, and the volumes a cartridge holds at CF 3."""
    drives_b, drives_e = paf(), paf(drive_model="E")
    cartridge_gb = text_value("drive_e_cartridge")
    volume_mb = VTSParams().volume_mb
    return {
        "ex-ceiling": Fact(copy_ceiling(drives_b), "MB/s", "the copy-out drives' ceiling, six drives"),
        "ex-cross-b": Fact(sustained_crossover_cf(drives_b), "", "the crossing CF, 3590B"),
        "ex-cross-e": Fact(sustained_crossover_cf(drives_e), "", "the crossing CF, 3590E"),
        "ex-cf4-b": Fact(bound(drives_b.replace(compressibility=4.0)), "MB/s", "the bound at CF 4, 3590B"),
        "ex-cf4-e": Fact(bound(drives_e.replace(compressibility=4.0)), "MB/s", "the bound at CF 4, 3590E"),
        "ex-cartridge-e": Fact(cartridge_gb, "GB", "a 3590E cartridge"),
        "ex-volumes-e": Fact(cartridge_gb * 1024 / (volume_mb / 3.0), "volumes", "800 MB volumes at CF 3 it holds"),
        "ex-volumes-b": Fact(cartridge_gb * 1024 / 2 / (volume_mb / 3.0), "volumes", "the same, 3590B"),
    }
