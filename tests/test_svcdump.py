"""The SVC dump model: mechanism, validation, determinism, calibration and comparison."""

import dataclasses

import pytest

from perfstudies.accuracy import study_comparison
from perfstudies.compare import ROLES
from perfstudies.models.svcdump import (DumpParams, analytic, bottleneck, calibrate, calibrated_params, knee_stripes,
                                        model, simulate)
from perfstudies.models.svcdump import figures
from perfstudies.models.svcdump.calibration import cell_specs, documented_dump_blocks, statements
from perfstudies.models.svcdump.explore import stripe_sweep_points
from perfstudies.models.svcdump.network import dump_network, ipcs_network, paged_chunks
from perfstudies.runner import run_ciw

SEED = 11
#: model(calibrated_params(device="ESS", stripes=2), SEED), computed once and pinned.
REGRESSION = {"elapsed_s": 108.69639760411623, "ipcs_s": 108.45478524435005, "channel_util": 0.5430776873608014}


def elapsed(seed=SEED, **changes) -> float:
    return model(calibrated_params(**changes), seed)["elapsed_s"]


# --- mechanism -------------------------------------------------------------------------

@pytest.mark.parametrize("device", ["3390-3", "ESS"])
def test_two_stripes_are_never_slower_than_one(device):
    for seed in (1, 2, 3):
        assert elapsed(seed, device=device, stripes=2) <= elapsed(seed, device=device, stripes=1)


@pytest.mark.parametrize("device", ["3390-3", "ESS"])
def test_elapsed_time_is_proportional_to_dump_size(device):
    small, large = (elapsed(device=device, stripes=2, dump_blocks=size) for size in (245_000, 490_000))
    assert large / small == pytest.approx(2.0, rel=0.05)


def test_ess_is_faster_than_3390_at_every_stripe_count():
    for stripes in range(1, 9):
        assert elapsed(device="ESS", stripes=stripes) < elapsed(device="3390-3", stripes=stripes)


def test_flattening_comes_from_another_resource_taking_over():
    # 3390-3 on two ESCON paths: volumes bound up to about 3.5 stripes, then the channel
    assert bottleneck(calibrated_params(stripes=2)) == "volumes"
    assert bottleneck(calibrated_params(stripes=4)) == "channel"
    assert 3 < knee_stripes(calibrated_params(stripes=1)) < 4
    # ESS: the capture processor takes over beyond two stripes, and at once with FICON
    assert bottleneck(calibrated_params(device="ESS", stripes=3)) == "cpu"
    assert bottleneck(calibrated_params(device="ESS", stripes=2, channel="FICON")) == "cpu"
    gains = [elapsed(device="3390-3", stripes=n) for n in (1, 2, 4)]
    assert gains[1] - gains[2] < gains[0] - gains[1]


def test_page_data_sets_matter_only_when_storage_is_constrained():
    constrained = [elapsed(device="ESS", stripes=2, storage_constrained=True, page_data_sets=n) for n in (1, 8)]
    assert constrained[1] < 0.5 * constrained[0]
    relaxed = [elapsed(device="ESS", stripes=2, page_data_sets=n) for n in (1, 8)]
    assert relaxed[1] == pytest.approx(relaxed[0], rel=0.01)


def test_simulation_stays_just_above_the_bottleneck_bound():
    for changes in ({}, dict(stripes=4), dict(device="ESS", stripes=2), dict(device="ESS", channel="FICON")):
        params = calibrated_params(**changes)
        result = model(params, SEED)
        assert analytic.bound_elapsed_s(params) * 0.98 <= result["elapsed_s"] <= analytic.bound_elapsed_s(params) * 1.05
        assert result["ipcs_s"] == pytest.approx(analytic.bound_ipcs_s(params), rel=0.05)


def test_network_shape_and_round_robin_striping():
    params = calibrated_params(stripes=3, channel_paths=2, page_data_sets=4, storage_constrained=True)
    network = dump_network(params)
    assert network.number_of_nodes == 3 + 3  # page-in, capture, three volumes, channel
    assert [node.number_of_servers for node in network.service_centres] == [4, 1, 1, 1, 1, 2]
    _, records = run_ciw(network, SEED, 1e6)
    per_volume = records[records["node"].between(3, 5)].groupby("node").size()
    assert per_volume.max() - per_volume.min() <= 1 and per_volume.sum() == params.chunks
    assert (records["node"] == 1).sum() == paged_chunks(params) > 0
    assert ipcs_network(params).number_of_nodes == 3 + 2


# --- validation ------------------------------------------------------------------------

