"""Theory against simulation: the closed forms of analytic.py (and those calibration inverts) hold in the model.

The back-of-envelope ``analytic.envelope`` is exact for SPTAPE (one serial
server), exact up to the last chunk's tape transfer for a reading-bound
SPXTAPE dump whose changes are all hidden, and an upper bound on the tapes of
a multi-drive dump; the Table 2 volume's users' I/O response time and the
dump's share of the volume match their closed forms within the simulation's
95% confidence interval.
"""

import numpy as np
import pytest

from perfstudies.models.spxtape import ConcurrentParams, analytic, calibrate_concurrent, model, volume_model
from perfstudies.models.spxtape.calibration import configuration
from perfstudies.models.spxtape.workload import file_sizes, pareto_mean, pareto_shape, workload
from perfstudies.models.spxtape.network import volume_network
from perfstudies.models.spxtape.params import SEED
from perfstudies.runner import replicate, replication_seeds, run_ciw
from perfstudies.warmup import mser5, pilot_warmup, records_series

from .conftest import SEEDS


def _busiest(p, seed):
    return max(sum(chunk.pages for chunk in chunks) for chunks in workload(p, seed))


@pytest.mark.parametrize("function", ["DUMP", "LOAD"])
def test_sptape_is_exactly_the_serial_sum(coarse, function):
    p = configuration(coarse, "SPTAPE", function, 1)
    for seed in SEEDS:
        simulated, theory = model(p, seed), analytic.envelope(p, _busiest(p, seed))
        for metric in ("elapsed_s", "system_idle_s", "tapes"):
            assert simulated[metric] == pytest.approx(theory[metric], rel=1e-9), metric


@pytest.mark.parametrize("drives", [2, 4])
def test_a_reading_bound_dump_takes_its_busiest_volumes_reading_time(calibrated, drives):
    p = configuration(calibrated, "SPXTAPE", "DUMP", drives)  # full scale: 32-page customers
    last_block = p.chunk_pages * p.tape_page_time  # the last chunk still goes to tape after the last read
    for seed in SEEDS:
        simulated, theory = model(p, seed), analytic.envelope(p, _busiest(p, seed))
        assert simulated["system_idle_s"] == theory["system_idle_s"] == 0.0
        assert theory["elapsed_s"] <= simulated["elapsed_s"] <= theory["elapsed_s"] + last_block


def test_one_drive_idle_is_within_a_tenth_of_the_buffer_closed_form(calibrated):
    """The closed form lets all four volumes fill the buffer at full speed; late in the run fewer do."""
    p = configuration(calibrated, "SPXTAPE", "DUMP", 1)
    for seed in SEEDS:
        simulated, theory = model(p, seed), analytic.envelope(p, _busiest(p, seed))
        assert simulated["system_idle_s"] == pytest.approx(theory["system_idle_s"], rel=0.10)
        assert simulated["elapsed_s"] == pytest.approx(theory["elapsed_s"], rel=0.02)
        assert simulated["tapes"] == theory["tapes"]


def test_a_load_is_paced_by_file_creation(calibrated):
    p = configuration(calibrated, "SPXTAPE", "LOAD", 1).replace(chunk_pages=128)
    for seed in SEEDS:
        simulated, theory = model(p, seed), analytic.envelope(p, _busiest(p, seed))
        assert theory["elapsed_s"] <= simulated["elapsed_s"] <= 1.01 * theory["elapsed_s"]
        assert simulated["tapes"] == theory["tapes"]


@pytest.mark.parametrize("drives", [2, 4])
def test_the_envelope_bounds_the_tapes_of_several_drives(calibrated, drives):
    p = configuration(calibrated, "SPXTAPE", "DUMP", drives)
    for seed in SEEDS:
        assert analytic.tapes_needed(p) - drives + 1 <= model(p, seed)["tapes"] <= analytic.tapes_needed(p)


@pytest.fixture(scope="module")
def volume():
    p = calibrate_concurrent(300.0)
    return p, replicate(volume_model, p, 10, seed=5, progress=False).summary()


def test_users_io_response_matches_its_closed_form(volume):
    p, summary = volume
    mean, half_width = summary.loc["user_io_response_s", ["mean", "half_width"]]
    assert abs(mean - analytic.user_io_response(p)) <= half_width


def test_the_dump_keeps_what_the_users_leave(volume):
    """``1 - rho`` of the volume, less the reads queued when the warm-up ends (their records are dropped)."""
    p, summary = volume
    mean, half_width = summary.loc["dump_pages_per_s", ["mean", "half_width"]]
    theory = p.dedicated_rate * analytic.dump_share(p)
    dropped = p.dump_reads_queued * p.page_io_time / (p.run_time - p.warmup)
    assert theory * (1 - dropped) - half_width <= mean <= theory + half_width


def test_the_calibrations_queue_inversion_is_within_a_page_time_of_the_exact_form():
    for rho in (0.1, 0.22, 0.5):
        for queued in (10, 235, 2000):
            p = ConcurrentParams(page_io_time=0.0113, user_io_rate=rho / 0.0113, dump_reads_queued=queued)
            exact = analytic.user_io_response(p)
            assert abs(analytic.reads_queued_for(exact, p.page_io_time, rho) - queued) <= 1


def test_without_the_dump_users_see_an_mm1_volume():
    p = ConcurrentParams(page_io_time=0.0113, user_io_rate=19.3, dump_reads_queued=1)
    rho = analytic.user_utilisation(p)
    assert analytic.user_io_response_alone(p) == pytest.approx(0.0113 / (1 - rho))


def test_file_sizes_have_the_stated_range_and_mean():
    shape = pareto_shape(10.4)
    assert pareto_mean(shape) == pytest.approx(10.4, rel=1e-9)
    sizes = file_sizes(34_000, 353_000, 10.4, np.random.default_rng(1))
    assert sizes.sum() == pytest.approx(353_000)
    assert sizes.max() <= 600_000 * 80 / 4096 * 1.01


@pytest.mark.parametrize("seed", replication_seeds(SEED, 3))
def test_the_volume_runs_warm_up_is_at_least_what_mser5_finds(seed):
    """The Table 2 volume is measured in steady state after ``warmup`` seconds; a pilot run with no
    deletion, cut by MSER-5 (White, K. P. (1997), *An effective truncation heuristic for bias reduction
    in simulation output*, Simulation 69(6), 323-334), must not ask for more: neither on the volume's
    records (the dump's reads and the users' I/Os) nor on the users' I/Os alone, the reported series.
    (The Table 1 runs are finite jobs measured from start to end: they delete nothing.)"""
    p = calibrate_concurrent(300.0)
    assert pilot_warmup(volume_network(p), seed, p.run_time, node=1).time <= p.warmup
    _, records = run_ciw(volume_network(p), seed, p.run_time, 0.0)
    times, values = records_series(records[records["customer_class"] == "users"], "response_time")
    assert mser5(values, times).time <= p.warmup
