"""Every study entry point refuses a wrong argument by name, before it runs anything (issue 27).

For each of the five studies, each public function of its ``__all__`` that takes a parameter record
or a seed (figures aside), and ``model``, ``widget_run``, ``calibrate`` and ``sweep_points`` where they
take arguments, is called with a spread of wrong values: a string, ``None``, another study's record, a
float or a bool where a record goes; a float, a negative number, a bool, a string, ``None`` and
``MAX_SEED + 1`` for a seed.  Each call must raise ``TypeError`` (a record of the wrong class,
:func:`perfstudies.params.check_record`) or ``ValueError`` (anything else) whose message starts with
the argument's name; a record's message also names the class allowed and the class given.  The
refusal comes first, so no call here simulates anything.

Then the records refuse the values their models cannot sample: the three reproducers of the issue,
each at the floor derived in its record (a sampled mean at least the smallest normal float, a device
window that expects at least :data:`perfstudies.models.mdf.params.MIN_WINDOW_REQUESTS` requests).
"""

import math
import re
import traceback

import pytest

from perfstudies.models import diag44, mdf, spxtape, svcdump, vts
from perfstudies.models.spxtape.params import ConcurrentParams
from perfstudies.runner import MAX_SEED

#: Each study's main record, the record another study's entry point is handed by mistake.
RECORDS = {"spxtape": spxtape.SpxtapeParams, "svcdump": svcdump.DumpParams, "vts": vts.VTSParams,
           "diag44": diag44.DiagParams, "mdf": mdf.DeviceParams}
#: Whose record each study is handed: the next study's.
OTHER = dict(zip(RECORDS, list(RECORDS)[1:] + list(RECORDS)[:1]))


def _wrong_records(study: str, none_allowed: bool = False) -> list:
    wrong = ["defaults", 1.5, True, RECORDS[OTHER[study]]()]
    return wrong if none_allowed else [*wrong, None]


#: (study, entry point, call with the record replaced, argument name, record class(es) allowed, None allowed)
RECORD_CALLS = [
    ("spxtape", "model", lambda v: spxtape.model(v, 1), "params", "SpxtapeParams", False),
    ("spxtape", "build_network", lambda v: spxtape.build_network(v, 1), "params", "SpxtapeParams", False),
    ("spxtape", "trace", lambda v: spxtape.trace(v, 1), "params", "SpxtapeParams", False),
    ("spxtape", "volume_model", lambda v: spxtape.volume_model(v, 1), "params", "ConcurrentParams", False),
    ("spxtape", "table2_model", lambda v: spxtape.table2_model(v, 1), "params", "ConcurrentParams", False),
    ("spxtape", "busiest_volume_pages", lambda v: spxtape.busiest_volume_pages(v, [1]), "p", "SpxtapeParams", False),
    ("spxtape", "envelope", lambda v: spxtape.envelope(v, 1000.0), "p", "SpxtapeParams", False),
    ("spxtape", "widget_run", lambda v: spxtape.widget_run(v), "params", "SpxtapeParams", True),
    ("svcdump", "model", lambda v: svcdump.model(v, 1), "params", "DumpParams", False),
    ("svcdump", "dump_model", lambda v: svcdump.dump_model(v, 1), "params", "DumpParams", False),
    ("svcdump", "ipcs_model", lambda v: svcdump.ipcs_model(v, 1), "params", "DumpParams", False),
    ("svcdump", "widget_params", lambda v: svcdump.widget_params(v), "params", "DumpParams", False),
    ("svcdump", "bound_elapsed_s", lambda v: svcdump.bound_elapsed_s(v), "p", "DumpParams", False),
    ("svcdump", "bound_ipcs_s", lambda v: svcdump.bound_ipcs_s(v), "p", "DumpParams", False),
    ("svcdump", "bottleneck", lambda v: svcdump.bottleneck(v), "p", "DumpParams", False),
    ("svcdump", "knee_stripes", lambda v: svcdump.knee_stripes(v), "p", "DumpParams", False),
    ("svcdump", "widget_run", lambda v: svcdump.widget_run(v), "params", "DumpParams", True),
    ("vts", "model", lambda v: vts.model(v, 1), "params", "VTSParams", False),
    ("vts", "recall_model", lambda v: vts.recall_model(v, 1), "params", "VTSParams", False),
    ("vts", "widget_theory", lambda v: vts.widget_theory(v), "params", "VTSParams", False),
    *[("vts", name, lambda v, name=name: getattr(vts, name)(v), "p", "VTSParams", False)
      for name in ("bound", "bottleneck", "capacities", "copy_ceiling", "copy_service_s", "mva_solution",
                   "recall_service_s", "sustained_crossover_cf")],
    ("vts", "widget_run", lambda v: vts.widget_run(v), "params", "VTSParams", True),
    ("diag44", "model", lambda v: diag44.model(v, 1), "params", "DiagParams", False),
    ("diag44", "build_network", lambda v: diag44.build_network(v), "params", "DiagParams", False),
    ("diag44", "widget_run", lambda v: diag44.widget_run(v), "params", "DiagParams", True),
    ("mdf", "model", lambda v: mdf.model(v, 1), "params", "DeviceParams", False),
    ("mdf", "ims_model", lambda v: mdf.ims_model(v, 1), "params", "ImsParams", False),
    ("mdf", "tso_model", lambda v: mdf.tso_model(v, 1), "params", "TsoParams", False),
    ("mdf", "build_network", lambda v: mdf.build_network(v), "params", "DeviceParams, ImsParams or TsoParams", False),
    ("mdf", "widget_theory", lambda v: mdf.widget_theory(v), "panel", "PanelParams", False),
    ("mdf", "ims_bounds", lambda v: mdf.ims_bounds(v), "p", "ImsParams", False),
    ("mdf", "widget_run", lambda v: mdf.widget_run(v), "params", "PanelParams", True),
]

