"""Numbers and tables as a reader sees them: no exponents, no NaN, sensible figures."""

import math

import pandas as pd
import pytest

from perfstudies.compare import Cell, Published, comparison_table
from perfstudies.tables import (COLUMN_CHARS, EMPTY, WIDE_INTERVAL, Folded, exact, fold, interval,
                                 long_format, number, percent, published_vs_model, readable, split, width)


@pytest.mark.parametrize(("value", "digits", "text"), [
    (112_134.5, 3, "112,000"), (112_134.5, 4, "112,100"), (0.004823, 3, "0.00482"), (7772.0, 4, "7,772"),
    (0.385965, 3, "0.386"), (83_470.0, 3, "83,500"), (9.9996, 3, "10.0"), (-2.5, 2, "−2.5"), (0.0, 3, "0"),
    (math.nan, 3, EMPTY), (None, 3, EMPTY), (1e-7, 2, "0.00000010"),
])
def test_number_uses_significant_figures_without_exponents(value, digits, text):
    assert number(value, digits) == text


def test_percent_and_changes():
    assert percent(0.2108) == "21%"
    assert percent(-0.051, signed=True) == "−5%"
    assert percent(math.nan) == EMPTY


def test_readable_names_columns_and_shows_no_raw_floats():
    frame = pd.DataFrame({"tx_rate": [1234.5678, math.nan], "share": [0.2108, 0.5], "label": ["a", None]})
    html = readable(frame, names={"tx_rate": "transactions/s"}, formats={"share": "percent"}).to_html()
    assert "transactions/s" in html and "1,230" in html and "21%" in html
    assert "nan" not in html.lower() and "e+0" not in html and "None" not in html


def test_readable_shows_integer_columns_as_counts():
    html = readable(pd.DataFrame({"terminals": [10, 1200], "X (jobs/s)": [1.5, 3.333]})).to_html()
    assert ">10<" in html and ">1,200<" in html and "10.0" not in html and "3.33" in html


@pytest.mark.parametrize(("call", "name"), [
    (lambda: number("12"), "value"), (lambda: number(1.0, digits=0), "digits"),
    (lambda: percent(math.inf), "fraction"), (lambda: readable([1, 2]), "frame"),
    (lambda: readable(pd.DataFrame({"a": [1]}), names={"b": "B"}), "names/formats"),
    (lambda: readable(pd.DataFrame({"a": [1]}), formats={"a": "fancy"}), r"formats\['a'\]"),
])
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name}"):
        call()


def test_exact_shows_transcribed_numbers_as_printed():
    assert [exact(v) for v in (7772.0, 0.5, 0.2108, 112_134.0, -3.25, math.nan)] == [
        "7,772", "0.5", "0.2108", "112,134", "−3.25", EMPTY]


def test_percent_never_shows_a_signed_zero():
    assert percent(-0.001, signed=True) == "0%" and percent(0.0004, signed=True) == "0%"


def test_readable_names_and_formats_the_standard_comparison_columns_unasked():
    frame = pd.DataFrame({"published": [7772.0], "model": [7801.234], "ci_half_width": [12.3456],
                          "rel_error": [0.0375], "beats_baseline": [None], "within_tolerance": [True],
                          "tolerances_off": [0.375]})
    html = readable(frame).to_html()
    for text in ("7,772", "7,800", "95% CI ±", "+4%", "within tolerance", "yes", "beats baseline", EMPTY,
                 "tolerances off", "0.38×"):
        assert text in html, text
    assert "True" not in html and "None" not in html and "rel_error" not in html


def test_readable_refuses_two_columns_with_one_name():
    with pytest.raises(ValueError, match="^names = .* same name"):
        readable(pd.DataFrame({"a": [1], "b": [2]}), names={"a": "x", "b": "x"})


def test_fold_wraps_a_table_in_details_under_its_summary():
    folded = fold(readable(pd.DataFrame({"x": [1.0, 2.0]})), "Both rows <2>")
    html = folded._repr_html_()
    assert html.startswith('<details class="perfstudies-fold"><summary>Both rows &lt;2&gt;</summary>')
    assert html.rstrip().endswith("</details>") and "perfstudies-table" in html
    assert " open" in fold(pd.DataFrame({"x": [1]}), "s", opened=True)._repr_html_()


def test_width_counts_what_the_reader_sees():
    frame = pd.DataFrame({"elapsed time (s)": [112_134.5], "note": ["a long note that wraps at its spaces"]})
    # "112,000" (7) under "elapsed" (7); the note wraps to its 18-character budget; 2 of padding each
    assert width(frame) == 7 + 2 + 18 + 2
    assert width(readable(frame)) == width(frame)


def test_split_repeats_the_key_columns_and_fits_each_part():
    wide = pd.DataFrame({"case": ["SPTAPE", "SPXTAPE"],
                         **{f"measure {i} (s)": [1000.0 * i, 2000.0 * i] for i in range(14)}})
    tables = split(wide, keep=["case"], max_chars=COLUMN_CHARS)
    assert len(tables.parts) > 1
    assert all(part.data.columns[0] == "case" and width(part) <= COLUMN_CHARS for part in tables.parts)
    shown = [column for part in tables.parts for column in part.data.columns[1:]]
    assert shown == list(wide.columns[1:])
    assert tables._repr_html_().count("<table") == len(tables.parts)


