"""Theory first: the binomial chance that no sibling is queued, checked by hand and against the simulation."""

import pytest

from perfstudies.models.diag44 import WIDGET_DEFAULTS, model, no_sibling_queued, percent_fast, queued_share
from perfstudies.runner import replicate


def test_theory_no_sibling_queued_is_binomial():
    assert no_sibling_queued(1, 0.3) == 1.0
    assert no_sibling_queued(3, 0.1) == pytest.approx(0.81)
    assert queued_share(9, 0.5) < queued_share(9, 0.9) < queued_share(5, 0.9)
    assert percent_fast(1.0, 273.0, 50.0) == 100.0
    assert percent_fast(0.5, 100.0, 100.0) == pytest.approx(50.0)


def test_analytic_functions_refuse_bad_input():
    with pytest.raises(ValueError, match="utilization = 1.2"):
        queued_share(9, 1.2)
    with pytest.raises(ValueError, match="vps = 0"):
        no_sibling_queued(0, 0.1)
    with pytest.raises(ValueError, match="diags_per_fast_yield = 0"):
        percent_fast(0.5, 0, 50)


@pytest.mark.parametrize("client_vps", [3, 6])
def test_simulated_fast_yield_share_follows_the_binomial_on_the_9_way(client_vps):
    """Given the simulated chance a sibling is queued, the binomial predicts the simulated fast-yield share.

    Stated bound: within 0.03 (the chapter's "within a point or two") on the
    9-way, where siblings are queued nearly independently of each other.
    """
    runs = replicate(model, WIDGET_DEFAULTS.replace(client_vps=client_vps), replications=3, seed=11, progress=False)
    pi, share = runs.mean("sibling_queued_share"), runs.mean("fast_yield_share")
    assert share == pytest.approx(no_sibling_queued(client_vps, pi), abs=0.03)


def test_simulated_percent_fast_is_the_analytic_weighting_of_yields():
    metrics = model(WIDGET_DEFAULTS, 3)
    weighted = percent_fast(metrics["fast_yield_share"], WIDGET_DEFAULTS.fast_diags_per_yield,
                            WIDGET_DEFAULTS.diags_per_yield)
    assert metrics["pct_fast"] == pytest.approx(weighted, rel=1e-9)
