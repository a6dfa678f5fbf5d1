"""Seeding, determinism, warm-up deletion and confidence intervals."""

import math

import numpy as np
import pandas as pd
import pytest

from perfstudies.reference import QueueParams, queue_model, queue_network
from perfstudies.runner import population_at_start, replicate, replication_seeds, run_ciw, summarize


def test_same_seed_gives_identical_tables():
    params = QueueParams(max_time=500.0, warmup=50.0)
    first = replicate(queue_model, params, replications=3, seed=11)
    second = replicate(queue_model, params, replications=3, seed=11)
    pd.testing.assert_frame_equal(first.runs, second.runs)
    assert first.runs.to_csv().encode() == second.runs.to_csv().encode()


def test_different_seeds_differ_and_are_independent_of_count():
    seeds = replication_seeds(5, 4)
    assert len(set(seeds)) == 4
    assert replication_seeds(5, 2) == seeds[:2]
    assert replication_seeds(6, 4) != seeds


def test_warmup_deletes_early_arrivals():
    _, records = run_ciw(queue_network(QueueParams()), seed=1, max_time=200.0, warmup=100.0)
    assert records["arrival_date"].min() >= 100.0
    _, everything = run_ciw(queue_network(QueueParams()), seed=1, max_time=200.0)
    assert everything["arrival_date"].min() < 100.0


def test_summary_uses_student_t_interval():
    runs = pd.DataFrame({"metric": ["x"] * 4, "value": [1.0, 2.0, 3.0, 4.0]})
    row = summarize(runs).loc["x"]
    assert row["mean"] == 2.5
    assert row["half_width"] == pytest.approx(3.182446305 * np.std([1, 2, 3, 4], ddof=1) / 2)


def test_single_replication_has_no_interval():
    runs = pd.DataFrame({"metric": ["x"], "value": [1.0]})
    assert math.isnan(summarize(runs).loc["x", "half_width"])


@pytest.mark.parametrize(("call", "name"), [
    (lambda: replication_seeds(-1, 2), "seed"),
    (lambda: replication_seeds(1, 0), "replications"),
    (lambda: run_ciw(queue_network(QueueParams()), seed=1, max_time=0.0), "max_time"),
    (lambda: run_ciw(queue_network(QueueParams()), seed=1, max_time=10.0, warmup=10.0), "warmup"),
    (lambda: replicate(queue_model, QueueParams(), replications=2, confidence=1.5), "confidence"),
])
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name} = .*allowed"):
        call()


def test_population_at_start_brings_the_whole_population_and_then_nobody():
    arrivals = population_at_start(3, gap=0.5)
    assert [arrivals.sample() for _ in range(4)] == [0.5, 0.5, 0.5, math.inf]
    with pytest.raises(ValueError, match=r"count = 0 is out of range"):
        population_at_start(0, gap=0.5)
    with pytest.raises(ValueError, match=r"gap = 0 is out of range: allowed gap > 0"):
        population_at_start(2, gap=0)
