"""What the chapter runs and shows: the live panel's re-run, the sweep points and the figures."""

import pytest

from perfstudies.data import load
from perfstudies.tables import COLUMN_CHARS, width

from perfstudies.accuracy import study_comparison
from perfstudies.models.svcdump import PANEL, analytic, calibrated_params, figures, model, sweep_points, widget_run
from perfstudies.panel import COLUMNS, shows_through
from perfstudies.models.svcdump.explore import PANEL_FIELDS, PANEL_RANGES, SHOWN, WIDGET_CHUNKS, widget_params
from perfstudies.models.svcdump.params import SEED, DumpParams
from perfstudies.runner import replicate


def test_widget_run_defaults_to_the_documents_first_setup():
    table = widget_run()
    assert list(table.columns) == COLUMNS and len(table) == len(SHOWN) and (table["half_width"] >= 0).all()
    assert (table["change"] == 0).all()
    assert analytic.bottleneck(table.attrs["params"]) == "volumes"  # one 3390-3 stripe


def test_widget_run_shows_every_metric_with_an_interval_and_names_the_bottleneck():
    table = widget_run(calibrated_params(device="ESS", stripes=4))
    assert len(table) == 8 and (table["half_width"] >= 0).all()
    assert figures.widget_view(table).caption.startswith("Bottleneck by theory: capture CPU")


def test_one_more_stripe_shows_through_the_noise():
    """The main control, one step from the default (1 -> 2 stripes): the dump takes about half as long,
    and the paired interval of the change excludes zero."""
    assert PANEL.main == "stripes"
    row = widget_run(calibrated_params(stripes=2)).set_index("metric").loc["elapsed_s"]
    assert row["change"] <= -0.05 * row["default"] and shows_through(row)


@pytest.mark.parametrize("dump_blocks", [PANEL_RANGES["dump_blocks"][0], 490_000, PANEL_RANGES["dump_blocks"][1]])
def test_the_panel_simulates_about_the_same_number_of_chunks_at_every_dump_size(dump_blocks):
    """A re-run costs the same whatever the size: the chunks grow with the dump, not their number."""
    params = widget_params(calibrated_params(dump_blocks=dump_blocks))
    assert 0.95 * WIDGET_CHUNKS <= params.chunks <= WIDGET_CHUNKS
    assert params.replace(chunk_blocks=1_000) == calibrated_params(dump_blocks=dump_blocks)


def test_coarser_panel_chunks_keep_the_dump_time_near_the_comparisons_resolution():
    """The panel's default (2,450-block chunks) and the comparison's 1,000-block chunks agree within 1%."""
    coarse = widget_run().set_index("metric").loc["elapsed_s", "mean"]
    fine = replicate(model, calibrated_params(), 5, SEED, progress=False)
    assert coarse == pytest.approx(fine.mean("elapsed_s"), rel=0.01)
    assert coarse >= analytic.bound_elapsed_s(calibrated_params())


def test_widget_run_refuses_anything_but_a_parameter_record():
    with pytest.raises(TypeError, match="params = .* has the wrong type: allowed a DumpParams record or None"):
        widget_run({"stripes": 2})


def test_the_panel_offers_only_fields_of_the_record():
    assert set(PANEL_FIELDS) <= set(DumpParams.spec())


def test_sweep_points_cover_stripes_devices_channels_and_paths():
    points = sweep_points(channel_paths=(1, 2))
    assert len(points) == 2 * 2 * 2 * 8 and len(set(points)) == len(points)
    assert {p.stripes for p in points} == set(range(1, 9)) and {p.channel_paths for p in points} == {1, 2}


def test_io_table_shows_why_escon_flattens_and_ficon_does_not():
    table = figures.io_time_table().set_index(["device", "channel"])["stripes one path carries"]
    assert (table.xs("ESCON", level="channel") < 2).all()
    assert (table.xs("FICON", level="channel") > 5).all()


def test_chapter_charts_build_from_the_comparison():
    for chart in (figures.network(), figures.bound_chart(), figures.statement_chart(study_comparison("svcdump"))):
        assert chart.to_dict()["$schema"].startswith("https://vega.github.io/schema/vega-lite/")
    assert list(figures.calibration_table()["calibrated on"]) == ["ess_vs_3390_response", "ficon_vs_escon",
                                                                  "compression"]


def test_every_reader_table_fits_the_text_column():
    setup = load("svcdump", "setup").set_index("quantity")
    for view in (figures.setup_view(setup), figures.io_time_view(), figures.calibration_view(),
                 figures.resource_time_view(), figures.widget_view(widget_run())):
        assert width(view) <= COLUMN_CHARS
        assert not any("_" in str(column) for column in view.data.columns)


def test_every_statement_has_a_short_label_for_the_chart():
    table = study_comparison("svcdump")
    assert set(table["key"]) == set(figures.STATEMENT_LABELS)
    assert len(set(figures.STATEMENT_LABELS.values())) == len(figures.STATEMENT_LABELS)


def test_the_network_diagram_keeps_a_full_grid_unit_between_neighbours():
    """Boxes in one row at least one grid column apart, within four columns: labels stay at full size."""
    boxes = next(part for part in figures.network().layer if part.to_dict()["mark"]["type"] == "rect")
    nodes = boxes.data.to_dict("records")
    xs = sorted({node["x"] for node in nodes})
    assert max(xs) - min(xs) <= 3
    for a in nodes:
        for b in nodes:
            if a is not b and abs(a["y"] - b["y"]) < 1 and a["x"] != b["x"]:
                assert abs(a["x"] - b["x"]) >= 1


def test_the_comparison_view_labels_each_cell_in_words():
    table = study_comparison("svcdump")
    shown = figures.comparison_view(table).table.perfstudies_text
    assert len(shown) == len(table)
    assert not shown["cell"].str.contains("_").any()


def test_the_elapsed_table_shows_each_interval_as_every_table_does():
    """Three and two significant figures through ``tables.interval``, a too-wide interval said in words."""
    import pandas as pd
    from perfstudies.tables import WIDE_INTERVAL, interval

    elapsed = pd.DataFrame([{"device": device, "stripes": n, "mean": 0.4449 * n, "half_width": 0.00069,
                             "bound": 0.4 * n} for device in ("3390-3", "ESS") for n in figures.STRIPES])
    elapsed.loc[0, "half_width"] = 0.5  # wider than its mean, 0.4449
    shown = figures.elapsed_view(elapsed).to_html()
    assert interval(0.4449 * 2, 0.00069) in shown and "0.4449" not in shown
    assert shown.count(WIDE_INTERVAL) == 1
