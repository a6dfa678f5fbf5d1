"""Chart helpers: the book renderer and the kernel-free slider chart."""

import altair as alt
import pandas as pd
import pytest

from perfstudies import charts
from perfstudies.compare import Cell, comparison_table
from perfstudies.context import BOOK_BUILD_ENV


def test_book_renderer_draws_with_the_page_vega_embed(monkeypatch):
    monkeypatch.setenv(BOOK_BUILD_ENV, "1")
    assert charts.setup() == "perfstudies-book"
    bundle = alt.Chart(pd.DataFrame({"x": [1, 2]})).mark_point().encode(x="x:Q")._repr_mimebundle_()
    html = bundle[0]["text/html"] if isinstance(bundle, tuple) else bundle["text/html"]
    assert "vegaEmbed(el, spec" in html and "cdn" not in html.lower()
    monkeypatch.delenv(BOOK_BUILD_ENV)
    assert charts.setup() == "default"


def test_slider_chart_binds_a_range_slider_to_the_sweep():
    data = pd.DataFrame({"stripes": [1, 2, 3] * 2, "size": [1, 1, 1, 2, 2, 2], "t": [3.0, 2.0, 1.5, 6, 4, 3]})
    spec = charts.slider_chart(data, x="stripes", y="t", slider="size").to_dict()
    (parameter,) = spec["params"]
    assert parameter["bind"]["input"] == "range"
    assert (parameter["bind"]["min"], parameter["bind"]["max"], parameter["bind"]["step"]) == (1, 2, 1)


def test_slider_chart_rejects_uneven_or_single_values():
    with pytest.raises(ValueError, match="not evenly spaced"):
        charts.slider_chart(pd.DataFrame({"s": [1, 2, 4], "x": [1, 2, 3], "y": [1, 2, 3]}), "x", "y", "s")
    with pytest.raises(ValueError, match="at least 2"):
        charts.slider_chart(pd.DataFrame({"s": [1, 1], "x": [1, 2], "y": [1, 2]}), "x", "y", "s")


@pytest.mark.parametrize("facet", ["row", None])
def test_published_vs_model_draws_every_cell_with_its_ci_faceted_or_not(facet):
    cells = [Cell("T1", row, column, published=10.0, model=11.0, role=role, ci_half_width=0.5)
             for row, role in [("elapsed", "calibration"), ("idle", "prediction")] for column in ["a", "b"]]
    spec = charts.published_vs_model(comparison_table(cells, study="s", document="d"), facet=facet).to_dict()
    assert ("facet" in spec) == (facet is not None)
    (data,) = spec["datasets"].values()  # one dataset: points and CI bars share it
    assert len(data) == 2 * len(cells)
    assert {row["source"] for row in data} == {"published", "model"}
