"""Altair charts that look alike across studies and render offline in the book.

Call :func:`setup` once at the top of a notebook.  Outside the book build it
enables Altair's ``mimetype`` renderer: a chart becomes an
``application/vnd.vegalite.v5+json`` output that the front end draws with its
own Vega, so nothing is fetched from a CDN.  JupyterLab 4 (``make lab``;
``tests/test_lab_browser.py`` checks every chart draws offline) uses the Vega
bundled in JupyterLab (Vega-Lite 5.6 in JupyterLab 4.6: it warns in the
console that Altair's specs name a newer 5.x, and draws them); Notebook 7 is
built from the same parts.  VS Code draws this output with its Jupyter
renderers extension.  Classic Notebook 6 / nbclassic has no renderer for it and
shows Altair's "renderer has not been properly enabled" text instead: there,
with a network, ``alt.renderers.enable("default")`` after ``setup()`` draws
from the CDN.  During a book build (:func:`perfstudies.context.building_book`)
charts become a ``<div>`` plus a script that calls the ``vegaEmbed`` loaded
from the book's own ``_static/vendor`` files, so pages need no network."""

import hashlib
import itertools
import json

import altair as alt
import pandas as pd

from perfstudies.context import building_book

PUBLISHED_COLOR = "#4c4c4c"
MODEL_COLOR = "#d95f02"
WIDTH = 520
HEIGHT = 280

_chart_ids = itertools.count()


def _book_renderer(spec: dict, **metadata) -> dict:
    """Render a Vega-Lite spec as HTML that uses the page's global ``vegaEmbed``."""
    text = json.dumps(spec, sort_keys=True)
    chart_id = f"chart-{hashlib.sha1(text.encode()).hexdigest()[:10]}-{next(_chart_ids)}"
    # A chart wider than the page's text column scrolls sideways instead of being cut off.
    html = f"""<div id="{chart_id}" class="perfstudies-chart" style="max-width: 100%; overflow-x: auto"></div>
<script type="text/javascript">
(function () {{
  var el = document.getElementById("{chart_id}");
  var spec = {text};
  function draw() {{
    vegaEmbed(el, spec, {{"actions": false, "renderer": "svg"}}).catch(function (error) {{
      el.textContent = "Chart failed to draw: " + error;
      console.error(error);
    }});
  }}
  if (window.vegaEmbed) {{ draw(); }} else {{ window.addEventListener("load", draw); }}
}})();
</script>"""
    return {"text/html": html}


