"""The DIAG X'44' fast path study: mechanism, validation, determinism and calibration."""

import pytest

from perfstudies.accuracy import study_comparison
from perfstudies.compare import ROLES
from perfstudies.models.diag44 import WIDGET_DEFAULTS, DiagParams, calibrate, model, widget_run
from perfstudies.models.diag44.analytic import no_sibling_queued, percent_fast, queued_share
from perfstudies.models.diag44.calibration import (CALIBRATED_FIELDS, CALIBRATION_CELLS, DirectionalChangeCell,
                                                   measurements)
from perfstudies.models.diag44.network import (REAL_PROCESSORS, SCHEDULER_LOCK, FIFONode, IdleNode,
                                               RealProcessorNode, build_network)
from perfstudies.runner import replicate, run_ciw

SHORT = dict(max_time_us=1.0e6, warmup_us=1.0e5)


def simulate(**fields):
    """Run the network and return the simulation (for looking inside the nodes)."""
    p = DiagParams(**SHORT).replace(**fields)
    simulation, _ = run_ciw(build_network(p), 3, p.max_time_us, p.warmup_us,
                            node_class=[RealProcessorNode, FIFONode, IdleNode])
    return p, simulation


def mean(metric, replications=2, **fields):
    p = DiagParams(**SHORT).replace(**fields)
    return replicate(model, p, replications=replications, seed=5, progress=False).mean(metric)


def test_a_time_slice_sends_a_virtual_processor_to_the_back_of_the_queue():
    assert mean("tx_rate", time_slice_us=500.0) != mean("tx_rate")
    _, simulation = simulate(time_slice_us=200.0, real_processors=12)
    node = simulation.nodes[REAL_PROCESSORS]
    serving = [server.cust for server in node.servers if server.busy and server.cust.customer_class == "server"]
    assert serving, "some server guest is running"
    assert all(ind.service_end_date - ind.service_start_date <= 200.0 for ind in serving)


@pytest.mark.parametrize("field, value, allowed", [
    ("real_processors", 0, "1 <= real_processors <= 16"),
    ("client_vps", 9, "1 <= client_vps <= 8"),
    ("connections", -4, "2 <= connections <= 120"),
    ("contention", 1.0, "contention < 1.0"),
    ("fast_path", "yes", "True or False"),
])
def test_invalid_parameters_name_the_field_and_range(field, value, allowed):
    with pytest.raises(ValueError, match=f"DiagParams.{field} = .*{allowed}"):
        DiagParams(**{field: value})


def test_warmup_must_be_shorter_than_the_run():
    with pytest.raises(ValueError, match="DiagParams.warmup_us = .*warmup_us < max_time_us"):
        DiagParams(max_time_us=1e5, warmup_us=2e5)


def test_analytic_functions_refuse_bad_input():
    with pytest.raises(ValueError, match="utilization = 1.2"):
        queued_share(9, 1.2)
    with pytest.raises(ValueError, match="vps = 0"):
        no_sibling_queued(0, 0.1)
    with pytest.raises(ValueError, match="diags_per_fast_yield = 0"):
        percent_fast(0.5, 0, 50)


def test_fast_path_off_gives_no_fast_path_diagnoses():
    p = DiagParams(fast_path=False, **SHORT)
    metrics = model(p, 1)
    assert metrics["diag_normal"] > 0, "the clients do yield"
    assert metrics["diag_fast"] == 0 and metrics["pct_fast"] == 0


def test_a_lone_virtual_processor_never_finds_a_sibling_queued():
    p, simulation = simulate(client_vps=1, real_processors=2)
    node = simulation.nodes[REAL_PROCESSORS]
    clients = [ind for queue in node.individuals for ind in queue if ind.customer_class.startswith("client")]
    assert clients, "some client connections are at the real processors"
    assert all(node.queued_siblings(ind) == 0 and node.takes_fast_path(ind) for ind in clients)
    assert model(p, 2)["diag_normal"] == 0


