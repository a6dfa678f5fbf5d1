"""The manifest checker itself catches each kind of mismatch."""

import pandas as pd
import pytest

from perfstudies import data

MANIFEST = """\
title: demo
source: {document: A Report, section: Results, table: Table 1}
layout: read as printed
columns:
  run: {dtype: string, unit: "", description: run name}
  seconds: {dtype: float, unit: s, description: elapsed time}
rows: 2
sha256: 0
read_by: [pyproject.toml]
"""


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "demo.csv"
    path.write_text("run,seconds\na,1.5\nb,2\n")
    (tmp_path / "demo.csv.yml").write_text(MANIFEST)
    data.refresh(path)
    return path


def test_refreshed_manifest_matches(table):
    assert data.problems(table) == []


@pytest.mark.parametrize(("content", "expected"), [
    ("run,seconds\na,1.5\nb,2\nc,3\n", "rows"),
    ("run,secs\na,1.5\nb,2\n", "columns"),
    ("run,seconds\na,fast\nb,2\n", "does not parse as float"),
    ("run,seconds\na,\nb,2\n", "not nullable"),
])
def test_mismatches_are_reported(table, content, expected):
    table.write_text(content)
    found = data.problems(table)
    assert any("sha256" in problem for problem in found)
    assert any(expected in problem for problem in found)


def test_missing_manifest(tmp_path):
    path = tmp_path / "lonely.csv"
    path.write_text("a\n1\n")
    assert "no manifest" in data.problems(path)[0]


# --- hardening: every failure names the file; check sees missing files; load stays in its study -----------------

from perfstudies.data import load


@pytest.fixture
def study(tmp_path, monkeypatch, table):
    """A data/ folder with one study ``demo`` holding the fixture's table."""
    root = tmp_path / "repo"
    folder = root / "data" / "demo"
    folder.mkdir(parents=True)
    for path in (table, table.with_name("demo.csv.yml")):
        (folder / path.name).write_text(path.read_text().replace("read_by: [pyproject.toml]", "read_by: []"))
    monkeypatch.setattr(data, "DATA", root / "data")
    monkeypatch.setattr(data, "ROOT", root)
    return folder


def test_the_fixture_study_loads(study):
    assert load("demo", "demo")["seconds"].tolist() == [1.5, 2.0]


@pytest.mark.parametrize(("csv", "manifest", "names", "expected"), [
    ("", None, "demo.csv", "is empty: allowed a CSV file with a header line"),
    (None, "", "demo.csv.yml", "is empty: allowed a YAML mapping"),
    (None, "title: [unclosed\n", "demo.csv.yml", "is not valid YAML"),
    (None, "- a list\n", "demo.csv.yml", "is a list, not a mapping"),
    (None, "title: t\nsource: 3\nlayout: l\ncolumns: {}\nrows: 2\nsha256: x\nread_by: []\n", "demo.csv",
     "manifest source = 3 is not a mapping"),
])
def test_every_data_failure_names_the_file(study, csv, manifest, names, expected):
    if csv is not None:
        (study / "demo.csv").write_text(csv)
    if manifest is not None:
        (study / "demo.csv.yml").write_text(manifest)
    with pytest.raises(ValueError) as raised:
        load("demo", "demo")
    message = str(raised.value)
    assert str(study / names) in message and expected in message


def test_check_notices_a_data_file_its_manifest_names_but_is_missing(study, capsys):
    assert data.main(["check"]) == 0
    (study / "demo.csv").unlink()
    assert data.main(["check"]) == 1
    assert "data/demo/demo.csv: data file demo.csv does not exist" in capsys.readouterr().out


@pytest.mark.parametrize(("study_name", "name", "argument"), [
    ("vts", "../spxtape/table1", "name"), ("vts", "/etc/passwd", "name"), ("../data/vts", "table1", "study"),
    ("vts", "..", "name"), ("vts", 3, "name"), (None, "table1", "study"), ("nope", "table1", "study"),
    ("vts", "table1", "name"),
])
def test_load_refuses_names_outside_the_studys_folder(study_name, name, argument):
    with pytest.raises(ValueError, match=rf"^{argument} = .* allowed"):
        load(study_name, name)
