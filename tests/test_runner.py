"""Seeding, determinism, warm-up deletion and confidence intervals."""

import gc
import math

import ciw
import numpy as np
import pandas as pd
import pytest

from perfstudies.reference import QueueParams, queue_model, queue_network
from perfstudies.runner import (cycle_collector_paused, replicate, replicate_until, replication_seeds, run_ciw,
                                 summarize)
from timeouts import within


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


class _CollectorWatch(ciw.dists.Distribution):
    """A service time that notes whether the cyclic garbage collector is on when Ciw samples it.

    The notes are kept on the class: Ciw samples deep copies of a network's distributions.
    """

    states: set = set()

    def sample(self, t=None, ind=None):
        self.states.add(gc.isenabled())
        return 1.0


def test_run_ciw_pauses_the_cycle_collector_and_restores_it():
    _CollectorWatch.states.clear()
    network = ciw.create_network(arrival_distributions=[ciw.dists.Deterministic(1.0)],
                                 service_distributions=[_CollectorWatch()], number_of_servers=[1])
    assert gc.isenabled()
    run_ciw(network, seed=1, max_time=50.0)
    assert _CollectorWatch.states == {False}
    assert gc.isenabled()
    gc.disable()
    try:
        with cycle_collector_paused():
            pass
        assert not gc.isenabled(), "a collector that was off must stay off"
    finally:
        gc.enable()
    with pytest.raises(RuntimeError), cycle_collector_paused():
        raise RuntimeError("inside")
    assert gc.isenabled()


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
    (lambda: run_ciw(queue_network(QueueParams()), seed=1, max_time=10.0, warmup=1.0,
                     columns={"node": int}), "columns"),
    (lambda: run_ciw(queue_network(QueueParams()), seed=1, max_time=10.0, columns={"customer_class": str}),
     "columns"),
    (lambda: replicate(queue_model, QueueParams(), replications=2, confidence=1.5), "confidence"),
])
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name} = .*allowed"):
        call()


def test_check_seed_is_the_one_seed_check():
    import numpy as np

    from perfstudies.runner import MAX_SEED, check_seed

    assert check_seed(np.uint64(MAX_SEED)) == MAX_SEED and type(check_seed(np.int64(3))) is int
    for seed, message in ((-1, r"^seed = -1 is out of range: allowed an integer 0 <= seed <= 18446744073709551615"),
                          (MAX_SEED + 1, "^seed = 18446744073709551616 is out of range"),
                          (1.0, r"^seed = 1\.0 has the wrong type"), (True, "^seed = True has the wrong type"),
                          ("1", "^seed = '1' has the wrong type")):
        with pytest.raises(ValueError, match=message):
            check_seed(seed)
    with pytest.raises(ValueError, match="^rep_seed = -1 is out of range"):
        check_seed(-1, "rep_seed")


def test_replicate_until_adds_replications_until_the_interval_is_narrow_enough():
    params = QueueParams(max_time=400.0, warmup=40.0)
    loose = replicate_until(queue_model, params, {"mean_wait": 100.0}, seed=3, initial=3, cap=30)
    assert loose.runs["replication"].nunique() == 3 and loose.imprecise == ()
    wide = loose.half_width("mean_wait")
    tight = replicate_until(queue_model, params, {"mean_wait": wide / 2}, seed=3, initial=3, cap=30)
    count = tight.runs["replication"].nunique()
    assert 3 < count <= 30
    assert tight.half_width("mean_wait") <= wide / 2 or tight.imprecise == ("mean_wait",)
    # the result is exactly what replicate gives for that count: replication i keeps its seed
    same = replicate(queue_model, params, replications=count, seed=3, progress=False)
    pd.testing.assert_frame_equal(tight.runs, same.runs)


def test_replicate_until_reports_a_cap_it_hits():
    result = replicate_until(queue_model, QueueParams(max_time=200.0, warmup=20.0), {"mean_wait": 1e-9},
                             seed=1, initial=2, cap=4)
    assert result.runs["replication"].nunique() == 4
    assert result.imprecise == ("mean_wait",)


@pytest.mark.parametrize(("arguments", "name"), [
    (dict(precision={}), "precision"), (dict(precision={"mean_wait": 0.0}), r"precision\['mean_wait'\]"),
    (dict(precision={"nope": 1.0}), "precision names"), (dict(precision={"mean_wait": 1.0}, initial=1), "initial"),
    (dict(precision={"mean_wait": 1.0}, initial=5, cap=4), "cap"),
])
def test_replicate_until_refuses_bad_arguments(arguments, name):
    with pytest.raises(ValueError, match=rf"^{name}"):
        replicate_until(queue_model, QueueParams(max_time=100.0, warmup=10.0), **arguments)


