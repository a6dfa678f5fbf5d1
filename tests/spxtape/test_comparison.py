"""The study's comparison: its declared cells (roles, derivations checked on published values, baselines with
their grounds, the parameters calibration cells set), the one tolerance policy, and the numbers the evaluator
gives them."""

import dataclasses
import math
import re

import pandas as pd
import pytest

from perfstudies.accuracy import study_comparison
from perfstudies.cells import Derivation, Exact, check_specs, refused_derivations
from perfstudies.compare import DEFAULT, IMPRECISE, Tolerance, required_half_width
from perfstudies.data import load
from perfstudies.models.spxtape import STUDY
from perfstudies.models.spxtape.calibration import (CONFIGURATIONS, TABLE1_CALIBRATION, TABLE1_COLUMN_OF,
                                                    TABLE1_ROWS, TABLE2_CALIBRATION, column_name, workload,
                                                    table1_cell, table2_cell, without_dump)
from perfstudies.models.spxtape.comparison import (CAP, CONCURRENT_TAPES, INITIAL, TABLE1, TABLE1_CAP, TABLE2,
                                                   baselines, cells, experiments)
from perfstudies.models.spxtape.params import ConcurrentParams, SpxtapeParams

#: The seven predicted cells: (table, row, column).
PREDICTED = {("Table 1", "system_idle_s", "SPXTAPE DUMP 2"), ("Table 1", "tapes", "SPXTAPE DUMP 2"),
             ("Table 1", "system_idle_s", "SPXTAPE DUMP 4"), ("Table 1", "tapes", "SPXTAPE DUMP 4"),
             ("Table 1", "elapsed_s", "SPTAPE LOAD 1"), ("Table 1", "system_idle_s", "SPXTAPE LOAD 1"),
             ("Table 2", CONCURRENT_TAPES, "with SPXTAPE DUMP")}
#: The Table 2 rows shown with the dump (calibrated or derived), besides the text's tape count.
TABLE2_ROWS = {"SPXTAPE pages/s (text)", "AVG LAST (T)", "ETR (T)", "RIO RATE (V)", "RIO/CMD (V)",
               "NONPAGE RIO/CMD (V)"}
#: Words that say how a derived cell follows (the contract test forbids them on predictions).
HOW = r"by definition|by construction|identically|copy of|reciprocal of"


@pytest.fixture(scope="module")
def specs():
    return cells()


@pytest.fixture(scope="module")
def table():
    """The comparison by (table, row, column), its Table 1 rows named by their data column (``elapsed_s`` ...)."""
    compared = study_comparison("spxtape")
    return compared.assign(row=compared["row"].replace(TABLE1_COLUMN_OF)).set_index(["table", "row", "column"],
                                                                                     drop=False)


def _value(table, row, column, field="model"):
    return float(table.loc[("Table 1", row, column), field])


def _index(spec):
    cell = spec.published
    return cell.table, TABLE1_COLUMN_OF.get(cell.row, cell.row), cell.column


# --- the declarations (no simulation) -------------------------------------------------------------------------

def test_the_study_record_declares_the_comparison(specs):
    assert STUDY.key == "spxtape" and STUDY.params is SpxtapeParams
    assert STUDY.cells is cells and STUDY.experiments is experiments
    assert check_specs(specs) == specs  # unique keys and published cells
    assert [experiment.name for experiment in experiments()] == [TABLE1, TABLE2]
    assert [(experiment.initial, experiment.cap) for experiment in experiments()] == [(INITIAL, TABLE1_CAP),
                                                                                      (INITIAL, CAP)]


def test_every_published_cell_is_declared_once(specs):
    published = load("spxtape", "table1")
    declared = {(row, column) for table, row, column in map(_index, specs) if table == "Table 1"}
    expected = {(name, f"{r['command']} {r['function']} {r['drives']}") for _, r in published.iterrows()
                for name in published.columns[4:] if not pd.isna(r[name])}
    assert declared == expected
    assert {row for table, row, _ in map(_index, specs) if table == "Table 2"} == TABLE2_ROWS | {CONCURRENT_TAPES}


