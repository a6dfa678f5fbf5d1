"""The standard comparison table, the tolerance policy and the honest scoreboard."""

import math

import pandas as pd
import pytest

from perfstudies.compare import (COLUMNS, DEFAULT, POOLED, Cell, Published, Tolerance, comparison_table, documented,
                                 imprecise_note, in_words, required_half_width, resolution, scoreboard, worst_cells)

ONE_TAPE = resolution(1.0, "tape counts are whole cartridges")


def _cell(row, published, model, role="prediction", column="c", **options):
    if role == "prediction":
        options.setdefault("baseline", published * 2)
    if role == "derived":
        options.setdefault("note", "ratio of two calibrated cells")
    return Cell(Published("Table 1", row, column, published), model=model, role=role, **options)


def _table():
    cells = [
        _cell("dump", 100.0, 104.0, role="calibration", ci_half_width=1.0),
        _cell("load", 50.0, 60.0, baseline=52.0),                        # baseline beats the model
        _cell("tapes", 5, 6, tolerance=ONE_TAPE, baseline=8),             # within one tape, beats baseline
        _cell("ratio", 2.0, 2.0, role="derived"),
        _cell("rate", 10.0, 10.5, ci_half_width=0.5, baseline=12.0),      # within 10% but CI too wide
    ]
    return comparison_table(cells, study="demo", document="A Report")


def test_columns_errors_and_tolerances():
    table = _table()
    assert list(table.columns) == COLUMNS
    assert table["rel_error"].tolist() == pytest.approx([0.04, 0.2, 0.2, 0.0, 0.05])
    assert table["within_tolerance"].tolist() == [True, False, True, True, True]
    assert table["within_10pct"].tolist() == [True, False, False, True, True]
    assert table["beats_baseline"].tolist() == [None, False, True, None, True]
    assert table["weak_evidence"].tolist() == [None, True, False, None, False]
    assert table["precise"].tolist() == [True, True, True, True, False]  # 0.5 > 10.0 * 10% / 4
    assert table.loc[2, "tolerance_reason"] == "tape counts are whole cartridges"


def test_scoreboard_counts_roles_and_scores_predictions_only():
    board = scoreboard(_table())
    assert board["study"].tolist() == ["demo", POOLED]
    demo = board.iloc[0]
    assert (demo["cells"], demo["calibration"], demo["derived"], demo["prediction"]) == (5, 1, 1, 3)
    assert (demo["within_10pct"], demo["within_tolerance"], demo["beats_baseline"]) == (1, 2, 2)
    assert (demo["hits"], demo["misses"], demo["undecided"]) == (1, 1, 1)
    assert (demo["scored"], demo["bounds"], demo["bounds_held"], demo["weak_evidence"]) == (3, 0, 0, 1)
    assert demo["pct_beats_baseline"] == pytest.approx(200 / 3)
    assert worst_cells(_table(), 1)["row"].tolist() == ["load"]
    assert _table()["verdict"].tolist() == ["", "miss", "hit", "", "undecided"]


def test_pooled_row_adds_the_studies_up():
    both = pd.concat([_table(), _table().assign(study="other")], ignore_index=True)
    board = scoreboard(both).set_index("study")
    assert board.loc[POOLED, "prediction"] == 6 and board.loc[POOLED, "beats_baseline"] == 4


def test_in_words_names_the_calibration_cells_and_the_counts():
    words = in_words(_table())
    assert "1 published cells set parameters (Table 1 · dump · c)." in words
    assert "1 follow from other published cells and are shown, not scored." in words
    assert ("Of the 3 predictions, 1 within their tolerance, 1 outside it, 1 undecided (the interval is still "
            "too wide); 2 beat the planner's answer without the model, and for 1 that answer alone already "
            "passes.") in words
    assert "The largest miss is Table 1 · load · c: 50 published, 60 in the model." in words


def test_worst_cells_rank_by_multiples_of_each_cells_own_tolerance():
    first = comparison_table([_cell("time", 100.0, 130.0),                     # 3 tolerances off
                              _cell("tapes", 5, 9, tolerance=ONE_TAPE)],       # 4 off, though 80% relative
                             study="one", document="A")
    second = comparison_table([_cell("idle", 0.0, 2.0, baseline=1.0,
                                     tolerance=resolution(4.0, "printed in whole seconds"))],
                              study="two", document="B")
    both = pd.concat([first, second], ignore_index=True)
    worst = worst_cells(both, 2)
    assert worst["row"].tolist() == ["tapes", "time"]
    assert worst["tolerances_off"].tolist() == pytest.approx([4.0, 3.0])
    assert worst_cells(both, 1, per_study=True)[["study", "row"]].values.tolist() == [["one", "tapes"]]
    # study two's only cell lies inside its tolerance (2 s off, ±4 s): never listed as a worst cell
    assert "idle" not in worst_cells(both, 10)["row"].tolist()


