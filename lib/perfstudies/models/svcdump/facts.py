"""Every number the SVC dump chapter's prose and solutions quote, by name (:mod:`perfstudies.facts`).

The chapter glues them with one call, ``glue_facts(KEY, facts())``, and quotes
each as ``{glue:text}`svcdump-<name>:<format>```; nothing here is a new
calculation, only the library's tables and bounds read at the points the
text names.  Ratios are plain fractions (the text formats them as percentages
where it says so); times are seconds of the bottleneck bound unless a name
says "simulated".
"""

import math

import pandas as pd

from perfstudies.accuracy import study_comparison
from perfstudies.compare import scoreboard
from perfstudies.facts import Fact
from perfstudies.models.svcdump import figures
from perfstudies.models.svcdump.analytic import bottleneck, bound_elapsed_s, knee_stripes
from perfstudies.models.svcdump.calibration import calibrated_params
from perfstudies.models.svcdump.comparison import channel_path_sensitivity, paged_fraction_margin
from perfstudies.models.svcdump.explore import WIDGET_REPLICATIONS, escon_slice, stripe_sweep, widget_params
from perfstudies.models.svcdump.params import BLOCK_BYTES, KEY

#: Stripes the path-count exercise asks to keep gaining up to.
EXERCISE_STRIPES = 6
#: What the free-compression exercise changes: compression that costs no processor time.
FREE_COMPRESSION = dict(compression=True, compression_cpu_factor=0.0)


def facts() -> dict[str, Fact]:
    """Every number the chapter quotes: setup, theory, simulation, comparison, panel and exercises."""
    return {**setup_facts(), **theory_facts(), **simulation_facts(), **comparison_facts(), **panel_facts(),
            **exercise_facts()}


def setup_facts() -> dict[str, Fact]:
    """The documented dump and the model's chunk."""
    defaults = calibrated_params()
    return {
        "dump-gb": Fact(defaults.dump_blocks * BLOCK_BYTES / 1e9, "GB", "the documented dump's size"),
        "dump-blocks": Fact(defaults.dump_blocks, "4 KiB blocks", "the documented dump's size"),
        "chunk-blocks": Fact(defaults.chunk_blocks, "4 KiB blocks", "one simulated chunk in the sweeps and comparison"),
    }


def theory_facts() -> dict[str, Fact]:
    """One I/O on each device (:func:`.figures.io_time_table`), each resource's time
    (:func:`.figures.resource_time_table`)."""
    io = figures.io_time_table().set_index(["device", "channel"])
    per_path = io["stripes one path carries"]
    knees = figures.resource_time_table().set_index(["device", "channel"])
    return {
        "turnaround-ms": Fact(calibrated_params().io_turnaround_ms, "ms", "the calibrated turnaround per I/O"),
        "positioning-ms": Fact(io.loc[("3390-3", "ESCON"), "positioning (ms)"], "ms", "half a 3390-3 revolution"),
        "transfer-ms": Fact(io.loc[("3390-3", "ESCON"), "transfer (ms)"], "ms", "one track at the 3390 media rate"),
        "io-3390-ms": Fact(io.loc[("3390-3", "ESCON"), "one I/O (ms)"], "ms", "one dump I/O on a 3390-3 over ESCON"),
        "io-ess-ms": Fact(io.loc[("ESS", "ESCON"), "one I/O (ms)"], "ms", "one dump I/O on an ESS over ESCON"),
        "escon-per-path": Fact(per_path.xs("ESCON", level="channel").max(), "stripes",
                               "most stripes one ESCON path carries, either device"),
        "ficon-per-path": Fact(per_path.xs("FICON", level="channel").min(), "stripes",
                               "fewest stripes one FICON path carries, either device"),
        "per-path-3390": Fact(per_path[("3390-3", "ESCON")], "stripes", "3390-3 stripes one ESCON path carries"),
        "page-s": Fact(knees["page (s)"].max(), "s", "the largest page-in time of a one-stripe dump"),
        "knee-3390": Fact(knees.loc[("3390-3", "ESCON"), "flattening at stripes"], "stripes",
                          "where a 3390-3 on ESCON stops gaining (equation svcdump-knee)"),
        "knee-ess": Fact(knees.loc[("ESS", "ESCON"), "flattening at stripes"], "stripes",
                         "where an ESS on ESCON stops gaining"),
        "knee-ess-ficon": Fact(knees.loc[("ESS", "FICON"), "flattening at stripes"], "stripes",
                               "where an ESS on FICON stops gaining"),
        "recommended-cpu-s": Fact(knees.loc[("ESS", "ESCON"), "cpu (s)"], "s", "the capture processor's time"),
        "channel-util-escon": Fact(knees.loc[("3390-3", "ESCON"), "channel (s)"]
                                   / knees.loc[("3390-3", "ESCON"), "volumes (s)"], "",
                                   "channel path utilisation of one 3390-3 stripe on ESCON"),
        "channel-util-ficon": Fact(knees.loc[("3390-3", "FICON"), "channel (s)"]
                                   / knees.loc[("3390-3", "FICON"), "volumes (s)"], "",
                                   "channel path utilisation of one 3390-3 stripe on FICON"),
    }