def test_every_derived_cell_follows_from_published_cells(specs):
    """The identity of each derived cell, fed the published values of its sources, gives its published value."""
    assert refused_derivations(specs) == []
    derived = [spec for spec in specs if spec.role == "derived"]
    assert len(derived) == 46
    assert all(spec.derivation.why.strip() for spec in derived)


def test_the_loads_processor_time_sets_the_processor_time_per_file_created(specs):
    """Issue 30: the dump's processor time per page gives the load 79 s of its 902 s ("the dump's processor
    time" is refused as the load's derivation); no other cell measures a file's creation, so the load's
    processor time sets it (calibration) and the load's utilisation is derived from it."""
    load_cpu = next(spec for spec in specs if _index(spec) == ("Table 1", "processor_s", "SPXTAPE LOAD 1"))
    dump_cpu = table1_cell(("SPXTAPE", "DUMP", 2), "processor_s")
    as_derived = dataclasses.replace(load_cpu, role="derived", sets=None, derivation=Derivation(
        (dump_cpu.where,), lambda dump: dump, "the dump's processor time"))
    (refusal,) = refused_derivations([as_derived if spec is load_cpu else spec for spec in specs])
    assert refusal.startswith(load_cpu.key) and "gives 79, published 902" in refusal
    assert load_cpu.role == "calibration" and load_cpu.sets == "cpu_per_file" and dump_cpu.value == 79
    util = next(spec for spec in specs if _index(spec) == ("Table 1", "processor_util_pct", "SPXTAPE LOAD 1"))
    assert util.role == "derived" and load_cpu.published.where in util.derivation.sources


def test_roles_calibration_derived_prediction(specs):
    roles = {_index(spec): spec.role for spec in specs}
    calibrated = {_index(spec) for spec in specs if spec.role == "calibration"}
    expected = {(c.table, TABLE1_COLUMN_OF.get(c.row, c.row), c.column) for c in
                [table1_cell(key, column) for key, column in TABLE1_CALIBRATION]
                + [table2_cell(row) for row in TABLE2_CALIBRATION]}
    assert calibrated == expected
    assert {index for index, role in roles.items() if role == "prediction"} == PREDICTED


def test_each_calibration_cell_names_the_one_parameter_it_sets(specs):
    calibrated = [spec for spec in specs if spec.role == "calibration"]
    sets = {spec.sets for spec in calibrated}
    assert sets == set(TABLE1_CALIBRATION.values()) | set(TABLE2_CALIBRATION.values())
    assert len(sets) == len(calibrated) == 10
    fields = set(SpxtapeParams.spec()) | set(ConcurrentParams.spec())
    assert sets <= fields


