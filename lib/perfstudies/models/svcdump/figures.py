"""Every table, chart and diagram the chapter shows, built from the model so the chapter's code cells stay short.

Tables come from the closed forms of :mod:`.analytic` and the calibration;
charts take the tidy summaries of :mod:`.explore` (a sweep summarized per
configuration) or the comparison table and return Altair charts in the house
style.
"""

import altair as alt
import pandas as pd

from perfstudies import charts
from perfstudies.diagrams import network_diagram
from perfstudies.models.svcdump import analytic
from perfstudies.models.svcdump.calibration import CALIBRATED_ON, calibrate, calibrated_params
from perfstudies.models.svcdump.params import BLOCKS_PER_IO, CHANNELS, DEVICES
from perfstudies.tables import percent, readable

STRIPES = list(range(1, 9))
X_STRIPES = alt.X("stripes:Q", title="stripes", axis=alt.Axis(tickMinStep=1, format="d"))
#: How the chapter names the metrics it plots.
RESOURCE_LABELS = {"cpu_util": "capture CPU", "volume_util": "volumes (mean)", "channel_util": "channel paths"}


def network() -> alt.LayerChart:
    """The dump network: every effect of the document has a node."""
    return network_diagram(
        nodes=[("dump", 0, 1, "dump in storage\n(all chunks at t=0)"),
               ("page", 0.8, 0, "page-in\n(page data sets)"),
               ("cpu", 1.6, 1, "capture\n(busy CPU, 1 server)"),
               ("v1", 2.4, 0, "volume 1"), ("v2", 2.4, 1, "volume 2"), ("vn", 2.4, 2, "volume N"),
               ("chan", 3.2, 1, "channel paths\n(ESCON or FICON)")],
        edges=[("dump", "page", "paged out"), ("dump", "cpu", "resident"), ("page", "cpu", ""),
               ("cpu", "v1", "chunk 1, N+1, ..."), ("cpu", "v2", ""), ("cpu", "vn", ""),
               ("v1", "chan", ""), ("v2", "chan", ""), ("vn", "chan", "")],
        title="The SVC dump as a Ciw network: each effect has a node")


def calibration_table() -> pd.DataFrame:
    """The three calibrated costs, each beside the statement that set it."""
    calibration = calibrate()
    labels = {"io_turnaround_ms": "turnaround per I/O (ms)", "capture_us_per_block": "capture CPU per block (us)",
              "compression_cpu_factor": "compression CPU / capture CPU"}
    return pd.DataFrame({"cost": list(labels.values()),
                         "value": [getattr(calibration, name) for name in labels],
                         "calibrated on": [CALIBRATED_ON[name] for name in labels]})


def io_time_table() -> pd.DataFrame:
    """One dump I/O on each device and channel, split into its parts, in ms."""
    rows = []
    for device in DEVICES:
        for channel in CHANNELS:
            p = calibrated_params(device=device, channel=channel)
            rows.append({"device": device, "channel": channel, "turnaround (ms)": p.io_turnaround_ms,
                         "positioning (ms)": analytic.positioning_ms(device),
                         "transfer (ms)": analytic.transfer_ms(device, channel, BLOCKS_PER_IO),
                         "one I/O (ms)": analytic.io_ms(p),
                         "path busy per I/O (ms)": analytic.connect_ms(device, channel, BLOCKS_PER_IO)})
    table = pd.DataFrame(rows)
    table["stripes one path carries"] = table["one I/O (ms)"] / table["path busy per I/O (ms)"]
    return table


def resource_time_table() -> pd.DataFrame:
    """Each resource's time for a one-stripe dump, the flattening point and what binds beyond it."""
    rows = []
    for device in DEVICES:
        for channel in CHANNELS:
            p = calibrated_params(device=device, channel=channel, stripes=1)
            times = {f"{name} (s)": seconds for name, seconds in analytic.resource_times(p).items()}
            rows.append({"device": device, "channel": channel, **times,
                         "flattening at stripes": analytic.knee_stripes(p),
                         "bottleneck beyond it": analytic.bottleneck(p.replace(stripes=max(STRIPES)))})
    return pd.DataFrame(rows)


def bound_chart() -> alt.FacetChart:
    """Each resource's time against stripes (ESCON, default paths): the highest line is the bound."""
    rows = [{"device": device, "stripes": n, "resource": name, "seconds": seconds}
            for device in DEVICES for n in STRIPES
            for name, seconds in analytic.resource_times(calibrated_params(device=device, stripes=n)).items()
            if name != "page"]
    return alt.Chart(pd.DataFrame(rows)).mark_line(point=True).encode(
        x=X_STRIPES,
        y=alt.Y("seconds:Q", title="time the resource alone needs (s)", scale=alt.Scale(type="log")),
        color=alt.Color("resource:N", title="resource"),
        tooltip=["device", "stripes", "resource", alt.Tooltip("seconds:Q", format=".1f")],
    ).properties(width=260, height=240).facet(column=alt.Column("device:N", title=None)).properties(
        title="Bottleneck bound on ESCON, two paths: the highest line sets the dump time")


def elapsed_chart(elapsed: pd.DataFrame) -> alt.LayerChart:
    """Simulated elapsed time with its 95% band and the bound, per device (columns of ``summarize`` + bound)."""
    base = alt.Chart(elapsed).encode(x=X_STRIPES, color=alt.Color("device:N", title="device"))
    band = base.mark_area(opacity=0.25).encode(y=alt.Y("low:Q", title="dump elapsed time (s)"), y2="high:Q")
    line = base.mark_line(point=True).encode(
        y="mean:Q", tooltip=["device", "stripes", alt.Tooltip("mean:Q", format=".1f"),
                             alt.Tooltip("half_width:Q", format=".2f"), alt.Tooltip("bound:Q", format=".1f")])
    bound = alt.Chart(elapsed).mark_line(strokeDash=[4, 3], color="#777777").encode(
        x=X_STRIPES, y="bound:Q", detail="device:N")
    return (band + line + bound).properties(
        title="Simulated dump time (95% CI) and the bottleneck bound (dashed), ESCON, two paths")


