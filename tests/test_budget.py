"""The run-time event budget: the engine stops a run that passes it, naming what sets its length.

Reproducers of issue 27: ``run_ciw(..., max_time=1e12)``,
``replicate(..., replications=1000)`` and ``run_sweep`` had no overall bound
(they ran for minutes, hours); now each stops at its budget with a ValueError
naming it.
"""

import time

import ciw
import pandas as pd
import pytest

from perfstudies import engine, runner, sweep
from perfstudies.engine import MAX_EVENT_BUDGET, EventBudgetExceeded
from perfstudies.fifo import FIFONode
from perfstudies.reference import QueueParams, queue_model, queue_network
from perfstudies.runner import event_budget, replicate, replicate_until, run_ciw
from perfstudies.sweep import available_cpus, run_sweep, sweep_until
from timeouts import within


def _network():
    return queue_network(QueueParams())


def _simulation(**options):
    ciw.seed(3)
    return engine.Simulation(_network(), node_class=FIFONode, **options)


def _records(simulation):
    return [tuple(record) for record in simulation.get_all_records()]


# --- the engine --------------------------------------------------------------------------------
def test_a_run_within_its_budget_is_untouched():
    free = _simulation()
    free.simulate_until_max_time(300.0)
    events = free.events_done
    assert events > 100
    exact = _simulation(max_events=events)  # exactly enough: the same run
    exact.simulate_until_max_time(300.0)
    assert _records(exact) == _records(free)
    assert exact.events_done == events
    assert exact.current_time == free.current_time == 300.0


def test_one_event_over_the_budget_stops_the_run_naming_it():
    free = _simulation()
    free.simulate_until_max_time(300.0)
    short = _simulation(max_events=free.events_done - 1, budget_names=("QueueParams.max_time = 300.0",))
    with pytest.raises(EventBudgetExceeded, match=r"max_events = .*QueueParams\.max_time = 300\.0.*max_time = 300\.0"):
        short.simulate_until_max_time(300.0)


@pytest.mark.parametrize("run", [
    lambda simulation: simulation.simulate_until_max_time(1e12, progress_bar=True),  # Ciw's own loop
    lambda simulation: simulation.simulate_until_max_customers(10**9),
])
def test_ciws_own_loops_keep_the_budget(run):
    simulation = _simulation(max_events=500)
    with within(10), pytest.raises(EventBudgetExceeded, match=r"^the run passed its event budget, max_events = 500"):
        run(simulation)
    assert simulation.events_done == 500
    assert "event_and_return_nextnode" not in vars(simulation)  # the counting wrapper is gone


def test_ciws_own_loop_within_the_budget_gives_the_same_records():
    fast = _simulation(max_events=10**6)
    fast.simulate_until_max_time(200.0)
    slow = _simulation(max_events=10**6)
    slow.simulate_until_max_time(200.0, progress_bar=True)
    assert _records(slow) == _records(fast)
    assert slow.events_done == fast.events_done


@pytest.mark.parametrize(("options", "name"), [
    ({"max_events": 0}, "max_events"), ({"max_events": 1.5}, "max_events"), ({"max_events": True}, "max_events"),
    ({"budget_names": "max_time"}, "budget_names"), ({"budget_names": ("",)}, "budget_names"),
])
def test_the_engine_refuses_a_bad_budget_by_name(options, name):
    with pytest.raises(ValueError, match=rf"^{name} = .*allowed"):
        engine.Simulation(_network(), **options)


# --- run_ciw, replicate and event_budget -------------------------------------------------------
def test_run_ciw_with_an_endless_max_time_stops_at_its_default_budget(monkeypatch):
    """Issue 27: ``run_ciw(..., max_time=1e12)`` ran for hours; now it stops at MAX_RUN_EVENTS."""
    assert runner.MAX_RUN_EVENTS == runner.MAX_EVENTS  # about a minute of CPU on this machine
    monkeypatch.setattr(runner, "MAX_RUN_EVENTS", 20_000)  # the same mechanism, a second's worth
    start = time.process_time()
    with within(20), pytest.raises(ValueError, match=r"max_events = 20,000.*max_time = 1000000000000\.0"):
        run_ciw(_network(), seed=1, max_time=1e12)
    assert time.process_time() - start < 10