def test_every_prediction_has_a_baseline_with_its_ground(specs):
    """Issue 25: the planner's answer from the report, the stronger where two are plausible, each with its ground.

    Re-pinned in issue 25: the idle times with 2 and 4 drives were the 1-drive dump's 230 s, but the report
    states that two or more drives overlap every change (0 s); the load's idle time was the same 230 s, but the
    report's buffering rule, scaled by how slowly the load drains the buffer, gives 0 s; the load's processor
    time was the dump's 79 s (what the model gives by design), but at the dump's processor utilisation over the
    load's elapsed time it is 275 s; the concurrent dump's tapes were the dedicated dump's 7, but in proportion
    to the pages dumped they are 6 whole cartridges.  The tape counts with more drives and SPTAPE's load keep
    persistence, the closer answer there.
    """
    published = load("spxtape", "table1").set_index(["command", "function", "drives"])
    known = workload()
    dump1, dump2, load1 = (published.loc[key] for key in (("SPXTAPE", "DUMP", 1), ("SPXTAPE", "DUMP", 2),
                                                           ("SPXTAPE", "LOAD", 1)))
    hidden_per_change = dump1["overlapped_change_s"] / (dump1["tapes"] - 1) * load1["elapsed_s"] / dump1["elapsed_s"]
    assert hidden_per_change > load1["tape_change_s"] / (load1["tapes"] - 1)  # 70 s > 62 s: nothing left to idle
    expected = {
        ("Table 1", "system_idle_s", "SPXTAPE DUMP 2"): (0.0, "scaling", "two or more drives"),
        ("Table 1", "system_idle_s", "SPXTAPE DUMP 4"): (0.0, "scaling", "two or more drives"),
        ("Table 1", "system_idle_s", "SPXTAPE LOAD 1"): (0.0, "scaling", "buffer"),
        ("Table 1", "tapes", "SPXTAPE DUMP 2"): (dump1["tapes"], "persistence", "1-drive SPXTAPE dump"),
        ("Table 1", "tapes", "SPXTAPE DUMP 4"): (dump1["tapes"], "persistence", "1-drive SPXTAPE dump"),
        ("Table 1", "elapsed_s", "SPTAPE LOAD 1"): (published.loc[("SPTAPE", "DUMP", 1), "elapsed_s"], "persistence",
                                                   "SPTAPE's own dump"),
        ("Table 2", CONCURRENT_TAPES, "with SPXTAPE DUMP"): (
            math.ceil(dump2["tapes"] * known["concurrent_spool_pages"] / known["spool_pages"]), "scaling",
            "in proportion to the pages dumped")}
    predicted = {_index(spec): spec for spec in specs if spec.role == "prediction"}
    assert set(predicted) == set(expected)
    assert {spec.key: spec.baseline for spec in predicted.values()} == baselines()
    for index, spec in predicted.items():
        value, kind, words = expected[index]
        assert spec.baseline.value == pytest.approx(value, rel=1e-12), index
        assert spec.baseline.kind == kind and words in spec.baseline.ground, index
    assert expected[("Table 2", CONCURRENT_TAPES, "with SPXTAPE DUMP")][0] == 6


def test_each_baseline_is_the_closer_of_the_plausible_answers(specs):
    """Where the report supports two naive answers, the declared one is at least as close to the published value."""
    published = load("spxtape", "table1").set_index(["command", "function", "drives"])
    dump1 = published.loc[("SPXTAPE", "DUMP", 1)]
    others = {("Table 1", "system_idle_s", "SPXTAPE DUMP 2"): [dump1["system_idle_s"]],
              ("Table 1", "system_idle_s", "SPXTAPE DUMP 4"): [dump1["system_idle_s"]],
              ("Table 1", "system_idle_s", "SPXTAPE LOAD 1"): [dump1["system_idle_s"]],
              ("Table 1", "tapes", "SPXTAPE DUMP 2"): [dump1["tapes"] + 1],  # n partly filled tapes
              ("Table 1", "tapes", "SPXTAPE DUMP 4"): [dump1["tapes"] + 3],
              ("Table 1", "elapsed_s", "SPTAPE LOAD 1"): [  # SPXTAPE's load-to-dump ratio applied to SPTAPE
                  published.loc[("SPTAPE", "DUMP", 1), "elapsed_s"] * published.loc[("SPXTAPE", "LOAD", 1), "elapsed_s"]
                  / dump1["elapsed_s"]],
              ("Table 2", CONCURRENT_TAPES, "with SPXTAPE DUMP"): [published.loc[("SPXTAPE", "DUMP", 2), "tapes"]]}
    for spec in specs:
        if spec.role == "prediction":
            error = abs(spec.baseline.value - spec.published.value)
            assert all(error <= abs(other - spec.published.value) for other in others[_index(spec)]), spec.key


def test_no_prediction_says_it_holds_by_construction(specs):
    for spec in specs:
        if spec.role == "prediction":
            assert not re.search(HOW, f"{spec.note} {spec.baseline.ground}", flags=re.IGNORECASE), spec.key


def test_one_tolerance_policy(specs):
    """10% relative, or the printed resolution where that demands more (tapes, whole percentages, a 0 s)."""
    for spec in specs:
        _, row, _ = _index(spec)
        if row in ("tapes", CONCURRENT_TAPES, "overlap_pct", "tape_reduction_pct") or spec.published.value == 0:
            assert (spec.tolerance.ground, spec.tolerance.kind, spec.tolerance.value) == ("resolution", "absolute",
                                                                                          1.0), spec.key
        else:
            assert spec.tolerance == DEFAULT, spec.key


