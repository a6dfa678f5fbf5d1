"""The study's declared comparison: roles and why, derived identities on published values, baselines, precision."""

import math

import pytest

from perfstudies.accuracy import study_comparison
from perfstudies.cells import Simulated, refused_derivations
from perfstudies.compare import DEFAULT, ROLES
from perfstudies.models.svcdump import analytic, cells, configurations
from perfstudies.models.svcdump.calibration import CALIBRATED_ON, published_cells
from perfstudies.models.svcdump.comparison import (MAX_REPLICATIONS, bound_value, channel_path_sensitivity,
                                                   paged_fraction_margin)

CALIBRATED = {"ess_vs_3390_response", "ficon_vs_escon", "compression"}
DERIVED = {"ess_vs_3390_elapsed", "ess_vs_3390_data_rate"}
PREDICTED = {"stripes_2v1_3390", "stripes_2v1_ess", "gain_4v2_3390", "gain_4v2_ess", "flatten_8v4_3390",
             "flatten_8v4_ess", "page_data_sets", "linear_size", "ipcs_stripes_2v1", "ipcs_ess_vs_3390",
             "ipcs_linear"}
BOUNDED = {"gain_4v2_3390": (0.0, 1.0), "gain_4v2_ess": (0.0, 1.0), "flatten_8v4_3390": (0.5, 1.1),
           "flatten_8v4_ess": (0.5, 1.1)}


@pytest.fixture(scope="module")
def table():
    return study_comparison("svcdump").set_index("key")


def _specs() -> dict:
    return {spec.key: spec for spec in cells()}


def _bound_value(key: str, **assumptions) -> float:
    """A statement's value in the bottleneck bound, with some uncalibrated assumptions changed."""
    return bound_value(_specs()[key], **assumptions)


def test_comparison_covers_every_statement_with_its_role(table):
    assert set(table.index) == set(published_cells()) == set(_specs())
    assert set(table["role"]) <= set(ROLES)
    assert set(table.index[table["role"] == "calibration"]) == CALIBRATED == set(CALIBRATED_ON.values())
    assert set(table.index[table["role"] == "derived"]) == DERIVED
    assert set(table.index[table["role"] == "prediction"]) == PREDICTED
    assert table.loc[list(CALIBRATED), "within_tolerance"].all()


def test_every_calibration_cell_names_the_field_it_sets():
    assert {spec.sets: key for key, spec in _specs().items() if spec.role == "calibration"} == CALIBRATED_ON


def test_every_derived_identity_reproduces_its_published_value_from_published_sources():
    assert refused_derivations(cells()) == []


def test_the_page_data_set_and_size_cells_are_predictions_because_no_published_cell_implies_them():
    """Both hold in the model by an assumption (a small paged share, demands linear in size), not by a published
    cell."""
    specs = _specs()
    assert specs["page_data_sets"].role == specs["linear_size"].role == "prediction"
    assert specs["linear_size"].baseline.kind == "scaling" and specs["linear_size"].baseline.value == 2.0


def test_no_prediction_depends_on_the_paged_share_below_its_margin():
    """Below the margin page-in binds nowhere; at twice the margin it binds in the configuration that names it."""
    margin, name = paged_fraction_margin()
    assert 0.01 < margin < 0.5
    fraction = analytic.PAGED_FRACTION[False]
    params = configurations()[name]
    times = analytic.resource_times(params)
    assert times["page"] * margin / fraction == pytest.approx(max(times["cpu"], times["volumes"], times["channel"]))
    for other in configurations().values():
        assert analytic.bottleneck(other) != "page"


def test_the_sensitivity_table_recomputes_every_prediction_for_each_path_count():
    sensitivity = channel_path_sensitivity()
    assert set(sensitivity["key"]) == PREDICTED
    assert set(sensitivity["channel_paths"]) == {1, 2, 3, 4}
    assumed = sensitivity[sensitivity["assumed"]]
    assert set(assumed["channel_paths"]) == {2} and assumed["passes"].all()
    one = sensitivity[sensitivity["channel_paths"] == 1].set_index("key")
    assert one.loc["stripes_2v1_3390", "value"] == pytest.approx(_bound_value("stripes_2v1_3390", channel_paths=1))
    assert not one.loc["stripes_2v1_3390", "passes"] and not one.loc["gain_4v2_3390", "passes"]


@pytest.mark.parametrize("paths", [1, 2, 3, 4])
def test_derived_cells_do_not_move_with_the_channel_paths_assumed(paths):
    """In the model too, each derived cell repeats what it follows from, whatever the paths."""
    response = published_cells()["ess_vs_3390_response"].value
    assert _bound_value("ess_vs_3390_elapsed", channel_paths=paths) == pytest.approx(response)
    assert _bound_value("ess_vs_3390_data_rate", channel_paths=paths) == pytest.approx(1 / response)


def test_predicted_stripe_cells_move_when_the_assumed_channel_paths_move():
    for key in ("stripes_2v1_3390", "stripes_2v1_ess", "gain_4v2_3390", "gain_4v2_ess"):
        assert _bound_value(key, channel_paths=1) != pytest.approx(_bound_value(key, channel_paths=2)), key


