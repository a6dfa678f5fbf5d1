"""Cell declarations: each role declares what it must, and derived cells are checked on published values."""

import pytest

from perfstudies.cells import (Baseline, CellSpec, Derivation, Exact, Experiment, Precision, Simulated, change_pct,
                               metric, ratio, refused_derivations)
from perfstudies.compare import Published, resolution

A = Published("Table 1", "time (s)", "one drive", 100.0)
B = Published("Table 1", "time (s)", "two drives", 50.0)
R = Published("Table 1", "ratio", "two over one", 0.5)
BASE = Baseline(100.0, "persistence", "the one-drive time")


def _derived(published=R, identity=lambda one, two: two / one, sources=(A.where, B.where)):
    return CellSpec(published, "derived", ratio("e", "one", "two", "time_s"),
                    derivation=Derivation(sources, identity, "two-drive time over one-drive time"))


def _specs(*extra):
    return [CellSpec(A, "calibration", metric("e", "one", "time_s"), sets="rate"),
            CellSpec(B, "prediction", metric("e", "two", "time_s"), baseline=BASE), *extra]


def test_each_role_must_declare_its_part():
    with pytest.raises(ValueError, match="CellSpec.sets is missing"):
        CellSpec(A, "calibration", metric("e", "one", "time_s"))
    with pytest.raises(ValueError, match="CellSpec.baseline is missing"):
        CellSpec(B, "prediction", metric("e", "two", "time_s"))
    with pytest.raises(ValueError, match="CellSpec.derivation is missing"):
        CellSpec(R, "derived", ratio("e", "one", "two", "time_s"))


def test_a_role_may_not_declare_another_roles_part():
    with pytest.raises(ValueError, match="CellSpec.baseline is not allowed"):
        CellSpec(A, "calibration", metric("e", "one", "time_s"), sets="rate", baseline=BASE)
    with pytest.raises(ValueError, match="CellSpec.sets = 'rate' is not allowed"):
        CellSpec(B, "prediction", metric("e", "two", "time_s"), baseline=BASE, sets="rate")


def test_a_derived_cell_that_follows_from_published_cells_is_accepted():
    assert refused_derivations(_specs(_derived())) == []


def test_a_derived_cell_the_published_cells_do_not_imply_is_refused_by_name():
    wrong = Published("Table 1", "ratio", "two over one", 0.7)
    refused = refused_derivations(_specs(_derived(wrong)))
    assert len(refused) == 1 and wrong.where in refused[0] and "gives 0.5" in refused[0]


def test_a_derived_cell_within_its_stated_tolerance_is_accepted():
    near = Published("Table 1", "ratio", "two over one", 0.52)
    spec = CellSpec(near, "derived", ratio("e", "one", "two", "time_s"), tolerance=resolution(0.05, "two decimals"),
                    derivation=Derivation((A.where, B.where), lambda one, two: two / one, "ratio"))
    assert refused_derivations(_specs(spec)) == []


def test_unknown_and_self_sources_are_refused():
    assert "not other cells" in refused_derivations(_specs(_derived(sources=("nowhere", B.where))))[0]
    assert "not other cells" in refused_derivations(_specs(_derived(sources=(R.where,))))[0]


def test_a_definition_of_no_sources_must_reproduce_its_value():
    one = Published("Table 1", "ratio", "one over one", 1.0)
    ok = CellSpec(one, "derived", Exact(lambda: 1.0), derivation=Derivation((), lambda: 1.0, "a ratio to itself"))
    assert refused_derivations(_specs(ok)) == []


def test_duplicate_cells_are_refused():
    with pytest.raises(ValueError, match="same key twice"):
        refused_derivations(_specs(CellSpec(A, "calibration", metric("e", "one", "time_s"), sets="rate")))


def test_simulated_terms_and_combine_are_checked():
    with pytest.raises(ValueError, match="Simulated.combine = None is not allowed with 2 terms"):
        Simulated("e", (("a", "x"), ("b", "x")))
    with pytest.raises(ValueError, match="Simulated.terms"):
        Simulated("e", ())
    assert change_pct("e", "before", "after", "x").configurations == ("before", "after")


def test_baseline_needs_a_kind_and_a_ground():
    with pytest.raises(ValueError, match="Baseline.kind"):
        Baseline(1.0, "guess", "why")
    with pytest.raises(ValueError, match="Baseline.ground"):
        Baseline(1.0, "scaling", " ")
    with pytest.raises(ValueError, match="Baseline.value"):
        Baseline(float("nan"), "scaling", "rule")


def test_experiment_checks_its_configurations():
    with pytest.raises(ValueError, match="configurations"):
        Experiment("e", lambda p, s: {}, {"a": 1})
    with pytest.raises(ValueError, match="Experiment.cap"):
        Experiment("e", lambda p, s: {}, lambda done: {}, initial=5, cap=3)


def test_precision_needs_a_positive_width_and_a_reason():
    assert Precision(0.1, "the devices' load").half_width == 0.1
    for width in (0.0, -1.0, float("nan"), True):
        with pytest.raises(ValueError, match="Precision.half_width"):
            Precision(width, "why")
    with pytest.raises(ValueError, match="Precision.why"):
        Precision(0.1, " ")
    with pytest.raises(ValueError, match="CellSpec.precision = 0.1 has the wrong type"):
        CellSpec(A, "calibration", metric("e", "one", "time_s"), sets="rate", precision=0.1)
    assert _derived().precision is None
