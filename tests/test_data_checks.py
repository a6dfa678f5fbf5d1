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