def sweep_precision(elapsed: pd.DataFrame) -> dict[str, float]:
    """The ESCON sweep's elapsed times against the bound: the largest excess, and the largest relative 95%
    half-width where the I/O side and where the capture processor sets the pace."""
    relative = elapsed["half_width"] / elapsed["mean"]
    cpu_bound = pd.Series([bottleneck(calibrated_params(device=d, stripes=int(n))) == "cpu"
                           for d, n in zip(elapsed["device"], elapsed["stripes"])], index=elapsed.index)
    return {"above-max": figures.above_bound(elapsed).max(), "ci-io-bound": relative[~cpu_bound].max(),
            "ci-cpu-bound": relative[cpu_bound].max()}


def simulation_facts() -> dict[str, Fact]:
    """The stripe sweep (:func:`.explore.stripe_sweep`) against the bound."""
    sweep = stripe_sweep()
    escon = escon_slice(sweep)
    precision = sweep_precision(escon[escon["metric"] == "elapsed_s"])
    return {
        "sweep-replications": Fact(int(sweep["n"].max()), "replications", "replications per swept configuration"),
        "above-max": Fact(precision["above-max"], "", "largest excess of a simulated mean over the bound"),
        "ci-io-bound": Fact(precision["ci-io-bound"], "", "largest relative half-width where the I/O binds"),
        "ci-cpu-bound": Fact(precision["ci-cpu-bound"], "", "largest relative half-width where the processor binds"),
    }


def comparison_facts() -> dict[str, Fact]:
    """The comparison table's counts (:func:`perfstudies.compare.scoreboard`) and the cells the text names."""
    table = study_comparison(KEY)
    board = scoreboard(table).set_index("study").loc[KEY]
    by_key = table.set_index("key")
    halving = by_key.loc[["stripes_2v1_3390", "stripes_2v1_ess"], "rel_error"].abs().max()
    one_path = bound_elapsed_s(calibrated_params(stripes=2, channel_paths=1)) / bound_elapsed_s(
        calibrated_params(channel_paths=1))
    sensitivity = channel_path_sensitivity()
    margin, margin_setup = paged_fraction_margin()
    counts = {"n-cells": ("cells", "compared cells"), "n-calibration": ("calibration", "calibration cells"),
              "n-derived": ("derived", "derived cells"), "n-prediction": ("prediction", "predicted cells"),
              "n-within-tolerance": ("hits", "predictions within their tolerance"),
              "n-scored": ("scored", "predictions scored as values"),
              "n-bounds": ("bounds", "predictions scored as stated ranges"),
              "n-bounds-held": ("bounds_held", "stated ranges held"),
              "n-beats": ("beats_baseline", "predictions beating their baseline"),
              "n-weak": ("weak_evidence", "predictions whose baseline alone passes")}
    return {
        **{name: Fact(int(board[column]), "cells", what) for name, (column, what) in counts.items()},
        "n-not-calibration": Fact(int(board["cells"] - board["calibration"]), "cells", "cells not calibration"),
        "halving-error": Fact(halving, "", "largest relative error of the two two-stripe halvings"),
        "gain-3390": Fact(by_key.loc["gain_4v2_3390", "model"], "", "the model's 3390-3 gain ratio"),
        "gain-ess": Fact(by_key.loc["gain_4v2_ess", "model"], "", "the model's ESS gain ratio"),
        "data-rate": Fact(by_key.loc["ess_vs_3390_data_rate", "model"], "", "the model's ESS/3390-3 data rate"),
        "ipcs-halving": Fact(by_key.loc["ipcs_stripes_2v1", "model"], "", "the model's IPCS two-stripe ratio"),
        "one-path-cut": Fact(1 - one_path, "", "what two stripes cut from a 3390-3 dump on one path"),
        "one-path-fails": Fact(int((~sensitivity[sensitivity["channel_paths"] == 1]["passes"]).sum()), "cells",
                               "predictions one channel path would break"),
        "paged-margin": Fact(margin, "", "paged share of the dump below which no cell depends on it"),
        "paged-margin-setup": Fact(margin_setup, "", "the compared configuration that sets that share"),
    }


