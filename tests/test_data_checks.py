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


def test_a_table_read_again_is_a_fresh_copy_and_a_changed_file_is_checked_again(study):
    first = load("demo", "demo")
    first.loc[0, "seconds"] = 99.0  # a caller's edit never reaches the next caller
    assert load("demo", "demo")["seconds"].tolist() == [1.5, 2.0]
    (study / "demo.csv").write_text("run,seconds\na,1.5\nb,7\n")  # same size, manifest not refreshed
    with pytest.raises(ValueError, match="does not match its manifest: .*sha256"):
        load("demo", "demo")
    data.refresh(study / "demo.csv")
    assert load("demo", "demo")["seconds"].tolist() == [1.5, 7.0]


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


# --- hardening, second round (issue 27) -----------------------------------------------------------------------

import signal
import time


def _alarm(signum, frame):
    raise TimeoutError("the manifest was still being parsed after 10 s")


BOMB = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def test_a_yaml_alias_bomb_is_refused_at_once(table):
    """Issue 27: a 1 KB manifest whose rows: was an alias bomb kept load busy for over a minute."""
    table.with_name("demo.csv.yml").write_text(MANIFEST.replace("rows: 2", "rows: *i\n" + BOMB))
    start = time.monotonic()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(10)
    try:
        found = data.problems(table)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert time.monotonic() - start < 2
    assert len(found) == 1 and "found the alias" in found[0] and len(found[0]) < 1000


def test_a_plain_alias_is_refused_too(table):
    table.with_name("demo.csv.yml").write_text(MANIFEST.replace("layout: read as printed",
                                                                "layout: &x read as printed\nnote: *x"))
    with pytest.raises(ValueError, match=r"demo\.csv\.yml is not valid YAML: .*aliases are not allowed"):
        data.read_manifest(table)


def test_an_oversized_manifest_or_csv_is_refused_before_parsing(table, monkeypatch):
    table.with_name("demo.csv.yml").write_text(MANIFEST + "#" * data.MAX_MANIFEST_BYTES)
    with pytest.raises(ValueError, match=r"demo\.csv\.yml is .* bytes: allowed a manifest of at most 64,000 bytes"):
        data.read_manifest(table)
    table.with_name("demo.csv.yml").write_text(MANIFEST)
    data.refresh(table)
    monkeypatch.setattr(data, "MAX_CSV_BYTES", 10)
    assert any("allowed a CSV file of at most 10 bytes" in problem for problem in data.problems(table))


def test_a_long_name_is_refused_by_name():
    """Issue 27: ``data.load("vts", "a" * 252)`` raised ``OSError: File name too long``."""
    with pytest.raises(ValueError, match=r"^name = .aaaa.*\(252 characters\) is not allowed: allowed a name of 1 to 100"):
        data.load("vts", "a" * 252)
    with pytest.raises(ValueError, match=r"^study = .* is not allowed"):
        data.load("v" * 300, "table1")


def test_a_study_folder_that_leads_out_of_data_is_refused(tmp_path, monkeypatch):
    """Issue 27: a study folder that is a symlink to outside ``data/`` loaded."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "demo.csv").write_text("run,seconds\na,1.5\nb,2\n")
    (outside / "demo.csv.yml").write_text(MANIFEST)
    data.refresh(outside / "demo.csv")
    root = tmp_path / "data"
    root.mkdir()
    (root / "evil").symlink_to(outside, target_is_directory=True)
    monkeypatch.setattr(data, "DATA", root)
    with pytest.raises(ValueError, match=r"^study = 'evil' is not allowed: .*outside .*allowed a study folder inside"):
        data.load("evil", "demo")
    (root / "real").mkdir()
    for name in ("demo.csv", "demo.csv.yml"):
        (root / "real" / name).write_bytes((outside / name).read_bytes())
    assert data.load("real", "demo")["seconds"].tolist() == [1.5, 2.0]


@pytest.mark.parametrize(("content", "column", "expected"), [
    ("run,seconds\na,inf\nb,2\n", "{dtype: float, unit: s, description: t}", "not finite (first 'inf')"),
    ("run,seconds\na,nan\nb,2\n", "{dtype: float, unit: s, description: t}", "not finite (first 'nan')"),
    ("run,seconds\na,-1\nb,2\n", "{dtype: float, unit: s, description: t, min: 0}", "beyond its min = 0 (first '-1')"),
    ("run,seconds\na,1\nb,20\n", "{dtype: float, unit: s, description: t, max: 10}", "beyond its max = 10 (first '20')"),
    ("run,seconds\na,1\nb,2\n", "{dtype: float, unit: s, description: t, min: .nan}", "min = nan is not allowed"),
    ("run,seconds\na,1\nb,2\n", "{dtype: float, unit: s, description: t, finite: 1}", "finite = 1 is not allowed"),
    ("run,seconds\na,1\nb,2\n", "{dtype: string, unit: s, description: t, min: 0}", "allowed on int and float"),
])
def test_column_ranges_are_enforced(table, content, column, expected):
    table.write_text(content)
    table.with_name("demo.csv.yml").write_text(MANIFEST.replace("{dtype: float, unit: s, description: elapsed time}",
                                                                column))
    data.refresh(table)
    found = data.problems(table)
    assert len(found) == 1 and expected in found[0], found


@pytest.mark.parametrize(("content", "column"), [
    ("run,seconds\na,inf\nb,2\n", "{dtype: float, unit: s, description: t, finite: false}"),
    ("run,seconds\na,0\nb,10\n", "{dtype: float, unit: s, description: t, min: 0, max: 10}"),
    ("run,seconds\na,\nb,10\n", "{dtype: float, unit: s, description: t, min: 0, nullable: true}"),
])
def test_values_within_their_stated_range_pass(table, content, column):
    table.write_text(content)
    table.with_name("demo.csv.yml").write_text(MANIFEST.replace("{dtype: float, unit: s, description: elapsed time}",
                                                                column))
    data.refresh(table)
    assert data.problems(table) == []
