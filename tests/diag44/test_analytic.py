"""Theory first: the fast path's closed form, the scheduler lock, MVA, and the warm-up, against the simulation."""

import numpy as np
import pytest

from perfstudies import mva
from perfstudies.models.diag44 import (SEED, WIDGET_DEFAULTS, DiagParams, build_network, fast_path_percent,
                                       lock_from_spin_rows, mm1_wait, model, mva_solution, no_sibling_queued,
                                       percent_fast, queued_share)
from perfstudies.models.diag44.calibration import measurements, run_config, run_values
from perfstudies.models.diag44.mechanism import IDLE
from perfstudies.models.diag44.network import node_classes
from perfstudies.runner import replicate, replication_seeds, run_ciw
from perfstudies.warmup import mser5


def test_theory_no_sibling_queued_is_binomial():
    assert no_sibling_queued(1, 0.3) == 1.0
    assert no_sibling_queued(3, 0.1) == pytest.approx(0.81)
    assert queued_share(9, 0.5) < queued_share(9, 0.9) < queued_share(5, 0.9)
    assert percent_fast(1.0, 273.0, 50.0) == 100.0
    assert percent_fast(0.5, 100.0, 100.0) == pytest.approx(50.0)


def test_the_fast_path_closed_form_chains_the_three_steps():
    share = no_sibling_queued(6, queued_share(9, 0.9))
    assert fast_path_percent(9, 0.9, 6, 600.0, 50.0) == pytest.approx(percent_fast(share, 600.0, 50.0))
    # less benefit on busier processors, less with more virtual processors
    assert fast_path_percent(5, 0.92, 3, 600.0, 50.0) < fast_path_percent(9, 0.84, 3, 600.0, 50.0)
    assert fast_path_percent(9, 0.84, 6, 600.0, 50.0) < fast_path_percent(9, 0.84, 3, 600.0, 50.0)


def test_the_scheduler_lock_is_solved_from_one_runs_spin_rows():
    """``lock_from_spin_rows`` inverts the M/M/1 spin rate and spin time exactly (EXPTD440's rows)."""
    fast = run_values(measurements(), "EXPTD440")
    lock = lock_from_spin_rows(fast["spin_rate"], fast["pct_spin"] / 100 * 9, 8_000.0, 80.0)
    rate, rho = lock["acquisitions_per_s"], lock["utilisation"]
    assert rate * rho == pytest.approx(fast["spin_rate"])
    assert rate * mm1_wait(rho, lock["hold_us"] * 1e-6) == pytest.approx(fast["pct_spin"] / 100 * 9)
    assert lock["other_per_tx"] * 80.0 + 8_000.0 == pytest.approx(rate)
    assert mm1_wait(0.5, 2.0) == 2.0


def test_analytic_functions_refuse_bad_input():
    with pytest.raises(ValueError, match="utilization = 1.2"):
        queued_share(9, 1.2)
    with pytest.raises(ValueError, match="vps = 0"):
        no_sibling_queued(0, 0.1)
    with pytest.raises(ValueError, match="diags_per_fast_yield = 0"):
        percent_fast(0.5, 0, 50)
    with pytest.raises(ValueError, match="utilisation = 1.0"):
        mm1_wait(1.0, 2.0)
    with pytest.raises(ValueError, match="spins_per_s = 0"):
        lock_from_spin_rows(0, 0.03, 9_000, 80)
    with pytest.raises(ValueError, match="normal_per_s = 1000000.0 is more than the lock's acquisitions"):
        lock_from_spin_rows(13_735, 0.0336, 1e6, 80)
    with pytest.raises(ValueError, match="busy_per_tx_us = 0"):
        mva_solution(0, 1e5, 9, 40)


