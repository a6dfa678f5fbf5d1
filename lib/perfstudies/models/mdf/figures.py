"""Every chart and diagram of the 580/MDF chapter.

The worked example of one held interrupt (:func:`held_interrupt_example`) is
built from the same :class:`~perfstudies.models.mdf.mechanism.Windows` arithmetic
the model uses; the comparison charts take the study's comparison table, the
slider chart the sweep's curves (:func:`~perfstudies.models.mdf.explore.sweep_curves`).
"""

import altair as alt
import pandas as pd

from perfstudies import charts, diagrams
from perfstudies.models.mdf.explore import widget_theory
from perfstudies.models.mdf.mechanism import domain_windows
from perfstudies.panel import panel_view
from perfstudies.tables import readable

#: Table 3's four parts of the IMS response time, in the order they happen.
RESPONSE_PARTS = ["TPNS Q (s)", "IMS IN Q (s)", "IMS EXEC (s)", "IMS OUT Q (s)"]


def ims_network_diagram() -> alt.LayerChart:
    """The IMS domain's network, with the device model as its database-I/O box opened up."""
    return diagrams.network_diagram(
        nodes=[("terminals", 0, 0, "1,000 terminals\n(think 16 s, infinite servers)"),
               ("front", 1.5, 0, "4705 front end\n(1 server, held exchanges)"),
               ("inq", 3, 0, "IMS input queue\n(wait for 1 of 60 regions)"),
               ("cpu", 4.5, 0, "IMS processors, in a region\n(2 servers, IMS slices only)"),
               ("io", 4.5, 1.3, "database I/O, in a region\n(16.2 I/Os per transaction)"),
               ("device", 3, 1.3, "one device: IOSQ queue,\ntransfer, held completion")],
        edges=[("terminals", "front", "message in"), ("front", "inq", "to IMS"), ("inq", "cpu", "a region"),
               ("cpu", "io", ""), ("io", "front", "reply"), ("front", "terminals", ""), ("io", "device", "each I/O")],
        title="IMS domain network (the device box is the separate device model)")


def held_interrupt_example(scheduling_parameter: int = 1, first_issue_ms: float = 20.0,
                           second_issue_ms: float = 24.0, transfer_ms: float = 18.0,
                           cycles: int = 2) -> pd.DataFrame:
    """Intervals (ms) of the domains' slices, two transfers, the hold and the second request's IOSQ.

    Two requests go to the same IMS device during an IMS slice.  The first
    one's transfer ends while the TSO domain runs, so its completion interrupt
    waits for the next IMS slice and the device stays busy; the second request
    waits in IOS (IOSQ) the whole time.
    """
    if not 0 <= first_issue_ms <= second_issue_ms:
        raise ValueError(f"second_issue_ms = {second_issue_ms!r} is out of range: allowed "
                         f"0 <= first_issue_ms ({first_issue_ms}) <= second_issue_ms")
    ims, tso = domain_windows(scheduling_parameter, 0.5, 0.5, 0.0)
    rows = []
    for k in range(cycles):
        start = 1000.0 * k * ims.cycle
        rows.append(("IMS domain", "IMS dispatched", start, start + 1000.0 * ims.slice))
        rows.append(("TSO domain", "TSO dispatched", start + 1000.0 * tso.offset,
                     start + 1000.0 * (tso.offset + tso.slice)))
    first_end = first_issue_ms + transfer_ms
    cleared = 1000.0 * ims.next_dispatch(first_end / 1000.0)
    second_end = cleared + transfer_ms
    rows += [
        ("IMS device", "transfer (PEND+DISC+CONN)", first_issue_ms, first_end),
        ("IMS device", "held: interrupt pending", first_end, cleared),
        ("IMS device", "transfer (PEND+DISC+CONN)", cleared, second_end),
        ("2nd request", "IOSQ: queued in IOS", second_issue_ms, cleared),
    ]
    return pd.DataFrame(rows, columns=["lane", "state", "start", "end"])


def held_interrupt_timeline(scheduling_parameter: int = 1) -> alt.Chart:
    """The worked example of :func:`held_interrupt_example` as a timeline."""
    return diagrams.timeline(held_interrupt_example(scheduling_parameter=scheduling_parameter),
                             x_title="time (ms)",
                             title=f"Scheduling parameter {scheduling_parameter}: "
                                   "a completion held through the TSO slice")


