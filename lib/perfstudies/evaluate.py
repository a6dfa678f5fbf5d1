"""The one evaluator: a study's declared cells and experiments -> the standard comparison table.

Every study's comparison is computed here, the same way (:func:`evaluate`):

1. the declarations are checked (:func:`perfstudies.cells.check_specs`), and a
   derived cell whose identity does not reproduce its published value from
   the published values of its sources is refused
   (:func:`perfstudies.cells.refused_derivations`): it must be a prediction;
2. each experiment runs, in declaration order, ``initial`` replications of
   every configuration its cells use; replication *i* of every configuration
   has the seed ``replication_seeds(seed, cap)[i]`` (common random numbers),
   so a ratio or change between configurations is computed per replication;
3. replications are added (half as many again, at least one: the sequential
   rule of :func:`perfstudies.runner.replicate_until`) to the configurations
   of every calibrated or predicted cell whose 95% half-width is wider than
   :func:`perfstudies.compare.decided` allows, until it is or the
   experiment's cap is reached; a cell that declares a
   :class:`~perfstudies.cells.Precision` (any role) is held to that too; a
   cell still imprecise at the cap says so in its note
   (:func:`perfstudies.compare.imprecise_note}); a configuration also runs
   every seed a configuration it shares a cell with (a ratio, a change) runs
   for its own cells, so that cell pairs all of them;
4. each cell becomes a :class:`perfstudies.compare.Cell` (mean, half-width,
   baseline, note) and the cells the standard table.
"""

import dataclasses
import math
from collections.abc import Callable, Iterable, Mapping

import numpy as np
import pandas as pd

from perfstudies import student_t
from perfstudies.cells import (CellSpec, Exact, Experiment, Simulated, check_configurations, check_specs,
                               refused_derivations)
from perfstudies.compare import Cell, comparison_table, decided, imprecise_note
from perfstudies.params import check_callable, check_flag, check_integer, check_text
from perfstudies.runner import MAX_SEED, model_metrics, progress_bar, replication_seeds

#: Confidence level of every interval of the comparison.
CONFIDENCE = 0.95


def evaluate(study: str, document: str, seed: int, experiments: Iterable[Experiment],
             specs: Iterable[CellSpec], progress: bool = False) -> pd.DataFrame:
    """The standard comparison table of ``specs``: :func:`tabulate` of :func:`simulate`.

    Parameters
    ----------
    study, document : str
        The study's key and the document's title (columns of the table).
    seed : int
        The study's base seed.
    experiments : iterable of Experiment
        Every experiment a :class:`~perfstudies.cells.Simulated` cell names, in
        the order they run.
    specs : iterable of CellSpec
    progress : bool
        Show a progress bar over each experiment's replications.

    Returns
    -------
    pandas.DataFrame
        :data:`perfstudies.compare.COLUMNS`.
    """
    experiments, specs = list(experiments), list(specs)
    return tabulate(study, document, experiments, specs, simulate(seed, experiments, specs, progress))


def simulate(seed: int, experiments: Iterable[Experiment], specs: Iterable[CellSpec],
             progress: bool = False, replicate: Callable | None = None) -> dict[str, dict[str, pd.DataFrame]]:
    """Every experiment's replications, until each calibrated or predicted cell is precise or at its cap.

    Checks the declarations first (a refused derived cell stops it, named).
    Returns ``{experiment: {configuration: frame}}``, one frame row per
    replication (replication *i* has seed ``replication_seeds(seed, cap)[i]``)
    and one column per metric: what a chapter reads to show a run's own
    numbers without simulating it again.

    ``replicate(experiment, name, configuration, index, seed)`` makes one
    replication's metrics; the default runs the model
    (:func:`perfstudies.runner.model_metrics`).  :mod:`perfstudies.stored_runs`
    passes one that reads stored replications, to replay this very rule over them.
    """
    seed = check_integer("seed", seed, low=0, high=MAX_SEED)
    check_flag("progress", progress)
    specs = check_specs(specs)
    experiments = _check_experiments(experiments, specs)
    refused = refused_derivations(specs)
    if refused:
        raise ValueError("derived cells refused (their identity does not reproduce the published value from "
                         "published sources; declare them as predictions):\n" + "\n".join(refused))
    replicate = _simulated if replicate is None else check_callable("replicate", replicate)
    finished: dict[str, dict[str, pd.DataFrame]] = {}
    for experiment in experiments:
        finished[experiment.name] = _run_experiment(experiment, _own(experiment, specs), seed, finished, progress,
                                                    replicate)
    return finished


