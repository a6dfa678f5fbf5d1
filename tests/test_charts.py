"""Chart helpers: the book renderer and the kernel-free slider chart."""

import altair as alt
import pandas as pd
import pytest

from perfstudies import charts
from perfstudies.compare import Cell, Published, comparison_table
from perfstudies.context import BOOK_BUILD_ENV


def test_book_renderer_draws_with_the_page_vega_embed(monkeypatch):
    monkeypatch.setenv(BOOK_BUILD_ENV, "1")
    assert charts.setup() == "perfstudies-book"
    bundle = alt.Chart(pd.DataFrame({"x": [1, 2]})).mark_point().encode(x="x:Q")._repr_mimebundle_()
    html = bundle[0]["text/html"] if isinstance(bundle, tuple) else bundle["text/html"]
    assert "vegaEmbed(el, spec" in html and "cdn" not in html.lower()
    monkeypatch.delenv(BOOK_BUILD_ENV)
    assert charts.setup() != "perfstudies-book"


def test_the_print_edition_reads_back_the_spec_the_book_renderer_wrote(monkeypatch):
    monkeypatch.setenv(BOOK_BUILD_ENV, "1")
    charts.setup()
    chart = alt.Chart(pd.DataFrame({"x": [1, 2], "label": ["a 'quoted' name;", "b"]})).mark_point().encode(
        x="x:Q", tooltip="label:N").properties(title="A title")
    html = chart._repr_mimebundle_()
    html = html[0]["text/html"] if isinstance(html, tuple) else html["text/html"]
    spec = charts.spec_of(html)
    assert spec["width"] == charts.COLUMN_WIDTH, "a chart that fills its container prints a desktop column wide"
    assert spec["data"] == chart.to_dict()["data"] or spec["datasets"] == chart.to_dict()["datasets"]
    fixed = alt.Chart(pd.DataFrame({"x": [1]})).mark_point().encode(x="x:Q").properties(width=300)
    html = fixed._repr_mimebundle_()
    assert charts.spec_of(html[0]["text/html"] if isinstance(html, tuple) else html["text/html"])["width"] == 300
    monkeypatch.delenv(BOOK_BUILD_ENV)
    charts.setup()
    with pytest.raises(ValueError, match="html is not a chart"):
        charts.spec_of("<table></table>")
    with pytest.raises(ValueError, match="no spec line"):
        charts.spec_of('<div class="perfstudies-chart"></div>')


def test_slider_chart_binds_a_range_slider_to_the_sweep():
    data = pd.DataFrame({"stripes": [1, 2, 3] * 2, "size": [1, 1, 1, 2, 2, 2], "t": [3.0, 2.0, 1.5, 6, 4, 3]})
    spec = charts.slider_chart(data, x="stripes", y="t", slider="size", x_title="stripes",
                               y_title="dump time (s)").to_dict()
    (parameter,) = spec["params"]
    assert parameter["bind"]["input"] == "range"
    assert (parameter["bind"]["min"], parameter["bind"]["max"], parameter["bind"]["step"]) == (1, 2, 1)
    x_axis = spec["layer"][0]["encoding"]["x"]["axis"]
    assert (x_axis["format"], x_axis["tickMinStep"]) == ("d", 1), "an integer parameter has whole ticks"


def test_slider_chart_rejects_uneven_or_single_values():
    with pytest.raises(ValueError, match="not evenly spaced"):
        charts.slider_chart(pd.DataFrame({"s": [1, 2, 4], "x": [1, 2, 3], "y": [1, 2, 3]}), "x", "y", "s",
                            x_title="x (s)", y_title="y (s)")
    with pytest.raises(ValueError, match="at least 2"):
        charts.slider_chart(pd.DataFrame({"s": [1, 1], "x": [1, 2], "y": [1, 2]}), "x", "y", "s",
                            x_title="x (s)", y_title="y (s)")


