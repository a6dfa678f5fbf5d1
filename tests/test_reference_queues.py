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


def test_closed_forms_do_not_overflow_for_large_systems():
    from perfstudies.reference import erlang_c, mm1k_blocking

    assert 0 < erlang_c(5_000, 4_990.0) < 1  # the textbook sum overflows from c ~ 170
    assert mm1k_blocking(1e6, 1e-6, 10**6) == pytest.approx(1.0)  # rho**K overflows
    assert mm1k_blocking(2.0, 1.0, 5) == pytest.approx((1 - 2) * 2**5 / (1 - 2**6))


@pytest.mark.parametrize(("call", "name"), [
    (lambda: mmc_mean_wait(1.0, 0.0, 1), "service_rate"), (lambda: mmc_mean_wait(2.0, 1.0, 2), "arrival_rate"),
    (lambda: mmc_mean_wait(float("nan"), 1.0, 1), "arrival_rate"), (lambda: mmc_mean_wait(0.5, 1.0, 10**9), "servers"),
    (lambda: mmc_mean_wait(0.5, 1.0, 1.5), "servers"), (lambda: mm1k_blocking(0.5, 1.0, 0), "system_size"),
    (lambda: mm1k_blocking(-1.0, 1.0, 3), "arrival_rate"), (lambda: queue_model("params", 1), "p"),
])
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name} = .*allowed"):
        call()
