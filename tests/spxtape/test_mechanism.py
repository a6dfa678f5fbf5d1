"""The mechanisms of mechanism.py, checked through the networks that use them."""

import ciw
import numpy as np
import pandas as pd
import pytest

from perfstudies.models.spxtape import ConcurrentParams, build_network, model, volume_model
from perfstudies.models.spxtape.mechanism import (CHANGING, ChunkStream, FileCreation, PerChunk, TapeDriveNode,
                                                  TapeLog, ToChunkVolume)
from perfstudies.models.spxtape.metrics import (COLUMNS, buffer_frame, covered, merge, run_metrics, timeline_frame,
                                                work_intervals)
from perfstudies.models.spxtape.network import HORIZON, simulate
from perfstudies.models.spxtape.workload import Chunk
from perfstudies.networks import with_state
from perfstudies.runner import run_ciw

from .conftest import SEEDS


@pytest.mark.parametrize("function", ["DUMP", "LOAD"])
def test_sptape_is_idle_for_every_tape_change(coarse, function):
    metrics = model(coarse.replace(command="SPTAPE", function=function, drives=1), SEEDS[0])
    assert metrics["tape_change_s"] > 0
    assert metrics["system_idle_s"] == pytest.approx(metrics["tape_change_s"], rel=1e-12)
    assert metrics["overlap_pct"] == 0.0


def test_two_drives_overlap_every_change_while_reading_is_the_bottleneck(calibrated):
    p = calibrated.replace(drives=2)  # full-scale customers: 32 pages, four 32 KB blocks
    for seed in SEEDS:
        metrics = model(p, seed)
        assert metrics["tape_change_s"] > 0
        assert metrics["system_idle_s"] == 0.0, f"seed {seed}"


def test_with_four_drives_only_a_change_after_the_last_read_can_idle(calibrated):
    p = calibrated.replace(drives=4)
    for seed in SEEDS:
        records, log, roles = simulate(p, seed)
        reads_end = records[records["node"].isin(roles["volumes"])]["service_end_date"].max()
        work = work_intervals(records, log, roles)
        for _, state, start, end in log.segments:
            if state == CHANGING and end <= reads_end:
                assert covered((start, end), work) == pytest.approx(end - start)


def test_one_drive_idles_once_the_buffer_is_full(coarse):
    one = coarse.replace(drives=1)
    small, large = (model(one.replace(buffer_mb=mb), SEEDS[0]) for mb in (4.0, 512.0))
    assert small["system_idle_s"] > model(one, SEEDS[0])["system_idle_s"] > large["system_idle_s"]
    assert large["system_idle_s"] == 0.0  # 512 MB outlasts a one-minute change


@pytest.mark.parametrize("drives", [1, 2, 4, 8])
def test_n_drives_use_at_least_n_tapes(coarse, drives):
    metrics = model(coarse.replace(drives=drives), SEEDS[0])
    assert metrics["tapes"] >= drives
    assert metrics["tapes"] == drives + round(metrics["tape_change_s"] / coarse.change_time)


def test_sptape_tape_marks_cost_tapes(coarse):
    sptape = model(coarse.replace(command="SPTAPE", drives=1), SEEDS[0])
    spxtape = model(coarse.replace(drives=1), SEEDS[0])
    assert sptape["tapes"] > spxtape["tapes"]
    assert sptape["elapsed_s"] > 5 * spxtape["elapsed_s"]


def test_an_instant_tape_change_still_uses_a_new_cartridge(coarse):
    instant = model(coarse.replace(drives=1, change_time=0.0), SEEDS[0])
    assert instant["tapes"] == model(coarse.replace(drives=1), SEEDS[0])["tapes"] > 1
    assert instant["system_idle_s"] == 0.0


def test_a_loaded_chunk_goes_back_to_its_own_volume(coarse):
    p = coarse.replace(function="LOAD", drives=1)
    records, _, roles = simulate(p, SEEDS[0])
    written = records[records["node"].isin(roles["volumes"])]
    assert set(written["node"]) == set(roles["volumes"])  # every volume gets pages back
    assert len(written) == len(records[records["node"] == roles["create"][0]])


@pytest.mark.parametrize("command", ["SPTAPE", "SPXTAPE"])
def test_a_load_pays_processor_time_for_every_file_it_creates_and_a_dump_for_none(coarse, command):
    drives = 1
    load = coarse.replace(command=command, function="LOAD", drives=drives)
    per_page = load.cpu_per_page * load.total_pages
    _, log, _ = simulate(load, SEEDS[0])
    assert log.created_cpu_s == pytest.approx(load.files * load.cpu_per_file, rel=1e-9)
    assert model(load, SEEDS[0])["processor_s"] == pytest.approx(per_page + load.files * load.cpu_per_file)
    dearer = load.replace(cpu_per_file=2 * load.cpu_per_file)
    assert model(dearer, SEEDS[0])["processor_s"] > model(load, SEEDS[0])["processor_s"]
    assert model(dearer, SEEDS[0])["elapsed_s"] == model(load, SEEDS[0])["elapsed_s"]  # processor time, not pacing
    dump = load.replace(function="DUMP")
    assert model(dump, SEEDS[0])["processor_s"] == pytest.approx(per_page)


