"""Every table, chart and diagram the chapter shows, built from the model so the chapter's code cells stay short.

Tables come from the closed forms of :mod:`.analytic` and the calibration, as
DataFrames (``*_table``) and as the reader sees them (``*_view``, through
:mod:`perfstudies.tables`); charts take the tidy summaries of :mod:`.explore`
(a sweep summarized per configuration) or the comparison table and return
Altair charts in the house style.
"""

import altair as alt
import pandas as pd

from perfstudies import charts
from perfstudies.diagrams import network_diagram
from perfstudies.models.svcdump import analytic
from perfstudies.models.svcdump.calibration import CALIBRATED_ON, calibrate, calibrated_params, statements
from perfstudies.models.svcdump.params import BLOCKS_PER_IO, CHANNELS, DEVICES
from perfstudies.panel import panel_caption, panel_view
from perfstudies.tables import exact, interval, number, percent, published_vs_model, readable

STRIPES = list(range(1, 9))
X_STRIPES = alt.X("stripes:Q", axis=charts.integer_axis("stripes (dump volumes)"))
#: How the chapter names the metrics it plots.
RESOURCE_LABELS = {"cpu_util": "capture CPU", "volume_util": "volumes (mean)", "channel_util": "channel paths"}
#: How the chapter names each resource of the bound.
RESOURCE_WORDS = {"cpu": "capture CPU", "volumes": "volumes", "channel": "channel paths", "page": "page-in"}
#: The measured setup's quantities in words.
SETUP_WORDS = {"dump_blocks": "dump size", "block_bytes": "block size", "cpu_utilization": "processor busy",
               "central_storage": "central storage", "measurement_variability": "timing variability (either way)"}
#: A short name for each published statement, for chart axes.
STATEMENT_LABELS = {
    "stripes_2v1_3390": "2 vs 1 stripes, 3390-3", "stripes_2v1_ess": "2 vs 1 stripes, ESS",
    "gain_4v2_3390": "gain past 2 stripes, 3390-3", "gain_4v2_ess": "gain past 2 stripes, ESS",
    "flatten_8v4_3390": "8 vs 4 stripes, 3390-3", "flatten_8v4_ess": "8 vs 4 stripes, ESS",
    "ess_vs_3390_elapsed": "ESS vs 3390-3, dump time", "ess_vs_3390_data_rate": "ESS vs 3390-3, data rate",
    "ess_vs_3390_response": "ESS vs 3390-3, one I/O", "ficon_vs_escon": "FICON vs ESCON",
    "compression": "compression", "page_data_sets": "8 page data sets vs 1",
    "linear_size": "double dump size", "ipcs_stripes_2v1": "IPCS, 2 vs 1 stripes",
    "ipcs_ess_vs_3390": "IPCS, ESS vs 3390-3", "ipcs_linear": "IPCS, double dump size",
}


def network() -> alt.LayerChart:
    """The dump network: every effect of the document has a node."""
    return network_diagram(
        nodes=[("dump", 0, 1, "dump in storage\n(all chunks at t=0)"),
               ("page", 0.5, 0, "page-in\n(page data sets)"),
               ("cpu", 1, 1, "capture\n(busy CPU, 1 server)"),
               ("v1", 2, 0, "volume 1"), ("v2", 2, 1, "volume 2"), ("vn", 2, 2, "volume N"),
               ("chan", 3, 1, "channel paths\n(ESCON or FICON)")],
        edges=[("dump", "page", "paged out"), ("dump", "cpu", ""), ("page", "cpu", ""),
               ("cpu", "v1", "chunks 1, N+1, ..."), ("cpu", "v2", ""), ("cpu", "vn", ""),
               ("v1", "chan", ""), ("v2", "chan", ""), ("vn", "chan", "")],
        title="The SVC dump as a Ciw network: each effect has a node")


def setup_view(setup: pd.DataFrame):
    """The measured setup (``data/svcdump/setup.csv``, indexed by quantity) as a reader sees it."""
    fraction = setup["unit"] == "fraction"
    frame = pd.DataFrame({"quantity": [SETUP_WORDS.get(key, key) for key in setup.index],
                          "value": [percent(v) if f else exact(v) for v, f in zip(setup["value"], fraction)],
                          "unit": setup["unit"].where(~fraction, "").to_numpy()})
    return readable(frame)


def _statement_words(key: str) -> str:
    row = statements().loc[key]
    device = "" if row["device"] == "both" else f", {row['device']}"
    return f"{row['quantity']}, {row['comparison']}{device}: {row['published']:g}"


