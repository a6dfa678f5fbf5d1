"""Numbers and tables as a reader sees them: no exponents, no NaN, sensible figures."""

import math

import pandas as pd
import pytest

from perfstudies.tables import EMPTY, number, percent, readable


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


@pytest.mark.parametrize(("call", "name"), [
    (lambda: number("12"), "value"), (lambda: number(1.0, digits=0), "digits"),
    (lambda: percent(math.inf), "fraction"), (lambda: readable([1, 2]), "frame"),
    (lambda: readable(pd.DataFrame({"a": [1]}), names={"b": "B"}), "names/formats"),
    (lambda: readable(pd.DataFrame({"a": [1]}), formats={"a": "fancy"}), r"formats\['a'\]"),
])
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name}"):
        call()
