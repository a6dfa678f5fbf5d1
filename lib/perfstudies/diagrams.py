"""Altair diagrams shared by the chapters: queueing networks and timelines.

Both are ordinary Altair charts, so they render offline in the book exactly
like the data charts, and every chapter draws its network the same way.

Examples
--------
>>> chart = network_diagram(
...     nodes=[("arrive", 0, 0, "arrivals"), ("cpu", 1, 0, "CPU\\n(1 server)")],
...     edges=[("arrive", "cpu", "Poisson")])
>>> frame = pd.DataFrame({"lane": ["drive 1"], "state": ["writing"], "start": [0.0], "end": [5.0]})
>>> chart = timeline(frame, title="one drive")
"""

import itertools
import math
import numbers
from collections.abc import Iterable, Mapping, Sequence

import altair as alt
import pandas as pd

from perfstudies.charts import (AXIS_ROOM, COLUMN_WIDTH, LABEL_CHAR_WIDTH, PHONE_PLOT_WIDTH, axis_title, wrap_words,
                               wrapped_title)

#: Size of one grid cell of a network diagram, in pixels.
CELL_WIDTH = 200
CELL_HEIGHT = 100
#: Widest diagram: the book's text column (:data:`perfstudies.charts.COLUMN_WIDTH`).
#: Wider grids get narrower cells, so a diagram never needs more; on a narrower
#: screen the book's stylesheet scales it down as a whole.
MAX_WIDTH = COLUMN_WIDTH
#: Smallest box; a box grows to hold its longest label line, up to its cell less GAP.
BOX_WIDTH = 118
BOX_HEIGHT = 50
GAP = 14
#: Label font size in pixels; long labels in narrow cells shrink, down to MIN_FONT_SIZE.
FONT_SIZE = 11
MIN_FONT_SIZE = 8.5
LINE_HEIGHT = 1.2
#: Average glyph width of the label font, as a fraction of its size.
GLYPH_WIDTH = 0.56
#: Most nodes or edges of one diagram, and the largest grid position (a diagram fits the text column).
MAX_ITEMS = 200
MAX_GRID = 1_000
#: Room a legend entry takes besides its label: the symbol, its gap and the gap to the next column.
LEGEND_SYMBOL_ROOM = 34
BOX_FILL = "#f2f2f2"
INK = "#333333"


def _items(name: str, items, size: int, shape: str) -> list:
    """``items`` as a list of ``size``-tuples, or the ValueError naming ``name``."""
    if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
        raise ValueError(f"{name} = {items!r} has the wrong type: allowed a sequence of {shape}")
    items = list(itertools.islice(items, MAX_ITEMS + 1))
    if len(items) > MAX_ITEMS:
        raise ValueError(f"{name} has more than {MAX_ITEMS} items: allowed at most {MAX_ITEMS} {shape}")
    for item in items:
        if isinstance(item, (str, bytes)) or not isinstance(item, Sequence) or len(item) != size:
            raise ValueError(f"{name} item {item!r} is not allowed: allowed {shape}")
    return items


def _coordinate(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} = {value!r} has the wrong type: allowed a grid position, a number "
                         f"-{MAX_GRID} <= position <= {MAX_GRID}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not -MAX_GRID <= number <= MAX_GRID:
        raise ValueError(f"{name} = {value!r} is out of range: allowed a grid position -{MAX_GRID} <= position "
                         f"<= {MAX_GRID}")
    return number


def _node_frame(nodes: Sequence[tuple]) -> pd.DataFrame:
    rows = []
    for node in _items("nodes", nodes, 4, "(key, x, y, label)"):
        key, x, y, label = node
        rows.append({"key": str(key), "x": _coordinate(f"nodes item {key!r} x", x),
                     "y": _coordinate(f"nodes item {key!r} y", y), "lines": str(label).split("\n")})
    if not rows:
        raise ValueError("nodes is empty: allowed at least one (key, x, y, label)")
    frame = pd.DataFrame(rows)
    duplicated = frame["key"][frame["key"].duplicated()].tolist()
    if duplicated:
        raise ValueError(f"nodes keys {duplicated} are repeated: allowed unique keys")
    return frame