@alt.theme.register("perfstudies", enable=False)
def _theme() -> alt.theme.ThemeConfig:
    return {
        "config": {
            "view": {"continuousWidth": WIDTH, "continuousHeight": HEIGHT, "stroke": None},
            "axis": {"labelFontSize": 12, "titleFontSize": 13, "grid": True, "gridOpacity": 0.4},
            "legend": {"labelFontSize": 12, "titleFontSize": 12},
            "title": {"fontSize": 15, "anchor": "start"},
            "range": {"category": ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02"]},
        }
    }


# Options for vega-embed in JupyterLab: SVG like the book, and only the menu
# entries that work offline (saving the chart; not "Open in Vega Editor").
LIVE_EMBED_OPTIONS = {"renderer": "svg",
                      "actions": {"export": True, "source": False, "compiled": False, "editor": False}}


def setup() -> str:
    """Enable the house theme and the right renderer; return the renderer's name.

    ``"perfstudies-book"`` while the book builds (the page's own ``vegaEmbed``),
    ``"mimetype"`` anywhere else (the front end's own Vega, no network).
    """
    alt.theme.enable("perfstudies")
    alt.data_transformers.disable_max_rows()
    if building_book():
        alt.renderers.register("perfstudies-book", _book_renderer)
        alt.renderers.enable("perfstudies-book")
        return "perfstudies-book"
    alt.renderers.enable("mimetype", embed_options=LIVE_EMBED_OPTIONS)
    return "mimetype"


def published_vs_model(table: pd.DataFrame, x: str = "column", facet: str | None = "row",
                       title: str = "Published vs model") -> alt.Chart:
    """Published values beside model means with 95% CI bars, from a comparison table.

    ``table`` has the columns of :func:`perfstudies.compare.comparison_table`;
    ``x`` and ``facet`` name the columns to lay the cells out by.
    """
    frame = table.copy()
    frame["low"] = frame["model"] - frame["ci_half_width"].fillna(0)
    frame["high"] = frame["model"] + frame["ci_half_width"].fillna(0)
    long = pd.concat([
        frame.assign(source="published", value=frame["published"]),
        frame.assign(source="model", value=frame["model"]),
    ])
    base = alt.Chart(long).encode(x=alt.X(f"{x}:N", title=None))
    points = base.mark_point(filled=True, size=80).encode(
        y=alt.Y("value:Q", title="value"),
        color=alt.Color("source:N", scale=alt.Scale(domain=["published", "model"],
                                                    range=[PUBLISHED_COLOR, MODEL_COLOR])),
        shape=alt.Shape("role:N", title="model cell role"),
        tooltip=["table", "row", "column", "published", "model", "ci_half_width",
                 alt.Tooltip("rel_error:Q", format="+.1%"), "role"],
    )
    # The CI bars come from the same data as the points (a facet needs one dataset).
    bars = base.mark_rule(color=MODEL_COLOR).encode(y="low:Q", y2="high:Q").transform_filter(
        alt.datum.source == "model")
    layered = alt.layer(bars, points).properties(width=180, height=200)
    if facet:
        return (layered.facet(facet=alt.Facet(f"{facet}:N", title=None), columns=3)
                .resolve_scale(y="independent").properties(title=title))
    return layered.properties(title=title)


def line_with_band(summary: pd.DataFrame, x: str, y: str = "mean", low: str = "low", high: str = "high",
                   color: str | None = None, y_title: str | None = None, title: str = "") -> alt.Chart:
    """Mean line with its confidence band, e.g. from :func:`perfstudies.runner.summarize`."""
    encode_color = {"color": alt.Color(f"{color}:N")} if color else {}
    base = alt.Chart(summary).encode(x=alt.X(f"{x}:Q"), **encode_color)
    band = base.mark_area(opacity=0.25, clip=True).encode(
        y=alt.Y(f"{low}:Q", title=y_title or y), y2=f"{high}:Q")
    line = base.mark_line(point=True).encode(y=f"{y}:Q", tooltip=list(summary.columns))
    return alt.layer(band, line).properties(title=title)


def slider_chart(data: pd.DataFrame, x: str, y: str, slider: str, color: str | None = None,
                 low: str | None = None, high: str | None = None, x_title: str | None = None,
                 y_title: str | None = None, slider_name: str | None = None, title: str = "") -> alt.Chart:
    """A kernel-free interactive chart: a slider picks which slice of ``data`` is drawn.

    ``data`` is a precomputed sweep; ``slider`` names the numeric column the
    slider moves over (its distinct values must be evenly spaced).  The slider
    is a Vega-Lite parameter, so it works in the static book with no kernel.
    Optional ``low``/``high`` columns draw a confidence band.
    """
    values = sorted(data[slider].unique())
    if len(values) < 2:
        raise ValueError(f"slider = {slider!r} has {len(values)} distinct value(s): allowed at least 2")
    steps = {round(b - a, 12) for a, b in zip(values, values[1:])}
    if len(steps) != 1:
        raise ValueError(f"slider = {slider!r} values {values} are not evenly spaced")
    pick = alt.param(name=f"{slider}_slider".replace(" ", "_"), value=values[0],
                     bind=alt.binding_range(min=values[0], max=values[-1], step=steps.pop(),
                                            name=f"{slider_name or slider} "))
    encode_color = {"color": alt.Color(f"{color}:N")} if color else {}
    x_scale = alt.Scale(domain=[float(data[x].min()), float(data[x].max())])
    y_max = float((data[high] if high else data[y]).max())
    y_scale = alt.Scale(domain=[0, y_max * 1.05])
    base = alt.Chart(data).transform_filter(alt.datum[slider] == pick).encode(
        x=alt.X(f"{x}:Q", title=x_title or x, scale=x_scale), **encode_color)
    line = base.mark_line(point=True).encode(
        y=alt.Y(f"{y}:Q", title=y_title or y, scale=y_scale), tooltip=list(data.columns))
    layers = [line]
    if low and high:
        band = base.mark_area(opacity=0.2, clip=True).encode(y=alt.Y(f"{low}:Q", scale=y_scale), y2=f"{high}:Q")
        layers.insert(0, band)
    return alt.layer(*layers).add_params(pick).properties(title=title)
