"""A study's live panel, declared once, and the one way every panel re-runs its model.

A study declares its panel as a :class:`Panel`: the parameter record, the
controls a reader moves (and which one the chapter is about), the chapter's
default setting, the model one replication runs, and the headline metrics
with the labels a reader sees.  :func:`run_panel` is what one move of a
control runs, the same for every study:

* ``replications`` replications of the reader's setting, replication *i*
  with seed ``replication_seeds(seed, n)[i]``;
* the same replications of the chapter's default setting, with the same
  seeds (common random numbers, as JMT's what-if analysis does), computed
  once per process and reused;
* each headline metric's mean and 95% half-width, and its change from the
  default with the *paired* 95% half-width: the noise the two settings share
  cancels, so a one-step move of a control shows through.

The result is one shape for every study (:data:`COLUMNS`), so the live panel,
the benchmark and the tests read every study's panel the same way.
"""

import dataclasses
import functools
import math
from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd
from scipy import stats

from perfstudies.params import Params, check_callable, check_integer
from perfstudies.runner import MAX_SEED, model_metrics, replication_seeds

#: Columns of :func:`run_panel`'s table, one row per headline metric.
COLUMNS = ["metric", "label", "mean", "half_width", "replications", "default", "change", "change_half_width"]
#: Most replications one move of a control may run (each is a full simulation).
MAX_PANEL_REPLICATIONS = 20


@dataclasses.dataclass(frozen=True)
class Panel:
    """A live panel, declared.

    Parameters
    ----------
    params : type
        The parameter record class the controls build.
    controls : tuple of str
        Fields of ``params`` the reader moves, in display order.
    main : str
        The control the chapter is about (drives, stripes, cache size, ...).
    defaults : callable
        ``defaults()``: the chapter's default setting (a ``params`` record);
        every field without a control keeps its value.
    model : callable
        ``model(params, seed) -> {metric: number}``: one replication as the
        panel runs it.
    shown : mapping
        ``{metric: label}``: the headline metrics, in display order.
    seed : int
        The study's seed.
    replications : int
        Replications of each setting per move, 2 to :data:`MAX_PANEL_REPLICATIONS`.
    ranges : mapping
        ``{field: (low, high)}`` narrower slider ranges than the record allows.
    """

    params: type
    controls: tuple
    main: str
    defaults: Callable[[], Params]
    model: Callable
    shown: Mapping[str, str]
    seed: int
    replications: int = 3
    ranges: Mapping[str, tuple] = dataclasses.field(default_factory=dict)

    def __post_init__(self):
        if not (isinstance(self.params, type) and issubclass(self.params, Params)):
            raise ValueError(f"Panel.params = {self.params!r} has the wrong type: allowed a Params record class")
        fields = list(self.params.spec())
        if not isinstance(self.controls, tuple) or not self.controls \
                or not all(isinstance(name, str) and name in fields for name in self.controls):
            raise ValueError(f"Panel.controls = {self.controls!r} is not allowed: allowed a non-empty tuple of "
                             f"fields of {self.params.__name__}, from {fields}")
        if self.main not in self.controls:
            raise ValueError(f"Panel.main = {self.main!r} is not allowed: allowed one of the controls "
                             f"{list(self.controls)}")
        check_callable("Panel.defaults", self.defaults)
        check_callable("Panel.model", self.model)
        if not isinstance(self.shown, Mapping) or not self.shown or not all(
                isinstance(metric, str) and isinstance(label, str) and label.strip()
                for metric, label in self.shown.items()):
            raise ValueError(f"Panel.shown = {self.shown!r} is not allowed: allowed a non-empty "
                             "{metric: label} mapping")
        check_integer("Panel.seed", self.seed, low=0, high=MAX_SEED)
        check_integer("Panel.replications", self.replications, low=2, high=MAX_PANEL_REPLICATIONS)
        unknown = [name for name in self.ranges if name not in self.controls]
        if unknown:
            raise ValueError(f"Panel.ranges names {unknown}: allowed ranges of controls only, {list(self.controls)}")


def run_panel(panel: Panel, params: Params | None = None) -> pd.DataFrame:
    """One move of ``panel``'s controls: the headline metrics of ``params`` and their change from the default.

    ``None`` runs the chapter's default (every change is then 0).  Raises a
    ``TypeError`` naming ``params`` when it is not the panel's record.
    """
    if not isinstance(panel, Panel):
        raise TypeError(f"panel = {panel!r} has the wrong type: allowed a Panel")
    default = _checked_default(panel)
    if params is None:
        params = default
    if not isinstance(params, panel.params):
        raise TypeError(f"params = {params!r} has the wrong type: allowed a {panel.params.__name__} record or None")
    current = _replications(panel.model, params, panel.seed, panel.replications)
    reference = _replications(panel.model, default, panel.seed, panel.replications)
    rows = []
    for metric, label in panel.shown.items():
        for name, runs in (("the reader's setting", current), ("the default", reference)):
            if metric not in runs:
                raise ValueError(f"Panel.shown names {metric!r}, which the model does not return for {name}: "
                                 f"allowed one of {list(runs)}")
        values, base = current[metric], reference[metric]
        mean, half_width = _interval(values)
        change, change_half_width = _interval(values - base)
        rows.append({"metric": metric, "label": label, "mean": mean, "half_width": half_width,
                     "replications": int(values.size), "default": float(base.mean()), "change": change,
                     "change_half_width": change_half_width})
    return pd.DataFrame(rows, columns=COLUMNS)


def _checked_default(panel: Panel) -> Params:
    default = panel.defaults()
    if not isinstance(default, panel.params):
        raise ValueError(f"Panel.defaults() = {default!r} is not allowed: allowed a {panel.params.__name__} record")
    return default


@functools.lru_cache(maxsize=64)
def _replications(model: Callable, params: Params, seed: int, replications: int) -> dict[str, np.ndarray]:
    """``{metric: per-replication values}`` of ``params`` (cached: the default runs once per process)."""
    runs = [model_metrics(model, params, rep_seed) for rep_seed in replication_seeds(seed, replications)]
    return {metric: np.array([run[metric] for run in runs], dtype=float) for metric in runs[0]}


def _interval(values: np.ndarray) -> tuple[float, float]:
    """Mean and Student-t 95% half-width (0 when every value is the same)."""
    mean = float(values.mean())
    spread = float(values.std(ddof=1)) if values.size > 1 else math.nan
    if spread == 0:
        return mean, 0.0
    return mean, float(stats.t.ppf(0.975, values.size - 1) * spread / math.sqrt(values.size))