# --- hardening: bounds, numpy seeds, argument checks ------------------------------------------------------------


from perfstudies.runner import MAX_TIME, Replications, metric_rows, records_frame


@pytest.mark.parametrize("max_time", [math.inf, 1e300, MAX_TIME * 2, math.nan, "10", None])
def test_run_ciw_refuses_a_run_length_without_end(max_time):
    with within(10), pytest.raises(ValueError, match=rf"^max_time = .* allowed a finite number 0.0 < max_time <= {MAX_TIME}"):
        run_ciw(queue_network(QueueParams()), seed=1, max_time=max_time)


def test_run_ciw_takes_the_numpy_integers_its_check_accepts():
    network = queue_network(QueueParams())
    _, numpy_seeded = run_ciw(network, seed=np.int64(2), max_time=50.0)
    _, plain = run_ciw(network, seed=2, max_time=50.0)
    pd.testing.assert_frame_equal(numpy_seeded, plain)


def _constant(params, seed):
    return {"x": 1.0}


@pytest.mark.parametrize(("call", "name"), [
    (lambda: replicate(_constant, None, replications=10**9), "replications"),
    (lambda: replicate(_constant, None, replications=3, seed=2**70), "seed"),
    (lambda: replicate(_constant, None, replications=3, seed=-1), "seed"),
    (lambda: replicate(_constant, None, replications=3, confidence=math.nan), "confidence"),
    (lambda: replicate(_constant, None, replications=3, progress="no"), "progress"),
    (lambda: replicate("model", None, replications=3), "model"),
    (lambda: replicate(lambda p, s: {"x": "abc"}, None, replications=3), r"model = .* returned \{'x': 'abc'\}"),
    (lambda: replicate(lambda p, s: None, None, replications=3), "model = .* returned None"),
    (lambda: replicate_until(_constant, None, {"x": 1.0}, cap=10**9), "cap"),
    (lambda: summarize(pd.DataFrame({"metric": ["x", "x"], "value": [1.0, 2.0]}), confidence=2.5), "confidence"),
    (lambda: summarize(pd.DataFrame({"metric": ["x", "x"], "value": [1.0, 2.0]}), confidence=math.nan), "confidence"),
    (lambda: summarize(pd.DataFrame({"metric": ["x"]})), "runs lacks columns"),
    (lambda: summarize([1, 2]), "runs"),
    (lambda: summarize(pd.DataFrame({"metric": ["x"], "value": ["a"]})), r"runs\['value'\]"),
    (lambda: summarize(pd.DataFrame({"metric": ["x"], "value": [1.0]}), by=[3]), "by"),
    (lambda: metric_rows({"x": None}), r"metrics\['x'\]"),
    (lambda: metric_rows([("x", 1.0)]), "metrics"),
    (lambda: replicate(_constant, None, replications=2).mean("y"), "metric"),
    (lambda: Replications(pd.DataFrame({"metric": ["x"], "value": [1.0]})), "Replications.runs"),
    (lambda: run_ciw("network", seed=1, max_time=10.0), "network"),
    (lambda: run_ciw(queue_network(QueueParams()), seed=1.5, max_time=10.0), "seed"),
    (lambda: run_ciw(queue_network(QueueParams()), seed=1, max_time=10.0, warmup=math.nan), "warmup"),
    (lambda: run_ciw(queue_network(QueueParams()), seed=1, max_time=10.0, node_class=dict), "node_class"),
    (lambda: records_frame("simulation"), "simulation"),
])
def test_core_functions_name_the_bad_argument(call, name):
    with within(10), pytest.raises(ValueError, match=rf"^{name}.*allowed"):
        call()


@pytest.mark.parametrize("warmup", [0.0, 30.0])
def test_records_frame_with_columns_keeps_the_full_frames_values_of_those_columns(warmup):
    columns = {"id_number": int, "node": int, "arrival_date": float, "exit_date": float}
    simulation, full = run_ciw(queue_network(QueueParams()), seed=3, max_time=300.0, warmup=warmup)
    narrow = records_frame(simulation, warmup, columns)
    pd.testing.assert_frame_equal(narrow, full[list(columns)], check_exact=True)
    assert len(narrow) < len(simulation.get_all_records()) if warmup else len(narrow) == len(full)