def test_run_ciw_names_the_records_fields_it_is_given():
    params = QueueParams(max_time=1e6)
    with within(20), pytest.raises(EventBudgetExceeded, match=r"QueueParams\.max_time = 1000000\.0"):
        run_ciw(_network(), seed=1, max_time=params.max_time, max_events=5_000,
                budget_names=params.budget_names(("max_time",)))


def test_run_ciw_within_its_budget_gives_the_same_records():
    _, free = run_ciw(_network(), seed=4, max_time=300.0)
    simulation, bounded = run_ciw(_network(), seed=4, max_time=300.0, max_events=10**6)
    pd.testing.assert_frame_equal(free, bounded)
    _, exact = run_ciw(_network(), seed=4, max_time=300.0, max_events=simulation.events_done)
    pd.testing.assert_frame_equal(free, exact)


def test_replicate_of_many_replications_stops_at_its_budget_naming_replications(monkeypatch):
    """Issue 27: ``replicate(..., replications=1000)`` had no overall bound; now MAX_CALL_EVENTS bounds it."""
    monkeypatch.setattr(runner, "MAX_CALL_EVENTS", 30_000)
    with within(30), pytest.raises(ValueError, match=r"max_events = .*replications = 1000"):
        replicate(queue_model, QueueParams(max_time=500.0, warmup=50.0), replications=1000, progress=False)


def test_replicate_until_stops_at_its_budget_naming_cap():
    with within(30), pytest.raises(EventBudgetExceeded, match=r"cap = 200"):
        replicate_until(queue_model, QueueParams(max_time=500.0, warmup=50.0), {"mean_wait": 1e-9}, initial=2,
                        cap=200, max_events=20_000)


def test_replicate_within_its_budget_gives_the_same_table():
    params = QueueParams(max_time=300.0, warmup=30.0)
    free = replicate(queue_model, params, replications=3, seed=5, progress=False)
    bounded = replicate(queue_model, params, replications=3, seed=5, progress=False, max_events=10**7)
    pd.testing.assert_frame_equal(free.runs, bounded.runs)


def test_event_budget_blocks_add_up_their_runs_and_nest():
    with event_budget(10**6, ("outer",)) as outer:
        simulation, _ = run_ciw(_network(), seed=1, max_time=100.0)
        first = simulation.events_done
        with event_budget(10**6, ("inner",)) as inner:
            simulation, _ = run_ciw(_network(), seed=2, max_time=100.0)
        assert inner.used == simulation.events_done
    assert outer.used == first + inner.used
    with event_budget(first, ("spent",)):
        run_ciw(_network(), seed=1, max_time=100.0)  # exactly the budget
        with pytest.raises(EventBudgetExceeded, match="spent"):
            run_ciw(_network(), seed=1, max_time=100.0)


@pytest.mark.parametrize(("call", "name"), [
    (lambda: run_ciw(_network(), seed=1, max_time=10.0, max_events=0), "max_events"),
    (lambda: run_ciw(_network(), seed=1, max_time=10.0, max_events=2.5), "max_events"),
    (lambda: run_ciw(_network(), seed=1, max_time=10.0, budget_names="x"), "budget_names"),
    (lambda: replicate(queue_model, QueueParams(), replications=2, max_events=-1), "max_events"),
    (lambda: event_budget(0).__enter__(), "max_events"),
])
def test_bad_budgets_are_refused_by_name(call, name):
    with pytest.raises(ValueError, match=rf"^{name} = .*allowed"):
        call()


def test_params_budget_names_name_the_record_and_its_fields():
    assert QueueParams().budget_names(("max_time", "warmup")) == ("QueueParams.max_time = 5000.0",
                                                                   "QueueParams.warmup = 500.0")
    with pytest.raises(ValueError, match=r"^fields = 'nope' is not allowed"):
        QueueParams().budget_names(("nope",))


def test_a_panel_move_shares_one_budget_over_its_replications(monkeypatch):
    """Issue 27: widget_run ran its replications with no overall bound (3 x a near-budget record);
    now one move of a control shares MAX_CALL_EVENTS, named by Panel.replications."""
    from perfstudies import panel
    from toy import mm1

    setting = mm1.QueueParams(horizon_s=20_000.0)  # about 20,000 events a replication
    monkeypatch.setattr(runner, "MAX_CALL_EVENTS", 5_000)
    panel.forget(mm1.PANEL)
    with within(30), pytest.raises(EventBudgetExceeded, match=r"Panel\.replications = 3"):
        panel.run_panel(mm1.PANEL, setting)