@pytest.mark.parametrize("client_vps", [3, 6])
def test_simulated_yields_follow_the_binomial_given_the_simulated_pi(client_vps):
    """The binomial step alone: given the simulated chance a sibling is queued at a yield, ``(1 - pi)^(V-1)``
    predicts the share of yields that find none queued.

    Stated bound: within 0.03 with three virtual processors, where siblings are
    queued nearly independently of each other; within 0.12 with six, where a
    yield's siblings are queued together more often than independence says
    (they wait behind the same busy processors).
    """
    runs = replicate(model, WIDGET_DEFAULTS.replace(client_vps=client_vps), replications=3, seed=11, progress=False)
    pi, share = runs.mean("sibling_queued_share"), runs.mean("no_sibling_share")
    assert share == pytest.approx(no_sibling_queued(client_vps, pi), abs=0.03 if client_vps == 3 else 0.12)


def test_simulated_percent_fast_is_the_analytic_weighting_of_yields():
    """Every yield that finds no sibling queued takes the fast path and counts ``fast_diags_per_yield``
    DIAG 44s, every other ``normal_diags_per_yield``: the percentage is :func:`percent_fast` of the share."""
    p = WIDGET_DEFAULTS
    metrics = model(p, 3)
    weighted = percent_fast(metrics["no_sibling_share"], p.fast_diags_per_yield, p.normal_diags_per_yield)
    assert metrics["pct_fast"] == pytest.approx(weighted, abs=0.2)


def test_mva_agrees_with_the_simulation_where_the_network_is_nearly_product_form():
    """No guest lock contention (no spinning) and VP limits that rarely bind: the model is close to a
    closed network of 40 jobs, a 9-server station and a delay, which exact MVA solves.

    Stated bound: the simulated transaction rate within 7% of MVA's with the
    simulated processor time per transaction as the demand (what remains is
    the VP limits, the per-guest hand-overs and the non-exponential slices),
    and below MVA's asymptotic bound.
    """
    p = DiagParams(contention=0.0, client_vps=8, client_guests=4, server_guests=40, max_time_us=4e6)
    runs = replicate(model, p, replications=6, seed=3, progress=False)
    demand = runs.mean("total_us_per_tx") * p.accounting_ratio
    solution = mva_solution(demand, p.off_processor_us, p.real_processors, p.connections)
    bound = mva.bounds({"real processors": demand}, p.connections, p.off_processor_us,
                       servers={"real processors": p.real_processors}).asymptotic_throughput[1]
    assert runs.mean("tx_rate") == pytest.approx(solution.throughput * 1e6, rel=0.07)
    assert runs.mean("tx_rate") <= bound * 1e6


@pytest.mark.parametrize("run", ["EXPT5200", "EXPTD440", "EXPT5209", "EXPTD442", "EXPTD441"])
def test_the_warmup_deletes_at_least_what_mser5_finds_on_a_pilot_run(run):
    """The warm-up deletion is at least the MSER-5 truncation of a pilot run (White 1997; White, Cobb and
    Spratt 2000), for every configuration the comparison simulates.

    The pilot is replication 0 of the comparison (seed ``replication_seeds(SEED, 1)[0]``) without any
    deletion; the series is each connection's cycle time (from one arrival at ``IDLE`` to the next, the
    time whose mean sets the transaction rate by Little's law), in the order the cycles end.
    """
    p = DiagParams(**run_config(measurements(), run))
    _, records = run_ciw(build_network(p), replication_seeds(SEED, 1)[0], p.max_time_us, 0.0,
                         node_class=node_classes(p))
    arrivals = records[records["node"] == IDLE].sort_values("arrival_date")
    cycles = arrivals.groupby("id_number")["arrival_date"].diff()
    found = mser5(cycles[cycles.notna()].to_numpy(), arrivals["arrival_date"][cycles.notna()].to_numpy())
    assert found.reliable
    assert p.warmup_us >= found.time, f"MSER-5 deletes {found.time:.0f} us of {run}; the model deletes {p.warmup_us}"
    assert np.isfinite(found.time)
