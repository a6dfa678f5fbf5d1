"""The VTS study: closed forms, mechanism, validation, determinism and the comparison."""

import math

import pandas as pd
import pytest

from perfstudies import data
from perfstudies.accuracy import study_comparison
from perfstudies.models.vts import DOCUMENT, STUDY, VTSParams, widget_run
from perfstudies.models.vts.analytic import (
    bottleneck, bound, capacities, contended_task_minutes, equation3, hours_at_peak, import_export_minutes,
    cache_s_per_mb, recall_response_s, write_ops_per_track,
)
from perfstudies.models.vts.calibration import LIMITED_BY, calibrated_rates, calibration_cells, check_bottlenecks
from perfstudies.models.vts.network import recall_model, throughput_model
from perfstudies.runner import replicate

SEED = 20001


# --- equations 1-3 are closed forms, reproduced exactly from the transcribed coefficients

@pytest.mark.parametrize("row", data.load(STUDY, "table4_ehpo_coefficients").to_dict("records"))
@pytest.mark.parametrize("cf", [1.0, 2.66, 4.0])
def test_equation3_is_m_cf_plus_b(row, cf):
    assert equation3(row["workload"], row["parity_groups"], cf) == row["m"] * cf + row["b"]


def test_equation3_refuses_outside_its_validated_range():
    with pytest.raises(ValueError, match="compressibility = 4.5 is out of range"):
        equation3("peak_write", 16, 4.5)
    with pytest.raises(ValueError, match="parity_groups"):
        equation3("peak_write", 12, 2.0)


@pytest.mark.parametrize("task", ["export", "import"])
def test_equations_1_and_2_are_linear_in_megabytes_mounts_and_searches(task):
    row = data.load(STUDY, "import_export_coefficients").set_index("task").loc[task]
    expected = row["minutes_per_mb"] * 2300 + row["minutes_per_mount"] * 13 + row["minutes_per_search"] * 4
    assert import_export_minutes(task, 2300, 13, 4) == expected
    assert import_export_minutes(task, 0, 0, 0) == 0.0


def test_host_load_stretches_only_the_data_term_of_a_task():
    alone = import_export_minutes("import", 2300, 6)
    assert contended_task_minutes("import", 2300, 6, data_slowdown=1.0) == alone
    stretched = contended_task_minutes("import", 2300, 6, data_slowdown=2.0)
    assert stretched - alone == pytest.approx(import_export_minutes("import", 2300, 0))
    # fewer mounts for the same data: relatively more affected (Sec. 7)
    assert (contended_task_minutes("export", 2300, 6, 2.0) / import_export_minutes("export", 2300, 6)
            > contended_task_minutes("export", 2300, 13, 2.0) / import_export_minutes("export", 2300, 13))
    with pytest.raises(ValueError, match="data_slowdown = 0.5 is out of range"):
        contended_task_minutes("import", 2300, 6, data_slowdown=0.5)


def test_import_export_refuses_bad_input_by_name():
    with pytest.raises(ValueError, match="task = 'copy' is not allowed"):
        import_export_minutes("copy", 10, 2)
    with pytest.raises(ValueError, match="mounts = -1 is out of range"):
        import_export_minutes("export", 10, -1)


# --- invalid parameters raise ValueError naming the parameter and its allowed values

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
])
def test_invalid_parameters_are_refused_by_name(changes, message):
    with pytest.raises(ValueError, match=message):
        VTSParams(**changes)


def test_extrapolation_above_cf_4_needs_the_flag():
    assert VTSParams(compressibility=5.0, extrapolate=True).compressibility == 5.0


# --- the mechanism

def test_calibration_inverts_the_bound_on_each_named_cell():
    rates = calibrated_rates()
    check_bottlenecks(rates)
    for key, cell in calibration_cells().items():
        assert bottleneck(cell.params, rates) == LIMITED_BY[key]
        assert bound(cell.params, rates) == pytest.approx(cell.published, rel=1e-9)


def test_full_stride_writes_cost_fewer_disk_operations_than_read_modify_write():
    assert write_ops_per_track(VTSParams(feature="PAF")) == pytest.approx(7 / 6)
    assert write_ops_per_track(VTSParams(feature="EHPO", capacity_gb=1152)) == 4.0


def test_only_unbuffered_writes_keep_a_cache_cost_that_compression_does_not_shrink():
    rates = calibrated_rates()
    assert 0 < rates.disk_fixed_s < rates.disk_op_s
    ehpo = VTSParams(feature="EHPO", capacity_gb=288, workload="peak_write")
    cf1, cf4 = (cache_s_per_mb(ehpo.replace(compressibility=cf), rates) for cf in (1.0, 4.0))
    assert cf4 == pytest.approx(cf1 / 4 + 0.75 * rates.disk_fixed_s * write_ops_per_track(ehpo) * 16, rel=1e-12)
    for params in (VTSParams(workload="peak_write"), ehpo.replace(workload="read_hit")):
        one, four = (cache_s_per_mb(params.replace(compressibility=cf), rates) for cf in (1.0, 4.0))
        assert four == pytest.approx(one / 4, rel=1e-12)