def test_split_measures_a_column_with_its_own_format_as_shown():
    """A column named in COLUMN_FORMATS ("published") was formatted twice while split measured it."""
    wide = pd.DataFrame({"case": ["a", "b"], "published": [8.0, 9.01],
                         **{f"measure {i} (MB/s)": [1.0 * i, 2.0 * i] for i in range(10)}})
    tables = split(wide, keep=["case"], max_chars=60)
    assert len(tables.parts) > 1 and all(width(part) <= 60 for part in tables.parts)


def test_long_format_turns_columns_into_rows_key_by_key():
    wide = pd.DataFrame({"stripes": [1, 2], "ESS": [10.0, 6.0], "3390-3": [30.0, 16.0]})
    long = long_format(wide, ["stripes"], variable="device", value="elapsed (s)", names={"ESS": "ESS disk"})
    assert long.values.tolist() == [[1, "ESS disk", 10.0], [1, "3390-3", 30.0], [2, "ESS disk", 6.0],
                                    [2, "3390-3", 16.0]]


def _comparison_table(rows: int):
    cells = []
    for i in range(rows):
        role = ("calibration", "derived", "prediction", "prediction")[i % 4]
        model = 100.0 * (1 + (0.5 if i % 8 == 3 else 0.02))
        cells.append(Cell(Published("Table 1", f"row {i}", "elapsed (s)", 100.0), model=model, role=role,
                          ci_half_width=1.0, baseline=90.0 if role == "prediction" else math.nan,
                          note="by construction" if role == "derived" else ""))
    return comparison_table(cells, study="s", document="d")


def test_comparison_puts_misses_first_in_words_and_folds_long_tables():
    short = published_vs_model(_comparison_table(4))
    html = short.to_html()
    assert "Table 1 · row 3 · elapsed (s)" in html and "prediction" in html and "±10%" in html
    assert "row 3 · elapsed (s)<" in short.data["cell"].iloc[0], "the miss comes first"
    assert "150\u00a0±\u00a01.0" in html and "nan" not in html.lower()
    long = published_vs_model(_comparison_table(20))
    assert isinstance(long, Folded)
    assert "20: 5 calibration, 5 derived, 10 prediction; 3 predictions missed" in long.summary
    assert "row 0 · elapsed (s)<" in published_vs_model(_comparison_table(4), order="document").data["cell"].iloc[0]


@pytest.mark.parametrize(("call", "name"), [
    (lambda: exact(True), "value"), (lambda: percent(0.1, digits=9), "digits"),
    (lambda: fold(pd.DataFrame({"a": [1]}), " "), "summary"), (lambda: fold("table", "s"), "table"),
    (lambda: split(pd.DataFrame({"a": [1], "b": [2]}), keep="a"), "keep"),
    (lambda: split(pd.DataFrame({"a": [1], "b": [2]}), keep=["a"], max_chars=5), "max_chars"),
    (lambda: long_format(pd.DataFrame({"a": [1]}), ["a"], "v", "w"), "keep"),
    (lambda: long_format(pd.DataFrame({"a": [1], "b": [2]}), ["a"], "a", "w"), "variable"),
    (lambda: published_vs_model(pd.DataFrame({"a": [1]})), "table lacks"),
    (lambda: published_vs_model(_comparison_table(2), order="best"), "order"),
    (lambda: width([1]), "table"),
])
def test_new_helpers_name_a_bad_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name}"):
        call()


@pytest.mark.parametrize(("mean", "half_width", "text"), [
    (7772.4, 31.2, "7,770\u00a0±\u00a031"), (0.4449, 0.00069, "0.445\u00a0±\u00a00.00069"),
    (1480.0, 4050.0, f"1,480\u00a0±\u00a04,000 {WIDE_INTERVAL}"), (2.5, math.nan, "2.50"), (2.5, 0.0, "2.50"),
    (math.nan, 1.0, EMPTY), (None, None, EMPTY),
])
def test_an_interval_is_three_and_two_significant_figures_on_one_line(mean, half_width, text):
    assert interval(mean, half_width) == text


@pytest.mark.parametrize(("mean", "half_width", "name"), [(1.0, -0.5, "half_width"), ("1", 0.5, "mean"),
                                                          (1.0, True, "half_width")])
def test_an_interval_refuses_a_bad_mean_or_half_width_by_name(mean, half_width, name):
    with pytest.raises(ValueError, match=rf"^{name} = "):
        interval(mean, half_width)


def test_an_interval_wider_than_its_mean_is_said_in_words():
    from perfstudies.tables import WIDE_INTERVAL, interval_note
    from perfstudies.tables import interval

    assert interval_note(1480.0, 4050.0) == f" {WIDE_INTERVAL}"
    assert interval_note(-2.0, 3.0) == f" {WIDE_INTERVAL}"
    assert interval_note(1480.0, 24.0) == "" and interval_note(float("nan"), 1.0) == ""
    assert interval(1480.0, 4050.0) == f"1,480\u00a0±\u00a04,000 {WIDE_INTERVAL}"
    assert interval(1150.0, 24.0) == "1,150\u00a0±\u00a024"
    cells = [Cell(Published("T1", "r", "c", 10.0), model=0.5, role="prediction", ci_half_width=0.9, baseline=12.0)]
    shown = published_vs_model(comparison_table(cells, study="s", document="d")).to_html()
    assert WIDE_INTERVAL in shown