def test_each_run_binds_its_own_tape_log(coarse):
    first, second = build_network(coarse, SEEDS[0]), build_network(coarse, SEEDS[1])
    tape_first, tape_second = first.node_classes[-1], second.node_classes[-1]
    assert issubclass(tape_first, TapeDriveNode) and tape_first is not tape_second
    assert tape_first.log is first.log and tape_second.log is second.log and first.log is not second.log
    assert not hasattr(first.network, "log")


def test_same_seed_same_numbers(coarse):
    assert model(coarse, 11) == model(coarse, 11)
    assert model(coarse, 11) != model(coarse, 12)
    assert volume_model(ConcurrentParams(), 3) == volume_model(ConcurrentParams(), 3)


def test_every_class_says_what_it_is():
    log = TapeLog(capacity=100.0, mark_pages=0.0, change_time=60.0)
    chunks = [Chunk(0, 32.0, 3), Chunk(0, 16.0, 1)]
    assert repr(ChunkStream(chunks, 0.01, 0.2, log)) == "ChunkStream(chunks=2, per_page=0.01, per_file=0.2)"
    assert repr(PerChunk(0.001)) == "PerChunk(per_page=0.001, per_file=0.0)"
    assert repr(FileCreation(0.12, 0.02, log)) == "FileCreation(per_file=0.12, cpu_per_file=0.02)"
    assert repr(ToChunkVolume(3)) == "ToChunkVolume(first_volume_node=3)"
    network = ciw.create_network(arrival_distributions=[ciw.dists.Deterministic(1.0)],
                                 service_distributions=[ciw.dists.Deterministic(0.5)], number_of_servers=[2])
    simulation = ciw.Simulation(network, node_class=with_state(TapeDriveNode, log=log))
    assert repr(simulation.nodes[1]) == "TapeDriveNode(drives=2, capacity_pages=100.0, change_time=60.0)"


def _union_by_hand(intervals):
    union = []
    for start, end in sorted(map(tuple, intervals)):
        if union and start <= union[-1][1]:
            union[-1][1] = max(union[-1][1], end)
        else:
            union.append([start, end])
    return np.array(union).reshape(-1, 2)


@pytest.mark.parametrize("seed", range(20))
def test_merge_is_the_union_as_sorted_disjoint_rows(seed):
    rng = np.random.default_rng(seed)
    ends = rng.random((rng.integers(0, 30), 2)) * 10
    intervals = np.sort(np.round(ends) if seed % 2 else ends, axis=1)  # rounded: rows that touch
    assert np.array_equal(merge(intervals), _union_by_hand(intervals))


@pytest.mark.parametrize("changes", [{}, {"drives": 1}, {"function": "LOAD", "drives": 1},
                                     {"command": "SPTAPE", "drives": 1}, {"drives": 4, "buffer_mb": 1.0}])
def test_the_record_columns_give_what_the_full_records_frame_gives(coarse, changes):
    # simulate() keeps the numeric columns only (metrics.COLUMNS); metrics and frames must be the full frame's
    p = coarse.replace(**changes)
    records, log, roles = simulate(p, SEEDS[0])
    built = build_network(p, SEEDS[0])
    _, full = run_ciw(built.network, SEEDS[0], HORIZON, node_class=built.node_classes)
    pd.testing.assert_frame_equal(records, full[list(COLUMNS)], check_exact=True)
    assert run_metrics(records, log, roles, p) == run_metrics(full, built.log, roles, p)
    for frame in (timeline_frame, buffer_frame):
        pd.testing.assert_frame_equal(frame(records, log, roles), frame(full, built.log, roles), check_exact=True)


def test_settings_that_share_their_files_share_the_kept_workload(coarse):
    # workload() keeps recent files: the same chunks for a move of the drives, fresh lists for each caller
    from perfstudies.models.spxtape.workload import workload
    first, moved = workload(coarse, SEEDS[0]), workload(coarse.replace(drives=5, command="SPXTAPE"), SEEDS[0])
    assert first == moved and first is not moved and first[0] is not moved[0]
    first[0].clear()  # a caller's own list: clearing it leaves the kept workload whole
    assert workload(coarse, SEEDS[0]) == moved != workload(coarse, SEEDS[1])