#: (study, entry point, call with the seed replaced): every function that takes a seed, with a good record.
SEED_CALLS = [
    ("spxtape", "model", lambda s: spxtape.model(spxtape.SpxtapeParams(), s)),
    ("spxtape", "build_network", lambda s: spxtape.build_network(spxtape.SpxtapeParams(), s)),
    ("spxtape", "trace", lambda s: spxtape.trace(spxtape.SpxtapeParams(), s)),
    ("spxtape", "volume_model", lambda s: spxtape.volume_model(ConcurrentParams(), s)),
    ("spxtape", "table2_model", lambda s: spxtape.table2_model(ConcurrentParams(), s)),
    ("svcdump", "model", lambda s: svcdump.model(svcdump.DumpParams(), s)),
    ("svcdump", "dump_model", lambda s: svcdump.dump_model(svcdump.DumpParams(), s)),
    ("svcdump", "ipcs_model", lambda s: svcdump.ipcs_model(svcdump.DumpParams(), s)),
    ("vts", "model", lambda s: vts.model(vts.VTSParams(), s)),
    ("vts", "recall_model", lambda s: vts.recall_model(vts.VTSParams(), s)),
    ("diag44", "model", lambda s: diag44.model(diag44.DiagParams(), s)),
    ("mdf", "model", lambda s: mdf.model(mdf.DeviceParams(), s)),
    ("mdf", "ims_model", lambda s: mdf.ims_model(mdf.ImsParams(), s)),
    ("mdf", "tso_model", lambda s: mdf.tso_model(mdf.TsoParams(), s)),
]
WRONG_SEEDS = [1.0, 2.5, -1, True, "1", None, MAX_SEED + 1]

