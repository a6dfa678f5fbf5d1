"""Theory first: equations 1-3, the service demands, the bottleneck bound, and the simulation against them."""

import math

import pytest

from perfstudies import data
from perfstudies import mva
from perfstudies.models.vts.analytic import (
    TABLE4_CF, bottleneck, bound, bound_line, cache_s_per_mb, capacities, contended_task_minutes, copy_ceiling,
    copy_service_s, customer_mb, equation3, hours_at_peak, import_export_minutes, mva_demands, mva_solution,
    recall_response_s, recall_service_s, write_ops_per_track,
)
from perfstudies.models.vts.comparison import configurations
from perfstudies.models.vts.network import build_network, model, recall_model, run_length_s, warmup_s
from perfstudies.models.vts.params import (CHUNK_MB_MIN, KEY, PATHS, TIME_FLOOR_S, VOLUME_MB_MAX, VTSParams, base,
                                          ehpo, paf)
from perfstudies.models.vts.params import SEED as STUDY_SEED
from perfstudies.runner import replicate
from perfstudies.warmup import pilot_warmup

SEED = 20001


# --- equations 1-3 are closed forms, reproduced exactly from the transcribed coefficients

@pytest.mark.parametrize("row", data.load(KEY, "table4_ehpo_coefficients").to_dict("records"))
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
    row = data.load(KEY, "import_export_coefficients").set_index("task").loc[task]
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


# --- the service demands

def test_full_stride_writes_cost_fewer_disk_operations_than_read_modify_write():
    assert write_ops_per_track(VTSParams(feature="PAF")) == pytest.approx(7 / 6)
    assert write_ops_per_track(VTSParams(feature="EHPO", capacity_gb=1152)) == 4.0


def test_only_unbuffered_writes_keep_a_cache_cost_that_compression_does_not_shrink():
    params = VTSParams()
    assert 0 < params.disk_fixed_s < params.disk_op_s
    ehpo = VTSParams(feature="EHPO", capacity_gb=288, workload="peak_write")
    cf1, cf4 = (cache_s_per_mb(ehpo.replace(compressibility=cf)) for cf in (1.0, 4.0))
    assert cf4 == pytest.approx(cf1 / 4 + 0.75 * params.disk_fixed_s * write_ops_per_track(ehpo) * 16, rel=1e-12)
    for params in (VTSParams(workload="peak_write"), ehpo.replace(workload="read_hit")):
        one, four = (cache_s_per_mb(params.replace(compressibility=cf)) for cf in (1.0, 4.0))
        assert four == pytest.approx(one / 4, rel=1e-12)


def test_compression_moves_the_bottleneck():
    small_cache = VTSParams(feature="EHPO", capacity_gb=288, workload="peak_write", compressibility=1.0)
    assert bottleneck(small_cache) == "cache"
    paf_peak = VTSParams(workload="peak_write")
    assert bottleneck(paf_peak.replace(compressibility=1.0)) == "processors"
    assert bottleneck(paf_peak.replace(compressibility=3.0)) == "channels"


def test_an_import_export_task_takes_drives_from_recalls():
    recall = VTSParams(workload="read_recall", compressibility=2.66, drives=4)
    alone = capacities(recall)["tape"]
    assert capacities(recall.replace(import_export_drives=2))["tape"] == pytest.approx(alone / 2)


def test_a_copied_volume_costs_its_drive_one_mount_and_the_compressed_write():
    params = paf(workload="sustained_write", compressibility=3.0)
    tape = capacities(params)["tape"]
    assert tape == pytest.approx(params.drives * params.volume_mb / copy_service_s(params))
    assert copy_service_s(params) == pytest.approx(params.mount_s + params.volume_mb / (3.0 * 14 / 1.5))
    # a recall is the same plus a search
    assert recall_service_s(params) - copy_service_s(params) == pytest.approx(21.0)


def test_the_mount_per_volume_flattens_paf_sustained_write_above_cf_3():
    """Compression shrinks the write, not the mount: the drives' capacity tends to drives x volume / mount."""
    rates = {cf: bound(paf(workload="sustained_write", compressibility=cf, extrapolate=cf > 4))
             for cf in (1.0, 2.0, 3.0, 4.0, 10.0)}
    assert bottleneck(paf(workload="sustained_write", compressibility=1.0)) == "processors"
    assert all(bottleneck(paf(workload="sustained_write", compressibility=cf)) == "tape" for cf in (3.0, 4.0))
    assert rates[4.0] / rates[3.0] < 1.10 < rates[2.0] / rates[1.0]
    ceiling = copy_ceiling(paf(workload="sustained_write"))
    assert rates[10.0] < ceiling
    assert capacities(paf(workload="sustained_write", compressibility=10.0, extrapolate=True))["tape"] < ceiling
    # peak write has no copy-out, so compression still raises it to the channels' limit
    assert bottleneck(paf(workload="peak_write", compressibility=4.0)) == "channels"


