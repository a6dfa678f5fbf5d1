"""Every chart and diagram of the chapter: the queueing networks, one run's timeline, the widget's
view, published against model, and the kernel-free sweep.

Each function returns an Altair chart, so it renders offline in the book and
live in JupyterLab alike.
"""

import altair as alt
import numpy as np
import pandas as pd

from perfstudies import charts
from perfstudies.diagrams import network_diagram, timeline
from perfstudies.models.spxtape.calibration import TABLE1_ROWS, calibration_table
from perfstudies.models.spxtape.mechanism import CHANGING, TRANSFERRING
from perfstudies.models.spxtape.metrics import BLOCKED, READING
from perfstudies.models.spxtape.params import SpxtapeParams
from perfstudies.panel import PanelRun, panel_view
from perfstudies.tables import number, readable

#: A run's chart resolves this many steps of its length: each lane shows, per step, the state it
#: spent most of that step in, and the buffer curve its peak per step; so a chart carries a few
#: hundred rows whatever the run (it is 520 pixels wide), which keeps the live panel's output small
#: even where a lane switches state every tenth of a second (16 volumes blocked behind one drive).
TIME_STEPS = 250
#: Most bars a timeline draws: where lanes switch state at nearly every step, the step doubles
#: until the bars fit.
MAX_BARS = 600
#: One colour per state, the same in every timeline: busy states cool, stalls warm.
STATE_COLORS = alt.Scale(domain=[READING, TRANSFERRING, CHANGING, BLOCKED],
                         range=["#7570b3", "#1b9e77", "#e6ab02", "#d62728"])


def network_chart() -> alt.VConcatChart:
    """The three networks: SPXTAPE DUMP, SPXTAPE LOAD and SPTAPE, one above the other."""
    dump = network_diagram(
        nodes=[(f"v{i}", 0, i * 0.7, f"spool volume {i}\n(1 server)") for i in range(1, 5)]
        + [("tape", 1.6, 1.75, "tape drives\n(n servers;\nwaiting room\n= memory buffer)"),
           ("out", 2.8, 1.75, "on tape")],
        edges=[(f"v{i}", "tape", "") for i in range(1, 5)] + [("tape", "out", "32K blocks")],
        title="SPXTAPE DUMP: volumes read in parallel into a finite buffer")
    load = network_diagram(
        nodes=[("tape", 0, 1.75, "tape drive\n(reads ahead)"),
               ("create", 1.3, 1.75, "spool file creation\n(1 server;\nwaiting room\n= memory buffer)")]
        + [(f"v{i}", 2.6, i * 0.7, f"spool volume {i}\n(1 server)") for i in range(1, 5)],
        edges=[("tape", "create", "")] + [("create", f"v{i}", "") for i in range(1, 5)],
        title="SPXTAPE LOAD: files re-created one at a time")
    sptape = network_diagram(
        nodes=[("in", 0, 0, "spool files\n(one volume\nat a time)"),
               ("sp", 1.3, 0, "SPTAPE\n(1 server: read,\nwrite, tape mark)"), ("out", 2.6, 0, "on tape")],
        edges=[("in", "sp", ""), ("sp", "out", "")],
        title="SPTAPE: one file at a time, nothing overlaps")
    return alt.vconcat(dump, load, sptape).resolve_scale(x="independent", y="independent")