def _edge_frame(edges: Sequence[tuple], nodes: pd.DataFrame, cell_width: float, cell_height: float,
                box: tuple[float, float]) -> pd.DataFrame:
    where = nodes.set_index("key")[["x", "y"]]
    rows = []
    for edge in _items("edges", edges, 3, "(source_key, target_key, label)"):
        source, target, label = (str(part) for part in edge)
        for end in (source, target):
            if end not in where.index:
                raise ValueError(f"edges end {end!r} is not a node: allowed one of {list(where.index)}")
        (x0, y0), (x1, y1) = where.loc[source], where.loc[target]
        # start and end on the boxes' borders, not their centres, so the arrowhead shows
        dx, dy = (x1 - x0) * cell_width, (y1 - y0) * cell_height
        scale = max(abs(dx) / (box[0] / 2 + 4), abs(dy) / (box[1] / 2 + 4), 1e-9)
        rows.append({"source": source, "target": target, "label": label,
                     "x0": x0 * cell_width + dx / scale, "y0": y0 * cell_height + dy / scale,
                     "x1": x1 * cell_width - dx / scale, "y1": y1 * cell_height - dy / scale,
                     "angle": _arrow_angle(dx, dy)})
    frame = pd.DataFrame(rows, columns=["source", "target", "label", "x0", "y0", "x1", "y1", "angle"])
    frame["xm"] = (frame["x0"] + frame["x1"]) / 2
    frame["ym"] = (frame["y0"] + frame["y1"]) / 2
    return frame


def _arrow_angle(dx: float, dy: float) -> float:
    """Vega's triangle points up at angle 0 and turns clockwise; screen y grows downward."""
    return (math.degrees(math.atan2(dx, -dy))) % 360


def network_diagram(nodes: Sequence[tuple], edges: Sequence[tuple], title: str = "") -> alt.LayerChart:
    """Boxes and arrows: a queueing network laid out on a grid.

    Parameters
    ----------
    nodes : sequence of (key, x, y, label)
        One box per node at grid column ``x`` and row ``y`` (rows grow
        downward; fractions are allowed).  ``label`` may hold ``"\\n"``.
    edges : sequence of (source_key, target_key, label)
        One arrow per routing step, labelled at its middle (``""`` for none).
    title : str
        Chart title.

    Each label is centred in its box; lines too long for the box even at
    :data:`MIN_FONT_SIZE` are broken between words.
    """
    if not isinstance(title, str):
        raise ValueError(f"title = {title!r} has the wrong type: allowed a string")
    node_frame = _node_frame(nodes)
    columns = node_frame["x"].max() - node_frame["x"].min() + 1
    cell_width = min(CELL_WIDTH, MAX_WIDTH / columns)
    if cell_width - GAP < 3 * GAP:
        raise ValueError(f"nodes span {columns:g} grid columns: allowed at most {MAX_WIDTH / (4 * GAP):.0f}, "
                         "so the boxes stay readable in the text column (lay the network out in rows)")
    longest = max(len(line) for lines in node_frame["lines"] for line in lines)
    most_lines = max(len(lines) for lines in node_frame["lines"])
    # neighbours in the same row (less than a grid row apart) must not touch
    spacing = min([abs(a.x - b.x) for a, b in itertools.combinations(node_frame.itertuples(), 2)
                   if abs(a.y - b.y) < 1 and a.x != b.x] + [1.0])
    box_width = min(max(BOX_WIDTH, longest * GLYPH_WIDTH * FONT_SIZE + GAP), spacing * cell_width - GAP)
    fits = max(1, int((box_width - GAP) / (GLYPH_WIDTH * MIN_FONT_SIZE)))  # characters a line at the smallest font
    if longest > fits:  # even the smallest font would spill: break the long lines between words
        node_frame["lines"] = [[part for line in lines for part in wrap_words(line, fits)]
                               for lines in node_frame["lines"]]
        longest = max(len(line) for lines in node_frame["lines"] for line in lines)
        most_lines = max(len(lines) for lines in node_frame["lines"])
    font_size = max(MIN_FONT_SIZE, min(FONT_SIZE, (box_width - GAP) / (GLYPH_WIDTH * max(longest, 1))))
    box_height = max(BOX_HEIGHT, most_lines * LINE_HEIGHT * font_size + GAP)
    cell_height = max(CELL_HEIGHT, box_height + 2 * GAP + 12)
    edge_frame = _edge_frame(edges, node_frame, cell_width, cell_height, (box_width, box_height))
    node_frame["px"] = node_frame["x"] * cell_width
    node_frame["py"] = node_frame["y"] * cell_height
    # Vega sets a label's first line on its y and the others below: lift each label by half its
    # extra lines so the block is centred in its box
    node_frame["label_py"] = node_frame["py"] - (node_frame["lines"].str.len() - 1) * LINE_HEIGHT * font_size / 2
    x_domain = [node_frame["px"].min() - cell_width / 2, node_frame["px"].max() + cell_width / 2]
    y_domain = [node_frame["py"].min() - cell_height / 2, node_frame["py"].max() + cell_height / 2]
    width = x_domain[1] - x_domain[0]
    height = y_domain[1] - y_domain[0]
    x_scale = alt.Scale(domain=x_domain, nice=False, zero=False)
    y_scale = alt.Scale(domain=y_domain, nice=False, zero=False, reverse=True)
    x = alt.X("px:Q", axis=None, scale=x_scale)
    y = alt.Y("py:Q", axis=None, scale=y_scale)

    boxes = alt.Chart(node_frame).mark_rect(
        fill=BOX_FILL, stroke=INK, strokeWidth=1.2, cornerRadius=6, width=box_width, height=box_height,
    ).encode(x=x, y=y, tooltip=[alt.Tooltip("key:N", title="node")])
    labels = alt.Chart(node_frame).mark_text(fontSize=font_size, color=INK,
                                             lineHeight=LINE_HEIGHT * font_size).encode(
        x=x, y=alt.Y("label_py:Q", axis=None, scale=y_scale), text="lines")
    layers = [boxes, labels]
    if not edge_frame.empty:
        ex = alt.X("x0:Q", scale=x_scale, axis=None)
        ey = alt.Y("y0:Q", scale=y_scale, axis=None)
        lines = alt.Chart(edge_frame).mark_rule(color=INK, strokeWidth=1.3).encode(
            x=ex, y=ey, x2="x1:Q", y2="y1:Q", tooltip=["source", "target", "label"])
        heads = alt.Chart(edge_frame).mark_point(shape="triangle", filled=True, size=70, color=INK,
                                                 opacity=1).encode(
            x=alt.X("x1:Q", scale=x_scale, axis=None), y=alt.Y("y1:Q", scale=y_scale, axis=None),
            angle=alt.Angle("angle:Q", scale=None))
        names = alt.Chart(edge_frame[edge_frame["label"] != ""]).mark_text(
            fontSize=font_size - 1, color="#555555", dy=-7, fontStyle="italic").encode(
            x=alt.X("xm:Q", scale=x_scale, axis=None), y=alt.Y("ym:Q", scale=y_scale, axis=None), text="label")
        layers = [lines, heads, names, *layers]
    return alt.layer(*layers).properties(width=width, height=height, title=wrapped_title(title, width))


