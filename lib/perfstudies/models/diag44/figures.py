"""Every chart and diagram of the DIAG X'44' chapter.

Each function takes the numbers it draws (a comparison table, a sweep
summary) or computes them from :mod:`.analytic`, and returns an Altair chart
in the book's theme (:func:`perfstudies.charts.setup`).
"""

import altair as alt
import pandas as pd

from perfstudies import charts
from perfstudies.diagrams import network_diagram
from perfstudies.tables import exact, readable

from . import analytic
from .calibration import calibrated_constants
from .params import DiagParams

#: The rows of the measurement tables the report's argument rests on (drawn by :func:`key_rows`).
KEY_ROWS = ("Tx rate", "Percent Fast Path", "CP µsec/Tx", "System Util/Proc")
#: The y-axis title (quantity and unit) of each of :data:`KEY_ROWS`.
KEY_ROW_TITLES = {"Tx rate": "transactions a second", "Percent Fast Path": "fast path (% of DIAG 44s)",
                  "CP µsec/Tx": "CP time per tx (µs)", "System Util/Proc": "system utilization (%)"}


def network() -> alt.LayerChart:
    """The two-node network, with the guest's own queue in front of the real processors and CP's scheduler lock."""
    return network_diagram(
        nodes=[("guest", 0, 0, "work waiting in\nthe guest (no free\nvirtual processor)"),
               ("rp", 1.5, 0, "REAL_PROCESSORS\n(5 or 9 servers)"),
               ("lock", 3, 0, "scheduler lock\n(M/M/1 rule: spin\nheld on the processor)"),
               ("idle", 1.5, 1.5, "IDLE (away from\nthe processors)")],
        edges=[("guest", "rp", "a VP frees up"),
               ("rp", "lock", "normal path,\nCP work"), ("lock", "rp", ""),
               ("rp", "idle", "server work done"), ("idle", "guest", "next transaction")],
        title="The DIAG 44 network: a fast-path yield never leaves REAL_PROCESSORS")


def binomial_curve(sibling_queued=(0.01, 0.03, 0.10, 0.25), max_vps: int = 8) -> alt.Chart:
    """``(1 - pi)^(V-1)`` against the virtual processors ``V``, one line per ``pi``."""
    curve = pd.DataFrame([{"V": v, "pi": f"π = {exact(pi)}", "P": analytic.no_sibling_queued(v, pi)}
                          for pi in sibling_queued for v in range(1, max_vps + 1)])
    return alt.Chart(curve).mark_line(point=True).encode(
        x=alt.X("V:Q", axis=charts.integer_axis("virtual processors of the guest, V"), scale=alt.Scale(domain=[1, max_vps])),
        y=alt.Y("P:Q", scale=alt.Scale(domain=[0, 1]), title="chance no sibling is queued (probability)"),
        color=alt.Color("pi:N", title="chance π a sibling is queued"),
        tooltip=[alt.Tooltip("V:Q", title="V"), alt.Tooltip("pi:N", title="π"),
                 alt.Tooltip("P:Q", format=".3f", title="chance none queued")],
    ).properties(title=charts.wrapped_title("The fast path needs every sibling out of the queue"), height=260)


def key_rows(table: pd.DataFrame) -> alt.ConcatChart:
    """Published beside model for :data:`KEY_ROWS`, one panel per row (stacked), one point per run."""
    rows = table[table["row"].isin(KEY_ROWS) & ~table["table"].str.startswith("text:")]
    rows = rows.assign(column=rows["column"].str.extract(r"\((\w+)\)", expand=False).fillna(rows["column"]))
    return alt.vconcat(*[charts.published_vs_model(rows[rows["row"] == row], x="column", facet=None, title=row,
                                                   y_title=KEY_ROW_TITLES[row], width=charts.panel_width(1))
                         for row in rows["row"].unique()])


def fast_share_slider(sweep: pd.DataFrame) -> alt.LayerChart:
    """Percent fast path against client VPs; the slider picks the real processors.

    The 95% band is cut to the possible range, 0 to 100%.
    """
    shares = sweep[sweep["metric"] == "pct_fast"]
    shares = shares.assign(low=shares["low"].clip(lower=0.0), high=shares["high"].clip(upper=100.0))
    return charts.slider_chart(shares, x="client_vps", y="mean",
                               slider="real_processors", low="low", high="high",
                               x_title="client virtual processors", y_title="percent of DIAG 44s on the fast path",
                               slider_name="real processors", title="Percent fast path (fast path on)")


def cp_time_slider(sweep: pd.DataFrame) -> alt.LayerChart:
    """CP microseconds per transaction against client VPs; the slider picks the real processors."""
    return charts.slider_chart(sweep[sweep["metric"] == "cp_us_per_tx"], x="client_vps", y="mean",
                               slider="real_processors", low="low", high="high",
                               x_title="client virtual processors", y_title="CP microseconds per transaction",
                               slider_name="real processors", title="CP time per transaction (fast path on)")


def constants_view():
    """The calibrated constants (:func:`~.calibration.calibrated_constants`) as a reader sees them: each by
    what it is, to three significant figures, with its unit (µs, not us); the field name, which the
    chapter's code uses, last."""
    constants = calibrated_constants()
    spec = DiagParams.spec()
    return readable(pd.DataFrame({"parameter": [spec[field]["doc"] for field in constants["constant"]],
                                  "value": constants["value"],
                                  "unit": constants["unit"].str.replace(r"\bus\b", "µs", regex=True),
                                  "machine": constants["machine"],
                                  "field of DiagParams": constants["constant"]}),
                    formats={"value": "number"})