def utilization_chart(summary: pd.DataFrame) -> alt.FacetChart:
    """Mean utilization of capture CPU, volumes and channel paths against stripes, per device."""
    frame = summary[summary["metric"].isin(list(RESOURCE_LABELS))].replace({"metric": RESOURCE_LABELS})
    return alt.Chart(frame).mark_line(point=True).encode(
        x=X_STRIPES, y=alt.Y("mean:Q", title="utilization", scale=alt.Scale(domain=[0, 1.05])),
        color=alt.Color("metric:N", title="resource"),
        tooltip=["device", "stripes", "metric", alt.Tooltip("mean:Q", format=".3f")],
    ).properties(width=260, height=220).facet(column=alt.Column("device:N", title=None)).properties(
        title="Utilization of each resource, ESCON, two paths")


def comparison_view(table: pd.DataFrame):
    """The comparison table as a reader sees it: baselines and their verdicts on predicted cells only."""
    predicted = table["role"] == "prediction"
    frame = pd.DataFrame({
        "statement": table["row"], "role": table["role"], "published": table["published"],
        "model": table["model"], "95% CI ±": table["ci_half_width"], "error": table["rel_error"],
        "tolerance": [f"±{value:.0%}" if kind == "relative" else f"±{value:g}"
                      for value, kind in zip(table["tolerance"], table["tolerance_kind"])],
        "within tolerance": table["within_tolerance"],
        "no-change baseline": table["baseline"].where(predicted),
        "beats baseline": table["beats_baseline"].where(predicted),
        "weak evidence": table["weak_evidence"].where(predicted),
        "how the model gets it": table["note"],
    })
    return readable(frame, formats={"error": lambda v: percent(v, 1, signed=True), "model": lambda v: f"{v:.3f}",
                                    "95% CI ±": lambda v: f"{v:.4f}"})


def statement_chart(table: pd.DataFrame, reach: float = 3.0) -> alt.LayerChart:
    """Every compared cell on one scale, (model - published) / tolerance, with its 95% CI and its no-change baseline.

    Baselines further than ``reach`` tolerances away are drawn at the edge (their tooltip keeps the value).
    """
    frame = table.assign(allowed=table["tolerance"].where(table["tolerance_kind"] == "absolute",
                                                          table["tolerance"] * table["published"].abs()))
    frame = frame.assign(error=(frame["model"] - frame["published"]) / frame["allowed"],
                         error_low=(frame["model"] - frame["ci_half_width"] - frame["published"]) / frame["allowed"],
                         error_high=(frame["model"] + frame["ci_half_width"] - frame["published"]) / frame["allowed"],
                         baseline_error=((frame["baseline"] - frame["published"]) / frame["allowed"]).clip(-reach, reach))
    order = list(frame.sort_values("role", key=lambda r: r.map({"prediction": 0, "derived": 1, "calibration": 2}),
                                   kind="stable")["row"])
    y = alt.Y("row:N", title=None, sort=order)
    x = alt.X("error:Q", title="(model - published) / tolerance", scale=alt.Scale(domain=[-reach, reach]))
    accepted = alt.Chart(pd.DataFrame({"low": [-1.0], "high": [1.0]})).mark_rect(
        color=charts.PUBLISHED_COLOR, opacity=0.12).encode(x="low:Q", x2="high:Q")
    centre = alt.Chart(pd.DataFrame({"zero": [0.0]})).mark_rule(color=charts.PUBLISHED_COLOR).encode(x="zero:Q")
    ci = alt.Chart(frame).mark_rule(color=charts.MODEL_COLOR).encode(x="error_low:Q", x2="error_high:Q", y=y)
    baseline = alt.Chart(frame.dropna(subset=["baseline_error"])).mark_point(
        shape="cross", size=60, color="#777777").encode(
        x="baseline_error:Q", y=y, tooltip=["row", "published", "baseline", "role"])
    points = alt.Chart(frame).mark_point(filled=True, size=70, color=charts.MODEL_COLOR).encode(
        x=x, y=y, shape=alt.Shape("role:N", title="role"),
        tooltip=["row", "column", "published", alt.Tooltip("model:Q", format=".3f"),
                 alt.Tooltip("ci_half_width:Q", format=".4f"), "tolerance", "tolerance_kind", "baseline", "role",
                 "note"])
    return (accepted + centre + ci + baseline + points).properties(
        width=420, height=380,
        title="Each cell: model (dots) and no-change baseline (crosses) minus published, in tolerances")


def stripe_slider_chart(sweep: pd.DataFrame) -> alt.LayerChart:
    """The kernel-free slider chart: dump time against stripes, one slice per number of channel paths."""
    return charts.slider_chart(sweep[sweep["metric"] == "elapsed_s"], x="stripes", y="mean", slider="channel_paths",
                               color="setup", low="low", high="high", x_title="stripes",
                               y_title="dump elapsed time (s)", slider_name="channel paths",
                               title="Dump time against stripes (95% CI bands)").configure_axisX(tickMinStep=1,
                                                                                                 format="d")


def widget_view(result: pd.DataFrame):
    """How the live panel shows one :func:`~.explore.widget_run` result: the table, captioned with the bottleneck."""
    return result.style.format(precision=3, na_rep="").hide(axis="index").set_caption(
        f"bottleneck by theory: {result.attrs['bottleneck']}")
