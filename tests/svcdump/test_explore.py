"""What the chapter runs and shows: the live panel's re-run, the sweep points and the figures."""

import pytest

from perfstudies.accuracy import study_comparison
from perfstudies.models.svcdump import calibrated_params, figures, model, sweep_points, widget_run
from perfstudies.models.svcdump.explore import PANEL_FIELDS, PANEL_RANGES, SHOWN, WIDGET_CHUNKS, widget_params
from perfstudies.models.svcdump.params import SEED, DumpParams
from perfstudies.runner import replicate


def test_widget_run_defaults_to_the_documents_first_setup():
    table = widget_run()
    assert len(table) == len(SHOWN) and (table["95% CI half-width"] >= 0).all()
    assert table.attrs["bottleneck"] == "volumes"  # one 3390-3 stripe


def test_widget_run_shows_every_metric_with_an_interval_and_names_the_bottleneck():
    table = widget_run(calibrated_params(device="ESS", stripes=4))
    assert len(table) == 8 and (table["95% CI half-width"] >= 0).all()
    assert table.attrs["bottleneck"] == "cpu"
    assert figures.widget_view(table).caption == "bottleneck by theory: cpu"


@pytest.mark.parametrize("dump_blocks", [PANEL_RANGES["dump_blocks"][0], 490_000, PANEL_RANGES["dump_blocks"][1]])
def test_the_panel_simulates_about_the_same_number_of_chunks_at_every_dump_size(dump_blocks):
    """A re-run costs the same whatever the size: the chunks grow with the dump, not their number."""
    params = widget_params(calibrated_params(dump_blocks=dump_blocks))
    assert 0.95 * WIDGET_CHUNKS <= params.chunks <= WIDGET_CHUNKS
    assert params.replace(chunk_blocks=1_000) == calibrated_params(dump_blocks=dump_blocks)


def test_coarser_panel_chunks_keep_the_dump_time_near_the_comparisons_resolution():
    """The panel's default (2,450-block chunks) and the comparison's 1,000-block chunks agree within 1%."""
    coarse = widget_run()
    fine = replicate(model, calibrated_params(), 5, SEED, progress=False)
    assert coarse.loc[0, "mean"] == pytest.approx(fine.mean("elapsed_s"), rel=0.01)
    assert coarse.loc[0, "mean"] >= coarse.loc[0, "bound"]


def test_widget_run_refuses_anything_but_a_parameter_record():
    with pytest.raises(ValueError, match="params = .* has the wrong type: allowed a DumpParams record or None"):
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