def test_compression_moves_the_bottleneck():
    rates = calibrated_rates()
    small_cache = VTSParams(feature="EHPO", capacity_gb=288, workload="peak_write", compressibility=1.0)
    assert bottleneck(small_cache, rates) == "cache"
    paf_peak = VTSParams(workload="peak_write")
    assert bottleneck(paf_peak.replace(compressibility=1.0), rates) == "processors"
    assert bottleneck(paf_peak.replace(compressibility=3.0), rates) == "channels"


@pytest.mark.parametrize("params", [
    VTSParams(workload="sustained_write", compressibility=1.0, streams=64),
    VTSParams(workload="peak_write", compressibility=2.0, streams=64),
    VTSParams(feature="EHPO", capacity_gb=576, workload="sustained_write", compressibility=2.0),
    VTSParams(feature="base", capacity_gb=288, escon_channels=4, workload="read_hit", compressibility=1.0),
    VTSParams(workload="read_recall", compressibility=1.0, streams=64),
], ids=["paf-sustained", "paf-peak", "ehpo-sustained", "base-read-hit", "paf-recall"])
def test_throughput_never_exceeds_the_slowest_resource(params):
    result = replicate(throughput_model, params.replace(completions=300), replications=4, seed=SEED, progress=False)
    wide = result.wide()
    # Busy time can never exceed the servers' time: exact.  Host MB/s counts the
    # customers finishing in a finite window, whose count varies by a few percent
    # (Gamma service times, customers straddling the window's edges).
    assert (wide.filter(like="utilisation_") <= 1.0 + 1e-9).all().all()
    assert wide["host_mb_s"].mean() <= 1.05 * bound(params, calibrated_rates())


def test_recall_response_grows_with_queue_length():
    base = VTSParams(feature="EHPO", capacity_gb=1152, drives=4, volume_mb=800.0)
    means = [replicate(recall_model, base.replace(recall_queue=q), 12, SEED, progress=False).mean("mount_response_s")
             for q in (0, 8, 16, 32)]
    assert means == sorted(means)
    closed = [recall_response_s(base.replace(recall_queue=q), calibrated_rates()) for q in range(0, 33)]
    assert closed == sorted(closed)


def test_an_import_export_task_takes_drives_from_recalls():
    rates = calibrated_rates()
    recall = VTSParams(workload="read_recall", compressibility=2.66, drives=4)
    alone = capacities(recall, rates)["tape"]
    assert capacities(recall.replace(import_export_drives=2), rates)["tape"] == pytest.approx(alone / 2)


def test_a_larger_cache_absorbs_peak_write_for_longer():
    rates = calibrated_rates()
    hours = [hours_at_peak(VTSParams(capacity_gb=c), rates) for c in (216, 432, 864, 1728)]
    assert hours == sorted(hours) and hours[0] < hours[-1]


# --- determinism and pinned regression values

def test_same_seed_gives_identical_metrics():
    params = VTSParams(completions=200)
    assert throughput_model(params, 7) == throughput_model(params, 7)
    assert recall_model(params.replace(recall_queue=9), 7) == recall_model(params.replace(recall_queue=9), 7)


def test_seeded_regression_values():
    params = VTSParams(completions=200)
    assert throughput_model(params, 7)["host_mb_s"] == pytest.approx(REGRESSION_HOST_MB_S, rel=1e-9)
    assert recall_model(params.replace(recall_queue=9), 7)["mount_response_s"] == pytest.approx(
        REGRESSION_RECALL_S, rel=1e-9)


#: Computed once with the calibrated rates (any change to model, data or calibration moves them).
REGRESSION_HOST_MB_S = 58.28048780487806
REGRESSION_RECALL_S = 203.08322302805905


# --- the comparison table and the widget

def test_comparison_has_every_named_cell_with_a_valid_role():
    table = study_comparison(STUDY)
    assert set(table["document"]) == {DOCUMENT}
    assert set(table["role"]) <= {"calibration", "prediction"}
    keys = set(zip(table["table"], table["row"], table["column"]))
    for row in data.load(STUDY, "table1_read_rates").itertuples():
        assert ("Table 1", row.operation.replace("_", " "), f"CF {row.cf:g}") in keys or \
            (row.operation, row.cf) == ("read_recall", 2.66) and ("Table 1", "read recall", "CF 2.66") in keys
    for row in data.load(STUDY, "table2_block_size").itertuples():
        assert ("Table 2", row.operation.replace("_", " "), f"{row.block_kb} KB") in keys
    assert (table["table"] == "Table 4").sum() == 12
    for text in ("Fig. 3 (text)", "Fig. 7 (text)", "Fig. 8 (text)", "Sec. 3.4 (text)"):
        assert text in set(table["table"])
    calibrated = table[table["role"] == "calibration"]
    assert len(calibrated) == 11 and calibrated["within_tolerance"].all()
    assert "Sec. 7 (text)" in set(table["table"])
    assert table["model"].map(math.isfinite).all()


def test_widget_run_reports_the_simulation_beside_the_bound():
    table = widget_run()
    assert isinstance(table, pd.DataFrame)
    values = table.set_index("quantity")["value"]
    assert values["host MB/s, simulated"] == pytest.approx(values["host MB/s, bottleneck bound"], rel=0.15)
