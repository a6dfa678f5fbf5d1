"""Every number the SPXTAPE chapter's prose quotes, by name (:mod:`perfstudies.facts`).

The chapter glues them with one call, ``glue_facts(KEY, facts())``, and quotes
each as ``{glue:text}`spxtape-<name>:<format>```.  All are read off the
comparison table (the book's one evaluator on :mod:`.comparison`'s cells):
the scoreboard's counts, the baselines and errors of the cells the text
discusses, and the replications the two idle times that need the most had.  Errors are in percent, as the text prints them.
"""

import pandas as pd

from perfstudies.accuracy import study_comparison
from perfstudies.compare import PRECISION_FRACTION, scoreboard
from perfstudies.facts import Fact
from perfstudies.models.spxtape.calibration import TABLE1_COLUMN_OF, calibrate
from perfstudies.models.spxtape.comparison import TABLE1_CAP
from perfstudies.models.spxtape.params import KEY

#: The 4-drive dump's idle time, the cell that needs the most replications.
DUMP4_IDLE = "Table 1 · System Idle Time (sec) · SPXTAPE DUMP 4"


def facts() -> dict[str, Fact]:
    """Every number the chapter quotes: the scoreboard, the baselines, and the cells the text discusses."""
    comparison = study_comparison(KEY)
    return {**scoreboard_facts(comparison), **baseline_facts(comparison), **cell_facts(comparison),
            **precision_facts(comparison)}


def scoreboard_facts(comparison: pd.DataFrame) -> dict[str, Fact]:
    """The predictions' verdicts (:func:`perfstudies.compare.scoreboard`)."""
    board = scoreboard(comparison).set_index("study").loc[KEY]
    counts = {"predicted": "prediction", "hits": "hits", "misses": "misses", "undecided": "undecided",
              "beats": "beats_baseline", "weak": "weak_evidence"}
    return {name: Fact(int(board[column]), "cells", f"the scoreboard's {column}") for name, column in counts.items()}


def baseline_facts(comparison: pd.DataFrame) -> dict[str, Fact]:
    """The planner's answers the text quotes."""
    predicted = comparison[comparison["role"] == "prediction"]
    baseline = predicted.set_index(["row", "column"])["baseline"]
    return {
        "concurrent-tapes-baseline": Fact(int(baseline[("tapes required (text)", "with SPXTAPE DUMP")]), "tapes",
                                          "the concurrent dump's tapes, the planner's answer"),
    }


def cell_facts(comparison: pd.DataFrame) -> dict[str, Fact]:
    """The Table 1 cells the text and the Remarks discuss: the model's value, its interval and its error."""
    cell = comparison.set_index(["row", "column"]).rename(index=TABLE1_COLUMN_OF, level="row")
    load_idle = cell.loc[("system_idle_s", "SPXTAPE LOAD 1")]
    return {
        "sptape-load-error": Fact(100 * cell.loc[("elapsed_s", "SPTAPE LOAD 1"), "rel_error"], "%",
                                  "how much longer SPTAPE's load is in the model"),
        "load-idle": Fact(load_idle["model"], "s", "SPXTAPE's load idle time, model"),
        "load-idle-hw": Fact(load_idle["ci_half_width"], "s", "its 95% half-width"),
        "cpu-per-file": Fact(1000 * calibrate().cpu_per_file, "ms",
                             "processor time per spool file the load creates, calibrated on its 902 s"),
        "change-error": Fact(-100 * cell.loc[("tape_change_s", "SPXTAPE DUMP 1"), "rel_error"], "%",
                             "how much shorter the 1-drive dump's change time is in the model"),
        "dump4-error": Fact(-100 * cell.loc[("elapsed_s", "SPXTAPE DUMP 4"), "rel_error"], "%",
                            "how much shorter the 4-drive dump is in the model"),
    }


def precision_facts(comparison: pd.DataFrame) -> dict[str, Fact]:
    """Replications: the cap, and what the two idle times ran to reach their precision targets.

    The load's idle time misses by many tolerances, so it needs its error known
    to ``PRECISION_FRACTION`` only.
    """
    dump4 = comparison.set_index("key").loc[DUMP4_IDLE]
    cell = comparison.set_index(["row", "column"]).rename(index=TABLE1_COLUMN_OF, level="row")
    load_idle = cell.loc[("system_idle_s", "SPXTAPE LOAD 1")]
    return {
        "cap": Fact(TABLE1_CAP, "replications", "the most a Table 1 configuration may run"),
        "dump4-idle": Fact(dump4["model"], "s", "the 4-drive dump's idle time, model"),
        "dump4-idle-hw": Fact(dump4["ci_half_width"], "s", "its 95% half-width"),
        "dump4-idle-reps": Fact(int(dump4["replications"]), "replications", "what it ran"),
        "load-idle-needed": Fact(PRECISION_FRACTION * load_idle["model"], "s",
                                 "the half-width the load's idle time needs"),
        "load-idle-reps": Fact(int(load_idle["replications"]), "replications", "what the load's idle time ran"),
    }
