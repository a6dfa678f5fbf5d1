"""The t quantiles behind every confidence interval are scipy.stats' own, without its import cost."""

import subprocess
import sys

import numpy as np
import pytest
from scipy import stats

from perfstudies import student_t


@pytest.mark.parametrize("probability", [0.9, 0.95, 0.975, 0.995, (1 + 0.95) / 2])
def test_the_quantile_is_scipy_stats_float_for_float(probability):
    degrees = np.arange(0, 2001)  # 0: a single replication has no interval (nan in both)
    np.testing.assert_array_equal(student_t.quantile(probability, degrees), stats.t.ppf(probability, degrees))
    assert student_t.quantile(probability, 7) == stats.t.ppf(probability, 7)


def test_the_library_and_its_panels_start_without_importing_scipy_stats():
    """scipy.stats costs 1.5-3 s of every kernel's and sweep child's start on this machine."""
    code = ("import sys, perfstudies.studies, perfstudies.sweep, perfstudies.panel, perfstudies.evaluate, "
            "perfstudies.widgets, perfstudies.models.mdf.analytic, perfstudies.models.diag44.explore; "
            "print('scipy.stats' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False", result.stderr