def panel_facts() -> dict[str, Fact]:
    """What the live panel runs (:data:`.explore.WIDGET_REPLICATIONS`, :func:`.explore.widget_params`)."""
    panel = widget_params(calibrated_params())
    return {
        "widget-replications": Fact(WIDGET_REPLICATIONS, "replications", "replications per panel change"),
        "widget-chunks": Fact(panel.chunks, "chunks", "chunks the panel cuts any dump into"),
        "widget-chunk-blocks": Fact(panel.chunk_blocks, "4 KiB blocks", "the panel's chunk at the documented size"),
        "ficon-one-ess": Fact(bound_elapsed_s(calibrated_params(device="ESS", channel="FICON"))
                              / bound_elapsed_s(calibrated_params(device="ESS")), "",
                              "FICON's time over ESCON's for one ESS stripe"),
    }


def exercise_facts() -> dict[str, Fact]:
    """The numbers the exercises' solutions quote, each a bound of a configuration the exercise names."""
    defaults, recommended = calibrated_params(), calibrated_params(device="ESS", stripes=2)
    per_path = figures.io_time_table().set_index(["device", "channel"]).loc[("3390-3", "ESCON"),
                                                                            "stripes one path carries"]
    paths_needed = math.ceil(EXERCISE_STRIPES / per_path)
    constrained = [recommended.replace(storage_constrained=True, page_data_sets=n) for n in range(1, 9)]
    enough = next(p for p in constrained if bottleneck(p) != "page")
    free = bound_elapsed_s(recommended.replace(**FREE_COMPRESSION))
    return {
        "paths-for-six": Fact(EXERCISE_STRIPES / per_path, "paths", "ESCON paths six 3390-3 stripes need"),
        "paths-needed": Fact(paths_needed, "paths", "whole ESCON paths six 3390-3 stripes need"),
        "needed-paths-knee": Fact(knee_stripes(calibrated_params(channel_paths=paths_needed)), "stripes",
                                  "the 3390-3 knee with that many paths"),
        "one-stripe-s": Fact(bound_elapsed_s(defaults), "s", "one 3390-3 stripe on ESCON"),
        "recommended-s": Fact(bound_elapsed_s(recommended), "s", "ESS, two stripes, ESCON"),
        "ess-2": Fact(bound_elapsed_s(recommended), "s", "ESS, two stripes, ESCON"),
        "ess-4": Fact(bound_elapsed_s(calibrated_params(device="ESS", stripes=4)), "s", "ESS, four stripes"),
        "free-compression-s": Fact(free, "s", "the recommended setup with free compression"),
        "free-compression-ratio": Fact(free / bound_elapsed_s(recommended), "",
                                       "free compression's time over the plain time, recommended setup"),
        "free-compression-3390": Fact(bound_elapsed_s(defaults.replace(**FREE_COMPRESSION)) / bound_elapsed_s(defaults),
                                      "", "free compression's time over the plain time, one 3390-3 stripe"),
        "page-work-s": Fact(bound_elapsed_s(constrained[0]), "s", "constrained recommended setup, one page data set"),
        "page-sets-needed": Fact(enough.page_data_sets, "page data sets", "fewest page data sets paging does not bind"),
        "one-path-2": Fact(bound_elapsed_s(calibrated_params(stripes=2, channel_paths=1)), "s",
                           "3390-3, two stripes, one path"),
        "one-path-8": Fact(bound_elapsed_s(calibrated_params(stripes=8, channel_paths=1)), "s",
                           "3390-3, eight stripes, one path"),
        "two-path-8": Fact(bound_elapsed_s(calibrated_params(stripes=8)), "s", "3390-3, eight stripes, two paths"),
    }
