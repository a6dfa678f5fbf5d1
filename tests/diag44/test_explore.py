"""The chapter's interactive parts: the live panel's run, the slider sweep's points, the theory tables."""

import numpy as np
import pandas as pd
import pytest

from perfstudies.accuracy import study_comparison
from perfstudies.models.diag44 import (LIVE_CONTROLS, PANEL, SEED, STUDY, WIDGET_DEFAULTS, DiagParams,
                                       expected_results, fast_path_runs, model, mva_table, run_summaries,
                                       sweep_points, theory_table, widget_run)
from perfstudies.models.diag44.comparison import PAIRS
from perfstudies.models.diag44.explore import CHANGE_METRICS, pairing_table
from perfstudies.panel import shows_through
from perfstudies.runner import replicate


def test_widget_run_summarizes_three_replications_from_the_study_seed():
    table = widget_run().set_index("metric")
    assert (table["replications"] == 3).all() and table.loc["tx_rate", "half_width"] > 0
    expected = replicate(model, WIDGET_DEFAULTS, replications=3, seed=SEED, progress=False).summary()
    assert table["mean"].to_dict() == pytest.approx(expected.loc[table.index, "mean"].to_dict())
    assert table["label"].notna().all() and not table["label"].str.contains("_").any(), "metrics in words"


def test_widget_run_takes_a_record():
    table = widget_run(WIDGET_DEFAULTS.replace(fast_path=False)).set_index("metric")
    assert table.loc["diag_fast", "mean"] == 0


def test_one_processor_fewer_shows_through_the_noise():
    """The main control, one step from the default (9 -> 8 real processors): the fast path's share falls and
    the normal-path DIAG 44s rise, each with a paired interval that excludes zero.  (The system utilization no
    longer does in three replications: its fast-path part carries the fast-path rate's noise.)"""
    assert PANEL.main == "real_processors"
    table = widget_run(WIDGET_DEFAULTS.replace(real_processors=8)).set_index("metric")
    assert table.loc["pct_fast", "change"] < 0 and shows_through(table.loc["pct_fast"])
    assert table.loc["diag_normal", "change"] > 0 and shows_through(table.loc["diag_normal"])


def test_the_live_controls_are_fields_of_the_record():
    assert set(LIVE_CONTROLS) <= set(DiagParams.spec())


def test_sweep_points_cover_processors_and_virtual_processors():
    points = sweep_points()
    assert len(points) == 35 and all(p.fast_path for p in points)
    assert {(p.real_processors, p.client_vps) for p in points} == {(c, v) for c in (5, 7, 9, 11, 13)
                                                                      for v in range(2, 9)}


def test_theory_table_is_ordered_as_the_report_and_more_vps_means_less_fast_path():
    theory = theory_table().set_index("run")
    assert list(theory.index) == ["EXPTD440", "EXPTD442", "EXPTD441"]
    assert theory.loc["EXPTD440", "theory % fast"] > theory.loc["EXPTD442", "theory % fast"]
    assert theory.loc["EXPTD440", "theory % fast"] > theory.loc["EXPTD441", "theory % fast"]
    assert theory["published % fast"].tolist() == [98, 85, 92]
    assert theory["pi"].between(0, 1).all()


def test_the_eight_expected_results_are_set_beside_the_model():
    table = expected_results(study_comparison("diag44"))
    assert len(table) == 8
    assert table["expected result"].iloc[0] == "An increase in the total virtual DIAG 44 rate"
    assert table["report shows it"].sum() == 7, "the report's 5-way emulation time fell (-1.4%)"
    assert table["model shows it"].dtype == bool


def test_run_summaries_are_the_comparisons_own_replications():
    """Each run summarized from the replications the comparison ran (no new simulation), first pair first."""
    runs = STUDY.runs()
    summary = run_summaries(runs)
    assert list(dict.fromkeys(summary["run_id"])) == ["EXPT5200", "EXPTD440", "EXPT5209", "EXPTD442", "EXPTD441"]
    five_way = summary[summary["run_id"] == "EXPT5209"].set_index("metric")
    own = runs["5-way fast path"]["EXPT5209"]
    assert five_way.loc["tx_rate", "n"] == len(own)
    assert five_way.loc["tx_rate", "mean"] == pytest.approx(own["tx_rate"].mean(), rel=1e-12)
    table = study_comparison("diag44")
    assert (table[table["table"] == "5-way fast path"]["replications"] <= len(own)).all()
    assert list(fast_path_runs(summary)["run_id"].unique()) == ["EXPTD440", "EXPTD442", "EXPTD441"]
    mva = mva_table(summary)
    assert list(mva["run"]) == ["EXPT5200", "EXPTD440", "EXPT5209", "EXPTD442", "EXPTD441"]
    assert (mva["MVA, simulated demand"] > 0).all() and (mva["MVA util %"] < 100).all()


def _paired_runs(correlated: bool) -> dict:
    """Synthetic replications of the three comparisons: 'after' is 'before' x 1.1 plus noise, or independent."""
    rng = np.random.default_rng(1)
    runs = {}
    for name, (before, after) in PAIRS.items():
        first = pd.DataFrame({m: 100 + 10 * rng.standard_normal(200) for m in CHANGE_METRICS})
        base = first if correlated else pd.DataFrame({m: 100 + 10 * rng.standard_normal(200) for m in CHANGE_METRICS})
        runs[name] = {before: first, after: 1.1 * base + rng.standard_normal((200, len(CHANGE_METRICS)))}
    return runs


def test_pairing_table_shows_what_common_noise_buys_and_that_independent_runs_gain_nothing():
    common, independent = pairing_table(_paired_runs(True)), pairing_table(_paired_runs(False))
    assert len(common) == len(independent) == 3 * len(CHANGE_METRICS)
    assert (common["correlation"] > 0.9).all() and (common["unpaired / paired"] > 5).all()
    assert independent["correlation"].abs().max() < 0.3
    assert independent["unpaired / paired"].between(0.8, 1.25).all()
