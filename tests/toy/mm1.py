"""A complete minimal study, declared on the core contract: an M/M/1 queue and two published cells.

It shows how small a study is (the README's "Adding a study" walks through
it): a parameter record, a Ciw model, the cells with their roles, one
experiment, and the ``STUDY`` record.  The "document" is a textbook table of
an M/M/1 queue with service rate 1: at utilisation 0.5 the mean time in
system is 2, at 0.75 it is 4 (W = 1 / (mu - lambda)), twice as long.
"""

import dataclasses

import ciw

from perfstudies.cells import Baseline, CellSpec, Derivation, Experiment, metric, ratio
from perfstudies.compare import Published
from perfstudies.facts import Fact
from perfstudies.panel import Panel, run_panel
from perfstudies.params import Params, param
from perfstudies.runner import run_ciw
from perfstudies.stored_sweeps import Sweep
from perfstudies.study import Study

KEY = "mm1"
DOCUMENT = "A textbook M/M/1 table"
SEED = 7


@dataclasses.dataclass(frozen=True)
class QueueParams(Params):
    """An M/M/1 queue with service rate 1."""

    arrival_rate: float = param(0.5, low=0.05, high=0.9, unit="1/s", doc="Poisson arrival rate")
    horizon_s: float = param(2_000.0, low=100.0, high=20_000.0, unit="s", doc="simulated time")


def model(params: QueueParams, seed: int) -> dict[str, float]:
    """One replication: mean time in system after a 10% warm-up."""
    network = ciw.create_network(arrival_distributions=[ciw.dists.Exponential(params.arrival_rate)],
                                 service_distributions=[ciw.dists.Exponential(1.0)], number_of_servers=[1])
    _, records = run_ciw(network, seed, params.horizon_s, warmup=0.1 * params.horizon_s)
    return {"time_in_system_s": float((records["exit_date"] - records["arrival_date"]).mean())}


LIGHT = Published("Table 1", "time in system (s)", "rho = 0.5", 2.0)
HEAVY = Published("Table 1", "time in system (s)", "rho = 0.75", 4.0)
SLOWDOWN = Published("Table 1", "slowdown", "rho = 0.75 over 0.5", 2.0)


def experiments() -> list[Experiment]:
    return [Experiment("queue", model, {"light": QueueParams(0.5), "heavy": QueueParams(0.75)}, initial=5, cap=20)]


def cells() -> list[CellSpec]:
    return [
        CellSpec(LIGHT, "calibration", metric("queue", "light", "time_in_system_s"), sets="arrival_rate"),
        CellSpec(HEAVY, "prediction", metric("queue", "heavy", "time_in_system_s"),
                 baseline=Baseline(LIGHT.value, "persistence", "the time measured at rho = 0.5"),
                 note="Simulated: an M/M/1 queue at the heavier load."),
        CellSpec(SLOWDOWN, "derived", ratio("queue", "light", "heavy", "time_in_system_s"),
                 derivation=Derivation((HEAVY.where, LIGHT.where), lambda heavy, light: heavy / light,
                                       "the ratio of the two times, by definition")),
    ]


def calibrate() -> QueueParams:
    return QueueParams()


def widget_run(params: QueueParams | None = None):
    return run_panel(PANEL, params)


def sweep_points() -> list[QueueParams]:
    return [QueueParams(rate) for rate in (0.3, 0.5, 0.7)]


def facts() -> dict[str, Fact]:
    """What the chapter's prose would quote: the closed form beside the published heavy-load time."""
    heavy = QueueParams(0.75).arrival_rate
    return {"heavy-closed-form-s": Fact(1 / (1 - heavy), "s", "W = 1 / (mu - lambda) at rho = 0.75")}


#: The live panel: the arrival rate moves, the time in system shows, with its change from rho = 0.5.
PANEL = Panel(QueueParams, controls=("arrival_rate",), main="arrival_rate", defaults=QueueParams, model=model,
              shown={"time_in_system_s": "time in system (s)"}, seed=SEED, replications=3)

#: The chapter's precomputed sweep: the time in system at three loads, for a kernel-free slider.
SWEEPS = {"loads": Sweep(name=f"{KEY}-loads", scope=KEY, model=model, points=sweep_points, replications=3, seed=SEED)}

STUDY = Study(key=KEY, document=DOCUMENT, seed=SEED, params=QueueParams, model=model, calibrate=calibrate,
              cells=cells, experiments=experiments, widget_run=widget_run, sweeps=SWEEPS,
              panel=PANEL, facts=facts)
