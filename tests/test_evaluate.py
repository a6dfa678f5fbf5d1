"""The one evaluator, on the toy M/M/1 study: precision, common random numbers, refusals, determinism."""

import math

import numpy as np
import pytest

from perfstudies.cells import Baseline, CellSpec, Derivation, Exact, Experiment, Precision, metric, ratio
from perfstudies.compare import COLUMNS, Published
from perfstudies.evaluate import estimate, evaluate, simulate, tabulate
from toy import mm1


@pytest.fixture(scope="module")
def table():
    return mm1.STUDY.comparison()


def test_the_toy_study_gives_the_standard_table(table):
    assert list(table.columns) == COLUMNS
    assert list(table["role"]) == ["calibration", "prediction", "derived"]
    assert table["model"].map(math.isfinite).all()


def test_the_simulated_queue_agrees_with_its_closed_form(table):
    """W = 1 / (mu - lambda): 2 s at 0.5, 4 s at 0.75, within the 95% interval (widened for the warm-up bias)."""
    for column, exact in (("rho = 0.5", 2.0), ("rho = 0.75", 4.0)):
        row = table.set_index("column").loc[column]
        assert abs(row["model"] - exact) <= 2 * row["ci_half_width"], (column, row["model"], row["ci_half_width"])


def test_replications_stop_at_the_cap_and_say_so(table):
    assert {name: len(frame) for name, frame in mm1.STUDY.runs()["queue"].items()} == {"light": 20, "heavy": 20}
    imprecise = table[~table["precise"] & (table["role"] != "derived")]
    assert imprecise["note"].str.contains("IMPRECISE").all()
    assert (table["replications"] <= 20).all()


def test_a_ratio_uses_common_random_numbers(table):
    """The ratio's interval is its own, per replication: narrower than two independent intervals would give."""
    rows = table.set_index("column")
    light, heavy, ratio = rows.loc["rho = 0.5"], rows.loc["rho = 0.75"], rows.loc["rho = 0.75 over 0.5"]
    assert ratio["model"] == pytest.approx(np.nan_to_num(ratio["model"]))
    assert ratio["replications"] == min(light["replications"], heavy["replications"])


def test_same_seed_same_table_byte_for_byte(table):
    again = evaluate(mm1.KEY, mm1.DOCUMENT, mm1.SEED, mm1.experiments(), mm1.cells())
    assert again.to_csv() == table.to_csv()


def test_a_refused_derivation_stops_the_evaluation_naming_the_cell():
    wrong = Published("Table 1", "slowdown", "rho = 0.75 over 0.5", 3.0)
    specs = mm1.cells()[:2] + [CellSpec(wrong, "derived", Exact(lambda: 2.0), derivation=Derivation(
        (mm1.HEAVY.where, mm1.LIGHT.where), lambda heavy, light: heavy / light, "ratio"))]
    with pytest.raises(ValueError, match="(?s)derived cells refused.*slowdown"):
        evaluate("mm1", "doc", 1, mm1.experiments(), specs)


def test_cells_must_name_declared_experiments_and_configurations():
    spec = CellSpec(mm1.LIGHT, "calibration", metric("other", "light", "time_in_system_s"), sets="arrival_rate")
    with pytest.raises(ValueError, match=r"experiments \['other'\] that are not declared"):
        evaluate("mm1", "doc", 1, mm1.experiments(), [spec])
    spec = CellSpec(mm1.LIGHT, "calibration", metric("queue", "nowhere", "time_in_system_s"), sets="arrival_rate")
    with pytest.raises(ValueError, match=r"configurations \['nowhere'\]"):
        evaluate("mm1", "doc", 1, mm1.experiments(), [spec])