def _occupied(starts: np.ndarray, ends: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Time covered by the intervals ``[starts, ends]`` between consecutive ``edges``."""
    starts, ends = np.sort(starts), np.sort(ends)
    before = np.concatenate([[0.0], np.cumsum(starts)]), np.concatenate([[0.0], np.cumsum(ends)])
    begun, done = np.searchsorted(starts, edges), np.searchsorted(ends, edges)
    covered = (begun * edges - before[0][begun]) - (done * edges - before[1][done])
    return np.diff(covered)


def stepped_intervals(frame: pd.DataFrame, step: float) -> pd.DataFrame:
    """Each lane at a resolution of ``step`` seconds: per step the state it spent most time in,
    consecutive steps in the same state joined into one bar (steps in no state are left out).

    Each lane is one server, so its intervals do not overlap.
    """
    if frame.empty:
        return frame[["lane", "state", "start", "end"]]
    edges = np.arange(0.0, float(frame["end"].max()) + step, step)
    rows = []
    for lane in sorted(frame["lane"].unique(), key=_lane_order):
        mine = frame[frame["lane"] == lane]
        states = list(dict.fromkeys(mine["state"]))
        time_in = np.array([_occupied(part["start"].to_numpy(float), part["end"].to_numpy(float), edges)
                            for part in (mine[mine["state"] == state] for state in states)])
        main = np.where(time_in.max(axis=0) > 0, time_in.argmax(axis=0), -1)
        cuts = np.flatnonzero(np.diff(main)) + 1
        for first, last in zip(np.concatenate([[0], cuts]), np.concatenate([cuts, [len(main)]])):
            if main[first] >= 0:
                rows.append((lane, states[main[first]], edges[first], edges[last]))
    return pd.DataFrame(rows, columns=["lane", "state", "start", "end"])


def _lane_order(lane: str) -> tuple:
    kind, number = lane.split()
    return (kind != "volume", int(number))


def run_chart(result: PanelRun, title: str) -> alt.VConcatChart:
    """One run: volumes and drives over time (timeline) above the memory buffer's fill.

    ``result`` is a traced panel run (:func:`~.explore.widget_run`); its
    ``traces["timeline"]`` and ``traces["buffer"]`` are the first replication's.
    """
    timeline_rows, buffer_rows = result.traces["timeline"], result.traces["buffer"]
    end = max(float(timeline_rows["end"].max()) if len(timeline_rows) else 0.0,
              float(buffer_rows["time"].max()) if len(buffer_rows) else 0.0, 1.0)
    step = end / TIME_STEPS
    frame = stepped_intervals(timeline_rows, step)
    while len(frame) > MAX_BARS:
        step *= 2
        frame = stepped_intervals(timeline_rows, step)
    lanes = timeline(frame, title=title).encode(color=alt.Color("state:N", title=None, scale=STATE_COLORS))
    lanes = lanes.properties(width=charts.WIDTH)
    buffer = buffer_rows.assign(bin=(buffer_rows["time"] // step) * step)
    peaks = buffer.groupby("bin", as_index=False)["buffer_mb"].max()
    fill = alt.Chart(peaks).mark_area(color=charts.MODEL_COLOR, opacity=0.6, interpolate="step-after").encode(
        x=alt.X("bin:Q", title="time (s)"), y=alt.Y("buffer_mb:Q", title="buffer (MB)"),
        tooltip=[alt.Tooltip("bin:Q", title="time (s)"), alt.Tooltip("buffer_mb:Q", format=".1f")])
    return alt.vconcat(lanes, fill.properties(width=charts.WIDTH, height=90))


def widget_view(result: PanelRun) -> tuple:
    """The live panel's output: the panel table (each metric and its paired change from the default), then
    the first replication's timeline, titled with the setting."""
    p = result.params
    title = f"{p.command} {p.function}, {p.drives} drive(s), {p.volumes} volume(s): the first replication"
    return panel_view(result.table), run_chart(result, title="").properties(title=charts.wrapped_title(title))


def elapsed_chart(table: pd.DataFrame) -> alt.Chart:
    """Elapsed time by Table 1 configuration, published and model, from the comparison table.

    The model's 95% intervals are a few seconds on a scale of thousands, shorter than a marker: the
    title says how wide they are, since no bar can show them.
    """
    elapsed = table[table["row"] == TABLE1_ROWS["elapsed_s"]]
    widest = number(elapsed["ci_half_width"].max(), 2)
    return charts.published_vs_model(elapsed, x="column", facet=None, y_title="elapsed time (s)",
                                     title=f"Elapsed time by configuration: published and model (each model mean "
                                           f"±{widest} s or less at 95% confidence, inside its marker)")


def sweep_chart(by_point: pd.DataFrame) -> alt.Chart:
    """The kernel-free slider chart: SPXTAPE DUMP elapsed time against drives, one line per volume count."""
    return charts.slider_chart(by_point, x="drives", y="mean", slider="volumes", low="low", high="high",
                               x_title="tape drives", y_title="elapsed time (s)", slider_name="spool volumes",
                               title="SPXTAPE DUMP elapsed time (mean, 95% CI) against tape drives")


def _in_reader_units(value: float, unit: str) -> tuple[float, str]:
    """Times per page or per file under a tenth of a second in milliseconds: 0.224 ms/page, not 0.000224 s/page."""
    if unit.startswith("s/") and abs(value) < 0.1:
        return value * 1000, "m" + unit
    return value, unit


def calibration_view():
    """:func:`~.calibration.calibration_table` as a reader sees it: each parameter by its description
    with its unit (not its code name), its value to three significant figures."""
    table = calibration_table()
    spec = SpxtapeParams.spec()
    values, names = [], []
    for name, value in zip(table["sets"], table["calibrated value"]):
        shown, unit = _in_reader_units(float(value), spec[name]["unit"])
        values.append(number(shown))
        names.append(f"{spec[name]['doc']} ({unit})")
    return readable(table.assign(sets=names, **{"calibrated value": values}), names={"sets": "parameter set"})