def test_a_stated_range_is_scored_as_a_bound_not_as_a_point():
    """0 < g < 1 stored as 0.5: inside is a held bound, outside a broken one, astride an edge undecided."""
    inside = _cell("gain", 0.5, 0.2, bounds=(0.0, 1.0), baseline=0.5, ci_half_width=0.05)
    outside = _cell("gain", 0.5, 1.2, bounds=(0.0, 1.0), baseline=0.0, ci_half_width=0.05, column="d")
    astride = _cell("gain", 0.5, 0.98, bounds=(0.0, 1.0), baseline=0.0, ci_half_width=0.05, column="e")
    table = comparison_table([inside, outside, astride], study="demo", document="A")
    assert table["verdict"].tolist() == ["bound held", "bound broken", "undecided"]
    assert table["weak_evidence"].tolist() == [True, False, False]  # a baseline inside the range passes too
    assert table["beats_baseline"].tolist() == [False, False, True]
    board = scoreboard(table).iloc[0]
    assert (board["scored"], board["bounds"], board["bounds_held"], board["undecided"]) == (0, 3, 1, 1)
    assert worst_cells(table)["column"].tolist() == ["d"]
    assert "straddles an edge" in imprecise_note(astride, 5, 5)
    with pytest.raises(ValueError, match="Cell.bounds"):
        _cell("gain", 0.5, 0.2, bounds=(0.6, 1.0))


def test_zero_published_needs_an_absolute_tolerance():
    with pytest.raises(ValueError, match="a published zero has no relative error"):
        _cell("idle", 0.0, 1.0)
    assert math.isnan(_cell("idle", 0.0, 1.0, baseline=1.0, tolerance=resolution(1.0, "whole s")).rel_error)


def test_tolerance_policy_allows_wider_only_with_a_ground_and_a_reason():
    assert DEFAULT == Tolerance(0.10)
    assert documented(0.10, "+/-10% run to run").ground == "document"
    with pytest.raises(ValueError, match=r"Tolerance.value = 0.25 is not allowed with ground 'default'"):
        Tolerance(0.25)
    with pytest.raises(ValueError, match=r"Tolerance.reason = '' is not allowed"):
        Tolerance(0.25, ground="document")
    with pytest.raises(ValueError, match=r"Tolerance.ground = 'generous' is not allowed"):
        Tolerance(0.25, ground="generous", reason="why not")


def test_a_prediction_needs_a_baseline_and_a_derived_cell_a_note():
    with pytest.raises(ValueError, match=r"Cell.baseline = nan is not finite"):
        Cell(Published("t", "r", "c", 1.0), model=1.0, role="prediction")
    with pytest.raises(ValueError, match=r"Cell.note = '' is not allowed"):
        Cell(Published("t", "r", "c", 1.0), model=1.0, role="derived")


def test_the_same_published_cell_cannot_be_compared_twice():
    with pytest.raises(ValueError, match="compare the same published cell twice"):
        comparison_table([_cell("a", 1.0, 1.0), _cell("a", 1.0, 1.1)], study="s", document="d")


@pytest.mark.parametrize(("changes", "name"), [
    ({"role": "fitted"}, "role"), ({"model": "12"}, "model"), ({"model": math.inf}, "model"),
    ({"model": True}, "model"), ({"ci_half_width": -1.0}, "ci_half_width"), ({"ci_half_width": "abc"}, "ci_half_width"),
    ({"ci_half_width": None}, "ci_half_width"), ({"tolerance": 0.1}, "tolerance"), ({"published": 1.0}, "published"),
    ({"baseline": math.nan}, "baseline"),
])
def test_bad_cells_raise(changes, name):
    arguments = dict(published=Published("t", "r", "c", 1.0), model=1.0, role="prediction", baseline=2.0) | changes
    with pytest.raises(ValueError, match=rf"Cell\.{name} = "):
        Cell(**arguments)


@pytest.mark.parametrize(("changes", "name"), [
    ({"value": math.nan}, "value"), ({"value": "1"}, "value"), ({"table": ""}, "table"), ({"row": 3}, "row"),
])
def test_bad_published_cells_raise(changes, name):
    with pytest.raises(ValueError, match=rf"Published\.{name} = "):
        Published(**(dict(table="t", row="r", column="c", value=1.0) | changes))


def test_worst_cells_refuses_a_negative_count():
    with pytest.raises(ValueError, match=r"count = -1 is out of range"):
        worst_cells(_table(), -1)