def calibration_table() -> pd.DataFrame:
    """The three calibrated costs, each beside the statement that set it (``calibrated on``: its key)."""
    calibration = calibrate()
    labels = {"io_turnaround_ms": "turnaround per I/O (ms)", "capture_us_per_block": "capture CPU per block (µs)",
              "compression_cpu_factor": "compression CPU / capture CPU"}
    return pd.DataFrame({"cost": list(labels.values()),
                         "value": [getattr(calibration, name) for name in labels],
                         "set so that": [_statement_words(CALIBRATED_ON[name]) for name in labels],
                         "calibrated on": [CALIBRATED_ON[name] for name in labels]})


def calibration_view():
    """:func:`calibration_table` as a reader sees it."""
    return readable(calibration_table().drop(columns="calibrated on"),
                    names={"set so that": "set so that the model meets"})


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


def io_time_view():
    """:func:`io_time_table` as a reader sees it."""
    return readable(io_time_table())


def resource_time_table() -> pd.DataFrame:
    """Each resource's time for a one-stripe dump, the flattening point and what binds beyond it."""
    rows = []
    for device in DEVICES:
        for channel in CHANNELS:
            p = calibrated_params(device=device, channel=channel, stripes=1)
            resource = analytic.resource_times(p)
            times = {f"{name} (s)": seconds for name, seconds in resource.items()}
            # beyond the knee the largest of the other resources binds, however many stripes that takes
            beyond = max((name for name in resource if name != "volumes"), key=resource.get)
            rows.append({"device": device, "channel": channel, **times,
                         "flattening at stripes": analytic.knee_stripes(p),
                         "bottleneck beyond it": beyond})
    return pd.DataFrame(rows)


def resource_time_view():
    """:func:`resource_time_table` as a reader sees it (page-in, far below every other resource, left out)."""
    table = resource_time_table().drop(columns="page (s)")
    table["bottleneck beyond it"] = table["bottleneck beyond it"].map(RESOURCE_WORDS)
    return readable(table, names={"cpu (s)": "capture CPU (s)", "volumes (s)": "volumes, 1 stripe (s)",
                                  "channel (s)": "channel paths (s)", "flattening at stripes": "flattens at (stripes)",
                                  "bottleneck beyond it": "then the bottleneck"},
                    formats={"flattening at stripes": lambda v: number(v, 2)})


def elapsed_view(elapsed: pd.DataFrame, bound: bool = True):
    """Simulated time ± 95% half-width per stripe count and device (and each one's bound), as a reader sees it.

    ``elapsed`` holds the rows of one metric of a sweep summary (``stripes``,
    ``device``, ``mean``, ``half_width`` and, with ``bound``, ``bound``).
    """
    frame = pd.DataFrame({"stripes": STRIPES})
    for device in DEVICES:
        rows = elapsed[elapsed["device"] == device].set_index("stripes").loc[STRIPES]
        frame[f"{device}: simulated (s)"] = [interval(m, h) for m, h in zip(rows["mean"], rows["half_width"])]
        if bound:
            frame[f"{device}: bound (s)"] = rows["bound"].to_numpy()
    return readable(frame, formats={"stripes": "count"})


def above_bound(elapsed: pd.DataFrame) -> pd.Series:
    """How far each simulated mean lies above its bottleneck bound, as a fraction of the bound."""
    return elapsed["mean"] / elapsed["bound"] - 1


def bound_chart() -> alt.FacetChart:
    """Each resource's time against stripes (ESCON, default paths): the highest line is the bound."""
    rows = [{"device": device, "stripes": n, "resource": RESOURCE_WORDS[name], "seconds": seconds}
            for device in DEVICES for n in STRIPES
            for name, seconds in analytic.resource_times(calibrated_params(device=device, stripes=n)).items()
            if name != "page"]
    return alt.Chart(pd.DataFrame(rows)).mark_line(point=True).encode(
        x=X_STRIPES,
        y=alt.Y("seconds:Q", title="time the resource alone needs (s)", scale=alt.Scale(type="log")),
        color=alt.Color("resource:N", title="resource"),
        tooltip=["device", "stripes", "resource", alt.Tooltip("seconds:Q", format=".1f")],
    ).properties(width=charts.panel_width(2), height=240).facet(
        column=alt.Column("device:N", title=None), spacing=charts.PANEL_GAP).properties(
        title=charts.wrapped_title("Bottleneck bound on ESCON, two paths: the highest line sets the dump time"))