def test_a_larger_cache_absorbs_peak_write_for_longer():
    hours = [hours_at_peak(VTSParams(capacity_gb=c)) for c in (216, 432, 864, 1728)]
    assert hours == sorted(hours) and hours[0] < hours[-1]


# --- the simulation against the theory

@pytest.mark.parametrize("params", [
    VTSParams(workload="sustained_write", compressibility=1.0, streams=64),
    VTSParams(workload="peak_write", compressibility=2.0, streams=64),
    VTSParams(feature="EHPO", capacity_gb=576, workload="sustained_write", compressibility=2.0),
    VTSParams(feature="base", capacity_gb=288, escon_channels=4, workload="read_hit", compressibility=1.0),
    VTSParams(workload="read_recall", compressibility=1.0, streams=64),
], ids=["paf-sustained", "paf-peak", "ehpo-sustained", "base-read-hit", "paf-recall"])
def test_throughput_never_exceeds_the_slowest_resource(params):
    result = replicate(model, params.replace(completions=300), replications=4, seed=SEED, progress=False)
    wide = result.wide()
    # Busy time can never exceed the servers' time: exact.  Host MB/s counts the
    # customers finishing in a finite window, whose count varies by a few percent
    # (Gamma service times, customers straddling the window's edges).
    assert (wide.filter(like="utilisation_") <= 1.0 + 1e-9).all().all()
    assert wide["host_mb_s"].mean() <= 1.05 * bound(params)


def test_a_lone_recall_takes_the_closed_form_recall_time_within_its_interval():
    params = VTSParams(feature="EHPO", capacity_gb=1152, drives=4, volume_mb=800.0, recall_queue=0)
    result = replicate(recall_model, params, 40, SEED, progress=False)
    assert abs(result.mean("mount_response_s") - recall_service_s(params)) <= result.half_width("mount_response_s")
    assert recall_response_s(params) == recall_service_s(params)


def test_recall_response_grows_with_queue_length():
    base = VTSParams(feature="EHPO", capacity_gb=1152, drives=4, volume_mb=800.0)
    means = [replicate(recall_model, base.replace(recall_queue=q), 12, SEED, progress=False).mean("mount_response_s")
             for q in (0, 8, 16, 32)]
    assert means == sorted(means)
    closed = [recall_response_s(base.replace(recall_queue=q)) for q in range(0, 33)]
    assert closed == sorted(closed)


def test_drives_held_by_import_export_slow_recalls():
    # Six drives, 12 recalls ahead: the import/export task holds its source and destination drives
    # (Sec. 7), so the recalls share four; the closed form goes from three rounds to four.
    base = VTSParams(feature="EHPO", capacity_gb=1152, drives=6, volume_mb=800.0, recall_queue=12)
    free, held = (replicate(recall_model, base.replace(import_export_drives=n), 20, SEED, progress=False)
                  for n in (0, 2))
    gap = held.mean("mount_response_s") - free.mean("mount_response_s")
    assert gap > held.half_width("mount_response_s") + free.half_width("mount_response_s")
    assert recall_response_s(base.replace(import_export_drives=2)) == 4 * recall_service_s(base)
    assert recall_response_s(base) == 3 * recall_service_s(base)


def test_the_bound_line_is_the_least_squares_line_through_the_bound():
    for workload in ("sustained_write", "peak_write"):
        m, b = bound_line(workload, 16)
        rates = [bound(ehpo(16, workload=workload, compressibility=cf)) for cf in TABLE4_CF]
        residuals = [rate - (m * cf + b) for cf, rate in zip(TABLE4_CF, rates)]
        assert sum(residuals) == pytest.approx(0.0, abs=1e-9)
        assert sum(r * cf for r, cf in zip(residuals, TABLE4_CF)) == pytest.approx(0.0, abs=1e-9)


def test_the_simulation_runs_at_the_bound_where_table4_is_compared():
    """Table 4 is compared in closed form; the simulated EHPO machine must run at that bound.

    At each of the 24 configurations (2 workloads x 3 caches x CF 1-4) the simulated
    mean over three replications lies within 3% of the bound plus its own 95%
    interval, and over all of them the simulation averages 97-101% of the bound.
    """
    ratios = []
    for workload in ("sustained_write", "peak_write"):
        for groups in (4, 8, 16):
            for cf in TABLE4_CF:
                params = ehpo(groups, workload=workload, compressibility=cf)
                result = replicate(model, params, 3, STUDY_SEED, progress=False)
                limit = bound(params)
                mean, half = result.mean("host_mb_s"), result.half_width("host_mb_s")
                assert abs(mean - limit) <= 0.03 * limit + half, (workload, groups, cf, mean, limit)
                ratios.append(mean / limit)
    assert 0.97 <= sum(ratios) / len(ratios) <= 1.01



