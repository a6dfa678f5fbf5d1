"""Fixtures the SPXTAPE test modules share."""

import pytest

from perfstudies.models.spxtape import calibrate
from perfstudies.runner import replication_seeds

#: Two seeds for structural checks (not the study's SEED, so the checks do not lean on its records).
SEEDS = replication_seeds(7, 2)


@pytest.fixture(scope="session")
def calibrated():
    """The calibrated parameters (full-scale customers: 32 pages, four 32 KB blocks)."""
    return calibrate()


@pytest.fixture(scope="session")
def coarse(calibrated):
    """Calibrated parameters with coarse customers, for fast structural checks."""
    return calibrated.replace(chunk_pages=512)
