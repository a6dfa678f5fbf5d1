"""The comparison table of the DIAG X'44' study: every published cell, its role and its baseline."""

from perfstudies.accuracy import study_comparison
from perfstudies.compare import ROLES
from perfstudies.models.diag44.calibration import CALIBRATION_CELLS, measurements


def test_comparison_covers_every_published_cell_with_calibrations_in_tolerance():
    table = study_comparison("diag44")
    published = measurements()
    repeated = (published["table"] == "9-way virtual processors") & (published["column"] == "3") \
        & ~published["metric"].isin(["spin_rate", "pct_spin"])
    assert len(table[~table["table"].str.startswith("text:")]) == (~repeated).sum()
    assert len(table[table["table"].str.startswith("text:")]) == 16
    assert set(table["role"]) <= set(ROLES)
    assert (table["role"] == "calibration").sum() == len(CALIBRATION_CELLS)
    zero = table[table["published"] == 0]
    assert len(zero) == 4 and (zero["tolerance_kind"] == "absolute").all() and zero["within_tolerance"].all()