@pytest.mark.parametrize("facet", ["row", None])
def test_published_vs_model_draws_every_cell_with_its_ci_faceted_or_not(facet):
    cells = [Cell(Published("T1", row, column, 10.0), model=11.0, role=role, ci_half_width=0.5,
                  baseline=12.0 if role == "prediction" else float("nan"))
             for row, role in [("elapsed", "calibration"), ("idle", "prediction")] for column in ["a", "b"]]
    spec = charts.published_vs_model(comparison_table(cells, study="s", document="d"), facet=facet,
                                     y_title="elapsed time (s)").to_dict()
    assert ("facet" in spec) == (facet is not None)
    (data,) = spec["datasets"].values()  # one dataset: points and CI bars share it
    assert len(data) == 2 * len(cells)
    assert {row["source"] for row in data} == {"published", "model"}
    layers = (spec["spec"] if facet else spec)["layer"]
    points = next(layer for layer in layers if layer["mark"]["type"] == "point")
    assert points["encoding"]["xOffset"]["field"] == "source", "published and model marks sit side by side"
    assert points["encoding"]["y"]["title"] == "elapsed time (s)"
    if facet:
        width = spec["spec"]["width"]
        assert spec["columns"] * (width + charts.AXIS_ROOM) + (spec["columns"] - 1) * charts.PANEL_GAP \
            <= charts.COLUMN_WIDTH


@pytest.mark.parametrize("title", ["value", "", "mean", "rel_error", None])
def test_helpers_refuse_an_axis_without_a_quantity(title):
    data = pd.DataFrame({"n": [1, 2, 1, 2], "s": [1, 1, 2, 2], "t": [1.0, 2.0, 3.0, 4.0]})
    with pytest.raises(ValueError, match="^y_title"):
        charts.slider_chart(data, "n", "t", "s", x_title="drives", y_title=title)
    with pytest.raises(ValueError, match="^x_title"):
        charts.line_with_band(data.assign(low=0, high=5), "n", "t", x_title=title, y_title="time (s)")
    with pytest.raises(TypeError):
        charts.published_vs_model(pd.DataFrame())  # y_title is required


def test_one_view_charts_fill_their_container_and_compound_ones_keep_their_width():
    single = alt.Chart(pd.DataFrame({"x": [1]})).mark_point().encode(x="x:Q").properties(
        title="M/M/c: Erlang C (line) and simulation with 95% CI (points)").to_dict()
    sized = charts.fits_container(single)
    assert sized["width"] == "container"
    assert all(len(line) <= charts.PHONE_TITLE_CHARS for line in sized["title"]["text"])
    fixed = alt.Chart(pd.DataFrame({"x": [1]})).mark_point().encode(x="x:Q").properties(width=300).to_dict()
    assert charts.fits_container(fixed)["width"] == 300
    concat = alt.hconcat(alt.Chart(pd.DataFrame({"x": [1]})).mark_point()).to_dict()
    assert "width" not in charts.fits_container(concat)


def test_theme_puts_legends_below_whole_and_long_titles_wrap():
    charts.setup()
    legend = alt.theme.get()()["config"]["legend"]
    assert legend["orient"] == "bottom" and legend["labelLimit"] == 0
    title = charts.wrapped_title("word " * 60, width=300)
    assert all(len(line) <= 300 / (0.55 * 15) for line in title.text)
    assert charts.wrapped_title("short") == "short"


def test_category_labels_sit_level_when_they_fit_their_band_and_slant_when_they_would_collide():
    assert charts.category_axis(["1", "2", "4"], charts.PHONE_PLOT_WIDTH).to_dict()["labelAngle"] == 0
    six = ["SPTAPE DUMP 1", "SPXTAPE DUMP 1", "SPXTAPE DUMP 2", "SPXTAPE DUMP 4", "SPTAPE LOAD 1", "SPXTAPE LOAD 1"]
    assert charts.category_axis(six, charts.PHONE_PLOT_WIDTH).to_dict()["labelAngle"] == charts.SLANT
    with pytest.raises(ValueError, match="^plot_width = 0 is out of range"):
        charts.category_axis(six, 0)
    with pytest.raises(ValueError, match="^labels is empty"):
        charts.category_axis([], 300)
    cells = [Cell(Published("T1", "elapsed", column, 10.0), model=11.0, role="calibration", ci_half_width=0.5)
             for column in six]
    spec = charts.published_vs_model(comparison_table(cells, study="s", document="d"), facet=None,
                                     y_title="elapsed time (s)").to_dict()
    assert spec["layer"][0]["encoding"]["x"]["axis"]["labelAngle"] == charts.SLANT


