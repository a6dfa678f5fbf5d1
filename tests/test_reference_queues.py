"""The replication layer reproduces queueing theory within its confidence intervals."""

import pytest

from perfstudies.reference import QueueParams, mm1k_blocking, mmc_mean_wait, queue_model
from perfstudies.runner import replicate

REPLICATIONS = 20
SEED = 20261122


def _interval(result, metric):
    row = result.summary().loc[metric]
    return row["low"], row["high"]


@pytest.mark.parametrize(("arrival_rate", "servers"), [(0.7, 1), (2.4, 3)])
def test_mmc_mean_wait_matches_erlang_c(arrival_rate, servers):
    params = QueueParams(arrival_rate=arrival_rate, service_rate=1.0, servers=servers,
                         max_time=4_000.0, warmup=400.0)
    result = replicate(queue_model, params, replications=REPLICATIONS, seed=SEED)
    low, high = _interval(result, "mean_wait")
    assert low <= mmc_mean_wait(arrival_rate, 1.0, servers) <= high


def test_mm1k_blocking_probability_matches_closed_form():
    # capacity is the waiting room, so the system holds K = capacity + 1 customers
    params = QueueParams(arrival_rate=0.9, service_rate=1.0, servers=1, capacity=4,
                         max_time=4_000.0, warmup=400.0)
    result = replicate(queue_model, params, replications=REPLICATIONS, seed=SEED)
    low, high = _interval(result, "blocking_probability")
    assert low <= mm1k_blocking(0.9, 1.0, system_size=5) <= high


def test_erlang_c_known_value():
    # c = 2, a = 1: C = (1/2 * 2) / (1 + 1 + 1) = 1/3
    assert mmc_mean_wait(1.0, 1.0, 2) == pytest.approx((1 / 3) / (2 - 1))