# --- exact MVA of the same closed network (issue 20)

def test_mva_demands_are_the_networks_demands_and_mva_stays_under_the_bound():
    for params in (paf(workload="sustained_write", compressibility=3.0), base(4, workload="sustained_write"),
                   paf(workload="read_recall", compressibility=2.66)):
        demands, servers = mva_demands(params)
        assert list(demands) == list(PATHS[params.workload])
        per_server = max(demands[k] / servers[k] for k in demands)
        assert bound(params) == pytest.approx(customer_mb(params) / per_server)
        solution = mva_solution(params)
        assert solution.throughput * customer_mb(params) <= bound(params) * (1 + 1e-9)
        assert mva.exact(demands, params.streams, servers={k: c for k, c in servers.items() if c > 1}
                         ).throughput == solution.throughput


@pytest.mark.parametrize("params", [
    paf(workload="sustained_write", compressibility=3.0),
    ehpo(16, workload="sustained_write", compressibility=3.0),
    base(4, workload="sustained_write"),
], ids=["paf-64-streams", "ehpo-16-streams", "base-balanced-16-streams"])
def test_the_simulation_lies_between_mva_and_the_bound(params):
    """MVA assumes exponential service; the model's Gamma times (CV 0.5) queue less, so the
    simulation runs at or above MVA and at or below the bound (each within its 95% interval)."""
    runs = replicate(model, params, 6, SEED, progress=False)
    mean, half = runs.mean("host_mb_s"), runs.half_width("host_mb_s")
    exact = mva_solution(params).throughput * customer_mb(params)
    assert exact - half <= mean <= 1.02 * bound(params) + half


# --- output analysis: the warm-up the model deletes covers the transient MSER-5 finds

def _families() -> dict[tuple[str, str, str], VTSParams]:
    """One configuration per (feature, workload, bottleneck) the comparison simulates."""
    found: dict[tuple[str, str, str], VTSParams] = {}
    for params in configurations().values():
        found.setdefault((params.feature, params.workload, bottleneck(params)), params)
    return found


@pytest.mark.parametrize("family", sorted(_families()), ids=lambda f: "-".join(f))
def test_the_warmup_deletion_is_at_least_what_mser5_finds(family):
    """MSER-5 (White 1997; White, Cobb and Spratt 2000) on a pilot run of each configuration family.

    One pilot replication with nothing deleted, the response times at the
    bottleneck node in arrival order: the transient MSER-5 truncates must end
    before the warm-up the model deletes (:func:`~perfstudies.models.vts.network.warmup_s`).
    """
    params = _families()[family]
    node = PATHS[params.workload].index(bottleneck(params)) + 1
    found = pilot_warmup(build_network(params), seed=STUDY_SEED, max_time=run_length_s(params), node=node)
    assert found.reliable, f"{family}: the pilot run is too short for MSER-5 to see a steady state"
    assert warmup_s(params) >= found.time, (family, warmup_s(params), found.time)


TIMES = [name for name, field in VTSParams.__dataclass_fields__.items() if field.metadata.get("low") == TIME_FLOOR_S]


@pytest.mark.parametrize("workload", ["peak_write", "sustained_write", "read_recall"])
@pytest.mark.parametrize("compressibility", [1.0, 10.0])
def test_every_record_down_to_the_time_floor_solves_by_exact_mva(workload, compressibility):
    """Issue 27: an accepted record with its times near the old floor (3.6e-304 s) gave the cache a demand
    exact MVA refuses; the floor now keeps every demand at or above MVA's smallest time."""
    tiny = VTSParams(workload=workload, compressibility=compressibility, extrapolate=True, chunk_mb=CHUNK_MB_MIN,
                     volume_mb=VOLUME_MB_MAX, **{name: TIME_FLOOR_S for name in TIMES})
    assert len(TIMES) == 8
    assert min(demand for demand in mva_demands(tiny)[0].values() if demand > 0) >= mva.MIN_TIME
    assert math.isfinite(mva_solution(tiny).throughput)
    with pytest.raises(ValueError, match=r"^VTSParams\.mount_s = 1e-09 is out of range: allowed 4e-09 <= "):
        VTSParams(mount_s=1e-9)
