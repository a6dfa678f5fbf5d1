"""The comparison: the cell declarations (roles, derivations, baselines, tolerances) and the table they give."""

import dataclasses
import math

import pytest

from perfstudies import data
from perfstudies.accuracy import study_comparison
from perfstudies.cells import Exact, Simulated, refused_derivations
from perfstudies.compare import DEFAULT, TEN_PERCENT
from perfstudies.models.vts import DOCUMENT, KEY, STUDY, VTSParams, cells, experiments, throughput_scatter
from perfstudies.models.vts.analytic import bound_line, equation3
from perfstudies.models.vts.calibration import published_rate
from perfstudies.models.vts.comparison import BEST_CASE, CAP, FLAT, SIXTY, STATEMENT, TABLE4, printed, statements
from perfstudies.models.vts.params import statement, text_value

#: The cells that follow from published cells by an identity the published numbers satisfy.
DERIVED = {("Table 1", "read hit", "CF 2.66"), (TABLE4, "peak write m", "288/72 GB"),
           (TABLE4, "peak write b", "288/72 GB"), (TABLE4, "peak write b", "1152/288 GB")}
#: The cells judged on a tolerance wider than the policy's 10%, on the ground of the printed resolution.
RESOLUTION = {(TABLE4, "peak write b", "576/144 GB"), (BEST_CASE, "best-case recall mount response", "800 MB, CF 1"),
              (BEST_CASE, "best-case recall mount response", "800 MB, CF 3")}


def _key(published) -> tuple[str, str, str]:
    return published.table, published.row, published.column


@pytest.fixture(scope="module")
def specs():
    return cells()


@pytest.fixture(scope="module")
def table():
    return study_comparison(KEY)


def _cell(table, name, row, column):
    found = table[(table["table"] == name) & (table["row"] == row) & (table["column"] == column)]
    assert len(found) == 1, (name, row, column)
    return found.iloc[0]


# --- the declarations (no simulation)

def test_the_study_record_declares_the_comparison():
    assert STUDY.key == KEY == "vts" and STUDY.document == DOCUMENT and STUDY.params is VTSParams
    assert STUDY.cells is cells and STUDY.experiments is experiments


def test_every_derived_cell_follows_from_published_cells(specs):
    assert refused_derivations(specs) == []
    derived = [spec for spec in specs if spec.role == "derived"]
    assert {_key(spec.published) for spec in derived} == DERIVED
    keys = {spec.key for spec in specs}
    for spec in derived:
        assert spec.derivation.sources and set(spec.derivation.sources) <= keys


def test_the_roles(specs):
    roles = [spec.role for spec in specs]
    assert (roles.count("calibration"), roles.count("derived"), roles.count("prediction")) == (9, 4, 27)


def test_every_calibration_cell_names_the_parameter_it_sets(specs):
    fields = {field.name for field in dataclasses.fields(VTSParams)}
    sets = [spec.sets for spec in specs if spec.role == "calibration"]
    assert len(set(sets)) == len(sets), "one cell per parameter"
    # eight service times of the record, and the import/export slowdown of Sec. 7 (calibration.contention_slowdown)
    assert set(sets) - fields == {"contention_slowdown"}


def test_every_prediction_has_a_baseline_with_its_ground(specs):
    for spec in specs:
        if spec.role == "prediction":
            assert spec.baseline.kind == "persistence" and spec.baseline.ground.strip(), spec.key
            assert math.isfinite(spec.baseline.value), spec.key


def test_one_tolerance_policy(specs):
    wider = {_key(spec.published): spec.tolerance for spec in specs if spec.tolerance != DEFAULT}
    assert set(wider) == RESOLUTION
    assert all(t.ground == "resolution" and t.reason for t in wider.values())
    assert wider[(BEST_CASE, "best-case recall mount response", "800 MB, CF 3")].value == statement(
        "recall_best_case").half_band


def test_every_simulated_configuration_is_used_and_capped_at_60(specs):
    (experiment,) = experiments()
    assert experiment.cap == CAP == 60
    used = {config for spec in specs if isinstance(spec.model, Simulated) for config, _ in spec.model.terms}
    assert used == set(experiment.configurations)
    assert len(set(experiment.configurations.values())) == len(experiment.configurations), "no configuration twice"
    exact = {_key(spec.published) for spec in specs if isinstance(spec.model, Exact)}
    assert sum(name == TABLE4 for name, _, _ in exact) == 13  # Table 4 is compared in closed form
    assert {name for name, _, _ in exact} == {TABLE4, "Sec. 7 (text)", BEST_CASE}


