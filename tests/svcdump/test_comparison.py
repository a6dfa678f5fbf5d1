"""The study's comparison: every statement, its role, its baseline and its tolerance."""

from perfstudies.accuracy import study_comparison
from perfstudies.compare import ROLES
from perfstudies.models.svcdump.calibration import published_cells
from perfstudies.models.svcdump.comparison import statement_specs


def test_comparison_covers_every_statement_with_a_valid_role():
    table = study_comparison("svcdump").set_index("row")
    assert set(table.index) == set(published_cells()) == set(statement_specs())
    assert set(table["role"]) <= set(ROLES)
    calibrated = table[table["role"] == "calibration"]
    assert set(calibrated.index) == {"ess_vs_3390_response", "ficon_vs_escon", "compression"}
    assert calibrated["within_tolerance"].all()
    assert (table["ci_half_width"] > 0).all()