@pytest.mark.parametrize(("call", "name"), [
    (lambda: scoreboard([1, 2]), "table"), (lambda: scoreboard(pd.DataFrame({"study": ["s"]})), "table lacks"),
    (lambda: in_words("table"), "table"), (lambda: worst_cells(_table(), 2, per_study="yes"), "per_study"),
    (lambda: worst_cells(_table(), True), "count"), (lambda: worst_cells(None, 2), "table"),
    (lambda: worst_cells(_table().assign(model="x"), 2), "table columns"),
    (lambda: comparison_table(3, study="s", document="d"), "cells"),
    (lambda: comparison_table(_cell("a", 1.0, 1.0), study="s", document="d"), "cells"),
    (lambda: comparison_table([_cell("a", 1.0, 1.0)], study="", document="d"), r"comparison_table\.study"),
    (lambda: Tolerance(True), r"Tolerance\.value"), (lambda: Tolerance(math.nan), r"Tolerance\.value"),
    (lambda: Tolerance(-0.1, "absolute", "resolution", "x"), r"Tolerance\.value"),
    (lambda: DEFAULT.allowed_error(math.nan), r"Tolerance\.allowed_error\.published"),
    (lambda: documented(0.2, None), r"Tolerance\.reason"), (lambda: resolution(1.0, "x", kind="log"), r"Tolerance\.kind"),
])
def test_every_public_function_names_a_bad_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name}.*allowed"):
        call()


def test_imprecise_note_says_why_a_cell_is_too_noisy():
    noisy = _cell("rate", 10.0, 10.5, ci_half_width=0.5, baseline=12.0)
    assert imprecise_note(noisy, replications=40, cap=40).startswith(
        "IMPRECISE: 95% half-width 0.5 > 0.25 (required_half_width); the cap of 40 replications was reached")
    assert imprecise_note(_cell("rate", 10.0, 10.5, ci_half_width=0.1, baseline=12.0), 5, 40) == ""
    large = _cell("rate", 20_000.0, 21_000.0, ci_half_width=1_500.0, baseline=12.0)
    assert "half-width 1,500 > 500 " in imprecise_note(large, 40, 40), "no exponent notation in a reader's note"
    with pytest.raises(ValueError, match=r"^cap = 0 is out of range"):
        imprecise_note(noisy, 5, 0)


def test_a_decisive_miss_needs_its_error_known_to_a_quarter_not_its_tolerance():
    # published 10, tolerance 10% -> 1.0 allowed; a quarter of it is 0.25
    assert required_half_width(10.0, DEFAULT, 10.5) == pytest.approx(0.25)
    assert required_half_width(10.0, DEFAULT, 11.9) == pytest.approx(0.25)   # 1.9 tolerances off: edge matters
    assert required_half_width(10.0, DEFAULT, 14.0) == pytest.approx(1.0)    # 4 tolerances off: a quarter of 4.0
    far = _cell("far", 10.0, 14.0, ci_half_width=0.9, baseline=12.0)
    assert far.precise and not far.within_tolerance
    # the whole interval lies outside the tolerance, by at least 1.5 tolerances
    assert abs(far.model - far.published.value) - far.ci_half_width > 1.5 * 1.0
    with pytest.raises(ValueError, match=r"^tolerance = 0.1 has the wrong type"):
        required_half_width(10.0, 0.1, 10.0)


def test_sequential_targets_may_depend_on_the_current_mean():
    from perfstudies.reference import QueueParams, queue_model
    from perfstudies.runner import replicate_until

    params = QueueParams(max_time=300.0, warmup=30.0)
    calls = []

    def target(mean):
        calls.append(mean)
        return required_half_width(100.0, DEFAULT, mean)  # the model is far from 100: a decisive miss

    result = replicate_until(queue_model, params, {"mean_wait": target}, seed=2, initial=3, cap=20)
    assert calls and result.imprecise == ()


def test_a_miss_whose_interval_lies_wholly_outside_its_tolerance_is_decided():
    """1.41 ± 0.04 against 1.234 ± 10%: 1.42 tolerances off, below the decisive-miss threshold of 2, yet the
    interval cannot reach the tolerance and is within a quarter of the error: a decided miss."""
    miss = _cell("spin", 1.234, 1.41, ci_half_width=0.04)
    assert miss.precise and miss.verdict == "miss"
    assert not _cell("spin", 1.234, 1.41, ci_half_width=0.06).precise  # the interval reaches the tolerance
    assert not _cell("spin", 1.234, 1.50, ci_half_width=0.14).precise  # outside, but wider than a quarter of the error
