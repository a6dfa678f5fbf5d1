"""The parameter record: invalid values refused by name, and runs that could not finish refused up front."""

import time

import pytest

import perfstudies.params
from perfstudies.models.vts import SWEEPS
from perfstudies.models.vts.explore import headline_configurations
from perfstudies.models.vts.params import PATHS, VTSParams, base, ehpo, paf, statement


@pytest.mark.parametrize(("changes", "message"), [
    (dict(feature="EHPO", capacity_gb=1728), r"capacity_gb = 1728 is not allowed .* allowed one of \[288, 576, 1152\]"),
    (dict(capacity_gb=100), r"capacity_gb = 100 is not allowed: one of \[72, 144"),
    (dict(compressibility=0.5), r"compressibility = 0.5 is out of range"),
    (dict(compressibility=5.0), r"compressibility = 5.0 is out of range: allowed 1.0 <= compressibility <= 4.0"),
    (dict(drives=2), r"drives = 2 is out of range: allowed 3 <= drives <= 6"),
    (dict(drives=3), r"drives = 3 is out of range: allowed 4 <= drives <= 6 with feature 'PAF'"),
    # Feature levels are cumulative (PAF includes EHPO), so "PAF without EHPO" is not a level at all.
    (dict(feature="PAF without EHPO"),
     r"feature = 'PAF without EHPO' is not allowed: one of \['base', 'EHPO', 'PAF'\]"),
    (dict(hdd_gb=9), r"hdd_gb = 9 is not allowed with feature 'PAF': allowed one of \[36\]"),
    (dict(feature="base", capacity_gb=1152, streams=64), r"streams = 64 is out of range"),
    (dict(escon_channels=6), r"escon_channels = 6 is not allowed: one of \[4, 8\]"),
    (dict(disk_op_s=0.0), r"disk_op_s = 0.0 is out of range: allowed 4e-09 <= disk_op_s <= 1.0"),
    (dict(mount_s=-1.0), r"mount_s = -1.0 is out of range"),
    (dict(disk_fixed_s=0.5), r"disk_fixed_s = 0.5 is out of range: allowed 0 < disk_fixed_s <= disk_op_s"),
])
def test_invalid_parameters_are_refused_by_name(changes, message):
    with pytest.raises(ValueError, match=message):
        VTSParams(**changes)


def test_extrapolation_above_cf_4_needs_the_flag():
    assert VTSParams(compressibility=5.0, extrapolate=True).compressibility == 5.0


# --- the event budget (issue 16, item 3)

def _chapter_records() -> list[VTSParams]:
    """Every record the chapter, the comparison and the sweeps run."""
    found = [VTSParams(), *headline_configurations().values(), *SWEEPS["write"].points(), *SWEEPS["recall"].points()]
    found += [paf(workload=w, compressibility=cf) for w in PATHS for cf in (1.0, 2.0, 2.66, 3.0, 4.0)]
    found += [base(g, workload=w) for g in (4, 16) for w in ("peak_write", "sustained_write")]
    found += [ehpo(g, workload=w, compressibility=cf) for g in (4, 8, 16) for w in ("peak_write", "sustained_write")
              for cf in (1.0, 2.0, 3.0, 4.0)]
    return found


def test_the_defaults_and_every_record_the_chapter_runs_fit_the_event_budget():
    for params in _chapter_records():
        assert params.events_per_replication() <= perfstudies.params.MAX_EVENTS


def test_the_largest_record_fits_the_budget_and_finishes_in_seconds():
    # No vts record is named in issue 16: the largest in-range run (most completions,
    # most streams, the longest path) needs about 240,000 events, a few seconds of Ciw.
    largest = VTSParams(workload="sustained_write", completions=20_000, streams=64, recall_queue=64)
    assert largest.events_per_replication() <= perfstudies.params.MAX_EVENTS / 10


def test_a_record_over_the_budget_is_refused_quickly_naming_its_fields(monkeypatch):
    monkeypatch.setattr(perfstudies.params, "MAX_EVENTS", 100_000)
    started = time.perf_counter()
    with pytest.raises(ValueError, match=r"VTSParams.completions = 20000 is out of range: with completions = 20000, "
                                         r"streams = 64, recall_queue = 0, .* \(reduce completions or streams or "
                                         r"recall_queue\)"):
        VTSParams(workload="sustained_write", completions=20_000, streams=64)
    assert time.perf_counter() - started < 1.0
    assert VTSParams(completions=600).completions == 600



def test_the_fully_configured_paf_machine_has_six_drives():
    assert paf().drives == 6 and paf().capacity_gb == 1728 and paf().escon_channels == 8


def test_statements_are_read_by_key_and_unknown_keys_refused_by_name():
    assert statement("recall_best_case").half_band == 30.0
    assert statement("paf_sustained_write_cf4").value == 50.0
    with pytest.raises(ValueError, match="key = 'flat' is not a transcribed statement: allowed one of"):
        statement("flat")
