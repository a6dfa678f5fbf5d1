"""The study's declared comparison: roles and why, derived identities on published values, baselines, precision."""

import math

import numpy as np
import pytest

from perfstudies.accuracy import study_comparison
from perfstudies.cells import Simulated, refused_derivations
from perfstudies.compare import DEFAULT, ROLES
from perfstudies.models.svcdump import analytic, cells, configurations
from perfstudies.models.svcdump.calibration import CALIBRATED_ON, published_cells
from perfstudies.models.svcdump.comparison import DUMP, MAX_REPLICATIONS

CALIBRATED = {"ess_vs_3390_response", "ficon_vs_escon", "compression"}
DERIVED = {"ess_vs_3390_elapsed", "ess_vs_3390_data_rate", "ipcs_stripes_2v1", "ipcs_ess_vs_3390", "ipcs_linear"}
PREDICTED = {"stripes_2v1_3390", "stripes_2v1_ess", "gain_4v2_3390", "gain_4v2_ess", "page_data_sets",
             "linear_size"}


@pytest.fixture(scope="module")
def table():
    return study_comparison("svcdump").set_index("key")


def _specs() -> dict:
    return {spec.key: spec for spec in cells()}


def _bound_value(key: str, **assumptions) -> float:
    """A statement's value in the bottleneck bound, with some uncalibrated assumptions changed."""
    model = _specs()[key].model
    named = configurations()
    bound = analytic.bound_elapsed_s if model.experiment == DUMP else analytic.bound_ipcs_s
    times = [np.array([bound(named[config].replace(**assumptions))]) for config, _ in model.terms]
    if model.terms[0][1] == "data_rate_mb_s":
        times = [1 / value for value in times]
    return float(model.combine(*times)[0])


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
    """Both hold in the model by an assumption (1% paged, demands linear in size), not by a published cell."""
    specs = _specs()
    assert specs["page_data_sets"].role == specs["linear_size"].role == "prediction"
    assert specs["linear_size"].baseline.kind == "scaling" and specs["linear_size"].baseline.value == 2.0


@pytest.mark.parametrize("paths", [1, 2, 3, 4])
def test_derived_cells_do_not_move_with_the_channel_paths_assumed(paths):
    """In the model too, each derived cell repeats what it follows from, whatever the paths."""
    response = published_cells()["ess_vs_3390_response"].value
    for key in ("ess_vs_3390_elapsed", "ipcs_ess_vs_3390"):
        assert _bound_value(key, channel_paths=paths) == pytest.approx(response)
    assert _bound_value("ess_vs_3390_data_rate", channel_paths=paths) == pytest.approx(1 / response)
    assert _bound_value("ipcs_linear", channel_paths=paths) == pytest.approx(2.0)
    assert _bound_value("ipcs_stripes_2v1", channel_paths=paths) == _bound_value("stripes_2v1_ess",
                                                                                  channel_paths=paths)


def test_predicted_stripe_cells_move_when_the_assumed_channel_paths_move():
    for key in ("stripes_2v1_3390", "stripes_2v1_ess", "gain_4v2_3390", "gain_4v2_ess"):
        assert _bound_value(key, channel_paths=1) != pytest.approx(_bound_value(key, channel_paths=2)), key


def test_derived_cells_in_the_simulation_repeat_what_they_follow_from(table):
    model = table["model"]
    close = 4 * table["ci_half_width"]
    assert abs(model["ess_vs_3390_elapsed"] - model["ess_vs_3390_response"]) < close["ess_vs_3390_elapsed"] + 0.002
    assert model["ess_vs_3390_data_rate"] == pytest.approx(1 / model["ess_vs_3390_elapsed"], rel=0.002)
    assert abs(model["ipcs_stripes_2v1"] - model["stripes_2v1_ess"]) < close["ipcs_stripes_2v1"] + 0.002
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
                "page_data_sets": (1.0, "persistence"), "linear_size": (2.0, "scaling")}
    assert {key: (_specs()[key].baseline.value, _specs()[key].baseline.kind) for key in PREDICTED} == expected


def test_the_proportional_rule_for_stripes_gives_the_baselines():
    """Time in proportion to 1 / stripes: T2 / T1 = 1/2 and (T2 - T4) / (T1 - T2) = 1/2."""
    t1, t2, t4 = 1.0, 1 / 2, 1 / 4
    assert t2 / t1 == _specs()["stripes_2v1_3390"].baseline.value
    assert (t2 - t4) / (t1 - t2) == _specs()["gain_4v2_ess"].baseline.value


def test_the_gain_ratios_are_scored_as_the_stated_range(table):
    """0 < g < 1 is all the document says: a bound, held or broken, never a point with a range-wide tolerance."""
    for key in ("gain_4v2_3390", "gain_4v2_ess"):
        assert _specs()[key].bounds == (0.0, 1.0)
        assert table.loc[key, "verdict"] in ("bound held", "bound broken")
    assert set(table.loc[list(PREDICTED - {"gain_4v2_3390", "gain_4v2_ess"}), "verdict"]) <= {"hit", "miss"}


def test_every_cell_is_precise_with_an_interval(table):
    assert table["model"].map(math.isfinite).all()
    assert table["precise"].all()
    assert not table["note"].str.contains("IMPRECISE").any()
    assert (table["ci_half_width"] > 0).all()
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
            assert tolerance == DEFAULT and key in {"linear_size", "ipcs_linear", "gain_4v2_3390",
                                                    "gain_4v2_ess"}, key
    assert specs["compression"].tolerance.reason != specs["page_data_sets"].tolerance.reason


def test_ratios_are_between_configurations_of_one_experiment():
    """Every cell is simulated, and each of its terms names a declared configuration (common random numbers)."""
    named = configurations()
    for spec in cells():
        assert isinstance(spec.model, Simulated)
        assert all(config in named for config in spec.model.configurations), spec.key
