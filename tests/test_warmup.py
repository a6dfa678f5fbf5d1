"""MSER-5 (White 1997; White, Cobb and Spratt 2000) finds known initial transients, leaves
stationary series (almost) alone, flags runs too short to settle, and checks a warm-up on a
pilot Ciw run."""

import doctest

import ciw
import numpy as np
import pandas as pd
import pytest

from perfstudies import centralserver, warmup
from perfstudies.delay import DelayNode
from perfstudies.networks import closed_population
from perfstudies.runner import run_ciw
from perfstudies.warmup import mser, mser5, pilot_warmup, records_series


def test_module_examples_hold():
    result = doctest.testmod(warmup)
    assert result.failed == 0 and result.attempted > 0


def test_a_step_is_cut_exactly_where_it_ends():
    series = np.r_[np.full(100, 10.0), np.zeros(900)]
    found = mser5(series, times=np.arange(1000) * 0.5)
    assert (found.index, found.batches, found.reliable) == (100, 200, True)
    assert found.time == 50.0                       # time of the first kept observation
    assert found.statistic.shape == (200,) and found.statistic[20] == 0.0


def test_an_exponential_transient_is_removed():
    """y_t = 8 exp(-t/100) + N(0, 1): the transient is below a tenth of the noise after ~300
    observations and below the noise of a batch mean after ~250.  Over 40 seeds MSER-5 cuts
    between 150 and 600 observations, and the kept mean is much closer to the steady mean 0."""
    for seed in range(40):
        rng = np.random.default_rng(seed)
        series = 8 * np.exp(-np.arange(5_000) / 100) + rng.normal(size=5_000)
        found = mser5(series)
        assert found.reliable
        assert 150 <= found.index <= 600, seed
        assert abs(series[found.index:].mean()) < 0.5 * abs(series.mean())


def test_stationary_series_lose_little():
    for seed in range(40):
        rng = np.random.default_rng(100 + seed)
        noise = rng.normal(size=5_000)
        autocorrelated = np.zeros_like(noise)
        for i in range(1, len(noise)):
            autocorrelated[i] = 0.9 * autocorrelated[i - 1] + noise[i]
        for series in (noise, autocorrelated):
            found = mser5(series)
            assert found.reliable
            assert found.index <= 250              # at most 5% of the run


def test_a_run_that_never_settles_is_flagged():
    rng = np.random.default_rng(3)
    found = mser5(np.linspace(0.0, 10.0, 3_000) + rng.normal(size=3_000))
    assert not found.reliable
    assert found.index == 1_500                    # the end of the searched first half


def test_batch_size_one_is_plain_mser():
    series = np.r_[np.full(7, 5.0), np.zeros(93)]
    assert mser(series, batch=1).index == 7
    assert mser5(series).index == 10               # MSER-5 cuts whole batches of five


def test_mm1_backlog_pilot_run():
    """An M/M/1 queue (arrival rate 0.5, service rate 1) that starts with 200 customers waiting:
    the backlog takes about 200 / (1 - 0.5) = 400 time units to clear.  A pilot run's MSER-5
    truncation lies beyond the first half of that and in the first half of the run, and the kept
    response times average close to the steady-state 1 / (mu - lambda) = 2."""
    backlog = closed_population(200)
    network = ciw.create_network(
        arrival_distributions={"backlog": [backlog.arrivals], "poisson": [ciw.dists.Exponential(0.5)]},
        batching_distributions={"backlog": [backlog.batches], "poisson": [ciw.dists.Deterministic(1)]},
        service_distributions={"backlog": [ciw.dists.Exponential(1.0)], "poisson": [ciw.dists.Exponential(1.0)]},
        number_of_servers=[1])
    found = pilot_warmup(network, seed=4, max_time=5_000.0)
    assert found.reliable
    assert 200.0 <= found.time <= 2_500.0
    _, records = run_ciw(network, 4, 5_000.0, 0.0)
    times, values = records_series(records)
    assert values.mean() > 10.0                    # the backlog dominates the untruncated mean
    assert values[times >= found.time].mean() == pytest.approx(2.0, rel=0.25)


def test_central_server_warmup_is_at_least_mser5():
    """The pattern each study's warm-up test follows: a pilot run of the model's own network,
    without deletion, and the record's warm-up at least MSER-5's truncation time (here for the
    response time at the bottleneck, disk 1)."""
    params = centralserver.CentralServerParams(terminals=20, max_time=600.0)
    found = pilot_warmup(centralserver.network(params), seed=1, max_time=params.max_time,
                         metric="response_time", node=centralserver.DISK1, node_class=DelayNode)
    assert found.reliable
    assert params.warmup >= found.time


def test_records_series_orders_by_arrival():
    frame = pd.DataFrame({"node": [1, 2, 1], "arrival_date": [3.0, 1.0, 2.0], "waiting_time": [1.0, 0.0, 2.0],
                          "service_time": [1.0, 1.0, 1.0]})
    times, values = records_series(frame, "response_time", node=1)
    assert times.tolist() == [2.0, 3.0] and values.tolist() == [3.0, 2.0]
    assert records_series(frame, "waiting_time")[1].tolist() == [0.0, 2.0, 1.0]


@pytest.mark.parametrize(("call", "error", "words"), [
    (lambda: mser5(np.ones(49)), ValueError, ["49 observations", "at least 50"]),
    (lambda: mser5([1.0] * 60 + [float("nan")]), ValueError, ["values[60] = nan", "finite"]),
    (lambda: mser5(np.ones((10, 10))), ValueError, ["shape (10, 10)"]),
    (lambda: mser5(["a"] * 60), TypeError, ["values = ", "sequence of numbers"]),
    (lambda: mser5(np.ones(60), times=np.ones(59)), ValueError, ["times has 59 entries"]),
    (lambda: mser5(np.ones(60), times=np.arange(60)[::-1]), ValueError, ["non-decreasing"]),
    (lambda: mser(np.ones(60), batch=0), ValueError, ["batch = 0", "1 <= batch <= 1000"]),
    (lambda: mser(np.ones(60), batch=2.5), TypeError, ["batch = 2.5"]),
    (lambda: records_series(pd.DataFrame({"node": [1]}), "queue"), ValueError,
     ["metric = 'queue'", "response_time"]),
])
def test_invalid_inputs_are_refused_with_a_message(call, error, words):
    with pytest.raises(error) as raised:
        call()
    for word in words:
        assert word in str(raised.value)
