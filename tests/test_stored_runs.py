"""Stored runs: each study's are the ones this code simulates, and anything else is caught and simulated.

The per-study test is what keeps ``data/runs/`` honest: after a model change
it fails until ``make runs`` rewrites the study's file.  The toy study's
tests show each way stored runs can be wrong (a changed value, a replication
too many or too few, another experiment, a damaged file) being refused.
"""

import hashlib
import warnings

import pytest

from perfstudies import cache, stored_runs, study as study_module
from perfstudies.evaluate import simulate
from perfstudies.stored_sweeps import spot_checked
from perfstudies.studies import STUDIES, study
from toy import mm1


@pytest.mark.parametrize("key", list(STUDIES))
def test_every_study_has_stored_runs_that_this_code_reproduces(key):
    runs = stored_runs.load(key)
    assert runs is not None, f"{stored_runs.path(key)} is missing: run `{stored_runs.REFRESH}`"
    digest = hashlib.sha256(stored_runs.path(key).read_bytes()).hexdigest()
    found = stored_runs.verdict(study(key), runs, digest)
    assert found == [], f"{stored_runs.path(key)} does not reproduce ({found[0]}): run `{stored_runs.REFRESH}`"


@pytest.fixture
def store(tmp_path, monkeypatch):
    """An empty store and an empty disk memo, both in ``tmp_path``."""
    monkeypatch.setattr(stored_runs, "RUNS", tmp_path / "runs")
    monkeypatch.setattr(cache, "CACHE", tmp_path / "cache")
    return tmp_path / "runs"


@pytest.fixture(scope="module")
def toy_runs():
    return simulate(mm1.SEED, mm1.experiments(), mm1.cells())


def test_the_toy_study_runs_reproduce(toy_runs):
    assert stored_runs.problems(mm1.STUDY, toy_runs) == []


def test_a_changed_value_is_found_by_the_spot_check(toy_runs):
    changed = {"queue": {name: frame.copy() for name, frame in toy_runs["queue"].items()}}
    heavy = changed["queue"]["heavy"]
    index = spot_checked(int(cache.sources_digest(mm1.KEY)[:8], 16), list(changed["queue"]).index("heavy"), len(heavy))
    heavy.iloc[index, 0] += 1e-12  # the replication the spot check simulates again
    found = stored_runs.problems(mm1.STUDY, changed)
    assert len(found) == 1 and f"replication {index + 1} of 'queue' / 'heavy'" in found[0]


def test_a_replication_too_many_or_too_few_is_found_by_the_replay(toy_runs):
    light = toy_runs["queue"]["light"]
    longer = {"queue": {**toy_runs["queue"], "light": light.iloc[[*range(len(light)), 0]].reset_index(drop=True)}}
    shorter = {"queue": {**toy_runs["queue"], "light": light.iloc[:-1]}}
    assert "stops 'queue' / 'light' at" in stored_runs.problems(mm1.STUDY, longer)[0]
    assert f"asks for replication {len(light)} of 'queue' / 'light'" in stored_runs.problems(mm1.STUDY, shorter)[0]


def test_other_experiments_are_found(toy_runs):
    assert "the experiments are ['queue']" in stored_runs.problems(mm1.STUDY, {**toy_runs, "other": {}})[0]


def test_runs_come_from_the_store_when_they_reproduce_and_are_simulated_otherwise(store, toy_runs, monkeypatch):
    cache.write_entry(stored_runs.path(mm1.KEY), f"runs-{mm1.KEY}", "0" * 24, toy_runs)
    monkeypatch.setattr(study_module, "simulate", lambda *args, **kwargs: pytest.fail("simulated"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cache.same(mm1.STUDY.runs(), toy_runs)  # from the store, no simulation, no warning

    monkeypatch.setattr(cache, "CACHE", store.parent / "cold")
    damaged = stored_runs.path(mm1.KEY)
    damaged.write_bytes(damaged.read_bytes().replace(b'"light"', b'"LIGHT"', 1))
    monkeypatch.setattr(study_module, "simulate", lambda *args, **kwargs: {"simulated": {}})
    with pytest.warns(stored_runs.StoredRunsWarning, match="sha256.*simulating instead .make runs rewrites it"):
        assert mm1.STUDY.runs() == {"simulated": {}}


def test_update_writes_missing_runs_and_leaves_reproducing_ones(store, monkeypatch, toy_runs):
    monkeypatch.setattr("perfstudies.studies.study", {mm1.KEY: mm1.STUDY}.__getitem__)
    assert stored_runs.update([mm1.KEY]) == [f"mm1: wrote {store / 'mm1.json'} (40 replications)"]
    assert cache.same(stored_runs.load(mm1.KEY), toy_runs)
    assert stored_runs.update([mm1.KEY]) == [f"mm1: {store / 'mm1.json'} reproduces; unchanged"]


def test_the_command_refuses_an_unknown_study(capsys):
    with pytest.raises(SystemExit):
        stored_runs.main(["nowhere"])
    assert "study 'nowhere' is not allowed: allowed one of spxtape" in capsys.readouterr().err
