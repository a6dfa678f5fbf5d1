"""Every published table under data/ matches its manifest."""

import pytest

from perfstudies.data import all_data_files, problems
from perfstudies.paths import ROOT

FILES = all_data_files()


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_data_file_matches_manifest(path):
    assert problems(path) == []


def test_every_study_with_data_has_manifests_only_beside_csv_files():
    manifests = sorted((ROOT / "data").rglob("*.yml"))
    orphans = [m for m in manifests if not m.with_suffix("").exists()]
    assert not orphans, f"manifests without a data file: {orphans}"
