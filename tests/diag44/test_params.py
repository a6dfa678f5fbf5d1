"""The parameter record refuses what the model cannot run, naming the field and its range."""

import time

import pytest

from perfstudies.models.diag44 import LIVE_CONTROLS, WIDGET_DEFAULTS, DiagParams, build_network, sweep_points
from perfstudies.models.diag44.calibration import measurements, run_config
from perfstudies.models.diag44.network import node_classes
from perfstudies.params import MAX_EVENTS
from perfstudies.runner import run_ciw


@pytest.mark.parametrize("field, value, allowed", [
    ("real_processors", 0, "1 <= real_processors <= 16"),
    ("client_vps", 9, "1 <= client_vps <= 8"),
    ("connections", -4, "2 <= connections <= 120"),
    ("contention", 1.0, "contention < 1.0"),
    ("off_processor_us", -1.0, "0.0 <= off_processor_us"),
    ("fast_path", "yes", "True or False"),
])
def test_invalid_parameters_name_the_field_and_range(field, value, allowed):
    with pytest.raises(ValueError, match=f"DiagParams.{field} = .*{allowed}"):
        DiagParams(**{field: value})


def test_warmup_must_be_shorter_than_the_run():
    with pytest.raises(ValueError, match="DiagParams.warmup_us = .*warmup_us < max_time_us"):
        DiagParams(max_time_us=4e5, warmup_us=5e5)


# --- the event budget (issue 16, item 3) ---------------------------------------------------------

@pytest.mark.parametrize("fields", [
    dict(base_work_us=1e-9, off_processor_us=0.0),  # issue 16's example, with nothing else to slow a transaction
    dict(max_time_us=1e8, slices_per_tx=1_000),
    dict(contention=0.99, client_vps=8, real_processors=16, normal_cp_us=0.0, normal_spin_us=0.0,
         fast_cp_us=0.0, fast_spin_us=0.0),         # yields that cost nothing repeat for ever
])
def test_runs_beyond_the_event_budget_are_refused_at_once(fields):
    started = time.perf_counter()
    with pytest.raises(ValueError, match=r"DiagParams.max_time_us = .* one replication needs about .* simulated "
                                         r"events; allowed at most 3,000,000 \(reduce max_time_us or slices_per_tx "
                                         r"or real_processors, or raise base_work_us"):
        DiagParams(**fields)
    assert time.perf_counter() - started < 0.1


def test_a_tiny_transaction_is_bounded_by_the_time_away_from_the_processors():
    """With the default off-processor time, 40 connections cannot make more than ~110 transactions a second."""
    assert DiagParams(base_work_us=1e-9).events_estimate() < 1e5


def test_the_defaults_and_every_configuration_the_chapter_runs_are_accepted():
    table = measurements()
    configurations = [DiagParams(), WIDGET_DEFAULTS, *sweep_points(),
                      *(DiagParams(**run_config(table, run)) for run in table["run_id"].unique())]
    spec = DiagParams.spec()
    for name in LIVE_CONTROLS:                  # every end of every live control
        if spec[name]["kind"] == "bool":
            configurations += [WIDGET_DEFAULTS.replace(**{name: value}) for value in (False, True)]
        else:
            configurations += [WIDGET_DEFAULTS.replace(**{name: spec[name][end]}) for end in ("low", "high")]
    extremes = {name: spec[name]["high"] for name in ("real_processors", "client_vps", "connections")}
    configurations.append(WIDGET_DEFAULTS.replace(**extremes))
    assert all(p.events_estimate() <= MAX_EVENTS for p in configurations)
    assert DiagParams(max_time_us=1e8).events_estimate() <= MAX_EVENTS, "the longest run of the defaults"


class _Counting:
    """Mixin counting every end of service (one Ciw event each) of a node."""

    count = 0

    def finish_service(self):
        _Counting.count += 1
        return super().finish_service()


def _counting(node_class: type) -> type:
    class Counting(_Counting, node_class):
        pass
    return Counting


@pytest.mark.parametrize("fields", [dict(), dict(real_processors=1, client_vps=8), dict(client_vps=6),
                                    dict(fast_path=False, real_processors=5), dict(sibling_retest=True, client_vps=6),
                                    dict(sibling_retest=True, fast_path=False, real_processors=5)])
def test_the_estimate_is_honest_against_counted_events(fields):
    p = DiagParams(max_time_us=1e6, **fields)
    classes = [_counting(cls) for cls in node_classes(p)]
    _Counting.count = 0
    run_ciw(build_network(p), 1, p.max_time_us, p.warmup_us, node_class=classes)
    assert 0.5 <= p.events_estimate() / _Counting.count <= 6
