"""The comparison: the cell declarations (roles, derivations, baselines, tolerances) and the table they give."""

import dataclasses
import math

import pytest

from perfstudies import data
from perfstudies.accuracy import study_comparison
from perfstudies.cells import Exact, Simulated, refused_derivations
from perfstudies.compare import DEFAULT, TEN_PERCENT, Published
from perfstudies.models.vts import DOCUMENT, KEY, STUDY, VTSParams, cells, experiments, throughput_scatter
from perfstudies.models.vts.analytic import bound_line, equation3
from perfstudies.models.vts.calibration import published_rate
from perfstudies.models.vts.comparison import (
    ANALYTIC, BEST_CASE, CAP, FLAT, SIXTY, STATEMENT, TABLE4, analytic_part, printed, recall_bounds, statements,
    stronger,
)
from perfstudies.cells import Baseline
from perfstudies.models.vts.params import statement, text_value

#: The cells that follow from published cells by an identity the published numbers satisfy.  Issue 25: every
#: Table 4 intercept b is derived, (m + b) - m, and its line scored by m and by m + b (its value at CF 1, in
#: host MB/s): b is the line at CF = 0, outside the paper's 1 <= CF <= 4, and -0.03 MB/s was scored at +/-0.005.
DERIVED = {("Table 1", "read hit", "CF 2.66"), (TABLE4, "peak write m", "288/72 GB"),
           *((TABLE4, f"{line} b", cache) for line in ("peak write", "sustained write")
             for cache in ("288/72 GB", "576/144 GB", "1152/288 GB"))}
#: The cells scored as the range the paper states instead of a number (issue 25: the best-case recall's
#: "two to three minutes" was a point with a band as wide as the range).
BOUNDS = {(BEST_CASE, "best-case recall mount response", "800 MB, CF 1"),
          (BEST_CASE, "best-case recall mount response", "800 MB, CF 3")}
#: Every prediction's baseline: (kind, value).  Issue 25 re-pinned these to the answer a planner would give from
#: the paper (the stronger of the persistence and the scaling rule the paper states, where both apply): read
#: recall corresponds to sustained write (19, not the 38 at CF 2.66); CF-proportional scaling at CF 3 (57, 21);
#: "not sensitive to CF above 3" at CF 4 (50); the drive share 4/6 with a task holding two drives (not 1.0);
#: a lone recall's time from Table 1's per-drive recall rate (not the 2.5 s fast-ready mount); the 60% rule for
#: the base machine of Fig. 3; Table 4's lines from the base machine's rates at CF 1 and the proportional rule.
BASELINES = {
    ("Table 1", "read hit", "CF 1"): ("persistence", 64.0),
    ("Table 1", "read recall", "CF 1"): ("scaling", 19.0),
    ("Table 2", "peak write", "64 KB"): ("scaling", 89.0),
    ("Table 2", "read hit", "64 KB"): ("scaling", 103.0),
    ("Fig. 3 (text)", "base sustained write", "smallest cache"): ("scaling", 8 / 1.6),
    ("Fig. 3 (text)", "base sustained write", "largest cache"): ("scaling", 10 / 1.6),
    ("Fig. 7 (text)", "PAF sustained write", "CF 3"): ("scaling", 3 * 19.0),
    ("Fig. 8 (text)", "PAF peak write", "CF 2"): ("persistence", 80.0),
    ("Fig. 7 (text)", "EHPO sustained write", "CF 3, largest cache"): ("scaling", 3 * 7.0),
    ("Sec. 7 (text)", "recall rate with import/export running", "relative to without"): ("scaling", 4 / 6),
    ("Sec. 7 (text)", "import time increase under peak write", "6 mounts, 2.3 GB"): ("persistence", 25.0),
    (TABLE4, "sustained write m", "288/72 GB"): ("scaling", 5.5),
    (TABLE4, "sustained write m", "576/144 GB"): ("scaling", 5.5),
    (TABLE4, "sustained write line m CF + b at CF 1", "576/144 GB"): ("persistence", 5.5),
    (TABLE4, "sustained write m", "1152/288 GB"): ("scaling", 7.0),
    (TABLE4, "peak write m", "576/144 GB"): ("scaling", 10.0),
    (TABLE4, "peak write line m CF + b at CF 1", "576/144 GB"): ("persistence", 10.0),
    (TABLE4, "peak write m", "1152/288 GB"): ("scaling", 10.0),
    (FLAT, "PAF sustained write, CF 4 over CF 3", "1728 GB"): ("persistence", 1.0),
    (FLAT, "PAF sustained write", "CF 4"): ("persistence", 50.0),
    (SIXTY, "peak / sustained write", "EHPO, CF 3, largest cache"): ("persistence", 10 / 7),
    (SIXTY, "peak / sustained write", "PAF, CF 3"): ("persistence", 10 / 7),
    (SIXTY, "peak / sustained write", "PAF, CF 4"): ("persistence", 10 / 7),
    (BEST_CASE, "best-case recall mount response", "800 MB, CF 1"): ("scaling", 6 * 800 / 18),
    (BEST_CASE, "best-case recall mount response", "800 MB, CF 3"): ("scaling", 6 * 800 / 38),
}
#: Verdicts of the closed-form predictions (no simulation noise), pinned.  Issue 25: the best-case recall is
#: "bound held" (was "hit" on a band as wide as the range); the 576/144 GB lines are scored at CF 1 (sustained:
#: hit, its b a miss at 10% of 0.71; peak: miss by 12%, its b a miss 99x outside +/-0.005).
CLOSED_FORM_VERDICTS = {
    (TABLE4, "sustained write m", "288/72 GB"): "miss",
    (TABLE4, "sustained write m", "576/144 GB"): "miss",
    (TABLE4, "sustained write line m CF + b at CF 1", "576/144 GB"): "hit",
    (TABLE4, "sustained write m", "1152/288 GB"): "hit",
    (TABLE4, "peak write m", "576/144 GB"): "hit",
    (TABLE4, "peak write line m CF + b at CF 1", "576/144 GB"): "miss",
    (TABLE4, "peak write m", "1152/288 GB"): "hit",
    ("Sec. 7 (text)", "import time increase under peak write", "6 mounts, 2.3 GB"): "miss",
    (BEST_CASE, "best-case recall mount response", "800 MB, CF 1"): "bound held",
    (BEST_CASE, "best-case recall mount response", "800 MB, CF 3"): "bound held",
}


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
    # issue 25: four Table 4 intercepts derived; two scored as the lines' values at CF 1 instead
    assert (roles.count("calibration"), roles.count("derived"), roles.count("prediction")) == (9, 8, 25)


