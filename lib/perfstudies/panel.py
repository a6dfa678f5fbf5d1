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
the benchmark and the tests read every study's panel the same way;
:func:`panel_view` shows it to a reader in words and formatted numbers (each
metric at the reader's setting, and its change from the default with the
paired interval, saying whether the change shows through the noise).

A study that draws more than numbers (spxtape's timeline of the first
replication) declares a ``trace``; :func:`run_traced` then returns a
:class:`PanelRun`, the same table plus the first replication's frames, from
the very simulation the table's first replication comes from.
"""

import collections
import dataclasses
import math
from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from perfstudies.params import Params, check_callable, check_integer, check_record
from perfstudies import runner, student_t
from perfstudies.runner import MAX_SEED, event_budget, model_metrics, replication_seeds
from perfstudies.tables import EMPTY, MINUS, interval, number, percent, readable

#: Columns of :func:`run_panel`'s table, one row per headline metric.
COLUMNS = ["metric", "label", "mean", "half_width", "replications", "default", "change", "change_half_width"]
#: Most replications one move of a control may run (each is a full simulation).
MAX_PANEL_REPLICATIONS = 20
#: Values that differ by less than this share of their size are the same value (floating-point rounding
#: of sums taken in another order), so their interval is 0.
SAME = 1e-9
#: Settings whose replications a process keeps (the default's among them, so it runs once).
CACHED_SETTINGS = 64


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
    trace : callable, optional
        ``trace(params, seed) -> ({metric: number}, {name: frame})``: one
        replication as ``model`` runs it (the same metrics) plus the frames a
        chart draws; :func:`run_traced` uses it for the first replication.
    check : callable, optional
        ``check(params) -> params``: refuses, with a ValueError naming the
        field and its allowed range, a setting the record accepts but the
        model cannot run (mdf's unstable device); called before any
        replication, and the live panel reports its refusal as invalid input.
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
    trace: Callable | None = None
    check: Callable | None = None

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
        if self.trace is not None:
            check_callable("Panel.trace", self.trace)
        if self.check is not None:
            check_callable("Panel.check", self.check)

    def __hash__(self):  # the default's replications are cached per panel
        return id(self)

    def __eq__(self, other):
        return self is other


@dataclasses.dataclass(frozen=True)
class PanelRun:
    """:func:`run_panel`'s table of a setting, plus the frames its first replication traced.

    ``table`` is the one panel table (:data:`COLUMNS`); ``traces`` maps a name
    to a frame (spxtape: ``timeline`` and ``buffer``) of replication 0, whose
    metrics are the table's first replication.
    """

    params: Params
    table: pd.DataFrame
    traces: Mapping[str, pd.DataFrame]


def run_panel(panel: Panel, params: Params | None = None) -> pd.DataFrame:
    """One move of ``panel``'s controls: the headline metrics of ``params`` and their change from the default.

    ``None`` runs the chapter's default (every change is then 0).  Raises a
    ``TypeError`` naming ``params`` when it is not the panel's record.  The
    table's ``attrs["params"]`` is the setting it describes.
    """
    panel, params, default = _setting(panel, params)
    current, _ = _replications(panel, params, traced=False)
    return _table(panel, params, current, default)


def run_traced(panel: Panel, params: Params | None = None) -> PanelRun:
    """:func:`run_panel` of ``params`` plus the first replication's traced frames (``panel.trace``)."""
    panel, params, default = _setting(panel, params)
    if panel.trace is None:
        raise ValueError(f"panel = {panel.params.__name__} panel declares no trace: allowed run_panel only")
    current, traces = _replications(panel, params, traced=True)
    return PanelRun(params, _table(panel, params, current, default), traces)


def _setting(panel, params) -> tuple[Panel, Params, Params]:
    if not isinstance(panel, Panel):
        raise TypeError(f"panel = {panel!r} has the wrong type: allowed a Panel")
    check_record("params", params, panel.params, none=True)
    if params is not None and panel.check is not None:
        panel.check(params)
    default = _checked_default(panel)
    return panel, default if params is None else params, default


def _table(panel: Panel, params: Params, current: dict, default: Params) -> pd.DataFrame:
    reference, _ = _replications(panel, default, traced=False)
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
    table = pd.DataFrame(rows, columns=COLUMNS)
    table.attrs["params"] = params
    return table


def _checked_default(panel: Panel) -> Params:
    default = panel.defaults()
    if not isinstance(default, panel.params):
        raise ValueError(f"Panel.defaults() = {default!r} is not allowed: allowed a {panel.params.__name__} record")
    return default


#: (panel, params) -> ({metric: per-replication values}, traces or None), most recently used last.
_CACHE: collections.OrderedDict = collections.OrderedDict()


