"""Every chart and diagram of the chapter: the network diagram, capacities, the two slider charts,
the comparison charts and the time at peak write."""

import altair as alt
import numpy as np
import pandas as pd

from perfstudies import charts, data
from perfstudies.diagrams import network_diagram
from perfstudies.models.vts import analytic
from perfstudies.models.vts.explore import COMPRESSIBILITIES, PAF_CACHES_GB, cache_choices, widget_theory
from perfstudies.models.vts.params import KEY, paf
from perfstudies.panel import panel_view
from perfstudies.tables import number, readable


def vts_diagram() -> alt.LayerChart:
    """The VTS's resources as Ciw nodes, with the paths data takes between them."""
    nodes = [
        ("host", 0, 0, "host applications\n(virtual drives)"),
        ("channels", 1, 0, "channels\n4 or 8 ESCON"),
        ("processors", 2, 0, "processors\n2 or 4 RS/6000"),
        ("cache", 2, 1.5, "tape volume cache\nRAID-5 disk arms"),
        ("tape", 1, 1.5, "tape drives\n3-6 x 3590 B/E"),
    ]
    edges = [
        ("host", "channels", "blocks"),
        ("channels", "processors", "compressed"),
        ("processors", "cache", "write / read"),
        ("cache", "tape", "copy-out"),
        ("tape", "processors", "recall"),
    ]
    return network_diagram(nodes, edges, title="The VTS as a queueing network: one Ciw node per resource")


def equation3_lines(sweep: pd.DataFrame) -> pd.DataFrame:
    """Equation 3 (Table 4) at the sweep's points, for the configurations Table 4 covers.

    Rows have the sweep's columns, with ``workload`` marked "(eq. 3)" and no interval.
    """
    table4_groups = set(data.load(KEY, "table4_ehpo_coefficients")["parity_groups"])
    choices = cache_choices()
    covered = choices[(choices["feature"] == "EHPO") & choices["parity_groups"].isin(table4_groups)]
    points = sweep[sweep["index"].isin(covered["index"])].drop(columns=["low", "high", "half_width", "std", "n"])
    groups = points["index"].map(covered.set_index("index")["parity_groups"])
    points["mean"] = [analytic.equation3(w, int(g), cf)
                      for w, g, cf in zip(points["workload"], groups, points["compressibility"])]
    points["workload"] = points["workload"] + " (eq. 3)"
    return points


def capacity_chart(workload: str = "sustained_write") -> alt.Chart:
    """Each resource's capacity against compressibility for the PAF machine; the lowest is the bound."""
    rows = [{"CF": cf, "resource": name, "host MB/s": value}
            for cf in np.round(np.arange(1.0, 4.01, 0.25), 2)
            for name, value in analytic.capacities(paf(compressibility=float(cf), workload=workload)).items()]
    return alt.Chart(pd.DataFrame(rows)).mark_line(point=True).encode(
        x=alt.X("CF:Q", title="data compressibility CF"),
        y=alt.Y("host MB/s:Q", title="capacity of the resource alone (host MB/s)", scale=alt.Scale(type="log")),
        color=alt.Color("resource:N", title="resource"),
        tooltip=["CF", "resource", alt.Tooltip("host MB/s:Q", format=".1f")],
    ).properties(title=f"PAF {workload.replace('_', ' ')}: each resource's capacity; the lowest line is the bound")


def throughput_scatter(table: pd.DataFrame) -> alt.LayerChart:
    """Model against published host MB/s for the throughput cells, with 95% CI bars."""
    # the cells measured in host MB/s (a calibration or derived note starts with what it sets or how it follows)
    cells = table[table["note"].str.contains(r"(?:^|\. )host MB/s")].copy()
    cells["cell"] = cells["table"] + ": " + cells["row"] + ", " + cells["column"]
    cells["low"] = cells["model"] - cells["ci_half_width"]
    cells["high"] = cells["model"] + cells["ci_half_width"]
    largest = float(max(cells["published"].max(), cells["high"].max())) * 1.1
    scale = alt.Scale(domain=[0, largest])
    diagonal = alt.Chart(pd.DataFrame({"x": [0, largest], "y": [0, largest]})).mark_line(
        color=charts.PUBLISHED_COLOR, strokeDash=[4, 4]).encode(
        x=alt.X("x:Q", scale=scale), y=alt.Y("y:Q", scale=scale))
    base = alt.Chart(cells).encode(x=alt.X("published:Q", title="published host MB/s", scale=scale))
    bars = base.mark_rule(color=charts.MODEL_COLOR).encode(y=alt.Y("low:Q", scale=scale), y2="high:Q")
    points = base.mark_point(filled=True, size=70).encode(
        y=alt.Y("model:Q", title="model host MB/s (mean of replications)", scale=scale),
        color=alt.Color("role:N", scale=alt.Scale(domain=["calibration", "derived", "prediction"],
                                                  range=[charts.PUBLISHED_COLOR, "#999999", charts.MODEL_COLOR])),
        tooltip=["cell", "published", alt.Tooltip("model:Q", format=".2f"),
                 alt.Tooltip("rel_error:Q", format="+.1%"), "role"])
    # no set width: the book sizes the chart to the text column and redraws it narrower on a phone
    return alt.layer(diagonal, bars, points).properties(
        height=380, title="Throughput cells: model against published (dashed: equal)")


