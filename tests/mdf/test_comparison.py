"""The comparison: every published cell declared once, its role and why, its tolerance and its baseline."""

import math
import re

import pytest

from perfstudies.accuracy import study_comparison
from perfstudies.cells import CellSpec, Derivation, Exact, Simulated, identity_value, refused_derivations
from perfstudies.compare import DEFAULT, PRECISION_FRACTION
from perfstudies.data import load
from perfstudies.models.mdf import STUDY
from perfstudies.models.mdf import calibration
from perfstudies.models.mdf.calibration import channel_ios_per_message, ims_calibrated, tso_calibrated
from perfstudies.models.mdf.comparison import (DEVICE_CAP, DOMAIN_CAP, ETR_PRECISION, cells, experiments, follows_etr,
                                               planner_answers, printed_step, published_cell, published_cells,
                                               tied_cells, tolerance)
from perfstudies.models.mdf.mechanism import windows_of


@pytest.fixture(scope="module")
def table():
    return study_comparison("mdf").set_index(["table", "row", "column"])


@pytest.fixture(scope="module")
def specs():
    return {(spec.published.table, spec.published.row, spec.published.column): spec for spec in cells()}


def test_every_published_cell_is_declared_once(specs):
    assert set(specs) == set(published_cells()) and len(specs) == len(cells()) == 94
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


def test_the_study_record_declares_the_comparison():
    assert STUDY.key == "mdf" and STUDY.cells is cells and STUDY.experiments is experiments
    assert [(e.name, e.cap) for e in experiments()] == [("IMS domain", DOMAIN_CAP), ("TSO domain", DOMAIN_CAP),
                                                         ("devices", DEVICE_CAP)]
    assert callable(experiments()[-1].configurations)      # the devices' load comes from the domains' ETR


# --- roles ---------------------------------------------------------------------------------------------

def _named(specs, kind: str) -> set:
    return {key for key, spec in specs.items() if spec.role == kind}


def test_roles(specs):
    calibrated, derived, predicted = (_named(specs, kind) for kind in ("calibration", "derived", "prediction"))
    assert (len(calibrated), len(derived), len(predicted)) == (26, 35, 33)
    # issue 18: RMF's rule is set on Table 1's IMS AVG IOSQ at 3; the switch overhead on Section 7.0's
    # statement that TSO's ETR falls 2% from parameter 1 to 5, which makes the ETR at 5 follow from the one at 1
    assert ("Table 1", "IMS AVG IOSQ (ms)", "3") in calibrated and ("Table 4", "TSO ETR (tx/s)", "5") in derived
    # predictions: every IOSQ away from BASE, the domains' response times away from parameter 3 (issue 25/29:
    # the stricter of the two cells Little's law ties, in place of the ETR), the four parts of the IMS
    # response, and the one device rate the published ETR ratio does not give
    assert {row for _, row, _ in predicted} == {
        "IMS AVG IOSQ (ms)", "TSO AVG IOSQ (ms)", "IMS-C23 IOSQ (ms)", "IMS-8C2 IOSQ (ms)", "TSO-CC1 IOSQ (ms)",
        "TSO-CC2 IOSQ (ms)", "IMS RESP TIME (s)", "TSO RESPONSE TIME (s)", "TPNS Q (s)", "IMS IN Q (s)",
        "IMS EXEC (s)", "IMS OUT Q (s)", "IMS-8C2 RATE (I/O/s)"}
    assert not any(column == "BASE" for _, _, column in predicted)
    assert not any("ETR" in row for _, row, _ in predicted)
    assert {(row, column) for _, row, column in predicted if "RESP" in row} == {
        ("IMS RESP TIME (s)", "1"), ("IMS RESP TIME (s)", "5"), ("TSO RESPONSE TIME (s)", "1")}