@pytest.mark.parametrize(("changes", "message"), [
    ({"stripes": 0}, r"DumpParams\.stripes = 0 is out of range: allowed 1 <= stripes <= 8"),
    ({"device": "3380"}, r"DumpParams\.device = '3380' is not allowed: one of \['3390-3', 'ESS'\]"),
    ({"channel": "bus"}, r"DumpParams\.channel = 'bus' is not allowed: one of \['ESCON', 'FICON'\]"),
    ({"dump_blocks": -1}, r"DumpParams\.dump_blocks = -1 is out of range: allowed 10000 <= dump_blocks"),
    ({"page_data_sets": 9}, r"DumpParams\.page_data_sets = 9 is out of range: allowed 1 <= page_data_sets <= 8"),
    ({"compression": "yes"}, r"DumpParams\.compression = 'yes' has the wrong type: allowed True or False"),
    ({"dump_blocks": 10_000, "chunk_blocks": 20_000}, r"DumpParams\.chunk_blocks = 20000 is out of range"),
    ({"chunk_blocks": 100}, r"DumpParams\.chunk_blocks = 100 is out of range: allowed chunk_blocks >= "),
])
def test_invalid_parameters_raise_value_error_naming_them(changes, message):
    with pytest.raises(ValueError, match=message):
        DumpParams(**changes)


def test_simulate_refuses_anything_but_a_parameter_record():
    with pytest.raises(ValueError, match="params = .* has the wrong type: allowed a DumpParams record"):
        simulate({"stripes": 2})


# --- determinism and regression --------------------------------------------------------

def test_same_seed_same_numbers():
    params = calibrated_params(device="ESS", stripes=3, storage_constrained=True)
    assert model(params, 5) == model(params, 5)
    assert model(params, 5) != model(params, 6)


def test_seeded_regression_values():
    result = model(calibrated_params(device="ESS", stripes=2), SEED)
    assert result["elapsed_s"] == pytest.approx(REGRESSION["elapsed_s"], rel=1e-9)
    assert result["ipcs_s"] == pytest.approx(REGRESSION["ipcs_s"], rel=1e-9)
    assert result["channel_util"] == pytest.approx(REGRESSION["channel_util"], rel=1e-9)


# --- calibration and comparison --------------------------------------------------------

def test_record_defaults_are_the_rounded_calibration_and_the_documented_dump():
    calibration = dataclasses.asdict(calibrate())
    defaults = DumpParams()
    for name, value in calibration.items():
        assert getattr(defaults, name) == pytest.approx(value, rel=2e-3), name
    assert defaults.dump_blocks == documented_dump_blocks() == 490_000


def test_calibration_meets_its_statements_in_the_bound():
    published = statements()["published"]
    params = calibrated_params()
    one_3390, one_ess = params.replace(stripes=1), params.replace(device="ESS", stripes=1)
    assert analytic.io_ms(one_ess) / analytic.io_ms(one_3390) == pytest.approx(published["ess_vs_3390_response"])
    recommended = params.replace(device="ESS", stripes=2)
    ratio = analytic.bound_elapsed_s(recommended.replace(channel="FICON")) / analytic.bound_elapsed_s(recommended)
    assert ratio == pytest.approx(published["ficon_vs_escon"])
    ratio = analytic.bound_elapsed_s(recommended.replace(compression=True)) / analytic.bound_elapsed_s(recommended)
    assert ratio == pytest.approx(published["compression"])


def test_impossible_statements_are_refused():
    published = statements().copy()
    published.loc["ess_vs_3390_response", "published"] = 0.1
    with pytest.raises(ValueError, match="ess_vs_3390_response = 0.1 needs a negative turnaround"):
        calibrate(published)
    published = statements().copy()
    published.loc["ficon_vs_escon", "published"] = 0.3
    with pytest.raises(ValueError, match="ficon_vs_escon = 0.3 is out of range"):
        calibrate(published)


def test_comparison_covers_every_statement_with_a_valid_role():
    table = study_comparison("svcdump").set_index("row")
    assert set(table.index) == set(statements().index) == set(cell_specs(490_000))
    assert set(table["role"]) <= set(ROLES)
    calibrated = table[table["role"] == "calibration"]
    assert set(calibrated.index) == {"ess_vs_3390_response", "ficon_vs_escon", "compression"}
    assert calibrated["within_tolerance"].all()
    assert (table["ci_half_width"] > 0).all()


# --- what the chapter shows ------------------------------------------------------------

def test_io_table_shows_why_escon_flattens_and_ficon_does_not():
    table = figures.io_time_table().set_index(["device", "channel"])["stripes one path carries"]
    assert (table.xs("ESCON", level="channel") < 2).all()
    assert (table.xs("FICON", level="channel") > 5).all()


def test_sweep_points_cover_stripes_devices_channels_and_paths():
    points = stripe_sweep_points(channel_paths=(1, 2))
    assert len(points) == 2 * 2 * 2 * 8 and len(set(points)) == len(points)
    assert {p.stripes for p in points} == set(range(1, 9)) and {p.channel_paths for p in points} == {1, 2}


def test_chapter_charts_build_from_the_comparison():
    for chart in (figures.network(), figures.bound_chart(), figures.statement_chart(study_comparison("svcdump"))):
        assert chart.to_dict()["$schema"].startswith("https://vega.github.io/schema/vega-lite/")


def test_widget_run_shows_every_metric_with_an_interval_and_names_the_bottleneck():
    table = simulate(calibrated_params(device="ESS", stripes=4), replications=2)
    assert len(table) == 8 and (table["95% CI half-width"] >= 0).all()
    assert table.attrs["bottleneck"] == "cpu"