def _simulated(experiment: Experiment, name: str, configuration, index: int, seed: int) -> Mapping[str, float]:
    """Replication ``index`` of configuration ``name``: the experiment's model run with its seed."""
    return model_metrics(experiment.model, configuration, seed)


def tabulate(study: str, document: str, experiments: Iterable[Experiment], specs: Iterable[CellSpec],
             runs: Mapping[str, Mapping[str, pd.DataFrame]]) -> pd.DataFrame:
    """The standard comparison table of ``specs`` from the replications :func:`simulate` returned."""
    check_text("study", study, empty=False)
    check_text("document", document, empty=False)
    specs = check_specs(specs)
    experiments = _check_experiments(experiments, specs)
    caps = {spec.key: experiment.cap for experiment in experiments for spec in _own(experiment, specs)}
    missing = sorted({spec.model.experiment for spec in specs if isinstance(spec.model, Simulated)} - set(runs))
    if missing:
        raise ValueError(f"runs lack experiments {missing}: allowed what simulate() returned for these cells")
    cells = [_cell(spec, _values(spec.model, runs[spec.model.experiment]) if spec.key in caps else None,
                   caps.get(spec.key)) for spec in specs]
    return comparison_table(cells, study=study, document=document)


def _own(experiment: Experiment, specs: list[CellSpec]) -> list[CellSpec]:
    """The cells simulated in ``experiment``."""
    return [spec for spec in specs if isinstance(spec.model, Simulated) and spec.model.experiment == experiment.name]


def _check_experiments(experiments, specs: list[CellSpec]) -> list[Experiment]:
    if isinstance(experiments, (str, bytes, Experiment)) or not isinstance(experiments, Iterable):
        raise ValueError(f"experiments = {experiments!r} has the wrong type: allowed an iterable of Experiment")
    experiments = list(experiments)
    names = []
    for experiment in experiments:
        if not isinstance(experiment, Experiment):
            raise ValueError(f"experiments item {experiment!r} has the wrong type: allowed Experiment")
        if experiment.name in names:
            raise ValueError(f"experiments declare {experiment.name!r} twice: allowed unique names")
        names.append(experiment.name)
    unknown = sorted({spec.model.experiment for spec in specs if isinstance(spec.model, Simulated)} - set(names))
    if unknown:
        raise ValueError(f"cells name experiments {unknown} that are not declared: allowed one of {names}")
    return experiments


