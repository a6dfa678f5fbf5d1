"""What the print edition shows in place of each output a browser alone can draw."""

import base64
import doctest
import math

import altair as alt
import nbformat
import pandas as pd
import pytest

from perfstudies import charts, printed, tables
from perfstudies.context import BOOK_BUILD_ENV
from perfstudies.self_checks import Question, SelfChecks


def _shown(value) -> dict:
    """``value`` as the kernel shows it: a display_data output of its MIME bundle."""
    bundle = value._repr_mimebundle_() if hasattr(value, "_repr_mimebundle_") else None
    if bundle is None:
        bundle = {"text/html": value._repr_html_(), "text/plain": repr(value)}
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    return {"output_type": "display_data", "data": data, "metadata": {}}


def test_a_chart_prints_as_a_pdf_drawing_of_its_spec(monkeypatch):
    monkeypatch.setenv(BOOK_BUILD_ENV, "1")
    charts.setup()
    chart = alt.Chart(pd.DataFrame({"x": [1, 2], "y": [3, 4]})).mark_line().encode(x="x:Q", y="y:Q")
    output = _shown(chart)
    monkeypatch.delenv(BOOK_BUILD_ENV)
    charts.setup()
    shown = printed.for_print(output)
    drawing = base64.b64decode(shown["data"]["application/pdf"])
    assert drawing.startswith(b"%PDF"), "vl-convert drew the chart as a PDF"
    assert shown["data"]["text/html"] == output["data"]["text/html"], "the HTML stays for every other builder"
    assert "application/pdf" not in output["data"], "the executed output is not changed in place"


def test_tables_print_as_markdown_tables_with_their_captions_and_summaries():
    frame = pd.DataFrame({"drives": [1, 2], "time (s)": [1.5, 2000.0], "note": ["a|b", "$x *y*"]})
    shown = printed.for_print(_shown(tables.fold(tables.split(frame, keep=["drives"], max_chars=20, captions=["first", "second"]),
                                                 "Every cell (2 rows)")))
    text = shown["data"]["text/markdown"]
    assert text.startswith("**Every cell (2 rows)**"), "a folded table prints open under its summary"
    assert "| drives | time (s) |" in text
    assert "a\\|b" in text and "\\$x \\*y\\*" in text, "a cell's text prints as text, never as markup"
    assert text.count("| --- | --- |") == 2, "each part of a split table is a table of its own"
    assert text.count(":class: longtable") == 2, "a table breaks across pages, however few its rows"
    assert "**first**" in text and "**second**" in text, "each part under its caption"


def test_widgets_and_self_checks_print_as_a_note_saying_where_they_work():
    widget = {"output_type": "display_data", "metadata": {},
              "data": {printed.WIDGET_VIEW: {"model_id": "abc"}, "text/plain": "VBox(children=(...))"}}
    assert printed.for_print(widget)["data"]["text/markdown"] == printed.WIDGET_NOTE
    checks = SelfChecks([Question("How many jobs?", 3.0, "jobs", 0.0)])
    text = printed.for_print(_shown(checks))["data"]["text/markdown"]
    assert text.startswith(printed.SELF_CHECK_NOTE) and "Q1. How many jobs? (jobs, exactly)" in text


def test_other_outputs_come_back_unchanged_and_a_notebook_counts_its_changes():
    stream = {"output_type": "stream", "name": "stdout", "text": "hello"}
    plain = {"output_type": "execute_result", "data": {"text/plain": "3"}, "metadata": {}, "execution_count": 1}
    assert printed.for_print(stream) is stream and printed.for_print(plain) is plain
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x", outputs=[
        nbformat.from_dict(plain), nbformat.from_dict(_shown(tables.readable(pd.DataFrame({"a": [1]}))))])])
    assert printed.notebook_for_print(notebook) == 1
    assert "text/markdown" in notebook.cells[0].outputs[1]["data"]
    with pytest.raises(ValueError, match="output = str has the wrong type"):
        printed.for_print("text")


def test_a_column_of_sentences_wraps_without_squeezing_the_numbers_beside_it():
    sentence = "persistence: the 1-drive SPXTAPE dump's 7 tapes, the reference configuration " * 3
    rows = [["quantity", "published", "why"], ["System Idle Time (sec)", "**12,345**", sentence]]
    pad = printed.PADDING_CHARS
    quantity, published, why = printed.column_widths(rows)
    assert why == printed.WRAP_CHARS + pad, "long text wraps at WRAP_CHARS"
    assert quantity == len("System Idle Time (sec)") + pad, "short text keeps its width"
    assert published == math.ceil(printed.HEADER_SCALE * len("published")) + pad, \
        "never narrower than a word of the header (which prints wider); a bold cell's markers add nothing"
    assert printed.column_widths([["name"], ["x" * 50]]) == [50 + pad], "a word longer than WRAP_CHARS is whole"
    narrow = printed.column_widths(rows, line=30)
    assert narrow == [math.ceil(printed.HEADER_SCALE * len("quantity")) + pad,
                      math.ceil(printed.HEADER_SCALE * len("published")) + pad, len("configuration") + pad], \
        "far too wide for the line: columns wrap down to their longest words"
    quantity, published, why = printed.column_widths(rows, line=60)
    assert quantity + published + why <= 60 and why > quantity > len("quantity") + pad, \
        "too wide: each column gives up the same share beyond its longest word"


def test_a_folded_table_prints_open_with_its_bold_cells_bold():
    styled = tables.readable(pd.DataFrame({"cell": ["a", "b"], "error": [0.5, 0.01]})).map(
        lambda value: "font-weight: bold" if value == 0.5 else "", subset=["error"])
    text = printed.for_print(_shown(tables.fold(styled, "Every cell (2 rows, misses in bold), click to open")))
    text = text["data"]["text/markdown"]
    assert text.startswith("**Every cell (2 rows, misses in bold)**\n"), "paper needs no click"
    assert "| a | **0.500** |" in text and "| b | 0.0100 |" in text, "what the screen sets in bold prints bold"


def test_the_module_example_holds():
    assert doctest.testmod(printed).failed == 0