def table1_chart(comparison: pd.DataFrame) -> alt.FacetChart:
    """Table 1's domain averages by scheduling parameter, published beside the model with its interval."""
    return charts.published_vs_model(comparison[comparison["table"] == "Table 1"], x="column", facet="row",
                                     columns=2, y_title="time per I/O (ms)",
                                     title="Table 1: domain averages by scheduling parameter (BASE: no slicing)")


def _side_by_side(comparison: pd.DataFrame, rows: list[tuple[str, str]], title: str) -> alt.ConcatChart:
    """Two rows of Tables 3 and 4 side by side, each published beside the model under its own unit."""
    return alt.concat(*[charts.published_vs_model(comparison[comparison["row"] == row], x="column", facet=None,
                                                  width=charts.panel_width(2), title=row, y_title=y_title)
                        for row, y_title in rows]).properties(title=charts.wrapped_title(title))


def throughput_chart(comparison: pd.DataFrame) -> alt.VConcatChart:
    """Tables 3 and 4's throughput rows by scheduling parameter, in pairs that fit the text column."""
    return alt.vconcat(
        _side_by_side(comparison, [("IMS ETR (tx/s)", "transactions per second"),
                                   ("TSO ETR (tx/s)", "transactions per second")], "ETR by scheduling parameter"),
        _side_by_side(comparison, [("IMS RESP TIME (s)", "response time (s)"),
                                   ("TSO RESPONSE TIME (s)", "response time (s)")],
                      "Response time by scheduling parameter"),
        _side_by_side(comparison, [("4705 RATE (I/O/s)", "4705 channel I/Os per second"),
                                   ("CPU (%)", "IMS domain CPU busy (%)")],
                      "4705 rate and IMS CPU busy by scheduling parameter"))


def response_parts_chart(comparison: pd.DataFrame) -> alt.Chart:
    """Where the IMS response time goes (Table 3's four parts), published beside the model."""
    table3 = comparison[(comparison["table"] == "Table 3") & comparison["row"].isin(RESPONSE_PARTS)]
    decomposition = pd.concat([table3.assign(source="published", seconds=table3["published"]),
                               table3.assign(source="model", seconds=table3["model"])])
    decomposition["part"] = decomposition["row"].str.replace(" (s)", "", regex=False)
    names = [part.replace(" (s)", "") for part in RESPONSE_PARTS]
    return alt.Chart(decomposition).mark_bar().encode(
        x=alt.X("source:N", title=None, sort=["published", "model"]),
        y=alt.Y("sum(seconds):Q", title="IMS response time (s)"),
        color=alt.Color("part:N", sort=names, title="part"),
        order=alt.Order("part_order:Q"),
        column=alt.Column("column:N", title="scheduling parameter"),
        tooltip=["column", "source", "part", alt.Tooltip("seconds:Q", format=".2f")],
    ).transform_calculate(part_order=f"indexof({names!r}, datum.part)"
                          ).properties(width=110, height=260, title="IMS response time decomposition (Table 3)")


def sweep_chart(curves: pd.DataFrame) -> alt.Chart:
    """The kernel-free slider chart: IOSQ and RESP by scheduling parameter, one activity rate at a time,
    one panel per quantity (their three 95% bands overlapped into one grey area in a single plot).

    The bands are drawn, but the title does not promise them: on the axis fixed over every rate they
    are under 2 px at the slider's first rates and show from about 20 I/O per second (the chapter's
    text names them)."""
    return charts.slider_chart(curves, x="scheduling_parameter", y="mean", slider="rate", facet="metric",
                               low="low", high="high", x_title="scheduling parameter", y_title="time per I/O (ms)",
                               slider_name="device activity (I/O per s)",
                               title="IMS device: IOSQ and RESP by scheduling parameter, one activity at a time")


def widget_view(result: pd.DataFrame) -> tuple:
    """The live panel's output: the simulated device with its paired change from the chapter's default
    (:func:`perfstudies.panel.panel_view`), then the closed forms at the same setting."""
    return panel_view(result), readable(widget_theory(result.attrs["params"]), names={"theory": "theory"})