def test_every_derived_cell_follows_from_published_cells(specs):
    """The evaluator's rule: each identity, fed the sources' published values, gives the cell's published value."""
    assert refused_derivations(cells()) == []
    derived = _named(specs, "derived")
    for table, row, column in published_cells():
        if row.endswith("RESP (ms)") and column != "BASE":        # RESP is IOSQ plus a constant from BASE
            assert (table, row, column) in derived
    for row in ("4705 RATE (I/O/s)", "CPU (%)"):                 # proportional to the ETR
        assert {("Table 3", row, c) for c in ("1", "5")} <= derived
    # Little's law: the response at 3 from the calibrated ETR; the ETR at 1 and 5 from the scored response
    assert {("Table 3", "IMS RESP TIME (s)", "3"), ("Table 3", "IMS ETR (tx/s)", "1"),
            ("Table 3", "IMS ETR (tx/s)", "5")} <= derived
    assert {("Table 4", "TSO ETR (tx/s)", "1"), ("Table 4", "TSO ETR (tx/s)", "5"),
            ("Table 4", "TSO RESPONSE TIME (s)", "5")} <= derived


def test_the_cells_the_published_values_refuse_as_derived_are_predictions(specs):
    """Issue 24: the model's 4705 makes TPNS Q and IMS OUT Q equal, the published cells are not (2.78 vs 2.1 s);
    IMS-8C2's rate at 5 is not its parameter-3 rate times the published IMS ETR ratio (29.87 vs 26.85)."""
    queues = [CellSpec(published_cell("Table 3", "TPNS Q (s)", c), "derived", Exact(float),
                       tolerance(published_cell("Table 3", "TPNS Q (s)", c)),
                       derivation=Derivation((published_cell("Table 3", "IMS OUT Q (s)", c).where,),
                                             float, "one FIFO queue both ways"))
              for c in ("1", "3", "5")]
    rate = published_cell("Table 2", "IMS-8C2 RATE (I/O/s)", "5")
    scaled = CellSpec(rate, "derived", Exact(float), tolerance(rate), derivation=Derivation(
        tuple(published_cell(*key).where for key in (("Table 2", "IMS-8C2 RATE (I/O/s)", "3"),
                                                     ("Table 3", "IMS ETR (tx/s)", "5"),
                                                     ("Table 3", "IMS ETR (tx/s)", "3"))), follows_etr, "ETR ratio"))
    others = [spec for key, spec in specs.items() if spec.published.where not in
              {cell.published.where for cell in (*queues, scaled)}]
    assert len(refused_derivations([*others, *queues, scaled])) == 4
    assert {key for key in _named(specs, "prediction") if key[1] in ("TPNS Q (s)", "IMS OUT Q (s)")} == {
        ("Table 3", row, c) for row in ("TPNS Q (s)", "IMS OUT Q (s)") for c in ("1", "3", "5")}
    assert specs[("Table 2", "IMS-8C2 RATE (I/O/s)", "5")].role == "prediction"


def test_calibration_cells_name_the_parameter_they_set(specs):
    """Each calibration cell's ``sets`` resolves to a value: a field of calibrate()'s record, or of a record
    (or the value) a function of the calibration module returns."""
    named = {}
    for key, spec in specs.items():
        if spec.role != "calibration":
            continue
        found = re.fullmatch(r'(\w+)\((?:"(.+)")?\)(?:\.(\w+))?', spec.sets)
        if found:
            function, argument, field = found.groups()
            value = getattr(calibration, function)(*([argument] if argument else []))
            value = getattr(value, field) if field else value
        else:
            value = getattr(calibration.calibrate(), spec.sets, None)
            if value is None:
                value = getattr(calibration, spec.sets)()
        named[key] = spec.sets
        assert value is not None, spec.sets
    assert named[("Table 1", "IMS AVG IOSQ (ms)", "3")] == "rmf_rule"
    assert named[("Table 3", "IMS ETR (tx/s)", "3")] == "ims_calibrated().frontend_ms"
    assert len(set(named.values())) == len(named) == 26          # one parameter per cell, none set twice