def elapsed_chart(elapsed: pd.DataFrame) -> alt.LayerChart:
    """Simulated elapsed time and the bound, per device (columns of ``summarize`` + bound).

    The 95% intervals are a few seconds on a scale of hundreds: as bands they would hide under the
    lines, so the title says how wide they are instead (and the tooltip gives each one).
    """
    base = alt.Chart(elapsed).encode(x=X_STRIPES, color=alt.Color("device:N", title="device"))
    line = base.mark_line(point=True).encode(
        y=alt.Y("mean:Q", title="dump elapsed time (s)"),
        tooltip=["device", "stripes", alt.Tooltip("mean:Q", format=".1f", title="simulated (s)"),
                 alt.Tooltip("half_width:Q", format=".2f", title="95% CI ± (s)"),
                 alt.Tooltip("bound:Q", format=".1f", title="bound (s)")])
    bound = alt.Chart(elapsed).mark_line(strokeDash=[4, 3], color="#777777").encode(
        x=X_STRIPES, y="bound:Q", detail="device:N")
    return (line + bound).properties(
        title=f"Simulated dump time ({_too_close_to_draw(elapsed)}) and the bottleneck bound (dashed), "
              "ESCON, two paths")


def _too_close_to_draw(summary: pd.DataFrame) -> str:
    """How close each mean of ``summary`` is at 95% confidence, for a title whose chart cannot show it."""
    return f"each mean ±{number(summary['half_width'].max(), 2)} s or less at 95% confidence, finer than the lines"


def utilization_chart(summary: pd.DataFrame) -> alt.FacetChart:
    """Mean utilisation of capture CPU, volumes and channel paths against stripes, per device."""
    frame = summary[summary["metric"].isin(list(RESOURCE_LABELS))].replace({"metric": RESOURCE_LABELS})
    return alt.Chart(frame).mark_line(point=True).encode(
        x=X_STRIPES, y=alt.Y("mean:Q", title="utilisation (share of time busy)", scale=alt.Scale(domain=[0, 1.05]),
                             axis=alt.Axis(format="%")),
        color=alt.Color("metric:N", title="resource"),
        tooltip=["device", "stripes", alt.Tooltip("metric:N", title="resource"),
                 alt.Tooltip("mean:Q", format=".1%", title="utilisation")],
    ).properties(width=charts.panel_width(2), height=220).facet(
        column=alt.Column("device:N", title=None), spacing=charts.PANEL_GAP).properties(
        title=charts.wrapped_title("Utilisation of each resource, ESCON, two paths"))


def comparison_view(table: pd.DataFrame):
    """The standard published-vs-model table (:func:`perfstudies.tables.published_vs_model`), each cell labelled
    by the statement's words (quantity · comparison · device) rather than by its key."""
    words = statements().loc[table["key"]]
    return published_vs_model(table.assign(table=words["quantity"].to_numpy(), row=words["comparison"].to_numpy(),
                                           column=words["device"].to_numpy()))


