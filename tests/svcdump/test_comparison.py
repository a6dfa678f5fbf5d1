"""The study's comparison: which cells are derived and why, the no-change baseline, tolerances and precision."""

import math

import pytest

from perfstudies.accuracy import study_comparison
from perfstudies.compare import DEFAULT, PRECISION_FRACTION, ROLES
from perfstudies.models.svcdump import analytic, calibrated_params
from perfstudies.models.svcdump.calibration import CALIBRATED_ON, published_cells
from perfstudies.models.svcdump.comparison import (MAX_REPLICATIONS, no_change_baseline, precision_targets,
                                                   statement_specs, statement_values)

CALIBRATED = {"ess_vs_3390_response", "ficon_vs_escon", "compression"}
DERIVED = {"ess_vs_3390_elapsed", "ess_vs_3390_data_rate", "page_data_sets", "linear_size", "ipcs_stripes_2v1",
           "ipcs_ess_vs_3390", "ipcs_linear"}
PREDICTED = {"stripes_2v1_3390", "stripes_2v1_ess", "gain_4v2_3390", "gain_4v2_ess"}


@pytest.fixture(scope="module")
def table():
    return study_comparison("svcdump").set_index("row")


def _bound_value(key: str, **assumptions) -> float:
    """A statement's value in the bottleneck bound, with some uncalibrated assumptions changed."""
    spec = statement_specs()[key]
    bound = analytic.bound_ipcs_s if spec.metric == "ipcs_s" else analytic.bound_elapsed_s
    times = [bound(calibrated_params(**{**config, **assumptions})) for config in spec.configs]
    value = spec.value(times)
    return 1 / value if spec.metric == "data_rate_mb_s" else value


def test_comparison_covers_every_statement_with_its_role(table):
    assert set(table.index) == set(published_cells()) == set(statement_specs())
    assert set(table["role"]) <= set(ROLES)
    assert set(table.index[table["role"] == "calibration"]) == CALIBRATED == set(CALIBRATED_ON.values())
    assert set(table.index[table["role"] == "derived"]) == DERIVED
    assert set(table.index[table["role"] == "prediction"]) == PREDICTED
    assert table.loc[list(CALIBRATED), "within_tolerance"].all()


@pytest.mark.parametrize("paths", [1, 2, 3, 4])
def test_derived_cells_do_not_move_with_the_channel_paths_assumed(paths):
    """What makes them derived: each is a calibrated cell again, its reciprocal, 1 or 2, whatever the paths."""
    response = published_cells()["ess_vs_3390_response"].value
    for key in ("ess_vs_3390_elapsed", "ipcs_ess_vs_3390"):
        assert _bound_value(key, channel_paths=paths) == pytest.approx(response)
    assert _bound_value("ess_vs_3390_data_rate", channel_paths=paths) == pytest.approx(1 / response)
    assert _bound_value("linear_size", channel_paths=paths) == pytest.approx(2.0)
    assert _bound_value("ipcs_linear", channel_paths=paths) == pytest.approx(2.0)
    assert _bound_value("page_data_sets", channel_paths=paths) == pytest.approx(1.0)
    assert _bound_value("ipcs_stripes_2v1", channel_paths=paths) == _bound_value("stripes_2v1_ess",
                                                                                  channel_paths=paths)


def test_predicted_cells_move_when_the_assumed_channel_paths_move():
    for key in PREDICTED:
        assert _bound_value(key, channel_paths=1) != pytest.approx(_bound_value(key, channel_paths=2)), key


def test_derived_cells_in_the_simulation_repeat_what_they_follow_from(table):
    model = table["model"]
    close = 4 * table["ci_half_width"]
    assert abs(model["ess_vs_3390_elapsed"] - model["ess_vs_3390_response"]) < close["ess_vs_3390_elapsed"] + 0.002
    assert model["ess_vs_3390_data_rate"] == pytest.approx(1 / model["ess_vs_3390_elapsed"], rel=0.002)
    assert abs(model["ipcs_stripes_2v1"] - model["stripes_2v1_ess"]) < close["ipcs_stripes_2v1"] + 0.002
    assert model["linear_size"] == pytest.approx(2.0, rel=0.005)
    assert model["page_data_sets"] == pytest.approx(1.0, abs=0.005)


def test_every_derived_note_says_how_it_follows(table):
    notes = table.loc[list(DERIVED), "note"]
    assert notes.str.contains(r"by construction|reciprocal of|copy of", case=False).all()
    assert not table.loc[list(PREDICTED), "note"].str.contains(r"by construction|copy of|reciprocal of").any()


def test_the_baseline_is_the_reference_configurations_own_value():
    for key, spec in statement_specs().items():
        expected = 0.0 if key.startswith("gain_") else 1.0  # no further gain / the ratio of the reference to itself
        assert no_change_baseline(spec) == expected, key


def test_every_prediction_has_a_finite_baseline_and_is_precise(table):
    predicted = table[table["role"] == "prediction"]
    assert predicted["baseline"].map(math.isfinite).all()
    assert table["precise"].all()
    assert not table["note"].str.contains("Imprecise").any()
    assert (table["ci_half_width"] > 0).all()


def test_tolerances_follow_the_one_policy_with_quotes():
    specs = statement_specs()
    for key, spec in specs.items():
        tolerance = spec.tolerance
        if tolerance.ground == "document":
            assert (tolerance.value, tolerance.kind) == (0.10, "relative")
            assert "10%" in tolerance.reason and '"' in tolerance.reason, key
        elif tolerance.ground == "resolution":
            assert key in {"gain_4v2_3390", "gain_4v2_ess", "ess_vs_3390_data_rate"}, key
            assert (tolerance.value, tolerance.kind) == (0.5, "absolute")
        else:
            assert tolerance == DEFAULT and key in {"linear_size", "ipcs_linear"}, key
    assert specs["compression"].tolerance.reason != specs["page_data_sets"].tolerance.reason


def test_precision_targets_are_a_quarter_of_each_tolerance():
    specs = tuple(statement_specs().values())
    targets = precision_targets(specs)
    assert targets["stripes_2v1_3390"] == pytest.approx(PRECISION_FRACTION * 0.10 * 0.5)
    assert targets["gain_4v2_ess"] == pytest.approx(PRECISION_FRACTION * 0.5)
    assert MAX_REPLICATIONS >= 5


def test_one_replication_uses_common_random_numbers():
    specs = (statement_specs()["stripes_2v1_3390"],)
    once, again = statement_values(specs, 7), statement_values(specs, 7)
    assert once == again and statement_values(specs, 8) != once
