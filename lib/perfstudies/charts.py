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
import numbers
import re

import altair as alt
import pandas as pd

from perfstudies.context import building_book

PUBLISHED_COLOR = "#4c4c4c"
MODEL_COLOR = "#d95f02"
#: Width of the book's text column at a 1300 px window (measured in the built book):
#: the widest a chart may be, axes, legends and titles included.
COLUMN_WIDTH = 640
#: Widest width any chart function accepts, in pixels (a bound, not a style).
MAX_PIXELS = 10_000
#: Plot area of a single chart that leaves room for a y axis inside :data:`COLUMN_WIDTH`.
WIDTH = 540
HEIGHT = 280
#: Plot height of each panel of a faceted slider chart (panels stack).
FACET_HEIGHT = 120
#: Room one y axis (labels and title) takes beside a plot, and the gap between panels.
AXIS_ROOM = 70
PANEL_GAP = 20
#: Longest title line of a chart that fills its container: it must fit a phone's text column too.
PHONE_TITLE_CHARS = 44
#: Narrowest plot a chart sized to its container gets: a phone's text column less the y axis.
PHONE_PLOT_WIDTH = 300
#: Average width of one character of an axis label (12 px font), in pixels.
LABEL_CHAR_WIDTH = 7
#: Slant of category labels too long to sit level in their band.
SLANT = -40
#: Axis titles that say nothing about the quantity; helpers refuse them.
VAGUE_TITLES = frozenset({"", "value", "values", "mean", "y", "x", "count", "number"})

_chart_ids = itertools.count()


_COMPOUND = ("facet", "repeat", "concat", "hconcat", "vconcat")


def fits_container(spec: dict) -> dict:
    """``spec`` sized to its container's width when it is one view (or layers of one) of no set width.

    Such a chart fills the text column and redraws narrower on a small screen,
    with its text at full size.  Charts with a set width (diagrams, facets,
    concatenations) keep it; the book's stylesheet scales them down as a whole
    where the column is narrower.
    """
    if not isinstance(spec, dict):
        raise ValueError(f"spec = {type(spec).__name__} has the wrong type: allowed a Vega-Lite spec as a dict")
    if any(key in spec for key in _COMPOUND) or "width" in spec or not ("mark" in spec or "layer" in spec):
        return spec
    sized = {**spec, "width": "container", "autosize": spec.get("autosize", {"type": "fit-x", "contains": "padding"})}
    if "title" in spec:  # the title must fit a phone's column too: lines of at most PHONE_TITLE_CHARS
        title = spec["title"] if isinstance(spec["title"], dict) else {"text": spec["title"]}
        lines = title.get("text", "")
        text = " ".join(lines) if isinstance(lines, list) else str(lines)
        wrapped = wrapped_title(text, width=PHONE_TITLE_CHARS * 0.55 * 15)
        sized["title"] = {**title, "text": wrapped.text if isinstance(wrapped, alt.TitleParams) else wrapped}
    return sized


