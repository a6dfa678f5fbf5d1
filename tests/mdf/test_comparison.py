"""The comparison: every published cell once, with its role and its no-change baseline."""

import math

from perfstudies.accuracy import study_comparison
from perfstudies.data import load
from perfstudies.models.mdf.comparison import baseline, published_cell


def test_every_published_cell_is_compared_once_with_a_valid_role():
    table = study_comparison("mdf")
    counts = table.groupby("table").size().to_dict()
    tables = {"Table 1": load("mdf", "io_response_by_domain"), "Table 2": load("mdf", "device_activity"),
              "Table 3": load("mdf", "ims_front_end"), "Table 4": load("mdf", "tso_effects")}
    # Table 1: RESP and IOSQ per row; Table 2: RATE, RESP, IOSQ per row; Tables 3 and 4: every value column
    expected = {"Table 1": 2 * len(tables["Table 1"]), "Table 2": 3 * len(tables["Table 2"]),
                "Table 3": (tables["Table 3"].shape[1] - 1) * len(tables["Table 3"]),
                "Table 4": (tables["Table 4"].shape[1] - 1) * len(tables["Table 4"])}
    assert counts == expected and len(table) == 94
    assert not table.duplicated(["table", "row", "column"]).any()


def test_baselines_are_the_reference_columns_published_values():
    assert baseline("Table 2", "IMS-C23 IOSQ (ms)", "1") == published_cell("Table 2", "IMS-C23 IOSQ (ms)", "BASE").value
    assert baseline("Table 1", "TSO AVG IOSQ (ms)", "5") == 3.41
    assert baseline("Table 3", "IMS ETR (tx/s)", "1") == 52.31
    assert baseline("Table 4", "TSO ETR (tx/s)", "5") == 19.34
    predicted = study_comparison("mdf").query("role == 'prediction'")
    assert predicted["baseline"].map(math.isfinite).all()
    for cell in predicted.itertuples():
        assert cell.baseline == baseline(cell.table, cell.row, cell.column)


def test_predicted_iosq_falls_from_parameter_1_to_5_for_both_domains():
    table = study_comparison("mdf").set_index(["table", "row", "column"])["model"]
    for domain in ("IMS", "TSO"):
        iosq = [table[("Table 1", f"{domain} AVG IOSQ (ms)", p)] for p in ("1", "3", "5")]
        assert iosq[0] > iosq[1] > iosq[2]