def test_derived_cells_do_follow_from_the_model(table):
    model = table["model"]
    for name, base_resp, base_iosq in (("IMS-C23", 31, 15), ("TSO-CC1", 29, 9)):
        for column in ("1", "3", "5"):
            gap = model[("Table 2", f"{name} RESP (ms)", column)] - model[("Table 2", f"{name} IOSQ (ms)", column)]
            assert gap == pytest.approx(base_resp - base_iosq)
    ims, tso = ims_calibrated(), tso_calibrated()
    for column in ("1", "3", "5"):
        etr = model[("Table 3", "IMS ETR (tx/s)", column)]
        windows = windows_of(ims.replace(scheduling_parameter=int(column)), "IMS")
        assert model[("Table 3", "CPU (%)", column)] == pytest.approx(
            100 * etr * ims.cpu_ms / 1000 / (ims.processors * windows.fraction))
        # Little's law on the closed loop: a terminal's cycle N / X is its think time plus the response
        # (up to the edges of a finite run: 1% of the cycle is 5 to 10% of the response)
        assert ims.think_s + model[("Table 3", "IMS RESP TIME (s)", column)] == pytest.approx(
            ims.terminals / etr, rel=0.01)
        assert model[("Table 3", "4705 RATE (I/O/s)", column)] == pytest.approx(
            2 * channel_ios_per_message() * etr, rel=0.01)
        tso_etr = model[("Table 4", "TSO ETR (tx/s)", column)]
        assert tso.think_s + model[("Table 4", "TSO RESPONSE TIME (s)", column)] == pytest.approx(
            tso.users / tso_etr, rel=0.01)
    ratio = model[("Table 2", "IMS-C23 RATE (I/O/s)", "1")] / model[("Table 2", "IMS-C23 RATE (I/O/s)", "3")]
    assert ratio == pytest.approx(model[("Table 3", "IMS ETR (tx/s)", "1")] / model[("Table 3", "IMS ETR (tx/s)", "3")],
                                  rel=0.01)


def test_the_models_4705_queues_are_nearly_equal_where_the_published_ones_are_not(table):
    """The model's 4705 serves messages both ways in one FIFO queue; the document's TPNS Q exceeds IMS OUT Q."""
    for column in ("1", "3", "5"):
        tpns, out = (table.loc[("Table 3", row, column)] for row in ("TPNS Q (s)", "IMS OUT Q (s)"))
        assert tpns["model"] == pytest.approx(out["model"], rel=0.03, abs=0.005)
        assert tpns["published"] > out["published"]


# --- baselines, tolerances and precision ------------------------------------------------------------