def test_a_queued_sibling_forces_the_normal_path():
    _, simulation = simulate(client_vps=8, real_processors=5)
    node = simulation.nodes[REAL_PROCESSORS]
    clients = [ind for queue in node.individuals for ind in queue if ind.customer_class.startswith("client")]
    blocked = [ind for ind in clients if node.queued_siblings(ind) > 0]
    assert blocked and not any(node.takes_fast_path(ind) for ind in blocked)


def test_a_guest_never_has_more_connections_on_vps_than_it_has_vps():
    p, simulation = simulate(client_vps=3)
    present = [ind for node in (simulation.nodes[REAL_PROCESSORS], simulation.nodes[SCHEDULER_LOCK])
               for queue in node.individuals for ind in queue]
    for guest in ("client0", "client1"):
        assert sum(ind.guest == guest for ind in present) <= p.client_vps
    assert simulation.nodes[REAL_PROCESSORS].parked["client0"], "work waits inside the guest for a VP"


def test_percent_fast_path_falls_as_virtual_processors_rise():
    shares = [mean("pct_fast", client_vps=v) for v in (3, 6, 8)]
    assert shares[0] > shares[1] > shares[2]


def test_the_fast_path_cuts_normal_diagnoses_and_cp_time():
    assert mean("diag_normal", fast_path=True) < 0.2 * mean("diag_normal", fast_path=False)
    assert mean("cp_us_per_tx", fast_path=True) < mean("cp_us_per_tx", fast_path=False)


def test_theory_no_sibling_queued_is_binomial():
    assert no_sibling_queued(1, 0.3) == 1.0
    assert no_sibling_queued(3, 0.1) == pytest.approx(0.81)
    assert queued_share(9, 0.5) < queued_share(9, 0.9) < queued_share(5, 0.9)
    assert percent_fast(1.0, 273.0, 50.0) == 100.0


def test_same_seed_same_numbers():
    p = DiagParams(**SHORT)
    assert model(p, 7) == model(p, 7)


def test_seeded_regression_values():
    metrics = model(WIDGET_DEFAULTS, 1)
    assert metrics["tx_rate"] == pytest.approx(105.33333333333331, rel=1e-9)
    assert metrics["diag_total"] == pytest.approx(516790.6762962678, rel=1e-9)
    assert metrics["cp_us_per_tx"] == pytest.approx(38235.40047655977, rel=1e-9)
    assert metrics["diag_normal"] == pytest.approx(8296.296296296296, rel=1e-9)


def test_widget_run_summarizes_replications_with_intervals():
    summary = widget_run()
    assert summary.loc["pct_fast", "n"] == 3 and summary.loc["tx_rate", "half_width"] > 0


def test_pinned_constants_are_what_calibration_returns():
    calibrated, pinned = calibrate(), DiagParams()
    for field in CALIBRATED_FIELDS:
        assert getattr(calibrated, field) == pytest.approx(getattr(pinned, field), rel=1e-5), field


def test_comparison_covers_every_published_cell_with_calibrations_in_tolerance():
    table = study_comparison("diag44")
    published = measurements()
    repeated = (published["table"] == "9-way virtual processors") & (published["column"] == "3") \
        & ~published["metric"].isin(["spin_rate", "pct_spin"])
    assert len(table[~table["table"].str.startswith("text:")]) == (~repeated).sum()
    assert len(table[table["table"].str.startswith("text:")]) == 16
    assert set(table["role"]) <= set(ROLES)
    assert (table["role"] == "calibration").sum() == len(CALIBRATION_CELLS)
    calibrated = table[table["role"] == "calibration"]
    assert calibrated["within_tolerance"].all(), calibrated[["row", "column", "published", "model"]]
    zero = table[table["published"] == 0]
    assert len(zero) == 4 and (zero["tolerance_kind"] == "absolute").all() and zero["within_tolerance"].all()


def test_a_transaction_rate_change_must_have_the_published_sign():
    def change(model):
        return DirectionalChangeCell("t", "change in transaction rate", "a -> b (%)", 1.4, model, "prediction",
                                     tolerance=3.0, tolerance_kind="absolute")
    assert change(2.0).within_tolerance
    assert not change(-0.5).within_tolerance, "within 3 points but the wrong direction"
    assert not change(4.5).within_tolerance
