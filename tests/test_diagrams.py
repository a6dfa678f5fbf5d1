"""Network diagrams and timelines: valid Vega-Lite, arrows that point the right way, clear errors."""

import pandas as pd
import pytest

from perfstudies import diagrams
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
                                            (8, 8 * diagrams.MIN_CELL_WIDTH)])
def test_wide_networks_shrink_their_cells_to_fit_the_page_but_keep_boxes_apart(columns, width):
    nodes = [(f"n{i}", i, 0, f"node {i}") for i in range(columns)]
    spec = network_diagram(nodes, edges=[("n0", f"n{columns - 1}", "")]).to_dict()
    assert spec["width"] == pytest.approx(width)
