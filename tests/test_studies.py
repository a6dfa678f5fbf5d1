"""Every registered study keeps the contract the book and the benchmark rely on.

A study is a model module, a data folder and a chapter; the registry, the
table of contents and the Accuracy scoreboard must all agree on the set of
studies, and every study's comparison table must be the standard one.
"""

import math

import pytest
import yaml

from perfstudies.accuracy import collect, markdown_board, readme_board, study_comparison
from perfstudies.compare import COLUMNS, IMPRECISE, TEN_PERCENT
from perfstudies.paths import DATA, ROOT
from perfstudies.studies import STUDIES, study_module

KEYS = list(STUDIES)
#: Words in a cell's note that say it follows without the model's mechanism.
BY_CONSTRUCTION = r"by definition|by construction|identically|reciprocal of|copy of"


def _toc_files() -> list[str]:
    toc = yaml.safe_load((ROOT / "book" / "_toc.yml").read_text())
    parts = toc.get("parts", [{"chapters": toc.get("chapters", [])}])
    return [entry["file"] for part in parts for entry in part["chapters"]]


def test_registry_notebooks_and_toc_agree():
    notebooks = sorted(path.stem for path in (ROOT / "notebooks").glob("*.md"))
    assert sorted(KEYS) == notebooks, "every notebook is a registered study and vice versa"
    chapters = [name.removeprefix("notebooks/") for name in _toc_files() if name.startswith("notebooks/")]
    assert chapters == KEYS, "the table of contents lists the chapters in registry order"


def test_unknown_study_is_refused_by_name():
    with pytest.raises(ValueError, match="study = 'nope' is not registered"):
        study_module("nope")


@pytest.mark.parametrize("key", KEYS)
def test_study_module_provides_the_protocol(key):
    module = study_module(key)
    assert module.STUDY.key == key and module.STUDY.document == module.DOCUMENT
    assert isinstance(module.DOCUMENT, str) and module.DOCUMENT.strip()
    assert callable(module.comparison) and callable(module.widget_run)
    assert sorted(p.suffix for p in (DATA / key).glob("*.csv")), f"data/{key}/ has no published table"


@pytest.mark.parametrize("key", KEYS)
def test_comparison_is_the_standard_table_with_its_roles(key):
    """The standard table; every calibration cell names the parameter it sets and took.

    How many cells a study predicts per calibrated parameter is a finding the
    scoreboard shows (a model may honestly predict fewer cells than it
    calibrates on), not a rule a test may push roles towards.
    """
    table = study_comparison(key)
    assert list(table.columns) == COLUMNS
    assert set(table["study"]) == {key}
    assert set(table["document"]) == {study_module(key).DOCUMENT}
    assert {"calibration", "prediction"} <= set(table["role"]), "a study calibrates some cells and predicts others"
    assert table["model"].map(math.isfinite).all(), "every compared cell has a finite model value"
    calibrated = table[table["role"] == "calibration"]
    named = calibrated["note"].str.contains(r"\bsets\b", case=False)
    assert named.all(), f"every calibration cell names the parameter it sets:\n{calibrated[~named]}"
    assert calibrated["within_tolerance"].all(), f"calibration did not take:\n{calibrated}"


@pytest.mark.parametrize("key", KEYS)
def test_every_prediction_has_a_baseline_and_says_when_it_is_imprecise(key):
    predicted = study_comparison(key).query("role == 'prediction'")
    assert predicted["baseline"].map(math.isfinite).all(), "every predicted cell has a no-change baseline"
    grounded = predicted["baseline_ground"].str.match(r"(persistence|scaling): \S")
    assert grounded.all(), f"every baseline states its ground:\n{predicted.loc[~grounded, ['key', 'baseline']]}"
    imprecise = predicted[~predicted["precise"].astype(bool)]
    unreported = imprecise[~imprecise["note"].str.contains(IMPRECISE, regex=False)]
    assert unreported.empty, ("CI half-width above a quarter of the tolerance, not reported in the note "
                              f"(compare.imprecise_note):\n{unreported[['row', 'column']]}")


@pytest.mark.parametrize("key", KEYS)
def test_no_prediction_holds_by_construction(key):
    table = study_comparison(key)
    by_construction = table["note"].str.contains(BY_CONSTRUCTION, case=False, regex=True)
    wrong = table[by_construction & (table["role"] == "prediction")]
    assert wrong.empty, f"cells whose note says they hold by construction are labelled prediction:\n{wrong}"
    derived = table[table["role"] == "derived"]
    assert derived["note"].str.strip().astype(bool).all(), "every derived cell says how it follows"


@pytest.mark.parametrize("key", KEYS)
def test_wider_tolerances_carry_their_ground(key):
    table = study_comparison(key)
    default = (table["tolerance"] == TEN_PERCENT) & (table["tolerance_kind"] == "relative")
    assert table.loc[~default, "tolerance_reason"].str.strip().astype(bool).all()


def test_scoreboard_gathers_every_study():
    table = collect()
    assert list(table["study"].unique()) == KEYS


def test_readme_shows_the_scoreboard_make_accuracy_prints():
    shown = readme_board((ROOT / "README.md").read_text())
    assert shown == markdown_board(collect()), "README's scoreboard drifted: run python -m perfstudies.accuracy --readme"