def _book_renderer(spec: dict, **metadata) -> dict:
    """Render a Vega-Lite spec as HTML that uses the page's global ``vegaEmbed``."""
    text = json.dumps(fits_container(spec), sort_keys=True)
    chart_id = f"chart-{hashlib.sha1(text.encode()).hexdigest()[:10]}-{next(_chart_ids)}"
    # Never wider than the text column: see fits_container and book/_ext/static/perfstudies.css.
    html = f"""<div id="{chart_id}" class="perfstudies-chart" style="max-width: 100%"></div>
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


#: How :func:`_book_renderer` writes a chart's spec into its HTML (one line of JSON), read back by :func:`spec_of`.
_SPEC_LINE = re.compile(r"^  var spec = (\{.*\});$", re.MULTILINE)


def spec_of(html: str) -> dict:
    """The Vega-Lite spec of a chart the book's renderer wrote as ``html``, sized for print.

    The print edition draws each chart as a static image from this spec (the
    page's script cannot run on paper).  A chart that fills its container
    (:func:`fits_container`) is drawn :data:`COLUMN_WIDTH` wide, as on a
    desktop screen; others keep their width.
    """
    if not isinstance(html, str) or 'class="perfstudies-chart"' not in html:
        raise ValueError("html is not a chart of the book's renderer: allowed the text/html output of a chart "
                         "drawn while the book builds")
    found = _SPEC_LINE.search(html)
    if found is None:
        raise ValueError("html holds no spec line: allowed the text/html output of a chart drawn while the book "
                         "builds")
    spec = json.loads(found.group(1))
    return {**spec, "width": COLUMN_WIDTH} if spec.get("width") == "container" else spec


@alt.theme.register("perfstudies", enable=False)
def _theme() -> alt.theme.ThemeConfig:
    return {
        "config": {
            "view": {"continuousWidth": WIDTH, "continuousHeight": HEIGHT, "stroke": None},
            # labels closer than 4 px read as one number ("0.020.03"): Vega hides every other one instead
            "axis": {"labelFontSize": 12, "titleFontSize": 13, "grid": True, "gridOpacity": 0.4, "labelSeparation": 4},
            # below the plot, never truncated, two entries a row: a legend neither widens a chart
            # past the text column nor cuts a label short
            "legend": {"labelFontSize": 12, "titleFontSize": 12, "orient": "bottom", "direction": "horizontal",
                       "columns": 2, "labelLimit": 0, "columnPadding": 16, "symbolOpacity": 1},
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


def axis_title(name: str, title) -> str:
    """``title`` if it names a quantity (and its unit); a ValueError naming ``name`` otherwise.

    Every axis a reader sees says what it measures, with its unit, such as
    ``"elapsed time (s)"`` or ``"utilisation per server"``.  Empty titles,
    :data:`VAGUE_TITLES` (``"value"``, ``"mean"``, ...) and code names with
    underscores (``"rel_error"``) are refused.
    """
    if not isinstance(title, str) or title.strip().lower() in VAGUE_TITLES or (
            "_" in title and " " not in title.strip()):
        raise ValueError(f"{name} = {title!r} is not allowed: allowed a title naming the quantity and its unit, "
                         "e.g. 'elapsed time (s)'")
    return title


def wrapped_title(text: str, width: float = COLUMN_WIDTH, font_size: float = 15) -> alt.TitleParams | str:
    """A chart title broken into lines at spaces so that no line is wider than ``width`` pixels.

    A long title would otherwise widen its chart past the text column.
    """
    if not isinstance(text, str):
        raise ValueError(f"text = {text!r} has the wrong type: allowed a string")
    if isinstance(width, bool) or not isinstance(width, numbers.Real) or not 100 <= width <= MAX_PIXELS:
        raise ValueError(f"width = {width!r} is out of range: allowed a number of pixels 100 <= width <= {MAX_PIXELS}")
    if isinstance(font_size, bool) or not isinstance(font_size, numbers.Real) or not 1 <= font_size <= 200:
        raise ValueError(f"font_size = {font_size!r} is out of range: allowed a number of pixels 1 <= font_size <= 200")
    most = max(10, int(width / (0.55 * font_size)))
    if len(text) <= most:
        return text
    return alt.TitleParams(text=wrap_words(text, most))


def wrap_words(text: str, most: int) -> list[str]:
    """``text`` broken between words into lines of at most ``most`` characters (a longer word stays whole)."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > most:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line]


def integer_axis(title: str, **options) -> alt.Axis:
    """An axis for an integer parameter (drives, stripes, servers): whole-number ticks only."""
    return alt.Axis(title=axis_title("title", title), format="d", tickMinStep=1, **options)


def category_axis(labels, plot_width: float, **options) -> alt.Axis:
    """An x axis of categories whose labels never overlap: level when each fits its band, else slanted.

    ``labels`` are the categories along the axis and ``plot_width`` the narrowest the plot is drawn
    (:data:`PHONE_PLOT_WIDTH` for a chart sized to its container).  Level labels wider than their
    band run into their neighbours; slanted by :data:`SLANT` degrees they need only a band as wide
    as a line of text is high.
    """
    labels = [str(label) for label in labels]
    if not labels:
        raise ValueError("labels is empty: allowed at least one category")
    if isinstance(plot_width, bool) or not isinstance(plot_width, numbers.Real) or not 10 <= plot_width <= MAX_PIXELS:
        raise ValueError(f"plot_width = {plot_width!r} is out of range: allowed a number of pixels "
                         f"10 <= plot_width <= {MAX_PIXELS}")
    level = max(map(len, labels)) * LABEL_CHAR_WIDTH <= plot_width / len(labels) - 4
    return alt.Axis(labelAngle=0 if level else SLANT, labelLimit=120, **options)


def _is_integer(column: pd.Series) -> bool:
    values = pd.to_numeric(column, errors="coerce").dropna()
    return pd.api.types.is_integer_dtype(column) or (not values.empty and bool((values == values.round()).all())
                                                      and values.nunique() <= 30)


def _x_axis(data: pd.DataFrame, x: str, title: str) -> alt.Axis:
    axis_title("x_title", title)
    return integer_axis(title) if _is_integer(data[x]) else alt.Axis(title=title)


def _columns_present(data: pd.DataFrame, **columns) -> None:
    for name, column in columns.items():
        if column is not None and column not in data.columns:
            raise ValueError(f"{name} = {column!r} is not a column of the data: allowed one of {list(data.columns)}")


def panel_width(columns: int) -> int:
    """Plot width of each of ``columns`` side-by-side panels (each with its own y axis) in the text column."""
    if isinstance(columns, bool) or not isinstance(columns, int) or not 1 <= columns <= 4:
        raise ValueError(f"columns = {columns!r} is out of range: allowed an integer 1 <= columns <= 4")
    return int((COLUMN_WIDTH - columns * AXIS_ROOM - (columns - 1) * PANEL_GAP) / columns)


def published_vs_model(table: pd.DataFrame, *, y_title: str, x: str = "column", facet: str | None = "row",
                       title: str = "Published vs model", columns: int = 2, width: int | None = None,
                       height: int = 180) -> alt.Chart:
    """Published values beside model means with 95% CI bars, from a comparison table.

    ``table`` has the columns of :func:`perfstudies.compare.comparison_table`;
    ``x`` and ``facet`` name the columns to lay the cells out by (``columns``
    panels a row).  Published (grey) and model (orange) marks sit side by side
    at each ``x``, so neither hides the other; the shape tells the cell's role
    (calibration, derived, prediction).  ``y_title`` names the quantity and its
    unit (required; :func:`axis_title`).  Panels fit the text column unless
    ``width`` (of each plot) says otherwise.
    """
    axis_title("y_title", y_title)
    if not isinstance(table, pd.DataFrame):
        raise ValueError(f"table = {type(table).__name__} has the wrong type: allowed a comparison table")
    _columns_present(table, x=x, facet=facet)
    frame = table.copy()
    frame["low"] = frame["model"] - frame["ci_half_width"].fillna(0)
    frame["high"] = frame["model"] + frame["ci_half_width"].fillna(0)
    long = pd.concat([
        frame.assign(source="published", value=frame["published"]),
        frame.assign(source="model", value=frame["model"]),
    ])
    sources = alt.Scale(domain=["published", "model"], range=[PUBLISHED_COLOR, MODEL_COLOR])
    categories = list(dict.fromkeys(frame[x]))
    narrowest = width or (panel_width(columns) if facet else PHONE_PLOT_WIDTH)
    base = alt.Chart(long).encode(
        x=alt.X(f"{x}:N", title=None, sort=categories, axis=category_axis(categories, narrowest)),
        xOffset=alt.XOffset("source:N", sort=["published", "model"], scale=alt.Scale(paddingOuter=0.3)))
    points = base.mark_point(filled=True, size=70, opacity=1).encode(
        y=alt.Y("value:Q", title=y_title),
        color=alt.Color("source:N", scale=sources, title=None),
        shape=alt.Shape("role:N", title="cell role", scale=alt.Scale(
            domain=["calibration", "derived", "prediction"], range=["square", "triangle-up", "circle"])),
        tooltip=[alt.Tooltip("table:N"), alt.Tooltip("row:N"), alt.Tooltip("column:N"),
                 alt.Tooltip("published:Q", format=",.4~r"), alt.Tooltip("model:Q", format=",.4~r"),
                 alt.Tooltip("ci_half_width:Q", format=",.2~r", title="95% CI ±"),
                 alt.Tooltip("rel_error:Q", format="+.1%", title="error"), alt.Tooltip("role:N")],
    )
    # The CI bars come from the same data as the points (a facet needs one dataset).
    bars = base.mark_rule(color=MODEL_COLOR, strokeWidth=2).encode(y="low:Q", y2="high:Q").transform_filter(
        alt.datum.source == "model")
    if facet:
        plot_width = width or panel_width(columns)
        layered = alt.layer(bars, points).properties(width=plot_width, height=height)
        return (layered.facet(facet=alt.Facet(f"{facet}:N", title=None, sort=list(dict.fromkeys(frame[facet])),
                                              header=alt.Header(labelLimit=plot_width + AXIS_ROOM)),
                              columns=columns, spacing=PANEL_GAP)
                .resolve_scale(y="independent").properties(title=wrapped_title(title)))
    return alt.layer(bars, points).properties(width=width or WIDTH, height=height,
                                              title=wrapped_title(title, (width or WIDTH) + AXIS_ROOM))


def line_with_band(summary: pd.DataFrame, x: str, y: str = "mean", low: str = "low", high: str = "high",
                   color: str | None = None, *, x_title: str, y_title: str, color_title: str | None = None,
                   title: str = "") -> alt.LayerChart:
    """Mean line with its confidence band, e.g. from :func:`perfstudies.runner.summarize`.

    ``x_title`` and ``y_title`` name each quantity with its unit (required);
    an integer ``x`` (drives, stripes) gets whole-number ticks.
    """
    if not isinstance(summary, pd.DataFrame):
        raise ValueError(f"summary = {type(summary).__name__} has the wrong type: allowed a pandas DataFrame")
    _columns_present(summary, x=x, y=y, low=low, high=high, color=color)
    x_axis = _x_axis(summary, x, x_title)
    axis_title("y_title", y_title)
    encode_color = {"color": alt.Color(f"{color}:N", title=color_title)} if color else {}
    base = alt.Chart(summary).encode(x=alt.X(f"{x}:Q", axis=x_axis), **encode_color)
    band = base.mark_area(opacity=0.25, clip=True).encode(
        y=alt.Y(f"{low}:Q", title=y_title), y2=f"{high}:Q")
    line = base.mark_line(point=True).encode(y=f"{y}:Q", tooltip=list(summary.columns))
    return alt.layer(band, line).properties(title=wrapped_title(title))


def slider_chart(data: pd.DataFrame, x: str, y: str, slider: str, color: str | None = None,
                 low: str | None = None, high: str | None = None, *, x_title: str, y_title: str,
                 slider_name: str | None = None, color_title: str | None = None, title: str = "",
                 slider_labels: str | None = None, facet: str | None = None, dash: str | None = None,
                 dash_title: str | None = None) -> alt.LayerChart | alt.VConcatChart:
    """A kernel-free interactive chart: a slider picks which slice of ``data`` is drawn.

    ``data`` is a precomputed sweep; ``slider`` names the numeric column the
    slider moves over (its distinct values must be evenly spaced).  The slider
    is a Vega-Lite parameter, so it works in the static book with no kernel.
    Optional ``low``/``high`` columns draw a confidence band.  ``x_title`` and
    ``y_title`` name each quantity with its unit (required); an integer ``x``
    gets whole-number ticks.  The y axis spans every slice, so moving the
    slider shows the change against a fixed scale and no point leaves the plot.
    Where the slider's numbers stand for categories (Table 3's rows), the
    ``slider_labels`` column names each one, and the chosen one's name is
    written above the plot, so the reader needs no lookup table.  With
    ``facet``, each value of that column gets a panel of its own (stacked, one
    slider for all, each panel's y axis fixed over the slider's range), so
    bands that would overlap in one plot are each seen whole.  ``dash`` names
    a column whose values get lines of their own dash (the first solid, the
    others dashed and drawn above it), so two lines that coincide both show.
    """
    if not isinstance(data, pd.DataFrame):
        raise ValueError(f"data = {type(data).__name__} has the wrong type: allowed a pandas DataFrame")
    _columns_present(data, x=x, y=y, slider=slider, color=color, low=low, high=high, slider_labels=slider_labels,
                     facet=facet, dash=dash)
    if (low is None) != (high is None):
        raise ValueError(f"low = {low!r}, high = {high!r}: allowed both columns or neither")
    values = sorted(data[slider].unique())
    if len(values) < 2:
        raise ValueError(f"slider = {slider!r} has {len(values)} distinct value(s): allowed at least 2")
    steps = {round(b - a, 12) for a, b in zip(values, values[1:])}
    if len(steps) != 1:
        raise ValueError(f"slider = {slider!r} values {values} are not evenly spaced")
    x_axis = _x_axis(data, x, x_title)
    axis_title("y_title", y_title)
    step = steps.pop()
    start = values[0]
    if _is_integer(data[slider]):
        step, start = int(step), int(start)
    pick = alt.param(name=f"{slider}_slider".replace(" ", "_"), value=start,
                     bind=alt.binding_range(min=start, max=values[-1], step=step,
                                            name=f"{slider_name or slider} "))
    encode_color = {"color": alt.Color(f"{color}:N", title=color_title)} if color else {}
    dashed = {}
    if dash:
        dashes = list(dict.fromkeys(data[dash]))
        dashed["strokeDash"] = alt.StrokeDash(f"{dash}:N", title=dash_title, sort=dashes, scale=alt.Scale(
            domain=dashes, range=[[1, 0], *[[6 - i, 3] for i in range(len(dashes) - 1)]]),
            legend=alt.Legend(symbolType="stroke", symbolSize=400, symbolStrokeWidth=2, symbolStrokeColor="#333333"))
        encode_color["detail"] = alt.Detail(f"{dash}:N")  # a band per line, not one per colour
    x_scale = alt.Scale(domain=[float(data[x].min()), float(data[x].max())])

    def layers(part: pd.DataFrame) -> list:
        y_max = float((part[high] if high else part[y]).max())
        y_scale = alt.Scale(domain=[0, y_max * 1.05])
        base = alt.Chart(part).transform_filter(alt.datum[slider] == pick).encode(
            x=alt.X(f"{x}:Q", axis=x_axis, scale=x_scale), **encode_color)
        y_encoding = alt.Y(f"{y}:Q", title=y_title, scale=y_scale)
        # dashed lines carry their points in a layer of their own, so the dash legend shows lines, not dots
        line = base.mark_line(point=not dash).encode(y=y_encoding, tooltip=list(data.columns), **dashed)
        lines = [line, base.mark_point(filled=True, opacity=1).encode(y=y_encoding)] if dash else [line]
        if not (low and high):
            return lines
        return [base.mark_area(opacity=0.2, clip=True).encode(y=alt.Y(f"{low}:Q", scale=y_scale), y2=f"{high}:Q"),
                *lines]

    named = [_chosen_name(data, slider, slider_labels, pick)] if slider_labels else []
    if facet is None:
        return alt.layer(*layers(data), *named).add_params(pick).properties(title=wrapped_title(title))
    panels = [alt.layer(*layers(part)).properties(title=alt.TitleParams(str(value), fontSize=13), width=WIDTH,
                                                    height=FACET_HEIGHT)
              for value, part in data.groupby(facet, sort=False)]
    if named:
        panels[0] = alt.layer(panels[0], *named)
    return alt.vconcat(*panels, spacing=PANEL_GAP).resolve_scale(y="independent").add_params(pick).properties(
        title=wrapped_title(title))


def _chosen_name(data: pd.DataFrame, slider: str, slider_labels: str, pick) -> alt.Chart:
    """The name of the slider's chosen category (``"4: 1152 GB, 36 GB disks, 4(2+P), EHPO"``), above the plot."""
    names = data[[slider, slider_labels]].dropna().drop_duplicates(slider)
    if names.empty:
        raise ValueError(f"slider_labels = {slider_labels!r} names no slider value: allowed a column with a name "
                         f"for each value of {slider!r}")
    names = names.assign(chosen=[f"{value:g}: {name}" if isinstance(value, numbers.Real) else f"{value}: {name}"
                                 for value, name in zip(names[slider], names[slider_labels])])
    return alt.Chart(names).transform_filter(alt.datum[slider] == pick).mark_text(
        align="left", baseline="bottom", dy=-6, fontSize=12, fontWeight="bold").encode(
        x=alt.value(0), y=alt.value(0), text="chosen:N")