#: Every prediction's baseline: (value, the planner's answer it is). Issue 25: the closest to the published value
#: of the planner's answers from the row's other measured columns; never the cell itself.
BASELINES = {
    ("Table 1", "IMS AVG IOSQ (ms)", "1"): (6.54, "parameter 3"), ("Table 1", "IMS AVG IOSQ (ms)", "5"): (5.63, "BASE"),
    ("Table 1", "TSO AVG IOSQ (ms)", "1"): (3.83, "parameter 3"),
    ("Table 1", "TSO AVG IOSQ (ms)", "3"): (3.705, "linear"),
    ("Table 1", "TSO AVG IOSQ (ms)", "5"): (3.41, "BASE"),
    ("Table 2", "IMS-C23 IOSQ (ms)", "1"): (26, "parameter 3"),
    ("Table 2", "IMS-C23 IOSQ (ms)", "3"): (29, "parameter 1"),
    ("Table 2", "IMS-C23 IOSQ (ms)", "5"): (15, "BASE"),
    ("Table 2", "IMS-8C2 IOSQ (ms)", "1"): (32, "parameter 3"),
    ("Table 2", "IMS-8C2 IOSQ (ms)", "3"): (34, "parameter 1"),
    ("Table 2", "IMS-8C2 IOSQ (ms)", "5"): (23, "BASE"),
    ("Table 2", "TSO-CC1 IOSQ (ms)", "1"): (9, "BASE"), ("Table 2", "TSO-CC1 IOSQ (ms)", "3"): (6, "parameter 5"),
    ("Table 2", "TSO-CC1 IOSQ (ms)", "5"): (7, "parameter 3"),
    ("Table 2", "TSO-CC2 IOSQ (ms)", "1"): (9, "parameter 3"), ("Table 2", "TSO-CC2 IOSQ (ms)", "3"): (9.5, "linear"),
    ("Table 2", "TSO-CC2 IOSQ (ms)", "5"): (8, "BASE"),
    # IMS-8C2 at 5: parameter 3's 27.84 is closer to the published 26.85 than BASE's 32.47 (and than the
    # published ETR ratio's 29.87): the stronger naive answer
    ("Table 2", "IMS-8C2 RATE (I/O/s)", "5"): (27.84, "parameter 3"),
    ("Table 3", "IMS RESP TIME (s)", "1"): (3.08, "parameter 3"),
    ("Table 3", "IMS RESP TIME (s)", "5"): (3.08, "parameter 3"),
    ("Table 3", "TPNS Q (s)", "1"): (1.43, "parameter 3"), ("Table 3", "TPNS Q (s)", "3"): (1.425, "linear"),
    ("Table 3", "TPNS Q (s)", "5"): (1.43, "parameter 3"),
    ("Table 3", "IMS IN Q (s)", "1"): (0.2, "parameter 3"), ("Table 3", "IMS IN Q (s)", "3"): (0.2, "parameter 1"),
    ("Table 3", "IMS IN Q (s)", "5"): (0.2, "parameter 3"),
    ("Table 3", "IMS EXEC (s)", "1"): (0.6, "parameter 3"), ("Table 3", "IMS EXEC (s)", "3"): (0.6, "parameter 1"),
    ("Table 3", "IMS EXEC (s)", "5"): (0.6, "parameter 3"),
    ("Table 3", "IMS OUT Q (s)", "1"): (0.7, "parameter 3"), ("Table 3", "IMS OUT Q (s)", "3"): (1.05, "linear"),
    ("Table 3", "IMS OUT Q (s)", "5"): (0.7, "parameter 3"),
    ("Table 4", "TSO RESPONSE TIME (s)", "1"): (3.23, "parameter 3"),
}
#: How each answer's ground begins.
GROUND = {"BASE": "the BASE column", "parameter 1": "the parameter-1 column", "parameter 3": "the parameter-3 column",
          "parameter 5": "the parameter-5 column", "linear": "linear in the time slice between the measured parameters"}


def test_every_baseline_is_the_planners_closest_answer_from_other_columns(specs, table):
    predicted = {key: spec for key, spec in specs.items() if spec.role == "prediction"}
    assert set(predicted) == set(BASELINES)
    for key, spec in predicted.items():
        value, answer = BASELINES[key]
        answers = planner_answers(*key)
        assert spec.baseline.value == pytest.approx(value) and spec.baseline.ground.startswith(GROUND[answer]), key
        assert spec.baseline.kind == ("scaling" if answer == "linear" else "persistence")
        # the closest of the planner's answers, and never the cell's own column
        assert min(abs(a.value - spec.published.value) for a in answers.values()) == pytest.approx(
            abs(value - spec.published.value))
        assert f"parameter-{key[2]} column" not in spec.baseline.ground.split(" (")[0]
    predicted = table[table["role"] == "prediction"]
    assert predicted["baseline"].map(math.isfinite).all()
    assert predicted["baseline_ground"].str.match(r"(?:persistence|scaling): ").all()
    # where another column equals the published value (flat from parameter 1 to 3) the model cannot beat it,
    # and the ground says so; the cell stays scored because the model can still miss it
    exact = predicted[predicted["baseline"] == predicted["published"]]
    assert {(row, column) for _, row, column in exact.index} == {
        ("IMS IN Q (s)", "1"), ("IMS IN Q (s)", "3"), ("IMS EXEC (s)", "1"), ("IMS EXEC (s)", "3")}
    assert exact["weak_evidence"].all() and not exact["beats_baseline"].any()
    assert exact["baseline_ground"].str.contains("never beat it").all()