def test_derived_cells_in_the_simulation_repeat_what_they_follow_from(table):
    model = table["model"]
    close = 4 * table["ci_half_width"]
    assert abs(model["ess_vs_3390_elapsed"] - model["ess_vs_3390_response"]) < close["ess_vs_3390_elapsed"] + 0.002
    assert model["ess_vs_3390_data_rate"] == pytest.approx(1 / model["ess_vs_3390_elapsed"], rel=0.002)
    assert model["linear_size"] == pytest.approx(2.0, rel=0.005)
    assert model["page_data_sets"] == pytest.approx(1.0, abs=0.005)


def test_no_prediction_note_claims_it_holds_by_construction(table):
    assert not table.loc[list(PREDICTED), "note"].str.contains(r"by construction|copy of|reciprocal of").any()


def test_every_prediction_has_a_baseline_with_its_ground(table):
    for key in PREDICTED:
        baseline = _specs()[key].baseline
        assert baseline.ground.strip() and table.loc[key, "baseline"] == baseline.value
    expected = {"stripes_2v1_3390": (0.5, "scaling"), "stripes_2v1_ess": (0.5, "scaling"),
                "gain_4v2_3390": (0.5, "scaling"), "gain_4v2_ess": (0.5, "scaling"),
                "flatten_8v4_3390": (1.0, "persistence"), "flatten_8v4_ess": (1.0, "persistence"),
                "page_data_sets": (1.0, "persistence"), "linear_size": (2.0, "scaling"),
                "ipcs_stripes_2v1": (0.5, "scaling"), "ipcs_ess_vs_3390": (0.25, "scaling"),
                "ipcs_linear": (2.0, "scaling")}
    assert {key: (_specs()[key].baseline.value, _specs()[key].baseline.kind) for key in PREDICTED} == expected


def test_the_proportional_rule_for_stripes_gives_the_baselines():
    """Time in proportion to 1 / stripes: T2 / T1 = 1/2 and (T2 - T4) / (T1 - T2) = 1/2."""
    t1, t2, t4 = 1.0, 1 / 2, 1 / 4
    assert t2 / t1 == _specs()["stripes_2v1_3390"].baseline.value
    assert (t2 - t4) / (t1 - t2) == _specs()["gain_4v2_ess"].baseline.value


def test_the_stated_ranges_are_scored_as_ranges(table):
    """0 < g < 1 and 0.5 < T8 / T4 < 1.1 are all the document says: bounds, held or broken, never a point with a
    range-wide tolerance."""
    for key, bounds in BOUNDED.items():
        assert _specs()[key].bounds == bounds
        assert table.loc[key, "verdict"] in ("bound held", "bound broken")
    assert set(table.loc[list(PREDICTED - set(BOUNDED)), "verdict"]) <= {"hit", "miss"}


def test_the_proportional_rule_breaks_the_flattening_and_no_change_holds_it():
    """T8 / T4 = 1/2 by the rule sits on the range's edge, so the stronger baseline is no change (weak evidence)."""
    low, high = BOUNDED["flatten_8v4_ess"]
    assert not low < (1 / 8) / (1 / 4) < high
    assert low < _specs()["flatten_8v4_ess"].baseline.value < high


def test_every_cell_is_precise_with_an_interval(table):
    assert table["model"].map(math.isfinite).all()
    assert table["precise"].all()
    assert not table["note"].str.contains("IMPRECISE").any()
    # Past the knee eight stripes finish exactly when four do, replication by replication (the binding node draws
    # the same times in the same order with the same seed, and every node after it is idle): an interval of 0.
    flat = ["flatten_8v4_3390", "flatten_8v4_ess"]
    assert (table.loc[flat, "model"] == 1.0).all() and (table.loc[flat, "ci_half_width"] == 0).all()
    assert (table.drop(index=flat)["ci_half_width"] > 0).all()
    assert (table["replications"] >= 5).all() and (table["replications"] <= MAX_REPLICATIONS).all()


def test_tolerances_follow_the_one_policy_with_quotes():
    specs = _specs()
    for key, spec in specs.items():
        tolerance = spec.tolerance
        if tolerance.ground == "document":
            assert (tolerance.value, tolerance.kind) == (0.10, "relative")
            assert "10%" in tolerance.reason and '"' in tolerance.reason, key
        elif tolerance.ground == "resolution":
            assert key == "ess_vs_3390_data_rate", key
            assert (tolerance.value, tolerance.kind) == (0.5, "absolute")
        else:
            assert tolerance == DEFAULT and key in {"linear_size", "ipcs_linear"} | set(BOUNDED), key
    assert specs["compression"].tolerance.reason != specs["page_data_sets"].tolerance.reason


def test_ratios_are_between_configurations_of_one_experiment():
    """Every cell is simulated, and each of its terms names a declared configuration (common random numbers)."""
    named = configurations()
    for spec in cells():
        assert isinstance(spec.model, Simulated)
        assert all(config in named for config in spec.model.configurations), spec.key