#: (study, entry point, call, argument name): the other arguments of calibrate, sweep_points and the rest.
ARGUMENT_CALLS = [
    ("spxtape", "calibrate", lambda: spxtape.calibrate("32"), "chunk_pages"),
    ("spxtape", "calibrate", lambda: spxtape.calibrate(32.0), "chunk_pages"),
    ("spxtape", "calibrate", lambda: spxtape.calibrate(0), "chunk_pages"),
    ("spxtape", "calibrate", lambda: spxtape.calibrate([32]), "chunk_pages"),
    ("spxtape", "calibrate_concurrent", lambda: spxtape.calibrate_concurrent("303"), "dedicated_rate"),
    ("spxtape", "calibrate_concurrent", lambda: spxtape.calibrate_concurrent(math.nan), "dedicated_rate"),
    ("spxtape", "calibrate_concurrent", lambda: spxtape.calibrate_concurrent(0.0), "dedicated_rate"),
    ("spxtape", "busiest_volume_pages", lambda: spxtape.busiest_volume_pages(spxtape.SpxtapeParams(), 1), "seeds"),
    ("spxtape", "busiest_volume_pages", lambda: spxtape.busiest_volume_pages(spxtape.SpxtapeParams(), []), "seeds"),
    ("spxtape", "busiest_volume_pages", lambda: spxtape.busiest_volume_pages(spxtape.SpxtapeParams(), [1, -1]),
     "seeds"),
    ("spxtape", "busiest_volume_pages", lambda: spxtape.busiest_volume_pages(spxtape.SpxtapeParams(), [1.5]),
     "seeds"),
    ("spxtape", "envelope", lambda: spxtape.envelope(spxtape.SpxtapeParams(), "x"), "busiest_pages"),
    ("spxtape", "envelope", lambda: spxtape.envelope(spxtape.SpxtapeParams(), -1.0), "busiest_pages"),
    ("svcdump", "calibrate", lambda: svcdump.calibrate("cells"), "published"),
    ("svcdump", "calibrate", lambda: svcdump.calibrate({"compression": 0.7}), "published"),
    ("svcdump", "calibrate", lambda: svcdump.calibrate(None, 1.5), "dump_blocks"),
    ("svcdump", "calibrate", lambda: svcdump.calibrate(None, 5), "dump_blocks"),
    ("svcdump", "sweep_points", lambda: svcdump.sweep_points("1234"), "channel_paths"),
    ("svcdump", "sweep_points", lambda: svcdump.sweep_points(()), "channel_paths"),
    ("svcdump", "sweep_points", lambda: svcdump.sweep_points((1, 0)), "channel_paths"),
    ("svcdump", "sweep_points", lambda: svcdump.sweep_points((1.5,)), "channel_paths"),
    ("svcdump", "sweep_points", lambda: svcdump.sweep_points(None), "channel_paths"),
    ("diag44", "calibrate", lambda: diag44.calibrate("14"), "rounds"),
    ("diag44", "calibrate", lambda: diag44.calibrate(3), "rounds"),
    ("diag44", "calibrate", lambda: diag44.calibrate([14]), "rounds"),
    ("diag44", "calibrate", lambda: diag44.calibrate(14, 0), "replications"),
    ("diag44", "calibrate", lambda: diag44.calibrate(14, 2.0), "replications"),
    ("diag44", "calibrate_machines", lambda: diag44.calibrate_machines(True), "rounds"),
    ("diag44", "calibrate_machines", lambda: diag44.calibrate_machines(14, None), "replications"),
    ("mdf", "sweep_points", lambda: mdf.sweep_points("5,10"), "rates"),
    ("mdf", "sweep_points", lambda: mdf.sweep_points((5.0, 0.0)), "rates"),
    ("mdf", "sweep_points", lambda: mdf.sweep_points((5.0, 100.0)), "rates"),
    ("mdf", "sweep_points", lambda: mdf.sweep_points((None,)), "rates"),
    ("mdf", "sweep_points", lambda: mdf.sweep_points(parameters=(0,)), "parameters"),
    ("mdf", "sweep_points", lambda: mdf.sweep_points(parameters=("1",)), "parameters"),
    ("mdf", "sweep_points", lambda: mdf.sweep_points(parameters=()), "parameters"),
]


def _names_argument(message: str, name: str) -> bool:
    """The message starts with the argument (``seed = ``, ``seeds[1] = ``, ``published['compression'] = ``,
    ``calibrate.chunk_pages = ``)."""
    return re.match(rf"^(\w+\.)?{re.escape(name)}(\[[^]]+\])? = ", message) is not None


@pytest.mark.parametrize(("study", "entry", "call", "name", "allowed", "none_allowed"), RECORD_CALLS,
                         ids=[f"{row[0]}.{row[1]}" for row in RECORD_CALLS])
def test_a_wrong_record_is_refused_naming_argument_and_classes(study, entry, call, name, allowed, none_allowed):
    for value in _wrong_records(study, none_allowed):
        with pytest.raises(TypeError) as refused:
            call(value)
        message = str(refused.value)
        assert _names_argument(message, name), message
        assert f"allowed a {allowed} record" in message, message
        assert message.endswith(f"given a {type(value).__name__}"), message


@pytest.mark.parametrize(("study", "entry", "call"), SEED_CALLS, ids=[f"{row[0]}.{row[1]}" for row in SEED_CALLS])
@pytest.mark.parametrize("seed", WRONG_SEEDS, ids=repr)
def test_a_wrong_seed_is_refused_by_name(study, entry, call, seed):
    with pytest.raises(ValueError) as refused:
        call(seed)
    message = str(refused.value)
    assert _names_argument(message, "seed"), message
    assert "allowed an integer 0 <= seed <= 18446744073709551615" in message, message
    # refused by the entry point itself, before it builds or runs a simulation (run_ciw checks seeds too)
    assert "run_ciw" not in [frame.name for frame in traceback.extract_tb(refused.tb)], message


@pytest.mark.parametrize(("study", "entry", "call", "name"), ARGUMENT_CALLS,
                         ids=[f"{row[0]}.{row[1]}-{index}" for index, row in enumerate(ARGUMENT_CALLS)])
def test_other_arguments_are_refused_by_name_before_any_run(study, entry, call, name):
    with pytest.raises(ValueError) as refused:
        call()
    assert _names_argument(str(refused.value), name), str(refused.value)


