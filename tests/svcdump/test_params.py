"""The configuration record refuses what it cannot run: out-of-range values and runs too long to finish."""

import time

import pytest

from perfstudies.models.svcdump import DumpParams, calibrated_params, model, sweep_points
from perfstudies.models.svcdump.network import build_network, ipcs_network
from perfstudies.models.svcdump.params import MAX_CHUNKS
from perfstudies.params import MAX_EVENTS
from perfstudies.runner import run_ciw


@pytest.mark.parametrize(("changes", "message"), [
    ({"stripes": 0}, r"DumpParams\.stripes = 0 is out of range: allowed 1 <= stripes <= 8"),
    ({"device": "3380"}, r"DumpParams\.device = '3380' is not allowed: one of \['3390-3', 'ESS'\]"),
    ({"channel": "bus"}, r"DumpParams\.channel = 'bus' is not allowed: one of \['ESCON', 'FICON'\]"),
    ({"dump_blocks": -1}, r"DumpParams\.dump_blocks = -1 is out of range: allowed 10000 <= dump_blocks"),
    ({"page_data_sets": 9}, r"DumpParams\.page_data_sets = 9 is out of range: allowed 1 <= page_data_sets <= 8"),
    ({"compression": "yes"}, r"DumpParams\.compression = 'yes' has the wrong type: allowed True or False"),
    ({"dump_blocks": 10_000, "chunk_blocks": 20_000}, r"DumpParams\.chunk_blocks = 20000 is out of range"),
    ({"chunk_blocks": 100}, r"DumpParams\.chunk_blocks = 100 is out of range: allowed chunk_blocks >= "),
])
def test_invalid_parameters_raise_value_error_naming_them(changes, message):
    with pytest.raises(ValueError, match=message):
        DumpParams(**changes)


def test_too_many_chunks_are_refused_at_once():
    """Issue 16 names no svcdump record that hangs; the chunk cap is what keeps every run short."""
    started = time.perf_counter()
    with pytest.raises(ValueError, match=r"chunk_blocks = 100 is out of range.*at most 4000 chunks"):
        DumpParams(dump_blocks=2_000_000, chunk_blocks=100)
    assert time.perf_counter() - started < 0.1


def test_the_event_estimate_is_an_upper_bound_of_the_ciw_events():
    """Every visit is one record: an arrival and a service end, so records x 2 <= the estimate."""
    params = calibrated_params(device="ESS", stripes=3, storage_constrained=True)
    _, dump = run_ciw(build_network(params), 1, 1e6)
    _, ipcs = run_ciw(ipcs_network(params), 1, 1e6)
    events = 2 * (len(dump) + len(ipcs))
    assert events <= params.events <= 2 * events


def test_the_largest_record_stays_far_below_the_event_budget_and_runs_in_seconds():
    largest = DumpParams(dump_blocks=2_000_000, chunk_blocks=500, stripes=1, storage_constrained=True)
    assert largest.chunks == MAX_CHUNKS and largest.events < MAX_EVENTS / 10
    started = time.perf_counter()
    model(largest, 1)
    assert time.perf_counter() - started < 30


def test_the_defaults_and_every_configuration_the_chapter_runs_are_accepted():
    from perfstudies.models.svcdump.comparison import configurations as compared

    configurations = [DumpParams(), calibrated_params(), *sweep_points(), *compared().values()]
    assert all(p.events <= MAX_EVENTS for p in configurations)