def test_every_calibration_cell_names_the_parameter_it_sets(specs):
    fields = {field.name for field in dataclasses.fields(VTSParams)}
    sets = [spec.sets for spec in specs if spec.role == "calibration"]
    assert len(set(sets)) == len(sets), "one cell per parameter"
    # eight service times of the record, and the import/export slowdown of Sec. 7 (calibration.contention_slowdown)
    assert set(sets) - fields == {"contention_slowdown"}


def test_every_prediction_has_a_baseline_with_its_ground(specs):
    predicted = {_key(spec.published): spec.baseline for spec in specs if spec.role == "prediction"}
    assert set(predicted) == set(BASELINES)
    for key, baseline in predicted.items():
        kind, value = BASELINES[key]
        assert (baseline.kind, baseline.value) == (kind, pytest.approx(value)), key
        assert baseline.ground.strip(), key
        if kind == "scaling":  # the rule and where the paper states it
            assert "Sec" in baseline.ground, key  # "Sec." or "Secs."


def test_no_baseline_is_the_fast_ready_mount_or_a_no_change_ratio_the_paper_discusses(specs):
    """Issue 25: never a number no planner would give."""
    fast_ready = (text_value("fast_ready_mount_low") + text_value("fast_ready_mount_high")) / 2
    for spec in specs:
        if spec.role == "prediction":
            assert spec.baseline.value != fast_ready, spec.key
            assert "fast-ready" not in spec.baseline.ground, spec.key
    recall = next(spec for spec in specs if spec.published.row == "recall rate with import/export running")
    assert recall.baseline.value == pytest.approx(4 / 6) and "4/6" in recall.baseline.ground


def test_table4_is_never_a_baseline(specs):
    """The paper's analytic coefficients are its own model, not a planner's naive answer."""
    table4 = {spec.published.value for spec in specs if spec.published.table == TABLE4}
    for spec in specs:
        if spec.role == "prediction" and spec.published.table != TABLE4:
            assert spec.baseline.value not in table4, spec.key


def test_the_stronger_baseline_is_kept_and_the_weaker_named():
    cell = Published("T", "r", "c", 10.0)
    near, far = Baseline(9.0, "scaling", "near (Sec. 1)"), Baseline(20.0, "persistence", "far")
    for order in ((near, far), (far, near)):
        chosen = stronger(cell, *order)
        assert (chosen.value, chosen.kind) == (9.0, "scaling") and "far" in chosen.ground
    assert stronger(cell, far) is far
    # for a range, the one inside it wins even if farther from the middle
    inside = stronger(cell, Baseline(5.2, "scaling", "inside"), Baseline(15.5, "scaling", "outside"), bounds=(5, 15))
    assert inside.value == 5.2


