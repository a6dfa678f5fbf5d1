"""Theory first: the bottleneck bound of :mod:`.analytic` against the simulation, and what it says about the knee."""

import pytest

from perfstudies.models.svcdump import analytic, bottleneck, calibrated_params, knee_stripes, model
from perfstudies.models.svcdump.network import chunk_services
from perfstudies.models.svcdump.params import SEED
from perfstudies.runner import replicate

TEST_SEED = 11


@pytest.mark.parametrize("changes", [{}, dict(stripes=4), dict(device="ESS", stripes=2),
                                     dict(device="ESS", channel="FICON")])
def test_simulation_stays_just_above_the_bottleneck_bound(changes):
    params = calibrated_params(**changes)
    result = model(params, TEST_SEED)
    assert analytic.bound_elapsed_s(params) * 0.98 <= result["elapsed_s"] <= analytic.bound_elapsed_s(params) * 1.05
    assert result["ipcs_s"] == pytest.approx(analytic.bound_ipcs_s(params), rel=0.05)


@pytest.mark.parametrize("changes", [dict(stripes=2), dict(stripes=4), dict(device="ESS", stripes=1)])
def test_mean_elapsed_time_lies_between_the_bound_and_the_bound_plus_the_pipeline_fill(changes):
    """Over replications, the mean time's 95% interval meets [bound, bound + one chunk at each other stage]."""
    params = calibrated_params(**changes)
    runs = replicate(model, params, 5, SEED, progress=False)
    mean, half_width = runs.mean("elapsed_s"), runs.half_width("elapsed_s")
    services = chunk_services(params)
    fill = services["cpu"].mean + services["volume"].mean + services["channel"].mean
    bound = analytic.bound_elapsed_s(params)
    assert mean + half_width >= bound * 0.999
    assert mean - half_width <= bound + fill


def test_utilization_law_holds_at_the_bottleneck():
    """The bottleneck's utilization is its demand over servers x elapsed time (operational analysis)."""
    params = calibrated_params(stripes=2)  # 3390-3 on two ESCON paths: the volumes bind
    result = model(params, TEST_SEED)
    demand = analytic.demands(params)["volumes"]
    assert result["volume_util"] == pytest.approx(demand / (params.stripes * result["elapsed_s"]), rel=0.01)
    assert result["volume_util"] > 0.98


def test_chunk_distributions_add_up_to_the_resource_demands():
    params = calibrated_params(device="ESS", stripes=3)
    services = chunk_services(params)
    demands = analytic.demands(params)
    assert services["cpu"].mean * params.chunks == pytest.approx(demands["cpu"])
    assert services["volume"].mean * params.chunks == pytest.approx(demands["volumes"])
    assert services["channel"].mean * params.chunks == pytest.approx(demands["channel"])


def test_flattening_comes_from_another_resource_taking_over():
    # 3390-3 on two ESCON paths: volumes bound up to about 3.5 stripes, then the channel
    assert bottleneck(calibrated_params(stripes=2)) == "volumes"
    assert bottleneck(calibrated_params(stripes=4)) == "channel"
    assert 3 < knee_stripes(calibrated_params(stripes=1)) < 4
    # ESS: the capture processor takes over beyond two stripes, and at once with FICON
    assert bottleneck(calibrated_params(device="ESS", stripes=3)) == "cpu"
    assert bottleneck(calibrated_params(device="ESS", stripes=2, channel="FICON")) == "cpu"


def test_ficon_moves_no_3390_bottleneck_at_one_stripe():
    """A 3390-3 streams slower than either link, so one I/O takes as long on FICON as on ESCON."""
    escon, ficon = calibrated_params(), calibrated_params(channel="FICON")
    assert analytic.io_ms(escon) == analytic.io_ms(ficon)
    assert analytic.bound_elapsed_s(escon) == analytic.bound_elapsed_s(ficon)
