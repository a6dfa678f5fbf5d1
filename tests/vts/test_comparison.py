"""The comparison table: every named cell, its role and its no-change baseline."""

import math

from perfstudies import data
from perfstudies.accuracy import study_comparison
from perfstudies.models.vts import DOCUMENT, STUDY


def test_comparison_has_every_named_cell_with_a_valid_role():
    table = study_comparison(STUDY)
    assert set(table["document"]) == {DOCUMENT}
    assert set(table["role"]) <= {"calibration", "derived", "prediction"}
    keys = set(zip(table["table"], table["row"], table["column"]))
    for row in data.load(STUDY, "table1_read_rates").itertuples():
        assert ("Table 1", row.operation.replace("_", " "), f"CF {row.cf:g}") in keys
    for row in data.load(STUDY, "table2_block_size").itertuples():
        assert ("Table 2", row.operation.replace("_", " "), f"{row.block_kb} KB") in keys
    assert (table["table"] == "Table 4").sum() >= 12
    for text in ("Fig. 3 (text)", "Fig. 7 (text)", "Fig. 8 (text)", "Sec. 3.4 (text)", "Sec. 7 (text)"):
        assert text in set(table["table"])
    assert table["model"].map(math.isfinite).all()
    predicted = table[table["role"] == "prediction"]
    assert predicted["baseline"].map(math.isfinite).all()