def test_one_tolerance_policy(specs):
    assert all(spec.tolerance == DEFAULT for spec in specs)
    ranged = {_key(spec.published): spec.bounds for spec in specs if spec.bounds is not None}
    assert set(ranged) == BOUNDS
    assert set(ranged.values()) == {recall_bounds()}
    best = statement("recall_best_case")
    assert recall_bounds() == (best.value - best.half_band, best.value + best.half_band) == (120, 180)


def test_no_scored_cell_near_zero_is_judged_on_a_relative_tolerance(specs):
    """Issue 25: a relative 10% of a near-zero number tells nothing; the intercepts are derived."""
    for spec in specs:
        if spec.role == "prediction" and spec.bounds is None:
            assert spec.tolerance.allowed_error(spec.published.value) >= 0.1 * 0.5, spec.key


def test_every_simulated_configuration_is_used_and_capped_at_60(specs):
    (experiment,) = experiments()
    assert experiment.cap == CAP == 60
    used = {config for spec in specs if isinstance(spec.model, Simulated) for config, _ in spec.model.terms}
    assert used == set(experiment.configurations)
    assert len(set(experiment.configurations.values())) == len(experiment.configurations), "no configuration twice"
    exact = {_key(spec.published) for spec in specs if isinstance(spec.model, Exact)}
    assert sum(name == TABLE4 for name, _, _ in exact) == 15  # Table 4 is compared in closed form
    assert {name for name, _, _ in exact} == {TABLE4, "Sec. 7 (text)", BEST_CASE}


# --- the table

def test_every_published_cell_is_compared_once(table):
    assert set(table["document"]) == {DOCUMENT}
    keys = set(zip(table["table"], table["row"], table["column"]))
    for row in data.load(KEY, "table1_read_rates").itertuples():
        assert ("Table 1", row.operation.replace("_", " "), f"CF {row.cf:g}") in keys
    for row in data.load(KEY, "table2_block_size").itertuples():
        assert ("Table 2", row.operation.replace("_", " "), f"{row.block_kb} KB") in keys
    # 12 coefficients, the calibrated line value at CF 4 and the two scored line values at CF 1
    assert (table["table"] == TABLE4).sum() == 15
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


def test_the_table_carries_every_baseline_and_its_ground(table):
    predicted = table[table["role"] == "prediction"]
    assert predicted["baseline"].map(math.isfinite).all()
    for key, (kind, value) in BASELINES.items():
        cell = _cell(table, *key)
        assert cell["baseline"] == pytest.approx(value) and cell["baseline_ground"].startswith(kind), key


def test_the_closed_form_verdicts(table):
    for key, verdict in CLOSED_FORM_VERDICTS.items():
        assert _cell(table, *key)["verdict"] == verdict, key


def test_the_table_keeps_the_tolerance_policy(table):
    assert ((table["tolerance"] == TEN_PERCENT) & (table["tolerance_kind"] == "relative")).all()
    # issue 25: no intercept is scored (b is the line at CF = 0, outside 1 <= CF <= 4); the lines are scored by
    # their slopes and their values at CF 1, in host MB/s
    intercepts = table[table["row"].str.endswith(" b")]
    assert len(intercepts) == 6 and (intercepts["role"] == "derived").all()
    scored = analytic_part(table)[analytic_part(table)["role"] == "prediction"]
    assert set(scored["row"].str.rsplit(" ", n=1).str[-1]) == {"m", "1"}
    # the best-case recall is scored as the range the paper states, not as a point
    ranged = table[table["bound_low"].notna()]
    assert set(zip(ranged["table"], ranged["row"], ranged["column"])) == BOUNDS
    assert set(ranged["verdict"]) <= {"bound held", "bound broken"}


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


def test_table4_is_its_own_part_apart_from_measurements(table):
    """Issue 25: the paper's analytic coefficients ("extended ... using analytical performance modeling")."""
    part = analytic_part(table)
    assert TABLE4.endswith(ANALYTIC) and set(part["table"]) == {TABLE4} and len(part) == 15
    assert part.index.min() > printed(table).index.max()
    assert not printed(table)["table"].str.startswith("Table 4").any()


# --- the statements: a separate part of the comparison, the same roles and tolerance policy (issue 19)

def test_statements_are_a_separate_part_after_the_printed_numbers(table):
    part = statements(table)
    assert len(part) == 7 and (part["table"].str.endswith(STATEMENT)).all()
    assert len(printed(table)) + len(analytic_part(table)) + len(part) == len(table)
    # every statement row comes after every printed row and after Table 4's analytic part
    assert part.index.min() > max(printed(table).index.max(), analytic_part(table).index.max())
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