def statement_chart(table: pd.DataFrame, reach: float = 3.0) -> alt.LayerChart:
    """Every compared cell on one scale, (model - published) / tolerance, with its 95% CI and its no-change baseline.

    Baselines further than ``reach`` tolerances away are drawn at the edge (their tooltip keeps the value).
    A cell scored as a stated range counts its half-range as its tolerance (the published value is its midpoint).
    """
    allowed = table["tolerance"].where(table["tolerance_kind"] == "absolute",
                                       table["tolerance"] * table["published"].abs())
    frame = table.assign(allowed=((table["bound_high"] - table["bound_low"]) / 2).where(table["bound_low"].notna(),
                                                                                         allowed),
                         statement=table["key"].map(STATEMENT_LABELS))
    frame = frame.assign(error=(frame["model"] - frame["published"]) / frame["allowed"],
                         error_low=(frame["model"] - frame["ci_half_width"] - frame["published"]) / frame["allowed"],
                         error_high=(frame["model"] + frame["ci_half_width"] - frame["published"]) / frame["allowed"],
                         baseline_error=((frame["baseline"] - frame["published"]) / frame["allowed"]).clip(-reach, reach))
    order = list(frame.sort_values("role", key=lambda r: r.map({"prediction": 0, "derived": 1, "calibration": 2}),
                                   kind="stable")["statement"])
    y = alt.Y("statement:N", title=None, sort=order)
    x = alt.X("error:Q", title="error in tolerances",
              scale=alt.Scale(domain=[-reach, reach]))
    accepted = alt.Chart(pd.DataFrame({"low": [-1.0], "high": [1.0]})).mark_rect(
        color=charts.PUBLISHED_COLOR, opacity=0.12).encode(x="low:Q", x2="high:Q")
    centre = alt.Chart(pd.DataFrame({"zero": [0.0]})).mark_rule(color=charts.PUBLISHED_COLOR).encode(x="zero:Q")
    ci = alt.Chart(frame).mark_rule(color=charts.MODEL_COLOR).encode(x="error_low:Q", x2="error_high:Q", y=y)
    baseline = alt.Chart(frame.dropna(subset=["baseline_error"])).mark_point(
        shape="cross", size=60, color="#777777", opacity=1).encode(
        x="baseline_error:Q", y=y, tooltip=["statement", "published", alt.Tooltip("baseline:Q", title="no-change baseline"),
                                            "role"])
    points = alt.Chart(frame).mark_point(filled=True, size=70, color=charts.MODEL_COLOR, opacity=1).encode(
        x=x, y=y, shape=alt.Shape("role:N", title="role", scale=alt.Scale(
            domain=["prediction", "derived", "calibration"], range=["circle", "triangle-up", "square"])),
        tooltip=["statement", "published", alt.Tooltip("model:Q", format=".3f"),
                 alt.Tooltip("ci_half_width:Q", format=".4f", title="95% CI ±"), "role"])
    return (accepted + centre + ci + baseline + points).properties(
        height=380, title="Each cell: model (dots) and no-change baseline (crosses) minus published, in tolerances")


def sensitivity_view(sensitivity: pd.DataFrame):
    """Every prediction in the bound for each channel path count (:func:`.comparison.channel_path_sensitivity`),
    as a reader sees it: the value, and "fails" where it would miss its tolerance or leave its stated range."""
    frame = sensitivity.assign(shown=[number(value) + ("" if passes else " (fails)")
                                      for value, passes in zip(sensitivity["value"], sensitivity["passes"])],
                               paths=[f"{n} path{'s' if n > 1 else ''}" + (" (assumed)" if assumed else "")
                                      for n, assumed in zip(sensitivity["channel_paths"], sensitivity["assumed"])])
    wide = frame.pivot(index="key", columns="paths", values="shown")
    order = list(dict.fromkeys(sensitivity["key"]))
    wide = wide.loc[order, list(dict.fromkeys(frame["paths"]))]
    wide.insert(0, "report", [_statement_range(key) for key in order])
    wide.insert(0, "statement", [STATEMENT_LABELS[key] for key in order])
    wide = wide.reset_index(drop=True)
    wide.columns.name = None
    return readable(wide)


def _statement_range(key: str) -> str:
    """The published value of a statement, or its stated range."""
    row = statements().loc[key]
    if pd.notna(row["low"]):
        return f"{number(row['low'])} to {number(row['high'])}"
    return number(row["published"])


def stripe_slider_chart(sweep: pd.DataFrame) -> alt.LayerChart:
    """The kernel-free slider chart: dump time against stripes, one slice per number of channel paths.

    Its 95% intervals, like :func:`elapsed_chart`'s, are too narrow to see as bands (under 2 px at
    most): the title gives their widest half-width instead.
    """
    elapsed = sweep[sweep["metric"] == "elapsed_s"]
    return charts.slider_chart(elapsed, x="stripes", y="mean", slider="channel_paths", color="device", dash="channel",
                               x_title="stripes (dump volumes)", y_title="dump elapsed time (s)",
                               slider_name="channel paths", color_title="device", dash_title="channel",
                               title=f"Dump time against stripes ({_too_close_to_draw(elapsed)})")


def widget_view(result: pd.DataFrame):
    """How the live panel shows one :func:`~.explore.widget_run` table: each metric at the reader's setting and
    its paired change from the default (:func:`perfstudies.panel.panel_view`), captioned with theory's
    bottleneck and bounds at that setting."""
    params = result.attrs["params"]
    return panel_view(result).set_caption(
        f"Bottleneck by theory: {RESOURCE_WORDS[analytic.bottleneck(params)]}; bounds: dump "
        f"{number(analytic.bound_elapsed_s(params))} s, IPCS {number(analytic.bound_ipcs_s(params))} s. "
        + panel_caption(result))
