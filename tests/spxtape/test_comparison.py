"""The study's comparison: every published cell, its role, tolerance and baseline."""

import math

import pandas as pd
import pytest

from perfstudies.accuracy import study_comparison
from perfstudies.data import load
from perfstudies.models.spxtape.calibration import TABLE1_CALIBRATION, TABLE2_CALIBRATION
from perfstudies.models.spxtape.comparison import TABLE2_ROWS


@pytest.fixture(scope="module")
def table():
    return study_comparison("spxtape")


def test_comparison_has_every_published_table1_cell(table):
    published = load("spxtape", "table1")
    compared = set(zip(table["row"], table["column"]))
    for _, row in published.iterrows():
        column = f"{row['command']} {row['function']} {row['drives']}"
        for name in published.columns[4:]:
            if not pd.isna(row[name]):
                assert (name, column) in compared, (name, column)
    assert (table["role"] == "calibration").sum() == len(TABLE1_CALIBRATION) + len(TABLE2_CALIBRATION)


def test_comparison_has_the_table2_headline_rows(table):
    rows = set(table[table["table"] == "Table 2"]["row"])
    assert set(TABLE2_ROWS) | {"tapes required (text)"} == rows


def test_calibrated_cells_hit_their_targets(table):
    calibrated = table[table["role"] == "calibration"]
    assert calibrated["within_tolerance"].all(), calibrated
    assert table["model"].map(math.isfinite).all()