def hours_at_peak_chart() -> alt.Chart:
    """Cache capacity against hours of PAF peak write from an empty cache, one line per CF (cf. Fig. 10)."""
    hours = pd.DataFrame([{"cache GB": c, "CF": f"CF {cf:g}",
                           "hours": analytic.hours_at_peak(paf(capacity_gb=c, compressibility=cf))}
                          for c in PAF_CACHES_GB for cf in COMPRESSIBILITIES])
    return alt.Chart(hours).mark_line(point=True).encode(
        x=alt.X("hours:Q", title="hours of peak write from an empty cache"),
        y=alt.Y("cache GB:Q", axis=charts.integer_axis("tape volume cache (GB)")),
        color=alt.Color("CF:N", title="compressibility"),
        tooltip=["cache GB", "CF", alt.Tooltip("hours:Q", format=".1f")],
    ).properties(title="PAF: cache needed for a period of peak write (model, upper limit)")


def table4_chart(table: pd.DataFrame) -> alt.FacetChart:
    """Table 4's m and b, published beside the model's (fitted to its bound), one panel per coefficient.

    Only the coefficients are drawn, as points, so the title names them, not the lines they describe.
    """
    cells = table[table["table"].str.startswith("Table 4") & table["row"].str.endswith((" m", " b"))]
    long = pd.concat([cells.assign(source="published", value=cells["published"]),
                      cells.assign(source="model", value=cells["model"])])
    order = list(dict.fromkeys(cells["column"]))
    return alt.Chart(long).mark_point(filled=True, size=80).encode(
        x=alt.X("column:N", title="cache (36 GB / 9 GB disks)", sort=order),
        y=alt.Y("value:Q", title="MB/s (m: per unit CF)"),
        color=alt.Color("source:N", title=None, scale=alt.Scale(domain=["published", "model"],
                                                                range=[charts.PUBLISHED_COLOR, charts.MODEL_COLOR])),
        shape=alt.Shape("role:N", title="cell role"),
        tooltip=["row", "column", "role", "published", alt.Tooltip("model:Q", format=".2f"),
                 alt.Tooltip("rel_error:Q", format="+.1%")],
    ).properties(width=charts.panel_width(2), height=170).facet(
        facet=alt.Facet("row:N", title=None), columns=2, spacing=charts.PANEL_GAP).resolve_scale(
        y="independent").properties(title=charts.wrapped_title(
            "Table 4: EHPO slope m and intercept b of write against CF, published and model"))


def write_slider(sweep: pd.DataFrame) -> alt.Chart:
    """Peak and sustained write against compressibility; the slider picks Table 3's cache configuration.

    For the 2+P layouts Table 4 covers, equation 3's lines are drawn beside the simulation.
    """
    chart = pd.concat([sweep, equation3_lines(sweep)]).rename(
        columns={"index": "cache configuration", "mean": "host MB/s"})
    chart["workload"] = chart["workload"].str.replace("_", " ")
    return charts.slider_chart(chart, x="compressibility", y="host MB/s", slider="cache configuration",
                               color="workload", low="low", high="high", x_title="data compressibility CF",
                               y_title="host MB/s", slider_name="cache configuration (Table 3 row)",
                               slider_labels="label", title="Peak and sustained write against compressibility")


def recall_slider(sweep: pd.DataFrame) -> alt.Chart:
    """Recall mount response against the recall queue; the slider picks the number of drives (cf. Fig. 6)."""
    chart = sweep.rename(columns={"mean": "minutes", "recall_queue": "recalls queued ahead"})
    chart["volume"] = chart["volume_mb"].map(lambda mb: f"{mb:.0f} MB")
    return charts.slider_chart(chart, x="recalls queued ahead", y="minutes", slider="drives", color="volume",
                               low="low", high="high", x_title="recalls queued ahead of a new one",
                               y_title="recall mount response (minutes)", slider_name="tape drives",
                               title="Recall mount response against queue length (CF 3, 3590B, 95% CI)")


def widget_view(result: pd.DataFrame) -> tuple:
    """The live panel's output: the simulated metrics with their paired change from the default
    (:func:`perfstudies.panel.panel_view`), then the closed forms at the same setting."""
    theory = widget_theory(result.attrs["params"])
    theory["theory"] = [value if isinstance(value, str) else number(value) for value in theory["theory"]]
    return panel_view(result), readable(theory, names={"theory": "theory at this setting"})