def test_every_cell_is_simulated(specs):
    assert not any(isinstance(spec.model, Exact) for spec in specs)


# --- the evaluated comparison ---------------------------------------------------------------------------------

def test_table1_rows_carry_the_reports_row_names():
    compared = study_comparison("spxtape")
    assert set(compared.loc[compared["table"] == "Table 1", "row"]) == set(TABLE1_ROWS.values())
    cell = table1_cell(("SPXTAPE", "DUMP", 2), "system_idle_s")
    assert cell.where == "Table 1 · System Idle Time (sec) · SPXTAPE DUMP 2"


def test_the_table_shows_each_declared_cell_with_its_role(table, specs):
    assert list(zip(table["table"], table["row"], table["column"])) == [_index(spec) for spec in specs]
    assert list(table["role"]) == [spec.role for spec in specs]
    assert table.loc[table["role"] == "calibration", "within_tolerance"].all()
    assert table.loc[table["role"] != "prediction", "baseline"].isna().all()


def test_sptape_cells_follow_from_one_serial_server(table):
    for function in ("DUMP", "LOAD"):
        column = f"SPTAPE {function} 1"
        assert _value(table, "system_idle_s", column) == _value(table, "tape_change_s", column)
        assert _value(table, "overlapped_change_s", column) == _value(table, "overlap_pct", column) == 0.0
        assert _value(table, "elapsed_ratio", column) == _value(table, "rate_ratio", column) == 1.0


def test_change_time_is_the_changes_times_the_stated_minute(table):
    for key in CONFIGURATIONS:
        column = column_name(key)
        changes = _value(table, "tapes", column) - key[2]
        assert _value(table, "tape_change_s", column) == pytest.approx(60.0 * changes)


def test_the_loads_read_the_dumps_tapes_and_pay_for_the_files_they_create(table):
    assert _value(table, "tapes", "SPTAPE LOAD 1") == _value(table, "tapes", "SPTAPE DUMP 1") == 12
    assert _value(table, "tapes", "SPXTAPE LOAD 1") == _value(table, "tapes", "SPXTAPE DUMP 1") == 7
    # the same pages at the dump's processor time per page, plus every file's creation
    assert _value(table, "processor_s", "SPXTAPE LOAD 1") == pytest.approx(902.0)
    assert _value(table, "processor_s", "SPXTAPE DUMP 2") == pytest.approx(79.0)


def test_a_dumps_elapsed_time_is_the_calibrated_reading_time_plus_its_idle_time(table):
    reading = _value(table, "elapsed_s", "SPXTAPE DUMP 4") - _value(table, "system_idle_s", "SPXTAPE DUMP 4")
    for column in ("SPXTAPE DUMP 1", "SPXTAPE DUMP 2"):
        expected = reading + _value(table, "system_idle_s", column)
        slack = sum(_value(table, row, c, "ci_half_width") for row, c in
                    [("elapsed_s", column), ("system_idle_s", column), ("elapsed_s", "SPXTAPE DUMP 4"),
                     ("system_idle_s", "SPXTAPE DUMP 4")])
        assert abs(_value(table, "elapsed_s", column) - expected) <= slack


def test_ratios_are_the_reports_arithmetic_per_replication(table):
    """Every SPTAPE run repeats each seed its SPXTAPE counterparts used, so a ratio pairs every replication."""
    for key in CONFIGURATIONS:
        column, sptape = column_name(key), f"SPTAPE {key[1]} 1"
        ratio = _value(table, "elapsed_s", column) / _value(table, "elapsed_s", sptape)
        assert _value(table, "elapsed_ratio", column) == pytest.approx(ratio, rel=1e-9)  # SPTAPE's time is fixed
        assert _value(table, "elapsed_ratio", column, "replications") == _value(table, "elapsed_s", column,
                                                                                 "replications")