def test_every_study_entry_point_that_takes_a_record_or_seed_is_covered():
    """A new public function that takes ``params``/``p``/``panel``/``seed`` needs a row above."""
    import inspect

    covered = {(study, entry) for study, entry, *_ in RECORD_CALLS + SEED_CALLS + ARGUMENT_CALLS}
    figures = {"widget_view", "run_chart", "elapsed_chart", "sweep_chart", "network_chart"}
    for study, module in (("spxtape", spxtape), ("svcdump", svcdump), ("vts", vts), ("diag44", diag44),
                          ("mdf", mdf)):
        for name in module.__all__:
            function = getattr(module, name)
            if name in figures or not inspect.isfunction(function):
                continue
            arguments = set(inspect.signature(function).parameters)
            if arguments & {"params", "p", "panel", "seed"}:
                assert (study, name) in covered, f"{study}.{name} takes {sorted(arguments)} and has no refusal test"


# --- records refuse the values their models cannot sample ---------------------------------------------

def test_diag44_refuses_a_base_work_whose_slices_underflow():
    from perfstudies.params import MIN_SAMPLED_MEAN

    with pytest.raises(ValueError, match=r"^DiagParams\.base_work_us = 5e-324 is out of range: .*client_share x "
                                         r"base_work_us / slices_per_tx \(the mean client slice\) is 0\.0; allowed "
                                         r".* >= 2\.2250738585072014e-308"):
        diag44.DiagParams(base_work_us=5e-324)
    with pytest.raises(ValueError, match=r"^DiagParams\.base_work_us = 1e-300 is out of range"):
        diag44.DiagParams(base_work_us=1e-300, client_share=1e-10)
    with pytest.raises(ValueError, match=r"^DiagParams\.off_processor_us = 1e-310 is out of range"):
        diag44.DiagParams(off_processor_us=1e-310)
    smallest = MIN_SAMPLED_MEAN * 20 / 0.278456 * (1 + 1e-12)      # slices_per_tx / client_share at the defaults
    assert diag44.DiagParams(base_work_us=smallest).base_work_us == smallest
    assert diag44.DiagParams(off_processor_us=0.0).off_processor_us == 0.0


def test_vts_refuses_a_mount_below_the_time_floor():
    from perfstudies import mva
    from perfstudies.models.vts.params import TIME_FLOOR_S
    from perfstudies.params import MIN_SAMPLED_MEAN

    assert TIME_FLOOR_S == pytest.approx(mva.MIN_TIME * 4000.0 / 1.0)  # exact MVA's bound is the larger
    for field in ("mount_s", "disk_op_s", "cpu_s_per_host_mb", "write_block_overhead_s"):
        with pytest.raises(ValueError, match=rf"^VTSParams\.{field} = 5e-324 is out of range: allowed "
                                             rf"4e-09 <= {field}"):
            vts.VTSParams(**{field: 5e-324, "disk_fixed_s": 5e-324} if field == "disk_op_s" else {field: 5e-324})
    # at the floor, the smallest Gamma scale the network samples (a chunk's share of a mount) is a normal float
    from perfstudies.models.vts.network import build_network

    p = vts.VTSParams(mount_s=TIME_FLOOR_S, chunk_mb=1.0, volume_mb=4000.0)
    tape = build_network(p).customer_classes["Customer"].service_distributions[-1]
    assert type(tape).__name__ == "CopyService" and MIN_SAMPLED_MEAN <= tape.gamma.scale
    assert tape.gamma.scale == pytest.approx(TIME_FLOOR_S / 4000.0 / 4.0)  # the share over SERVICE_SHAPE


def test_mdf_refuses_a_device_rate_whose_window_expects_too_few_requests():
    from perfstudies.models.mdf.params import MIN_WINDOW_REQUESTS

    assert math.exp(-MIN_WINDOW_REQUESTS) == pytest.approx(2.0**-64, rel=1e-12)
    for rate in (1e-300, 5e-324, 0.01):
        with pytest.raises(ValueError, match=rf"^DeviceParams\.rate = {re.escape(repr(rate))} is out of range: with "
                                             r"max_time - warmup = 280 s the measurement window expects .* requests; "
                                             r"allowed rate >= 0\.1584 I/O per s"):
            mdf.DeviceParams(rate=rate)
    assert mdf.DeviceParams(rate=0.1585).rate == 0.1585
    # the live panel's slowest device (1 I/O per s over its 45 s window) is still accepted
    from perfstudies.models.mdf.explore import DEVICE_RUN

    assert 1.0 * (DEVICE_RUN["max_time"] - DEVICE_RUN["warmup"]) >= MIN_WINDOW_REQUESTS
