"""The Ciw pieces of :mod:`.mechanism` and the networks built from them: shape, striping, effects, same records."""

import math
import random

import ciw
import pytest

from perfstudies.models.svcdump import calibrated_params, model
from perfstudies.models.svcdump.mechanism import (CaptureTime, ChannelConnectTime, PageInTime, StripedRoute,
                                                  StripeVolumeTime)
from perfstudies.models.svcdump.network import build_network, ipcs_network, paged_chunks
from perfstudies.runner import run_ciw

TEST_SEED = 11
#: model(calibrated_params(device="ESS", stripes=2), TEST_SEED), computed once and pinned (unchanged by the
#: move to the study skeleton: the same distributions, population and routing give the same records).
REGRESSION = {"elapsed_s": 108.69639760411623, "ipcs_s": 108.45478524435005, "channel_util": 0.5430776873608014}


def elapsed(seed=TEST_SEED, **changes) -> float:
    return model(calibrated_params(**changes), seed)["elapsed_s"]


# --- the distributions and the route ----------------------------------------------------

def test_each_mechanism_class_says_what_it_is():
    assert repr(PageInTime(125, 26.74, 0.5)) == "PageInTime(page_ios=125, io_ms=26.74, io_cv=0.5)"
    assert repr(CaptureTime(1000, 176.2, 0.3)) == "CaptureTime(blocks=1000, us_per_block=176.2, cv=0.3)"
    assert repr(StripeVolumeTime(83.5, 21.1, 0.2)) == "StripeVolumeTime(ios=83.5, io_ms=21.1, io_cv=0.2)"
    assert repr(ChannelConnectTime(83.5, 11.7)) == "ChannelConnectTime(ios=83.5, connect_ms=11.7)"
    assert repr(StripedRoute(3, page=1, capture=2, first_volume=3, channel=6)) == \
        "StripedRoute(stripes=3, volumes=3..5, channel=6)"


@pytest.mark.parametrize("distribution", [PageInTime(125, 26.74, 0.5), CaptureTime(1000, 176.2, 0.3),
                                          StripeVolumeTime(83.5, 21.1, 0.2)])
def test_a_chunks_time_has_its_stated_mean_and_a_variation_that_shrinks_with_its_ios(distribution):
    random.seed(3)
    samples = [distribution.sample() for _ in range(4000)]
    mean = sum(samples) / len(samples)
    sd = math.sqrt(sum((s - mean) ** 2 for s in samples) / (len(samples) - 1))
    assert mean == pytest.approx(distribution.mean, rel=4 * distribution.cv / math.sqrt(len(samples)))
    assert sd / mean == pytest.approx(distribution.cv, rel=0.1)


def test_channel_connect_time_is_the_same_for_every_chunk():
    connect = ChannelConnectTime(83.5, 11.7)
    assert isinstance(connect, ciw.dists.Deterministic) and connect.sample() == connect.mean == 83.5 * 11.7 / 1e3


@pytest.mark.parametrize(("make", "message"), [
    (lambda: PageInTime(0, 26.7, 0.5), r"PageInTime.page_ios = 0 is out of range: allowed 0 < page_ios < inf"),
    (lambda: CaptureTime(1000, -1.0, 0.3), r"CaptureTime.us_per_block = -1.0 is out of range"),
    (lambda: StripeVolumeTime(83.5, 21.1, float("nan")), r"StripeVolumeTime.io_cv = nan is out of range"),
    (lambda: ChannelConnectTime(83.5, "fast"), r"ChannelConnectTime.connect_ms = 'fast' is out of range"),
    (lambda: StripedRoute(0, 1, 2, 3, 4), r"StripedRoute.stripes = 0 is out of range: allowed an integer >= 1"),
])
def test_mechanism_classes_refuse_nonsense_by_name(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_network_shape_and_round_robin_striping():
    params = calibrated_params(stripes=3, channel_paths=2, page_data_sets=4, storage_constrained=True)
    network = build_network(params)
    assert network.number_of_nodes == 3 + 3  # page-in, capture, three volumes, channel
    assert [node.number_of_servers for node in network.service_centres] == [4, 1, 1, 1, 1, 2]
    _, records = run_ciw(network, TEST_SEED, 1e6)
    per_volume = records[records["node"].between(3, 5)].groupby("node").size()
    assert per_volume.max() - per_volume.min() <= 1 and per_volume.sum() == params.chunks
    assert (records["node"] == 1).sum() == paged_chunks(params) > 0
    assert ipcs_network(params).number_of_nodes == 3 + 2


def test_a_dump_with_no_paged_chunk_and_fewer_chunks_than_stripes_still_runs():
    params = calibrated_params(dump_blocks=10_000, chunk_blocks=10_000, stripes=8)
    assert paged_chunks(params) == 0 and params.chunks == 1
    result = model(params, TEST_SEED)
    assert result["elapsed_s"] > 0 and result["ipcs_s"] > 0 and result["page_util"] == 0


# --- the effects the document reports ----------------------------------------------------

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


def test_gains_shrink_beyond_two_stripes():
    gains = [elapsed(device="3390-3", stripes=n) for n in (1, 2, 4)]
    assert gains[1] - gains[2] < gains[0] - gains[1]


def test_page_data_sets_matter_only_when_storage_is_constrained():
    constrained = [elapsed(device="ESS", stripes=2, storage_constrained=True, page_data_sets=n) for n in (1, 8)]
    assert constrained[1] < 0.5 * constrained[0]
    relaxed = [elapsed(device="ESS", stripes=2, page_data_sets=n) for n in (1, 8)]
    assert relaxed[1] == pytest.approx(relaxed[0], rel=0.01)


# --- determinism and the same records ----------------------------------------------------

def test_same_seed_same_numbers():
    params = calibrated_params(device="ESS", stripes=3, storage_constrained=True)
    assert model(params, 5) == model(params, 5)
    assert model(params, 5) != model(params, 6)


def test_seeded_regression_values():
    result = model(calibrated_params(device="ESS", stripes=2), TEST_SEED)
    for name, value in REGRESSION.items():
        assert result[name] == pytest.approx(value, rel=1e-9), name