def timeline(frame: pd.DataFrame, start: str = "start", end: str = "end", lane: str = "lane",
             state: str = "state", title: str = "", x_title: str = "time (s)") -> alt.Chart:
    """Gantt-style bars: one row per ``lane``, one bar per interval, coloured by ``state``.

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per interval, with the four named columns (extra columns
        appear in the tooltip).
    start, end, lane, state : str
        Column names; ``end`` must not be before ``start``.
    x_title : str
        The time axis's title with its unit (``"time (ms)"``).

    The states' legend sits below the bars, every label whole: two entries a
    row where they fit a phone's chart, else one.
    """
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame = {type(frame).__name__} has the wrong type: allowed a pandas DataFrame")
    axis_title("x_title", x_title)
    missing = [name for name in (start, end, lane, state) if name not in frame.columns]
    if missing:
        raise ValueError(f"frame lacks columns {missing}: allowed a frame with {[start, end, lane, state]}")
    if (frame[end] < frame[start]).any():
        raise ValueError(f"frame has rows where {end} < {start}: allowed intervals with {start} <= {end}")
    lanes = list(dict.fromkeys(frame[lane]))
    states = list(dict.fromkeys(frame[state]))
    # two entries a row where two of the longest (with their symbols) fit a phone's chart, else one
    entry = max([len(str(name)) for name in states] + [1]) * LABEL_CHAR_WIDTH + LEGEND_SYMBOL_ROOM
    columns = 2 if 2 * entry <= PHONE_PLOT_WIDTH + AXIS_ROOM else 1
    return alt.Chart(frame).mark_bar(height={"band": 0.7}).encode(
        x=alt.X(f"{start}:Q", title=x_title),
        x2=f"{end}:Q",
        y=alt.Y(f"{lane}:N", title=None, sort=lanes),
        color=alt.Color(f"{state}:N", title=None, sort=states, legend=alt.Legend(columns=columns)),
        tooltip=list(frame.columns),
    ).properties(title=wrapped_title(title), height=max(60, 28 * len(lanes)))
