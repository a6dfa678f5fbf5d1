"""Every chart and diagram of the chapter: the queueing networks, one run's timeline, the widget's
view, published against model, and the kernel-free sweep.

Each function returns an Altair chart, so it renders offline in the book and
live in JupyterLab alike.
"""

import altair as alt
import pandas as pd

from perfstudies import charts
from perfstudies.diagrams import network_diagram, timeline
from perfstudies.models.spxtape.explore import WidgetResult
from perfstudies.models.spxtape.mechanism import CHANGING, TRANSFERRING
from perfstudies.models.spxtape.metrics import BLOCKED, READING

#: Gaps shorter than this (s) between intervals of one lane and state are closed on the timeline,
#: so a run of thousands of short transfers draws as a few bars.
MERGE_GAP = 1.0
#: Width (s) of the bins the buffer curve is summarised in (peak per bin).
BUFFER_BIN = 2.0
#: One colour per state, the same in every timeline: busy states cool, stalls warm.
STATE_COLORS = alt.Scale(domain=[READING, TRANSFERRING, CHANGING, BLOCKED],
                         range=["#7570b3", "#1b9e77", "#e6ab02", "#d62728"])


def network_chart() -> alt.VConcatChart:
    """The three networks: SPXTAPE DUMP, SPXTAPE LOAD and SPTAPE, one above the other."""
    dump = network_diagram(
        nodes=[(f"v{i}", 0, i * 0.7, f"spool volume {i}\n(1 server)") for i in range(1, 5)]
        + [("tape", 1.6, 1.05, "tape drives\n(n servers;\nwaiting room\n= memory buffer)"),
           ("out", 2.8, 1.05, "on tape")],
        edges=[(f"v{i}", "tape", "") for i in range(1, 5)] + [("tape", "out", "32K blocks")],
        title="SPXTAPE DUMP: volumes read in parallel into a finite buffer")
    load = network_diagram(
        nodes=[("tape", 0, 1.05, "tape drive\n(reads ahead)"),
               ("create", 1.3, 1.05, "spool file creation\n(1 server;\nwaiting room\n= memory buffer)")]
        + [(f"v{i}", 2.6, i * 0.7, f"spool volume {i}\n(1 server)") for i in range(1, 5)],
        edges=[("tape", "create", "")] + [("create", f"v{i}", "") for i in range(1, 5)],
        title="SPXTAPE LOAD: files re-created one at a time")
    sptape = network_diagram(
        nodes=[("in", 0, 0, "spool files\n(one volume\nat a time)"),
               ("sp", 1.3, 0, "SPTAPE\n(1 server: read,\nwrite, tape mark)"), ("out", 2.6, 0, "on tape")],
        edges=[("in", "sp", ""), ("sp", "out", "")],
        title="SPTAPE: one file at a time, nothing overlaps")
    return alt.vconcat(dump, load, sptape).resolve_scale(x="independent", y="independent")


def merged_intervals(frame: pd.DataFrame, gap: float = MERGE_GAP) -> pd.DataFrame:
    """Join back-to-back intervals of one lane in the same state less than ``gap`` seconds apart.

    Each lane is one server, so its intervals do not overlap; an interval in
    another state in between always ends a bar.
    """
    rows = []
    for lane in sorted(frame["lane"].unique(), key=_lane_order):
        current = None
        for _, state, start, end in frame[frame["lane"] == lane].sort_values("start").itertuples(index=False):
            if current and current[1] == state and start - current[3] <= gap:
                current[3] = max(current[3], end)
                continue
            if current:
                rows.append(tuple(current))
            current = [lane, state, start, end]
        rows.append(tuple(current))
    return pd.DataFrame(rows, columns=["lane", "state", "start", "end"])


def _lane_order(lane: str) -> tuple:
    kind, number = lane.split()
    return (kind != "volume", int(number))


def run_chart(result: WidgetResult, title: str) -> alt.VConcatChart:
    """One run: volumes and drives over time (timeline) above the memory buffer's fill."""
    frame = merged_intervals(result.timeline)
    lanes = timeline(frame, title=title).encode(color=alt.Color("state:N", title=None, scale=STATE_COLORS))
    lanes = lanes.properties(width=charts.WIDTH)
    buffer = result.buffer.assign(bin=(result.buffer["time"] // BUFFER_BIN) * BUFFER_BIN)
    peaks = buffer.groupby("bin", as_index=False)["buffer_mb"].max()
    fill = alt.Chart(peaks).mark_area(color=charts.MODEL_COLOR, opacity=0.6, interpolate="step-after").encode(
        x=alt.X("bin:Q", title="time (s)"), y=alt.Y("buffer_mb:Q", title="buffer (MB)"),
        tooltip=[alt.Tooltip("bin:Q", title="time (s)"), alt.Tooltip("buffer_mb:Q", format=".1f")])
    return alt.vconcat(lanes, fill.properties(width=charts.WIDTH, height=90))


def widget_view(result: WidgetResult) -> alt.VConcatChart:
    """The live panel's output: the key numbers with their 95% CIs, and the first run's timeline."""
    s = result.summary
    p = result.params

    def show(metric: str, unit: str, digits: int = 0) -> str:
        return f"{s.loc[metric, 'mean']:.{digits}f} ± {s.loc[metric, 'half_width']:.{digits}f} {unit}"

    title = (f"{p.command} {p.function}, {p.drives} drive(s), {p.volumes} volume(s): "
             f"elapsed {show('elapsed_s', 's')}")
    subtitle = [f"tape changes {show('tape_change_s', 's')}, system idle {show('system_idle_s', 's')}, "
                f"tapes {show('tapes', '', 1)}, rate {show('pages_per_s', 'pages/s')} "
                f"(mean ± 95% CI half-width of {int(s.loc['elapsed_s', 'n'])} replications)"]
    chart = run_chart(result, title="")
    return chart.properties(title=alt.Title(title, subtitle=subtitle))


def elapsed_chart(table: pd.DataFrame) -> alt.Chart:
    """Elapsed time by Table 1 configuration, published and model (95% CI), from the comparison table."""
    elapsed = table[table["row"] == "elapsed_s"]
    return charts.published_vs_model(elapsed, x="column", facet=None,
                                     title="Elapsed time (s) by configuration: published and model (95% CI)")


def sweep_chart(by_point: pd.DataFrame) -> alt.Chart:
    """The kernel-free slider chart: SPXTAPE DUMP elapsed time against drives, one line per volume count."""
    return charts.slider_chart(by_point, x="drives", y="mean", slider="volumes", low="low", high="high",
                               x_title="tape drives", y_title="elapsed time (s)", slider_name="spool volumes",
                               title="SPXTAPE DUMP elapsed time (mean, 95% CI) against tape drives")
