"""Network diagrams and timelines: valid Vega-Lite, arrows that point the right way, clear errors."""

import pandas as pd
import pytest

from perfstudies import charts, diagrams
from perfstudies.diagrams import _arrow_angle, network_diagram, timeline

NODES = [("source", 0, 0, "arrivals"), ("queue", 1, 0, "server\n(c = 2)"), ("sink", 1, 1, "exit")]
EDGES = [("source", "queue", "Poisson"), ("queue", "sink", "")]


def test_network_diagram_draws_a_box_per_node_and_an_arrow_per_edge():
    spec = network_diagram(NODES, EDGES, title="M/M/2").to_dict()
    layers = {layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"]: layer
              for layer in spec["layer"]}
    datasets = spec["datasets"]
    rect_rows = datasets[layers["rect"]["data"]["name"]]
    rule_rows = datasets[layers["rule"]["data"]["name"]]
    assert [row["key"] for row in rect_rows] == ["source", "queue", "sink"]
    assert [(row["source"], row["target"]) for row in rule_rows] == [("source", "queue"), ("queue", "sink")]
    assert rect_rows[1]["lines"] == ["server", "(c = 2)"]


@pytest.mark.parametrize("dx, dy, angle", [(1, 0, 90), (0, 1, 180), (-1, 0, 270), (0, -1, 0)])
def test_arrowheads_point_along_the_edge(dx, dy, angle):
    assert _arrow_angle(dx, dy) == pytest.approx(angle)


def test_network_diagram_rejects_unknown_nodes_and_bad_items():
    with pytest.raises(ValueError, match="edges end 'nowhere' is not a node"):
        network_diagram(NODES, [("source", "nowhere", "")])
    with pytest.raises(ValueError, match=r"nodes item .* allowed \(key, x, y, label\)"):
        network_diagram([("a", 0, 0)], [])
    with pytest.raises(ValueError, match="nodes keys \\['a'\\] are repeated"):
        network_diagram([("a", 0, 0, "A"), ("a", 1, 0, "A")], [])


def test_timeline_orders_lanes_as_given_and_rejects_reversed_intervals():
    frame = pd.DataFrame({"lane": ["drive 2", "drive 1"], "state": ["writing", "changing"],
                          "start": [0.0, 1.0], "end": [2.0, 3.0]})
    spec = timeline(frame).to_dict()
    assert spec["encoding"]["y"]["sort"] == ["drive 2", "drive 1"]
    with pytest.raises(ValueError, match="end < start"):
        timeline(frame.assign(end=[-1.0, 3.0]))
    with pytest.raises(ValueError, match="frame lacks columns \\['state'\\]"):
        timeline(frame.drop(columns="state"))


@pytest.mark.parametrize("columns, width", [(2, 2 * diagrams.CELL_WIDTH), (4, diagrams.MAX_WIDTH),
                                            (8, diagrams.MAX_WIDTH)])
def test_wide_networks_shrink_their_cells_to_fit_the_text_column(columns, width):
    nodes = [(f"n{i}", i, 0, f"node {i}") for i in range(columns)]
    spec = network_diagram(nodes, edges=[("n0", f"n{columns - 1}", "")]).to_dict()
    assert spec["width"] == pytest.approx(width)
    assert diagrams.MAX_WIDTH <= charts.COLUMN_WIDTH


def test_boxes_grow_to_hold_their_labels_and_stay_apart():
    label = "work waiting in the guest\n(no free virtual processor)\nthird line\nfourth line"
    spec = network_diagram([("a", 0, 0, label), ("b", 1.4, 0, "b"), ("c", 2.8, 0, "c")], []).to_dict()
    rect = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "rect")["mark"]
    text = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "text")["mark"]
    cell_width = diagrams.MAX_WIDTH / 3.8
    assert rect["width"] <= cell_width * 1.4 - diagrams.GAP, "neighbouring boxes keep a gap"
    assert rect["height"] >= 4 * text["lineHeight"], "four lines fit in the box"
    longest = len("(no free virtual processor)")
    assert longest * diagrams.GLYPH_WIDTH * text["fontSize"] <= rect["width"] or \
        text["fontSize"] == diagrams.MIN_FONT_SIZE


def test_too_many_grid_columns_are_refused_and_titles_wrap():
    with pytest.raises(ValueError, match="^nodes span 20 grid columns"):
        network_diagram([("a", 0, 0, "a"), ("b", 19, 0, "b")], [])
    title = "A very long diagram title that would otherwise widen the chart beyond the book's text column"
    spec = network_diagram(NODES, EDGES, title=title).to_dict()
    assert isinstance(spec["title"]["text"], list) and len(spec["title"]["text"]) > 1


def test_timeline_requires_a_time_axis_title_with_its_unit():
    frame = pd.DataFrame({"lane": ["a"], "state": ["busy"], "start": [0.0], "end": [1.0]})
    with pytest.raises(ValueError, match="^x_title = 'value'"):
        timeline(frame, x_title="value")
    assert timeline(frame, x_title="time (ms)").to_dict()["encoding"]["x"]["title"] == "time (ms)"


def test_boxes_in_one_row_never_overlap_even_when_nodes_are_close():
    nodes = [("cpu", 1.6, 1, "capture\n(busy CPU, 1 server)"), ("v2", 2.4, 1, "volume 2"), ("a", 0, 0, "a"),
             ("ch", 3.2, 1, "channel paths\n(ESCON or FICON)")]
    spec = network_diagram(nodes, []).to_dict()
    rect = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "rect")["mark"]
    cell_width = min(diagrams.CELL_WIDTH, diagrams.MAX_WIDTH / 4.2)
    assert rect["width"] <= 0.8 * cell_width - diagrams.GAP + 1e-9


def test_labels_are_centred_in_their_boxes_and_long_lines_break_between_words():
    label = "a rather long label that cannot fit\n(second line)"
    spec = network_diagram([("a", 0, 0, label), ("b", 0.6, 0, "b")], []).to_dict()
    rect = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "rect")
    text = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "text")
    rows = {row["key"]: row for row in spec["datasets"][spec["data"]["name"]]}  # no edges: one dataset
    most = (rect["mark"]["width"] - diagrams.GAP) / (diagrams.GLYPH_WIDTH * diagrams.MIN_FONT_SIZE)
    assert rows["a"]["lines"][-1] == "(second line)" and len(rows["a"]["lines"]) > 2
    assert all(len(line) <= most for line in rows["a"]["lines"]), rows["a"]["lines"]
    assert " ".join(rows["a"]["lines"][:-1]) == "a rather long label that cannot fit", "no word is lost or split"
    # Vega sets the first line on y and the rest below: the block's middle is the box's middle
    lifted = rows["a"]["py"] - rows["a"]["label_py"]
    assert lifted == pytest.approx((len(rows["a"]["lines"]) - 1) * text["mark"]["lineHeight"] / 2)
    assert rows["b"]["label_py"] == rows["b"]["py"]


def test_a_timeline_legend_of_long_state_names_takes_one_column_so_it_fits_a_phone():
    frame = pd.DataFrame({"lane": ["CP"] * 2, "state": ["held: interrupt pending", "running: guest work"],
                          "start": [0.0, 1.0], "end": [1.0, 2.0]})
    assert timeline(frame).to_dict()["encoding"]["color"]["legend"]["columns"] == 1
    short = frame.assign(state=["busy", "idle"])
    assert timeline(short).to_dict()["encoding"]["color"]["legend"]["columns"] == 2