# --- the table

def test_every_published_cell_is_compared_once(table):
    assert set(table["document"]) == {DOCUMENT}
    keys = set(zip(table["table"], table["row"], table["column"]))
    for row in data.load(KEY, "table1_read_rates").itertuples():
        assert ("Table 1", row.operation.replace("_", " "), f"CF {row.cf:g}") in keys
    for row in data.load(KEY, "table2_block_size").itertuples():
        assert ("Table 2", row.operation.replace("_", " "), f"{row.block_kb} KB") in keys
    assert (table["table"] == TABLE4).sum() == 13  # 12 coefficients and the calibrated line value at CF 4
    assert table["model"].map(math.isfinite).all()


def test_table1_read_hit_at_266_is_the_calibrated_table2_measurement(table):
    same = _cell(table, "Table 1", "read hit", "CF 2.66")
    calibrated = _cell(table, "Table 2", "read hit", "32 KB")
    assert same["role"] == "derived" and calibrated["role"] == "calibration"
    assert same["model"] == calibrated["model"] and same["published"] == calibrated["published"]
    assert "same measurement" in same["note"]


def test_derived_table4_cells_repeat_calibrated_points(table):
    # The published lines pass through calibrated cells at CF 1 (EHPO at CF 1 is the base machine) ...
    assert equation3("peak_write", 4, 1.0) == pytest.approx(text_value("base_peak_write_smallest_cache"), abs=0.005)
    assert equation3("peak_write", 16, 1.0) == pytest.approx(text_value("base_peak_write_largest_cache"), abs=0.005)
    # ... and the smallest cache's line also at CF 4, where it is itself the calibration cell.
    line = _cell(table, TABLE4, "peak write line m CF + b at CF 4", "288/72 GB")
    assert line["role"] == "calibration" and line["published"] == pytest.approx(equation3("peak_write", 4, 4.0))
    assert line["model"] == pytest.approx(line["published"], rel=1e-9)


def test_table4_is_compared_in_closed_form(table):
    for row in data.load(KEY, "table4_ehpo_coefficients").itertuples():
        label = row.workload.replace("_", " ")
        column = f"{row.capacity_gb_36gb_hdd}/{row.capacity_gb_9gb_hdd} GB"
        m, b = bound_line(row.workload, row.parity_groups)
        assert _cell(table, TABLE4, f"{label} m", column)["model"] == m
        assert _cell(table, TABLE4, f"{label} b", column)["model"] == b
        assert math.isnan(_cell(table, TABLE4, f"{label} b", column)["ci_half_width"])


def test_baselines_are_the_reference_configurations_published_values(table):
    predicted = table[table["role"] == "prediction"]
    assert predicted["baseline"].map(math.isfinite).all()
    hit_32 = published_rate("table2_block_size", operation="read_hit", block_kb=32)
    peak_32 = published_rate("table2_block_size", operation="peak_write", block_kb=32)
    assert _cell(table, "Table 1", "read hit", "CF 1")["baseline"] == hit_32
    assert _cell(table, "Table 2", "read hit", "64 KB")["baseline"] == hit_32
    assert _cell(table, "Table 2", "peak write", "64 KB")["baseline"] == peak_32
    assert _cell(table, "Fig. 8 (text)", "PAF peak write", "CF 2")["baseline"] == peak_32
    assert _cell(table, "Table 1", "read recall", "CF 1")["baseline"] == published_rate(
        "table1_read_rates", operation="read_recall", cf=2.66)
    assert _cell(table, FLAT, "PAF sustained write", "CF 4")["baseline"] == text_value("paf_sustained_write_cf1")
    assert _cell(table, "Fig. 7 (text)", "EHPO sustained write", "CF 3, largest cache")["baseline"] == text_value(
        "base_sustained_write_largest_cache")
    assert _cell(table, "Sec. 7 (text)", "recall rate with import/export running", "relative to without")[
        "baseline"] == 1.0
    table4 = data.load(KEY, "table4_ehpo_coefficients").set_index(["workload", "parity_groups"])
    assert _cell(table, TABLE4, "peak write m", "1152/288 GB")["baseline"] == table4.loc[("peak_write", 4), "m"]
    assert _cell(table, TABLE4, "sustained write b", "576/144 GB")["baseline"] == table4.loc[
        ("sustained_write", 4), "b"]


