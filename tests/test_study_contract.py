"""Every registered study, and the toy M/M/1 study, is a declaration on the one core contract.

These checks read the declarations only (no simulation): the record, the
cells and what each role must declare, the derived-cell rule on published
values, and that no study carries its own evaluation or replication loop.
"""

import ast
import dataclasses
import inspect
import sys

import pytest

from perfstudies.cells import CellSpec, Exact, Simulated, refused_derivations
from perfstudies.panel import Panel
from perfstudies.paths import ROOT
from perfstudies.studies import STUDIES, study, study_module
from perfstudies.study import Study
from toy import mm1

RECORDS = {key: (lambda key=key: study(key)) for key in STUDIES} | {"toy mm1": lambda: mm1.STUDY}
#: Core names that would mean a study evaluates, replicates or builds its table itself.
OWN_LOOPS = {"replicate_until", "sweep_until", "run_sweep", "replicate", "comparison_table", "Cell",
             "required_half_width", "imprecise_note"}


@pytest.fixture(params=list(RECORDS), scope="module")
def record(request) -> Study:
    return RECORDS[request.param]()


@pytest.fixture(scope="module")
def specs(record) -> list[CellSpec]:
    return record.cells()


def test_the_record_is_a_study_named_by_its_key(record):
    assert isinstance(record, Study)
    if record.key in STUDIES:
        assert record is study(record.key)


@pytest.mark.parametrize("key", [*STUDIES, "toy mm1"])
def test_the_live_panel_is_declared_once_and_widget_run_runs_it(key):
    """Every study exports PANEL, a Panel whose default is its record, and widget_run is run_panel of it
    (spxtape's also carries the first replication's trace); the record holds the same panel."""
    module = mm1 if key == "toy mm1" else study_module(key)
    panel = module.PANEL
    assert isinstance(panel, Panel) and panel.main in panel.controls
    assert isinstance(panel.defaults(), panel.params)
    source = inspect.getsource(module.widget_run)
    assert "run_panel(PANEL" in source or "run_traced(PANEL" in source, f"{key}.widget_run runs its PANEL"
    if isinstance(getattr(module, "STUDY", None), Study):
        assert module.STUDY.panel is panel


def test_every_derived_cell_follows_from_published_cells(specs):
    assert refused_derivations(specs) == []


def test_every_calibration_cell_sets_a_named_parameter(record, specs):
    """What a calibration cell sets ends in a declared name: a field of one of the study's parameter records,
    or a field of a record, or a function, of its calibration module (``device("IMS-C23").base_rate``)."""
    def declared(module) -> set[str]:
        names = set()
        for value in vars(module).values():
            if dataclasses.is_dataclass(value) and isinstance(value, type) and value.__module__ == module.__name__:
                names |= {field.name for field in dataclasses.fields(value)}
            elif callable(value) and getattr(value, "__module__", None) == module.__name__:
                names.add(value.__name__)
        return names

    known = declared(sys.modules[record.params.__module__]) | declared(sys.modules[record.calibrate.__module__])
    unknown = [(spec.key, spec.sets) for spec in specs if spec.role == "calibration"
               and spec.sets.rsplit(".", 1)[-1] not in known]
    assert not unknown, f"calibration cells set names the study does not declare: {unknown}"


def test_every_prediction_declares_a_baseline_with_its_ground(specs):
    predicted = [spec for spec in specs if spec.role == "prediction"]
    assert predicted, "a study predicts some cells"
    assert all(spec.baseline.ground.strip() for spec in predicted)


def test_every_simulated_cell_names_a_declared_experiment(record, specs):
    names = {experiment.name for experiment in record.experiments()}
    named = {spec.model.experiment for spec in specs if isinstance(spec.model, Simulated)}
    assert named <= names
    assert all(isinstance(spec.model, (Simulated, Exact)) for spec in specs)


@pytest.mark.parametrize("key", list(STUDIES))
def test_no_study_evaluates_or_replicates_its_comparison_itself(key):
    """The comparison module declares; the one evaluator evaluates."""
    tree = ast.parse((ROOT / "lib" / "perfstudies" / "models" / key / "comparison.py").read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert not imported & OWN_LOOPS, f"{key}/comparison.py imports {sorted(imported & OWN_LOOPS)}"


def test_declared_facts_are_named_fact_records():
    """A study's facts() (the toy's here: it runs nothing) passes the core's check, keyed ``<key>-<name>``."""
    from perfstudies.facts import checked_facts
    assert list(checked_facts(mm1.KEY, mm1.STUDY.facts())) == ["mm1-heavy-closed-form-s"]


def test_calibrate_returns_the_studys_own_parameter_record(record):
    """Issue 24: ``calibrate()`` returns the record class of ``Study.params`` (declared by its annotation, which
    the studies' calibration tests check against the value), not a calibration class of its own."""
    returned = inspect.signature(record.calibrate).return_annotation
    assert returned is record.params or returned == record.params.__name__, \
        f"{record.key}.calibrate() is declared to return {returned!r}, not {record.params.__name__}"
