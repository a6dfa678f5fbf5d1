"""The comparison table of the DIAG X'44' study: every published cell, its role, baseline and tolerance."""

import importlib
import math

import pytest

from perfstudies.accuracy import study_comparison
from perfstudies.compare import DEFAULT, IMPRECISE
from perfstudies.models.diag44 import DiagParams, model
from perfstudies.models.diag44.calibration import CALIBRATION_CELLS, measurements, run_config

comparison = importlib.import_module("perfstudies.models.diag44.comparison")


@pytest.fixture(scope="module")
def table():
    return study_comparison("diag44")


def _run(column: str) -> str:
    return column.split("(")[1].rstrip(")")


def test_every_published_cell_is_compared_once(table):
    published = measurements()
    assert len(table[~table["table"].str.startswith("text:")]) == len(published.drop_duplicates(["run_id", "metric"]))
    assert len(table[table["table"].str.startswith("text:")]) == 16
    assert len(table) == 70


def test_roles_calibration_derived_prediction(table):
    counts = table["role"].value_counts()
    assert (counts["calibration"], counts["derived"], counts["prediction"]) == (16, 25, 29)
    assert (table["role"] == "calibration").sum() == len(CALIBRATION_CELLS)
    derived = table[table["role"] == "derived"]
    assert derived["note"].str.len().gt(20).all(), "every derived cell says how it follows"


@pytest.mark.parametrize("row, column, because", [
    ("DIAG 44/sec - Fast Path", "No (EXPT5200)", "0 by construction"),
    ("DIAG 44/sec - Total", "No (EXPT5200)", "identically the calibrated Normal rate"),
    ("Total µsec/Tx", "6 (EXPTD441)", "CP + Emul"),
    ("Total Util/Proc", "Yes (EXPTD442)", "accounting ratio"),
    ("Tx rate", "No (EXPT5209)", "three calibrated cells"),
    ("System Util/Proc", "6 (EXPTD441)", "arithmetic on this run's spin and normal-path rows"),
    ("Percent Fast Path", "Yes (EXPTD440)", "Fast Path / Total by definition"),
    ("DIAG 44/sec - Fast Path", "Yes (EXPTD440)", "calibrated Total minus the predicted Normal"),
    ("change in total DIAG 44 rate", "EXPT5200 -> EXPTD440 (%)", "two calibrated cells"),
    ("change in CP usec per transaction", "EXPT5200 -> EXPTD440 (%)", "two calibrated cells"),
])
def test_cells_that_hold_by_construction_are_derived_and_say_why(table, row, column, because):
    cell = table[(table["row"] == row) & (table["column"] == column)].iloc[0]
    assert cell["role"] == "derived" and because in cell["note"]


def test_derived_identities_hold_exactly_in_one_replication():
    p = DiagParams(max_time_us=1.5e6)
    m = model(p, 4)
    assert m["diag_total"] == pytest.approx(m["diag_normal"] + m["diag_fast"], rel=1e-12)
    assert m["pct_fast"] == pytest.approx(100 * m["diag_fast"] / m["diag_total"], rel=1e-12)
    assert m["total_us_per_tx"] == pytest.approx(m["cp_us_per_tx"] + m["emul_us_per_tx"], rel=1e-12)
    assert m["total_util"] == pytest.approx(
        m["tx_rate"] * m["total_us_per_tx"] * p.accounting_ratio / (p.real_processors * 1e4), rel=1e-12)
    assert m["system_util"] == pytest.approx(
        m["diag_normal"] * p.system_per_normal_us / (p.real_processors * 1e4) + m["pct_spin"], rel=1e-12)
    off = model(p.replace(fast_path=False), 4)
    assert off["diag_fast"] == off["pct_fast"] == 0 and off["diag_total"] == off["diag_normal"]


def test_baselines_are_the_reference_runs_published_values(table):
    once = measurements().drop_duplicates(["run_id", "metric"])
    published = once.set_index(["run_id", "metric"])["value"]
    names = dict(zip(once["row"], once["metric"]))
    predicted = table[(table["role"] == "prediction") & ~table["table"].str.startswith("text:")]
    for cell in predicted.itertuples():
        run, metric = _run(cell.column), names[cell.row]
        reference = comparison.REFERENCE_FALLBACK.get((run, metric), comparison.REFERENCE_RUNS[run])
        assert cell.baseline == published[(reference, metric)], (cell.row, cell.column)
    assert comparison.REFERENCE_RUNS == {"EXPTD440": "EXPT5200", "EXPTD442": "EXPT5209", "EXPTD441": "EXPTD440",
                                         "EXPT5209": "EXPT5200"}
    changes = table[(table["role"] == "prediction") & table["table"].str.startswith("text:")]
    assert (changes["baseline"] == 0).all(), "a change's no-change baseline is 0%"


def test_one_tolerance_policy(table):
    zero = table["published"] == 0
    assert ((table.loc[~zero, "tolerance"] == DEFAULT.value) & (table.loc[~zero, "tolerance_kind"] == "relative")).all()
    assert len(table[zero]) == 4
    assert (table.loc[zero, "tolerance_kind"] == "absolute").all() and (table.loc[zero, "tolerance"] == 1).all()
    assert table.loc[zero, "tolerance_reason"].str.contains("whole numbers").all()
    assert table.loc[zero, "within_tolerance"].all()


def test_imprecise_predictions_say_so_in_the_standard_words(table):
    predicted = table[table["role"] == "prediction"]
    imprecise = predicted[~predicted["precise"].astype(bool)]
    assert imprecise["note"].str.contains(IMPRECISE + ": 95% half-width", regex=False).all()
    assert imprecise["note"].str.contains(f"the cap of {comparison.CAP} replications was reached").all()
    assert not predicted[predicted["precise"].astype(bool)]["note"].str.contains(IMPRECISE).any()


def test_precision_targets_are_a_quarter_of_each_predicted_cells_tolerance():
    targets = comparison.precision_targets()
    assert [set(t) >= {"change:tx_rate"} for t in targets] == [True, True, True]
    assert targets[0]["EXPTD440:tx_rate"] == pytest.approx(0.25 * 0.1 * 82.146)
    assert targets[1]["change:tx_rate"] == pytest.approx(0.25 * 0.1 * 1.4)
    assert "EXPT5200:tx_rate" not in targets[0], "calibration cells get no target"
    assert targets[2]["change:spin_rate"] == pytest.approx(0.25 * 0.1 * 109)


def test_a_change_is_computed_per_paired_replication():
    published = measurements()
    p = DiagParams(max_time_us=1e6)
    pair = comparison.RunPair("EXPT5209", "EXPTD442", p.replace(**run_config(published, "EXPT5209")),
                              p.replace(**run_config(published, "EXPTD442")))
    values = comparison.paired_model(pair, 9)
    before, after = model(pair.before, 9), model(pair.after, 9)
    assert values["EXPT5209:tx_rate"] == before["tx_rate"] and values["EXPTD442:tx_rate"] == after["tx_rate"]
    assert values["change:tx_rate"] == pytest.approx(100 * (after["tx_rate"] / before["tx_rate"] - 1))
    assert math.isnan(values["change:diag_fast"]), "no change from a zero"