def test_the_table_keeps_the_tolerance_policy(table):
    default = (table["tolerance"] == TEN_PERCENT) & (table["tolerance_kind"] == "relative")
    assert set(zip(table.loc[~default, "table"], table.loc[~default, "row"], table.loc[~default, "column"])) \
        == RESOLUTION
    # the intercepts are no longer judged on +/-1 MB/s, nor slopes on 15%
    intercepts = table[table["row"].str.endswith(" b")]
    assert (intercepts["tolerance_kind"] == "absolute").sum() == 1
    assert intercepts["tolerance"].max() <= TEN_PERCENT
    assert (table.loc[table["row"].str.endswith(" m"), "tolerance"] == DEFAULT.value).all()


def test_every_simulated_number_is_precise_without_reaching_the_cap(table, specs):
    assert table["precise"].all()
    assert not table["note"].str.contains("IMPRECISE").any()
    simulated = table[table["replications"] > 0]
    assert len(simulated) == sum(isinstance(spec.model, Simulated) for spec in specs)
    assert simulated["replications"].max() < CAP


def test_the_throughput_chart_shows_every_simulated_rate_and_no_ratio(table, specs):
    """Every simulated cell that is one configuration's host MB/s, whatever its role (the note's prefix differs)."""
    rates = {_key(spec.published) for spec in specs if isinstance(spec.model, Simulated) and len(spec.model.terms) == 1}
    shown = throughput_scatter(table).layer[1].data
    assert set(zip(shown["table"], shown["row"], shown["column"])) == rates


def test_ratios_are_computed_per_replication(table):
    for name, row, column in [(SIXTY, "peak / sustained write", "EHPO, CF 3, largest cache"),
                              (SIXTY, "peak / sustained write", "PAF, CF 4"),
                              (FLAT, "PAF sustained write, CF 4 over CF 3", "1728 GB")]:
        ratio = _cell(table, name, row, column)
        assert "per replication" in ratio["note"] and ratio["ci_half_width"] > 0


# --- the statements: a separate part of the comparison, the same roles and tolerance policy (issue 19)

def test_statements_are_a_separate_part_after_the_printed_numbers(table):
    part = statements(table)
    assert len(part) == 7 and (part["table"].str.endswith(STATEMENT)).all()
    assert len(printed(table)) + len(part) == len(table)
    # every statement row comes after every printed row
    assert part.index.min() > printed(table).index.max()
    assert (part["role"] == "prediction").all()
    assert set(part["table"]) == {FLAT, SIXTY, BEST_CASE}


def test_statement_values_come_from_their_data_file_not_from_the_printed_numbers(table):
    assert "paf_sustained_write_cf4" not in set(data.load(KEY, "text_values")["key"])
    assert _cell(table, FLAT, "PAF sustained write", "CF 4")["published"] == statement("paf_sustained_write_cf4").value
    assert _cell(table, FLAT, "PAF sustained write, CF 4 over CF 3", "1728 GB")["published"] == 1.0
    for column in ("EHPO, CF 3, largest cache", "PAF, CF 3", "PAF, CF 4"):
        assert _cell(table, SIXTY, "peak / sustained write", column)["published"] == statement(
            "peak_over_sustained").value
    # a statement without its own range is judged on the policy's default
    default = statements(table)[~statements(table)["table"].eq(BEST_CASE)]
    assert (default["tolerance"] == TEN_PERCENT).all() and (default["tolerance_kind"] == "relative").all()


def test_the_best_case_recall_is_the_closed_form_recall_time(table):
    from perfstudies.models.vts.analytic import recall_service_s
    from perfstudies.models.vts.params import paf
    for cf in (1.0, 3.0):
        cell = _cell(table, BEST_CASE, "best-case recall mount response", f"800 MB, CF {cf:g}")
        assert cell["model"] == pytest.approx(recall_service_s(paf(workload="read_recall", compressibility=cf)))
        assert math.isnan(cell["ci_half_width"])


def test_the_issue_19_targets_on_the_paf_sustained_write(table):
    """PAF sustained write within 10% of 50 MB/s at CF 3; CF 4 within 10% of CF 3; peak/sustained 1.4-1.8."""
    cf3 = _cell(table, "Fig. 7 (text)", "PAF sustained write", "CF 3")
    assert cf3["role"] == "prediction" and abs(cf3["rel_error"]) <= 0.10
    flat = _cell(table, FLAT, "PAF sustained write, CF 4 over CF 3", "1728 GB")
    assert abs(flat["model"] - 1.0) <= 0.10
    for column in ("EHPO, CF 3, largest cache", "PAF, CF 3", "PAF, CF 4"):
        assert 1.4 <= _cell(table, SIXTY, "peak / sustained write", column)["model"] <= 1.8