def _replications(panel: Panel, params: Params, traced: bool) -> tuple[dict[str, np.ndarray], dict | None]:
    """``{metric: per-replication values}`` of ``params`` and, when ``traced``, replication 0's frames.

    Cached per process (the default runs once); replication *i* uses
    ``replication_seeds(panel.seed, panel.replications)[i]`` whether traced or not.
    The replications of one setting share one event budget,
    :data:`perfstudies.runner.MAX_CALL_EVENTS` (as :func:`~perfstudies.runner.replicate`'s
    do), so one move of a control is bounded whatever the record: past it the
    move stops with a ValueError naming ``Panel.replications`` and the record's run.
    """
    key = (panel, params)
    if key in _CACHE:
        values, traces = _CACHE[key]
        if traces is not None or not traced:
            _CACHE.move_to_end(key)
            return values, traces
    seeds = replication_seeds(panel.seed, panel.replications)
    runs, traces = [], None
    with event_budget(runner.MAX_CALL_EVENTS, (f"Panel.replications = {panel.replications}",)):
        for index, rep_seed in enumerate(seeds):
            if traced and index == 0:
                metrics, traces = panel.trace(params, rep_seed)
                runs.append(model_metrics(lambda *_: metrics, params, rep_seed))
            else:
                runs.append(model_metrics(panel.model, params, rep_seed))
    values = {metric: np.array([run[metric] for run in runs], dtype=float) for metric in runs[0]}
    _CACHE[key] = (values, traces)
    _CACHE.move_to_end(key)
    while len(_CACHE) > CACHED_SETTINGS:
        _CACHE.popitem(last=False)
    return values, traces


def forget(panel: Panel, params: Params | None = None) -> None:
    """Drop the cached replications of one setting of ``panel`` (``None``: every setting of ``panel``).

    The benchmark times a re-run this way; a reader never needs it (the same
    setting gives the same numbers whether cached or not).
    """
    for key in [key for key in _CACHE if key[0] is panel and (params is None or key[1] == params)]:
        del _CACHE[key]


def _interval(values: np.ndarray) -> tuple[float, float]:
    """Mean and Student-t 95% half-width (0 when every value is the same, to rounding error)."""
    mean = float(values.mean())
    spread = float(values.std(ddof=1)) if values.size > 1 else math.nan
    if spread <= SAME * float(np.abs(values).max()):
        return mean, 0.0
    return mean, float(student_t.quantile(0.975, values.size - 1) * spread / math.sqrt(values.size))


def shows_through(row) -> bool:
    """Whether a panel row's change from the default is outside its paired 95% interval (excludes 0)."""
    return bool(abs(row["change"]) > row["change_half_width"])


def change_words(row) -> str:
    """A panel row's change from the default in words: ``"+310 ± 40 (+27%)"``, or "no change".

    The interval is the paired 95% half-width; a change whose interval holds 0
    says so ("within the noise"), so a reader never reads noise as an effect.
    """
    change, half_width, base = row["change"], row["change_half_width"], row["default"]
    if change == 0 and half_width == 0:
        return "no change"
    signed = number(change)
    signed = signed if signed.startswith(MINUS) else f"+{signed}"
    text = f"{signed}\u00a0±\u00a0{number(half_width, 2)}" if half_width else signed
    relative = EMPTY
    if base and math.isfinite(base) and abs(change / base) < 10:  # a change of 1000% or more reads as noise-level base
        share = abs(change / base)
        relative = percent(change / base, 0 if share >= 0.1 else 1 if share >= 0.01 else 2, signed=True)
    if not shows_through(row):
        return f"{text} (within the noise)"
    return text if relative == EMPTY else f"{text} ({relative})"


def panel_frame(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`run_panel`'s table as a reader's three text columns: quantity, this setting, change."""
    missing = [column for column in COLUMNS if column not in table.columns]
    if missing:
        raise ValueError(f"table lacks the columns {missing}: allowed a run_panel table ({COLUMNS})")
    return pd.DataFrame({
        "quantity": table["label"],
        "this setting": [interval(m, h) for m, h in zip(table["mean"], table["half_width"])],
        "change from the chapter's default": [change_words(row) for _, row in table.iterrows()],
    })


def panel_caption(table: pd.DataFrame) -> str:
    """What the panel's numbers are, in one sentence."""
    replications = int(table["replications"].iloc[0])
    return (f"Mean ± 95% interval of {replications} replications; the change from the chapter's default is "
            f"paired (the default run with the same {replications} seeds), so the noise the two share cancels.")


def panel_view(table: pd.DataFrame):
    """How a live panel shows :func:`run_panel`'s table: a reader's table (:func:`perfstudies.tables.readable`)."""
    return readable(panel_frame(table)).set_caption(panel_caption(table))