def test_a_slider_over_numbered_categories_names_the_chosen_one_above_the_plot():
    data = pd.DataFrame({"row": [1, 1, 2, 2], "x": [1.0, 2.0, 1.0, 2.0], "y": [1.0, 2.0, 3.0, 4.0],
                         "name": ["72 GB, 9 GB disks", "72 GB, 9 GB disks", "1152 GB, 36 GB disks", "1152 GB, 36 GB disks"]})
    spec = charts.slider_chart(data, "x", "y", "row", x_title="x (s)", y_title="y (s)", slider_labels="name").to_dict()
    text = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "text")
    assert [row["chosen"] for row in spec["datasets"][text["data"]["name"]]] == ["1: 72 GB, 9 GB disks",
                                                                                  "2: 1152 GB, 36 GB disks"]
    assert text["transform"] == [{"filter": "(datum['row'] === row_slider)"}], "only the chosen row's name is drawn"
    with pytest.raises(ValueError, match="^slider_labels = 'nameless' is not a column"):
        charts.slider_chart(data, "x", "y", "row", x_title="x (s)", y_title="y (s)", slider_labels="nameless")


def test_a_faceted_slider_chart_gives_each_facet_its_own_panel_band_and_fixed_y_axis_under_one_slider():
    data = pd.DataFrame({"rate": [1, 1, 2, 2] * 2, "x": [1.0, 2.0] * 4, "y": [1.0, 2.0, 3.0, 4.0, 10.0, 20.0, 30.0, 40.0],
                         "metric": ["IOSQ"] * 4 + ["RESP"] * 4})
    data = data.assign(low=data["y"] - 0.5, high=data["y"] + 0.5)
    spec = charts.slider_chart(data, "x", "y", "rate", low="low", high="high", facet="metric",
                               x_title="x (s)", y_title="y (s)").to_dict()
    assert [panel["title"]["text"] for panel in spec["vconcat"]] == ["IOSQ", "RESP"]
    assert [len(panel["layer"]) for panel in spec["vconcat"]] == [2, 2], "a band and a line in each panel"
    domains = [panel["layer"][1]["encoding"]["y"]["scale"]["domain"] for panel in spec["vconcat"]]
    assert domains == [[0, pytest.approx(4.5 * 1.05)], [0, pytest.approx(40.5 * 1.05)]]
    assert spec["resolve"]["scale"]["y"] == "independent"
    assert [param["name"] for param in spec["params"]] == ["rate_slider"], "one slider moves every panel"


def test_dashed_lines_keep_coinciding_lines_apart_with_a_dash_legend_of_lines():
    data = pd.DataFrame({"paths": [1] * 4 + [2] * 4, "x": [1.0, 2.0] * 4, "y": [5.0, 3.0, 5.0, 3.0] * 2,
                         "channel": ["ESCON", "ESCON", "FICON", "FICON"] * 2, "device": ["3390-3"] * 8})
    spec = charts.slider_chart(data, "x", "y", "paths", color="device", dash="channel", dash_title="channel",
                               x_title="x (s)", y_title="y (s)").to_dict()
    line = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "line")
    dash = line["encoding"]["strokeDash"]
    assert dash["scale"]["domain"] == ["ESCON", "FICON"] and dash["scale"]["range"][0] == [1, 0]
    assert dash["scale"]["range"][1] != [1, 0], "the second line is dashed"
    assert dash["legend"]["symbolType"] == "stroke"
    assert any(layer["mark"]["type"] == "point" for layer in spec["layer"]), "points in a layer of their own"
