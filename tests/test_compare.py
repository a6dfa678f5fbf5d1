"""The standard comparison table and the scoreboard built from it."""

import math

import pandas as pd
import pytest

from perfstudies.compare import COLUMNS, Cell, comparison_table, scoreboard, worst_cells


def _table():
    cells = [
        Cell("Table 1", "dump", "elapsed", published=100.0, model=104.0, role="calibration", ci_half_width=1.0),
        Cell("Table 1", "load", "elapsed", published=50.0, model=60.0, role="prediction"),
        Cell("Table 1", "dump", "tapes", published=5, model=6, role="prediction", tolerance=1,
             tolerance_kind="absolute"),
    ]
    return comparison_table(cells, study="demo", document="A Report")


def test_columns_errors_and_tolerances():
    table = _table()
    assert list(table.columns) == COLUMNS
    assert table["rel_error"].tolist() == pytest.approx([0.04, 0.2, 0.2])
    assert table["within_tolerance"].tolist() == [True, False, True]


def test_scoreboard_counts_roles_and_shares():
    board = scoreboard(_table()).iloc[0]
    assert (board["cells"], board["calibrated"], board["predicted"]) == (3, 1, 2)
    assert board["predicted_within_tolerance"] == 0.5
    assert board["predicted_within_10pct"] == 0.0
    assert worst_cells(_table(), 1)["row"].tolist() == ["load"]


def test_worst_cells_rank_by_multiples_of_each_cells_own_tolerance():
    cells = [Cell("T", "time", "a", published=100.0, model=130.0, role="prediction"),  # 3 tolerances off
             Cell("T", "tapes", "a", published=5, model=9, role="prediction", tolerance=1,
                  tolerance_kind="absolute"),  # 4 tolerances off, though only 80% relative error
             Cell("T", "idle", "a", published=0.0, model=2.0, role="prediction", tolerance=4,
                  tolerance_kind="absolute")]  # half a tolerance
    first = comparison_table(cells[:2], study="one", document="A")
    second = comparison_table(cells[2:], study="two", document="B")
    both = pd.concat([first, second], ignore_index=True)
    worst = worst_cells(both, 2)
    assert worst["row"].tolist() == ["tapes", "time"]
    assert worst["tolerances_off"].tolist() == pytest.approx([4.0, 3.0])
    assert worst_cells(both, 1, per_study=True)[["study", "row"]].values.tolist() == [["one", "tapes"], ["two", "idle"]]


def test_zero_published_has_no_relative_error():
    assert math.isnan(Cell("t", "r", "c", published=0.0, model=1.0, role="prediction").rel_error)


@pytest.mark.parametrize(("changes", "name"), [
    ({"role": "fitted"}, "role"), ({"tolerance_kind": "ratio"}, "tolerance_kind"),
    ({"tolerance": -1.0}, "tolerance"), ({"model": "12"}, "model"),
])
def test_bad_cells_raise(changes, name):
    arguments = dict(table="t", row="r", column="c", published=1.0, model=1.0, role="prediction") | changes
    with pytest.raises(ValueError, match=rf"Cell\.{name} = "):
        Cell(**arguments)