def test_an_experiment_may_configure_itself_from_an_earlier_one():
    """The second experiment's arrival rate is set from the first experiment's mean (a staged comparison)."""
    first = Experiment("first", mm1.model, {"light": mm1.QueueParams(0.5, 500.0)}, initial=2, cap=2)

    def configure(done):
        mean = float(done["first"]["light"]["time_in_system_s"].mean())
        return {"set": mm1.QueueParams(round(min(0.9, 1 - 1 / (2 * mean)), 3), 500.0)}

    second = Experiment("second", mm1.model, configure, initial=2, cap=2)
    specs = [CellSpec(mm1.LIGHT, "calibration", metric("first", "light", "time_in_system_s"), sets="arrival_rate"),
             CellSpec(mm1.HEAVY, "prediction", metric("second", "set", "time_in_system_s"),
                      baseline=Baseline(2.0, "persistence", "rho = 0.5"))]
    runs = simulate(1, [first, second], specs)
    assert {name: {config: len(frame) for config, frame in configs.items()} for name, configs in runs.items()} \
        == {"first": {"light": 2}, "second": {"set": 2}}
    assert list(tabulate("mm1", "doc", [first, second], specs, runs)["replications"]) == [2, 2]


def test_a_declared_precision_replicates_even_a_derived_cell():
    """A cell a later stage depends on is replicated to its declared half-width, whatever its role."""
    configurations = {"light": mm1.QueueParams(0.5, 500.0), "heavy": mm1.QueueParams(0.75, 500.0)}
    short = Experiment("queue", mm1.model, configurations, initial=2, cap=4)
    light = CellSpec(mm1.LIGHT, "calibration", Exact(lambda: 2.0), sets="arrival_rate")
    heavy = CellSpec(mm1.HEAVY, "prediction", Exact(lambda: 4.0), baseline=Baseline(2.0, "persistence", "rho = 0.5"))

    def slowdown(**extra):
        return CellSpec(mm1.SLOWDOWN, "derived", ratio("queue", "light", "heavy", "time_in_system_s"),
                        derivation=Derivation((mm1.HEAVY.where, mm1.LIGHT.where), lambda h, l: h / l, "ratio"),
                        **extra)

    def counts(specs):
        return {config: len(frame) for config, frame in simulate(1, [short], specs)["queue"].items()}

    assert counts([light, heavy, slowdown()]) == {"light": 2, "heavy": 2}
    tight_specs = [light, heavy, slowdown(precision=Precision(1e-6, "a later experiment is set from it"))]
    assert counts(tight_specs) == {"light": 4, "heavy": 4}
    tight = evaluate("mm1", "doc", 1, [short], tight_specs)
    assert "at most 1e-06: a later experiment is set from it" in tight.set_index("column").loc[
        "rho = 0.75 over 0.5", "note"]


def test_estimate_is_the_student_t_interval():
    mean, half = estimate(np.array([1.0, 2.0, 3.0]))
    assert mean == 2.0 and half == pytest.approx(4.302653 * 1.0 / math.sqrt(3), rel=1e-6)
    assert estimate(np.array([5.0, 5.0])) == (5.0, 0.0)
    assert math.isnan(estimate(np.array([5.0]))[1])


def test_a_cell_over_two_configurations_uses_every_replication_either_ran_for_its_own_cells():
    """Only the predicted cell asks for replications of "changed"; the ratio pairs "reference" with all of them.
    "other" shares only the reference, so it keeps its own count (the raise is not transitive)."""
    def noisy(params, seed):
        return {"x": 470.0 + seed % 61}

    configurations = {"reference": mm1.QueueParams(0.5), "changed": mm1.QueueParams(0.75),
                      "other": mm1.QueueParams(0.6)}
    experiment = Experiment("pair", noisy, configurations, initial=2, cap=6)
    changed = Published("T", "x", "changed", 500.0)
    reference = Published("T", "x", "reference", 500.0)
    specs = [CellSpec(changed, "prediction", metric("pair", "changed", "x"),
                      baseline=Baseline(500.0, "persistence", "the reference")),
             CellSpec(reference, "derived", Exact(lambda: 500.0),
                      derivation=Derivation((), lambda: 500.0, "a definition"))]
    for name in ("changed", "other"):
        specs.append(CellSpec(Published("T", "x ratio", f"{name} over reference", 1.0), "derived",
                              ratio("pair", "reference", name, "x"),
                              derivation=Derivation((changed.where, reference.where), lambda a, b: a / b, "ratio")))
    runs = simulate(1, [experiment], specs)
    assert {config: len(frame) for config, frame in runs["pair"].items()} == {"changed": 6, "reference": 6, "other": 2}
    counts = tabulate("pair", "doc", [experiment], specs, runs).set_index("column")["replications"]
    assert counts["changed over reference"] == 6 and counts["other over reference"] == 2