def test_of_two_tied_cells_the_one_the_model_misses_by_more_is_scored(specs, table):
    """Issue 29, point 4: where an identity ties published cells, the one with the larger relative error in the
    model is scored and the others are derived from it.

    A tie is an identity the published values satisfy to a quarter of the tied cell's tolerance (the precision
    the verdict rule resolves; Little's law and the 2% fall hold to 0.3% or better, RMF's transfer time to
    2-4%).  Three device rates follow the TSO ETR only to 2.8-5.3% in the published values themselves: their
    model error is that residual (the model reproduces the identity), so they are derived, not tied, and
    the TSO response stays the scored cell (issue 25 note)."""
    by_key = {spec.key: spec for spec in specs.values()}
    ties = tied_cells()
    assert len(ties) == 12
    loose = set()
    for scored, others in ties.items():
        assert specs[scored].role == "prediction" and all(specs[other].role == "derived" for other in others)
        error = abs(table.loc[scored, "rel_error"])
        for other in others:
            cell = specs[other]
            residual = identity_value(cell, by_key) - cell.published.value
            if abs(residual) > PRECISION_FRACTION * cell.tolerance.allowed_error(cell.published.value):
                loose.add(other)
                continue
            assert error >= abs(table.loc[other, "rel_error"]), (scored, other)
    assert {(row, column) for _, row, column in loose} == {
        ("4705 RATE (I/O/s)", "1"), ("4705 RATE (I/O/s)", "5"), ("TSO-CC1 RATE (I/O/s)", "5"),
        ("TSO-CC2 RATE (I/O/s)", "1"), ("TSO-CC2 RATE (I/O/s)", "5"), ("IMS-C23 RESP (ms)", "5"),
        ("TSO-CC1 RESP (ms)", "3")}
    for _, row, column in loose:     # where a loose one's error exceeds the scored cell's, it is the residual
        key = ("Table 2", row, column)
        if row.startswith("TSO-CC") and "RATE" in row:
            cell = specs[key]
            residual = (identity_value(cell, by_key) - cell.published.value) / cell.published.value
            assert table.loc[key, "rel_error"] == pytest.approx(residual, abs=0.006)


def test_one_tolerance_policy_wider_only_by_the_printed_step(specs):
    assert all(spec.tolerance == tolerance(spec.published) for spec in specs.values())
    widened = {key: tolerance(cell) for key, cell in published_cells().items() if tolerance(cell) != DEFAULT}
    assert all(t.ground == "resolution" and t.kind == "absolute" for t in widened.values())
    assert all(t.value == printed_step(published_cells()[key]) > 0.1 * published_cells()[key].value
               for key, t in widened.items())
    assert sorted({key[1] for key in widened}) == ["IMS EXEC (s)", "IMS IN Q (s)", "IMS OUT Q (s)", "TPNS Q (s)",
                                                   "TSO-CC1 IOSQ (ms)", "TSO-CC2 IOSQ (ms)"]
    assert widened[("Table 3", "IMS OUT Q (s)", "5")].reason.startswith("a published zero")
    assert widened[("Table 3", "TPNS Q (s)", "5")].value == 0.01


def test_each_domains_etr_is_held_to_the_precision_the_devices_load_needs(specs, table):
    etr = {key: spec for key, spec in specs.items() if "ETR" in key[1]}
    assert len(etr) == 6 and all(isinstance(spec.model, Simulated) for spec in etr.values())
    for key, spec in etr.items():
        assert spec.precision.half_width == pytest.approx(ETR_PRECISION * spec.published.value)
        assert table.loc[key, "ci_half_width"] <= spec.precision.half_width
    assert [spec.precision for spec in specs.values() if "ETR" not in spec.published.row] == [None] * 88
    assert {spec.role for spec in etr.values()} == {"calibration", "derived"}


def test_every_prediction_is_precise(table):
    predicted = table[table["role"] == "prediction"]
    assert predicted["precise"].all()
    assert not table["note"].str.contains("IMPRECISE").any()
    assert (predicted["replications"] >= 5).all()


def test_predicted_iosq_falls_from_parameter_1_to_5_for_both_domains(table):
    for domain in ("IMS", "TSO"):
        iosq = [table.loc[("Table 1", f"{domain} AVG IOSQ (ms)", p), "model"] for p in ("1", "3", "5")]
        assert iosq[0] > iosq[1] > iosq[2]
