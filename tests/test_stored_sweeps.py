"""Stored sweeps: each chapter's are the ones this code simulates, and anything else is caught and simulated.

The per-sweep test keeps ``data/runs/sweep-*.json`` honest: after a model
change it fails until ``make runs`` rewrites the file.  The toy study's sweep
shows each way stored values can be wrong (a changed value, a replication
missing or extra, a damaged file) being refused, and a declaration that
cannot be a sweep refused by name.
"""

import dataclasses
import hashlib
import warnings

import pandas as pd
import pytest

from perfstudies import cache, stored_sweeps
from perfstudies.cache import sources_digest
from perfstudies.studies import STUDIES
from toy import mm1

DECLARED = stored_sweeps.declared(STUDIES)


def test_every_study_and_both_theory_pages_declare_their_sweeps():
    assert {sweep.scope for sweep in DECLARED} == {*STUDIES, None}
    assert {sweep.name.split("-")[0] for sweep in DECLARED if sweep.scope is None} == {"intro", "queueing"}


@pytest.mark.parametrize("sweep", DECLARED, ids=[sweep.name for sweep in DECLARED])
def test_every_stored_sweep_is_the_one_this_code_simulates(sweep):
    values = stored_sweeps.load(sweep)
    assert values is not None, f"{stored_sweeps.path(sweep)} is missing: run `{stored_sweeps.REFRESH}`"
    digest = hashlib.sha256(stored_sweeps.path(sweep).read_bytes()).hexdigest()
    found = stored_sweeps.verdict(sweep, values, digest)
    assert found == [], f"{stored_sweeps.path(sweep)} does not reproduce ({found[0]}): run `{stored_sweeps.REFRESH}`"


SWEEP = mm1.SWEEPS["loads"]


@pytest.fixture(scope="module")
def toy_values():
    return stored_sweeps.stored_values(SWEEP.simulate())


@pytest.fixture
def store(tmp_path, monkeypatch):
    """An empty store and an empty disk memo, both in ``tmp_path``."""
    monkeypatch.setattr(stored_sweeps, "RUNS", tmp_path / "runs")
    monkeypatch.setattr(cache, "CACHE", tmp_path / "cache")
    return tmp_path / "runs"


def test_the_toy_sweep_reproduces_and_its_replay_is_the_simulation(toy_values):
    assert stored_sweeps.problems(SWEEP, toy_values) == []
    pd.testing.assert_frame_equal(stored_sweeps.replay(SWEEP, toy_values), SWEEP.simulate())


def test_a_changed_value_at_a_checked_replication_is_found(toy_values):
    replication = stored_sweeps.spot_checked(int(sources_digest(SWEEP.scope)[:8], 16), 1, SWEEP.replications)
    changed = toy_values.copy()
    row = changed.index[(changed["point"] == 1) & (changed["replication"] == replication)][0]
    changed.loc[row, "value"] += 1e-12
    found = stored_sweeps.problems(SWEEP, changed)
    assert len(found) == 1 and found[0].startswith(f"point 1 replication {replication + 1} simulates to")


def test_a_missing_or_extra_replication_is_found_by_the_replay(toy_values):
    missing = toy_values[~((toy_values["point"] == 2) & (toy_values["replication"] == 0))]
    assert stored_sweeps.problems(SWEEP, missing) == [f"point 2 ({SWEEP.points()[2]!r}) replication 1 is not stored"]
    extra = pd.concat([toy_values, toy_values.tail(1).assign(replication=SWEEP.replications)], ignore_index=True)
    assert stored_sweeps.problems(SWEEP, extra) == [f"point 2 replication {SWEEP.replications + 1} is stored but "
                                                    "not part of the sweep"]


def test_a_sweep_with_precision_targets_is_replayed_by_its_sequential_rule():
    precise = dataclasses.replace(SWEEP, name="mm1-precise", cap=12,
                                  precision=lambda: [{}, {"time_in_system_s": 0.05}, {}])
    runs = precise.simulate()
    counts = runs.groupby("point")["replication"].nunique()
    assert counts[0] == counts[2] == 3 and 3 < counts[1] <= 12
    values = stored_sweeps.stored_values(runs)
    assert stored_sweeps.problems(precise, values) == []
    last = counts[1] - 1
    fewer = values[~((values["point"] == 1) & (values["replication"] == last))]
    assert stored_sweeps.problems(precise, fewer) == [f"point 1 ({precise.points()[1]!r}) replication {last + 1} "
                                                      "is not stored"]
    assert precise.missed(runs) == ([(1, "time_in_system_s")] if counts[1] == 12 else [])


def test_runs_come_from_the_store_when_they_reproduce_and_are_simulated_otherwise(store, toy_values, monkeypatch):
    cache.write_entry(stored_sweeps.path(SWEEP), f"sweep-{SWEEP.name}", "0" * 24, toy_values)
    monkeypatch.setattr(stored_sweeps.Sweep, "simulate", lambda self: pytest.fail("simulated"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert stored_sweeps.stored_values(SWEEP.runs()).equals(toy_values)  # from the store, no warning

    monkeypatch.setattr(cache, "CACHE", store.parent / "cold")
    damaged = stored_sweeps.path(SWEEP)
    damaged.write_bytes(damaged.read_bytes().replace(b"time_in_system_s", b"TIME_IN_SYSTEM_S", 1))
    simulated = pd.DataFrame({"simulated": [1]})
    monkeypatch.setattr(stored_sweeps.Sweep, "simulate", lambda self: simulated)
    with pytest.warns(stored_sweeps.StoredSweepWarning, match="sha256.*simulating instead .make runs rewrites it"):
        assert SWEEP.runs().equals(simulated)


def test_update_writes_missing_values_and_leaves_reproducing_ones(store, monkeypatch, toy_values):
    monkeypatch.setattr("perfstudies.studies.study", {mm1.KEY: mm1.STUDY}.__getitem__)
    path = store / f"sweep-{SWEEP.name}.json"
    assert stored_sweeps.update([mm1.KEY], pages=False) == [f"mm1-loads: wrote {path} (3 points, 9 replications)"]
    assert stored_sweeps.load(SWEEP).equals(toy_values)
    assert stored_sweeps.update([mm1.KEY], pages=False) == [f"mm1-loads: {path} reproduces; unchanged"]


@pytest.mark.parametrize(("change", "field"), [
    ({"name": "no spaces"}, "name"), ({"scope": "not-a-key"}, "scope"), ({"model": 1}, "model"),
    ({"points": [1]}, "points"), ({"replications": 0}, "replications"), ({"replications": True}, "replications"),
    ({"seed": -1}, "seed"), ({"max_workers": 0}, "max_workers")])
def test_a_declaration_that_cannot_be_a_sweep_is_refused_by_name(change, field):
    with pytest.raises(ValueError, match=rf"^Sweep\.{field} = "):
        dataclasses.replace(SWEEP, **change)


def test_a_study_refuses_a_sweep_of_another_scope():
    with pytest.raises(ValueError, match=r"^Study\.sweeps = .* each Sweep of scope 'mm1'"):
        dataclasses.replace(mm1.STUDY, sweeps={"loads": dataclasses.replace(SWEEP, scope="other")})