def _run_experiment(experiment: Experiment, specs: list[CellSpec], seed: int,
                    finished: Mapping[str, Mapping[str, pd.DataFrame]], progress: bool, replicate: Callable):
    """Replicate the configurations ``specs`` use until each is precise or at the cap.

    Returns ``{configuration: per-replication metrics frame}``.
    """
    configurations = experiment.configurations
    if callable(configurations):
        configurations = check_configurations(f"Experiment({experiment.name!r}).configurations()",
                                              configurations(finished))
    used = list(dict.fromkeys(config for spec in specs for config in spec.model.configurations))
    unknown = [config for config in used if config not in configurations]
    if unknown:
        raise ValueError(f"cells of experiment {experiment.name!r} use configurations {unknown}: "
                         f"allowed one of {list(configurations)}")
    seeds = replication_seeds(seed, experiment.cap)
    rows: dict[str, list[Mapping[str, float]]] = {config: [] for config in used}
    own = dict.fromkeys(used, experiment.initial)  # what each configuration's own cells need
    while True:
        wanted = _paired(own, specs)
        tasks = [(config, index) for config in used for index in range(len(rows[config]), wanted[config])]
        for config, index in progress_bar(tasks, f"{experiment.name}", progress):
            rows[config].append(replicate(experiment, config, configurations[config], index, seeds[index]))
        frames = {config: pd.DataFrame(rows[config]) for config in used}
        values = {spec.key: _values(spec.model, frames) for spec in specs}
        short = {config for spec in specs if (spec.role != "derived" or spec.precision is not None)
                 and not _precise(spec, values[spec.key])
                 for config in spec.model.configurations if len(rows[config]) < experiment.cap}
        if not short:
            return frames
        for config in short:
            done = len(rows[config])
            own[config] = min(experiment.cap, done + max(1, done // 2))


def _paired(own: Mapping[str, int], specs: list[CellSpec]) -> dict[str, int]:
    """The replications to run: each configuration's own count, raised to the own count of every
    configuration it shares a cell with.

    A cell combining configurations (a ratio, a change) is computed per
    replication over the replications all of them ran; so that it uses
    every replication any of them ran for its own cells, its partners run
    those seeds too (a reference runs every seed its counterparts ran).
    The raise is one step, not transitive: a run does not grow because a
    reference it shares was raised for another run.
    """
    wanted = dict(own)
    for spec in specs:
        largest = max(own[config] for config in spec.model.configurations)
        for config in spec.model.configurations:
            wanted[config] = max(wanted[config], largest)
    return wanted


def _values(model: Simulated, frames: Mapping[str, pd.DataFrame]) -> np.ndarray:
    """The cell's per-replication values over the replications all its configurations ran."""
    count = min(len(frames[config]) for config in model.configurations)
    arrays = []
    for config, name in model.terms:
        if name not in frames[config].columns:
            raise ValueError(f"metric {name!r} is not returned for configuration {config!r} of experiment "
                             f"{model.experiment!r}: allowed one of {list(frames[config].columns)}")
        arrays.append(frames[config][name].to_numpy(dtype=float)[:count])
    if model.combine is None:
        return arrays[0]
    return np.asarray(model.combine(*arrays), dtype=float).reshape(count)


def estimate(values: np.ndarray) -> tuple[float, float]:
    """Mean and Student-t 95% half-width of per-replication ``values``.

    The half-width is 0 when every replication gave the same number (up to
    the last bits of floating-point sums), and NaN for a single value.
    """
    values = np.asarray(values, dtype=float)
    values = values[~np.isnan(values)]
    if values.size == 0:
        return math.nan, math.nan
    mean = float(values.mean())
    if values.size == 1:
        return mean, math.nan
    if np.ptp(values) <= 1e-9 * abs(mean):
        return mean, 0.0
    t = student_t.quantile((1 + CONFIDENCE) / 2, values.size - 1)
    return mean, float(t * values.std(ddof=1) / math.sqrt(values.size))


def _precise(spec: CellSpec, values: np.ndarray) -> bool:
    mean, half_width = estimate(values)
    if not math.isfinite(mean):
        return True  # nothing more replications could fix; the cell shows NaN and fails its checks
    if spec.precision is not None and not half_width <= spec.precision.half_width:
        return False
    return decided(spec.published.value, spec.tolerance, mean, half_width, spec.bounds)


def _cell(spec: CellSpec, values: np.ndarray | None, cap: int | None) -> Cell:
    if isinstance(spec.model, Exact):
        mean, half_width, count = float(spec.model.compute()), math.nan, 0
    else:
        mean, half_width = estimate(values)
        count = int(np.sum(~np.isnan(values)))
    note = _note(spec)
    baseline = spec.baseline.value if spec.baseline is not None else math.nan
    ground = f"{spec.baseline.kind}: {spec.baseline.ground}" if spec.baseline is not None else ""
    cell = Cell(spec.published, mean, spec.role, ci_half_width=half_width, baseline=baseline,
                tolerance=spec.tolerance, note=note, replications=count, bounds=spec.bounds, key=spec.key,
                baseline_ground=ground)
    if count and spec.role != "derived":
        imprecise = imprecise_note(cell, count, cap)
        if imprecise:
            cell = dataclasses.replace(cell, note=f"{note} {imprecise}")
    return cell


def _note(spec: CellSpec) -> str:
    """The row's note: the spec's own words plus what its role declares."""
    parts = [spec.note.strip()] if spec.note.strip() else []
    if spec.role == "calibration":
        parts.insert(0, f"Sets {spec.sets}.")
    elif spec.role == "derived":
        sources = "; ".join(spec.derivation.sources) or "a definition"
        parts.insert(0, f"{spec.derivation.why} (from {sources}).")
    if spec.precision is not None:
        parts.append(f"Replicated to a 95% half-width of at most {spec.precision.half_width:.3g}: "
                     f"{spec.precision.why}.")
    return " ".join(parts)
