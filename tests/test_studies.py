"""Every registered study keeps the contract the book and the benchmark rely on.

A study is a model module, a data folder and a chapter; the registry, the
table of contents and the Accuracy scoreboard must all agree on the set of
studies, and every study's comparison table must be the standard one.
"""

import math

import pytest
import yaml

from perfstudies.accuracy import collect, study_comparison
from perfstudies.compare import COLUMNS
from perfstudies.paths import DATA, ROOT
from perfstudies.studies import STUDIES, study_module

KEYS = list(STUDIES)


def _toc_files() -> list[str]:
    toc = yaml.safe_load((ROOT / "book" / "_toc.yml").read_text())
    return [entry["file"] for entry in toc.get("chapters", [])]


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
    assert module.STUDY == key
    assert isinstance(module.DOCUMENT, str) and module.DOCUMENT.strip()
    assert callable(module.comparison) and callable(module.widget_run)
    assert sorted(p.suffix for p in (DATA / key).glob("*.csv")), f"data/{key}/ has no published table"


@pytest.mark.parametrize("key", KEYS)
def test_comparison_is_the_standard_table_with_calibrations_and_predictions(key):
    table = study_comparison(key)
    assert list(table.columns) == COLUMNS
    assert set(table["study"]) == {key}
    assert set(table["document"]) == {study_module(key).DOCUMENT}
    assert {"calibration", "prediction"} <= set(table["role"]), "a study calibrates some cells and predicts others"
    assert (table["role"] == "prediction").sum() >= (table["role"] == "calibration").sum()
    assert table["model"].map(math.isfinite).all(), "every compared cell has a finite model value"
    calibrated = table[table["role"] == "calibration"]
    assert calibrated["within_tolerance"].all(), f"calibration did not take:\n{calibrated}"
    assert not table.duplicated(["table", "row", "column"]).any(), "each published cell is compared once"


def test_scoreboard_gathers_every_study():
    table = collect()
    assert list(table["study"].unique()) == KEYS