def test_table2_rows_are_the_closed_form_of_the_calibrated_cells(table):
    without = without_dump()
    response = float(table.loc[("Table 2", "AVG LAST (T)", "with SPXTAPE DUMP"), "model"])
    etr = without["etr"] * (without["think_s"] + without["response_s"]) / (without["think_s"] + response)
    assert float(table.loc[("Table 2", "ETR (T)", "with SPXTAPE DUMP"), "model"]) == pytest.approx(etr, rel=1e-4)


def test_scored_and_calibrated_numbers_are_precise_unless_the_cap_says_otherwise(table):
    scored = table[table["role"] != "derived"]
    assert scored["precise"].astype(bool).all(), "every scored or calibrated cell reaches its precision target"
    # issue 25: the load's idle time is decided at 109 replications; the 4-drive dump's (0 s in most replications,
    # tens of seconds in about one in a hundred) at 1,234, under the cap of 2,000 (undecided at the cap of 120)
    for index, cell in scored.iterrows():
        ground = "default" if cell["tolerance_kind"] == "relative" else "resolution"
        allowed = required_half_width(cell["published"], Tolerance(cell["tolerance"], cell["tolerance_kind"], ground,
                                                                   "" if ground == "default" else "printed"),
                                      cell["model"])
        assert cell["ci_half_width"] <= allowed + 1e-12, index
        assert IMPRECISE not in cell["note"], index
    counts = table[table["table"] == "Table 1"].reset_index(drop=True).groupby("column")["replications"].max()
    assert INITIAL <= counts.min() and counts.max() < TABLE1_CAP
    assert counts["SPXTAPE DUMP 4"] > 1_000 and counts["SPXTAPE LOAD 1"] > 100
    assert counts["SPTAPE DUMP 1"] == max(counts[c] for c in ("SPXTAPE DUMP 1", "SPXTAPE DUMP 2", "SPXTAPE DUMP 4"))
    assert counts["SPTAPE LOAD 1"] == counts["SPXTAPE LOAD 1"]


def test_the_verdicts_of_the_predictions(table):
    """Pinned in issue 25 (before: the idle times of the 4-drive dump and of the load undecided at the cap of 40).

    The load's idle time is a decided miss (about 10 s against 0 s, many tolerances off); the 4-drive dump's,
    0.37 ± 0.23 s at 1,234 replications (undecided at the cap of 120: 0.68 ± 1.00 s), a hit.  No tolerance
    changed; the baselines changed no verdict.  Issue 30: the load's processor time (a miss, 79 s against 902 s)
    is a calibration now (the processor time per file created), so it has no verdict.
    """
    verdicts = {("system_idle_s", "SPXTAPE DUMP 2"): "hit", ("tapes", "SPXTAPE DUMP 2"): "hit",
                ("system_idle_s", "SPXTAPE DUMP 4"): "hit", ("tapes", "SPXTAPE DUMP 4"): "hit",
                ("elapsed_s", "SPTAPE LOAD 1"): "miss", ("system_idle_s", "SPXTAPE LOAD 1"): "miss"}
    for (row, column), verdict in verdicts.items():
        assert table.loc[("Table 1", row, column), "verdict"] == verdict, (row, column)
    assert table.loc[("Table 2", CONCURRENT_TAPES, "with SPXTAPE DUMP"), "verdict"] == "hit"
    load_idle = table.loc[("Table 1", "system_idle_s", "SPXTAPE LOAD 1")]
    assert load_idle["model"] - load_idle["ci_half_width"] > load_idle["tolerance"]  # the whole interval misses
    # only the 4-drive dump's tapes and SPTAPE's load beat the planner's answer; the rest tie it or lose to it
    beats = table.loc[table["role"] == "prediction", "beats_baseline"].astype(bool)
    assert set(beats[beats].index) == {("Table 1", "tapes", "SPXTAPE DUMP 4"),
                                       ("Table 1", "elapsed_s", "SPTAPE LOAD 1")}


def test_table2_cells_of_the_published_text():
    assert math.isclose(table2_cell("AVG LAST (T)").value, 1.661)