# --- sweeps: one budget over every run, wherever it runs -------------------------------------------------


def _sweep_events(points, replications):
    """Events of a sweep run in-process, counted by an enclosing block (the sweep's own runs are in it)."""
    with event_budget(10**9) as counted:
        runs = run_sweep(queue_model, points, replications=replications, seed=2, max_workers=1, progress=False,
                         max_events=10**9)
    return runs, counted.used


SWEEP_POINTS = [QueueParams(arrival_rate=rate, max_time=500.0, warmup=50.0) for rate in (0.4, 0.6, 0.8)]


def test_a_sweep_in_process_carries_out_exactly_its_budget_and_not_one_event_more():
    """Issue 27: run_sweep had no overall bound (each run had its own, the sweep none)."""
    free, events = _sweep_events(SWEEP_POINTS, 4)
    exact = run_sweep(queue_model, SWEEP_POINTS, replications=4, seed=2, max_workers=1, progress=False,
                      max_events=events)
    pd.testing.assert_frame_equal(free, exact)
    with within(30), pytest.raises(EventBudgetExceeded, match=r"the sweep's max_events = "
                                                              rf"{events - 1:,} over all its runs \(3 points x "
                                                              r"replications = 4\)"):
        run_sweep(queue_model, SWEEP_POINTS, replications=4, seed=2, max_workers=1, progress=False,
                  max_events=events - 1)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_sweep_stops_at_its_default_budget_naming_it(monkeypatch, workers):
    """The default bound is MAX_SWEEP_EVENTS, set in the caller and granted to the workers (where it is not patched)."""
    _, events = _sweep_events(SWEEP_POINTS, 4)
    monkeypatch.setattr(sweep, "MAX_SWEEP_EVENTS", events // 3)
    with within(60), pytest.raises(EventBudgetExceeded, match=rf"max_events = {events // 3:,} over all its runs"):
        run_sweep(queue_model, SWEEP_POINTS, replications=4, seed=2, max_workers=workers, progress=False)


def test_a_worker_that_passes_its_grant_stops_and_the_sweep_names_its_budget():
    """Two tasks on two workers, each granted half of a budget smaller than one run: the workers raise, the
    error crosses the process boundary whole (EventBudgetExceeded pickles with its events and time)."""
    if available_cpus() < 2:
        pytest.skip("one CPU: the sweep runs in-process")
    expected = r"passed its event budget, max_events = 50:.* the sweep's max_events = 100 over all its runs"
    with within(60), pytest.raises(EventBudgetExceeded, match=expected) as raised:
        run_sweep(queue_model, SWEEP_POINTS[:1], replications=2, max_workers=2, progress=False, max_events=100)
    assert raised.value.events == 50 and raised.value.time > 0  # its own attributes, not a rebuilt ValueError


def test_a_sweep_within_its_budget_gives_the_same_table_on_local_processes():
    free, events = _sweep_events(SWEEP_POINTS, 4)
    parallel = run_sweep(queue_model, SWEEP_POINTS, replications=4, seed=2, max_workers=2, progress=False,
                         max_events=2 * events)
    pd.testing.assert_frame_equal(free, parallel)


def test_sweep_until_shares_one_budget_over_its_rounds():
    points = [QueueParams(arrival_rate=0.9, max_time=500.0, warmup=50.0)]
    with within(60), pytest.raises(EventBudgetExceeded, match=r"1 points x up to cap = 200 replications"):
        sweep_until(queue_model, points, [{"mean_wait": 1e-9}], initial=2, cap=200, max_workers=1,
                    max_events=20_000)


@pytest.mark.parametrize("max_events", [0, -5, 2.5, True, "many", MAX_EVENT_BUDGET + 1])
def test_a_bad_sweep_budget_is_refused_by_name(max_events):
    with pytest.raises(ValueError, match=r"^max_events = .* allowed"):
        run_sweep(queue_model, SWEEP_POINTS, replications=2, max_workers=1, max_events=max_events)
