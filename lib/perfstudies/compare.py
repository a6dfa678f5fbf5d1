"""The standard published-vs-model comparison table and the honest scoreboard built from it.

Each compared number is a :class:`Cell`: where it sits in the document (a
:class:`Published` cell), the model's value with its confidence half-width,
its *role* and a *no-change baseline*:

``calibration``  the published value set a model parameter (shows that the fit took);
``derived``      it follows from other published cells by an identity that, applied
                 to their published values, gives its own (:mod:`perfstudies.cells`
                 checks this); shown, never scored;
``prediction``   a mechanism produced it from cells it never saw; only these are scored,
                 each with a *verdict* (:data:`VERDICTS`): a hit or a miss of its
                 tolerance, a stated range held or broken, or undecided while its
                 interval is too wide.

The *baseline* of a predicted cell is the answer a capacity planner would give
without the model: the same quantity in the study's reference configuration
(persistence), or a scaling rule the document itself states.  A prediction is
evidence when it beats that baseline; a baseline that already passes makes the
cell *weak evidence*, whatever the model says.

One tolerance policy holds for every study (:class:`Tolerance`): 10% relative
by default; wider only where the document itself states a measurement
variability (:func:`documented`) or where the printed resolution of the
number demands it (:func:`resolution`), each with its quote or reason.  A
simulated number is compared only once its 95% confidence half-width is at
most a quarter of its tolerance, or, for a decisive miss two or more
tolerances off, a quarter of its error (column ``precise``,
:func:`required_half_width`); the studies add replications until it is
(:func:`perfstudies.runner.replicate_until`).
"""

import dataclasses
import math
import numbers
from collections.abc import Iterable

import pandas as pd

from perfstudies.tables import number

ROLES = ("calibration", "derived", "prediction")
TOLERANCE_KINDS = ("relative", "absolute")
#: Why a tolerance is what it is: the policy's default, a variability the
#: document states, or the resolution at which the document prints the number.
TOLERANCE_GROUNDS = ("default", "document", "resolution")
#: A simulated number is precise enough to compare when its CI half-width is at
#: most this fraction of its tolerance.
PRECISION_FRACTION = 0.25
#: A cell at least this many tolerances off is a decisive miss (see :func:`required_half_width`).
DECISIVE_MISS = 2.0
#: What the note of a cell whose confidence interval stayed too wide begins with.
IMPRECISE = "IMPRECISE"
#: The share of the published value the scoreboard's tolerance-free column uses.
TEN_PERCENT = 0.10

#: Columns of every comparison table, in order.
COLUMNS = ["study", "document", "key", "table", "row", "column", "published", "model", "ci_half_width",
           "replications", "rel_error", "within_10pct", "role", "tolerance", "tolerance_kind", "tolerance_reason",
           "bound_low", "bound_high", "within_tolerance", "precise", "verdict", "baseline", "baseline_rel_error",
           "baseline_ground", "beats_baseline", "weak_evidence", "note"]
#: The verdict of a predicted cell: scored as a value (within its tolerance or not) or, where the
#: document states only a range, as a bound (inside it or not); "undecided" while its 95% interval
#: is wider than the precision rule allows (:func:`decided`).  Other roles have no verdict ("").
VERDICTS = ("hit", "miss", "bound held", "bound broken", "undecided")


def _number(owner: str, name: str, value, *, allow_nan: bool = False) -> float:
    """``value`` as a float, or a ValueError naming ``owner.name`` (``name`` alone for a function's argument)."""
    label = f"{owner}.{name}" if owner else name
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{label} = {value!r} has the wrong type: allowed a real number")
    try:
        value = float(value)
    except OverflowError:  # an integer beyond any float
        raise ValueError(f"{label} = {value!r} is not finite: allowed a finite number") from None
    if math.isnan(value) and allow_nan:
        return value
    if not math.isfinite(value):
        raise ValueError(f"{label} = {value!r} is not finite: allowed a finite number"
                         + (" or NaN" if allow_nan else ""))
    return value


def _text(owner: str, name: str, value, *, empty: bool = True) -> str:
    if not isinstance(value, str) or (not empty and not value.strip()):
        allowed = "a string" if empty else "a non-empty string"
        raise ValueError(f"{owner}.{name} = {value!r} is not allowed: allowed {allowed}")
    return value


@dataclasses.dataclass(frozen=True)
class Published:
    """A named published number: where it sits in the document, and its value.

    The one record every study uses to name the cells it calibrates on and
    compares with.  ``value`` is transcribed from ``data/``, never typed in.

    Examples
    --------
    >>> Published("Table 1", "elapsed_s", "SPTAPE DUMP 1", 8_400.0)
    Published(table='Table 1', row='elapsed_s', column='SPTAPE DUMP 1', value=8400.0)
    """

    table: str
    row: str
    column: str
    value: float

    def __post_init__(self):
        for name in ("table", "row", "column"):
            _text("Published", name, getattr(self, name), empty=False)
        object.__setattr__(self, "value", _number("Published", "value", self.value))

    @property
    def where(self) -> str:
        """``"table · row · column"``, the cell's name in words."""
        return f"{self.table} · {self.row} · {self.column}"


@dataclasses.dataclass(frozen=True)
class Tolerance:
    """How far a model value may lie from the published one, and why.

    Parameters
    ----------
    value : float
        A fraction of the published value for ``relative``, in the cell's unit
        for ``absolute``.
    kind : {"relative", "absolute"}
    ground : {"default", "document", "resolution"}
        The policy's default (10% relative), a variability the document itself
        states, or the printed resolution of the number.
    reason : str
        The document's words (``document``) or the resolution argument
        (``resolution``); required for both.

    Use :data:`DEFAULT`, :func:`documented` and :func:`resolution` rather than
    building one by hand.
    """

    value: float
    kind: str = "relative"
    ground: str = "default"
    reason: str = ""

    def __post_init__(self):
        value = _number("Tolerance", "value", self.value)
        if value < 0:
            raise ValueError(f"Tolerance.value = {value!r} is out of range: allowed value >= 0")
        object.__setattr__(self, "value", value)
        if self.kind not in TOLERANCE_KINDS:
            raise ValueError(f"Tolerance.kind = {self.kind!r} is not allowed: allowed one of {list(TOLERANCE_KINDS)}")
        if self.ground not in TOLERANCE_GROUNDS:
            raise ValueError(f"Tolerance.ground = {self.ground!r} is not allowed: "
                             f"allowed one of {list(TOLERANCE_GROUNDS)}")
        _text("Tolerance", "reason", self.reason)
        if self.ground != "default" and not self.reason.strip():
            raise ValueError(f"Tolerance.reason = {self.reason!r} is not allowed: a {self.ground!r} "
                             "tolerance must quote the document or give the resolution argument")
        if self.ground == "default" and (value, self.kind) != (TEN_PERCENT, "relative"):
            raise ValueError(f"Tolerance.value = {value!r} is not allowed with ground 'default': the default "
                             f"is {TEN_PERCENT} relative; a wider one needs ground 'document' or 'resolution'")

    def allowed_error(self, published: float) -> float:
        """The tolerance in the cell's own unit (absolute error allowed at ``published``)."""
        published = _number("Tolerance.allowed_error", "published", published)
        return self.value * abs(published) if self.kind == "relative" else self.value

    def describe(self) -> str:
        """``"±10%"`` or ``"±1"`` (with the reason, if any, after a colon)."""
        size = f"±{self.value:.0%}" if self.kind == "relative" else f"±{self.value:g}"
        return f"{size}: {self.reason}" if self.reason else size


#: The policy's default: 10% relative.
DEFAULT = Tolerance(TEN_PERCENT)


def documented(value: float, quote: str, kind: str = "relative") -> Tolerance:
    """A tolerance the document itself states as its measurement variability (quote it)."""
    return Tolerance(value, kind, "document", quote)


def resolution(value: float, reason: str, kind: str = "absolute") -> Tolerance:
    """A tolerance the printed resolution demands (integer counts ±1, integer percentages ±1 point, ...)."""
    return Tolerance(value, kind, "resolution", reason)


@dataclasses.dataclass(frozen=True)
class Cell:
    """One published number beside the model's number for it.

    Parameters
    ----------
    published : Published
        The document's cell.
    model : float
        The model's value (mean over replications for simulated numbers).
    role : {"calibration", "derived", "prediction"}
        See the module docstring.
    ci_half_width : float
        95% confidence half-width of ``model``; NaN for exact numbers.
    baseline : float
        The no-change baseline's value for this cell (required for predictions;
        NaN otherwise allowed).
    tolerance : Tolerance
        :data:`DEFAULT` unless the document or the printed resolution says otherwise.
    note : str
        What a reader needs to read the row; for a derived cell, how it follows
        (required).
    replications : int
        How many replications ``model`` is the mean of (0 for an exact number).
    bounds : (float, float), optional
        The open range ``low < value < high`` the document states where it
        gives no number (``published`` is then the range's midpoint); a
        predicted cell with bounds is scored as a bound, inside or outside,
        not as a point with a tolerance that could cover the whole range.
    key : str
        The name code looks the cell up by (default: ``published.where``);
        the reader sees ``table``, ``row`` and ``column``, the document's names.
    baseline_ground : str
        Where the baseline comes from: ``"persistence: ..."`` or ``"scaling: ..."``
        (:class:`perfstudies.cells.Baseline`).
    """

    published: Published
    model: float
    role: str
    ci_half_width: float = math.nan
    baseline: float = math.nan
    tolerance: Tolerance = DEFAULT
    note: str = ""
    replications: int = 0
    bounds: tuple | None = None
    key: str = ""
    baseline_ground: str = ""

    def __post_init__(self):
        if not isinstance(self.published, Published):
            raise ValueError(f"Cell.published = {self.published!r} has the wrong type: allowed a Published cell")
        _text("Cell", "key", self.key)
        _text("Cell", "baseline_ground", self.baseline_ground)
        if not self.key:
            object.__setattr__(self, "key", self.published.where)
        if self.role not in ROLES:
            raise ValueError(f"Cell.role = {self.role!r} is not allowed: allowed one of {list(ROLES)}")
        if not isinstance(self.tolerance, Tolerance):
            raise ValueError(f"Cell.tolerance = {self.tolerance!r} has the wrong type: allowed a Tolerance")
        _text("Cell", "note", self.note, empty=self.role != "derived")
        object.__setattr__(self, "model", _number("Cell", "model", self.model))
        half_width = _number("Cell", "ci_half_width", self.ci_half_width, allow_nan=True)
        if half_width < 0:
            raise ValueError(f"Cell.ci_half_width = {half_width!r} is out of range: allowed >= 0 or NaN")
        object.__setattr__(self, "ci_half_width", half_width)
        if isinstance(self.replications, bool) or not isinstance(self.replications, numbers.Integral) \
                or self.replications < 0:
            raise ValueError(f"Cell.replications = {self.replications!r} is out of range: allowed an integer >= 0")
        baseline = _number("Cell", "baseline", self.baseline, allow_nan=self.role != "prediction")
        object.__setattr__(self, "baseline", baseline)
        if self.tolerance.kind == "relative" and self.published.value == 0:
            raise ValueError(f"Cell.tolerance = {self.tolerance!r} is not allowed for {self.published.where}: "
                             "a published zero has no relative error; use an absolute resolution tolerance")
        if self.bounds is not None:
            object.__setattr__(self, "bounds", check_bounds("Cell.bounds", self.bounds, self.published))

    @property
    def rel_error(self) -> float:
        """``(model - published) / |published|``; NaN when published is 0."""
        return _relative(self.model, self.published.value)

    def holds(self, value: float) -> bool:
        """Whether ``value`` passes this cell: inside its bounds, or within its tolerance of the published value."""
        if self.bounds is not None:
            return self.bounds[0] < value < self.bounds[1]
        return abs(value - self.published.value) <= self.tolerance.allowed_error(self.published.value)

    @property
    def within_tolerance(self) -> bool:
        return self.holds(self.model)

    @property
    def precise(self) -> bool:
        """Whether the CI is narrow enough for a verdict (see :func:`decided`)."""
        return decided(self.published.value, self.tolerance, self.model, self.ci_half_width, self.bounds)

    @property
    def verdict(self) -> str:
        """One of :data:`VERDICTS` for a predicted cell; "" for calibration and derived cells."""
        if self.role != "prediction":
            return ""
        if not self.precise:
            return "undecided"
        if self.bounds is not None:
            return "bound held" if self.within_tolerance else "bound broken"
        return "hit" if self.within_tolerance else "miss"

    @property
    def beats_baseline(self) -> bool | None:
        """Whether the model does better than the baseline (None without one).

        For a value: closer to the published value.  For a bound: inside it
        where the baseline is not.
        """
        if math.isnan(self.baseline):
            return None
        if self.bounds is not None:
            return self.holds(self.model) and not self.holds(self.baseline)
        return abs(self.model - self.published.value) < abs(self.baseline - self.published.value)

    @property
    def weak_evidence(self) -> bool | None:
        """Whether the baseline alone already passes (within tolerance, or inside the bounds; None without one)."""
        if math.isnan(self.baseline):
            return None
        return self.holds(self.baseline)

    def row(self) -> dict:
        """The cell as one row of :data:`COLUMNS` (without ``study`` and ``document``)."""
        p = self.published
        return {"key": self.key, "table": p.table, "row": p.row, "column": p.column, "published": p.value, "model": self.model,
                "ci_half_width": self.ci_half_width, "replications": self.replications, "rel_error": self.rel_error,
                "within_10pct": abs(self.model - p.value) <= TEN_PERCENT * abs(p.value), "role": self.role,
                "tolerance": self.tolerance.value, "tolerance_kind": self.tolerance.kind,
                "tolerance_reason": self.tolerance.reason,
                "bound_low": self.bounds[0] if self.bounds else math.nan,
                "bound_high": self.bounds[1] if self.bounds else math.nan,
                "within_tolerance": self.within_tolerance, "precise": self.precise, "verdict": self.verdict,
                "baseline": self.baseline,
                "baseline_rel_error": _relative(self.baseline, p.value), "baseline_ground": self.baseline_ground, "beats_baseline": self.beats_baseline,
                "weak_evidence": self.weak_evidence, "note": self.note}


def check_bounds(label: str, bounds, published: Published) -> tuple[float, float]:
    """``bounds`` as ``(low, high)`` with finite ``low < published.value < high``, or a ValueError naming ``label``."""
    if not isinstance(bounds, tuple) or len(bounds) != 2:
        raise ValueError(f"{label} = {bounds!r} has the wrong type: allowed a (low, high) tuple")
    low, high = (_number("", f"{label}[{index}]", value) for index, value in enumerate(bounds))
    if not low < published.value < high:
        raise ValueError(f"{label} = {bounds!r} is out of range for {published.where}: allowed "
                         f"low < {published.value:g} (the published midpoint) < high")
    return low, high


def decided(published: float, tolerance: Tolerance, model: float, half_width: float,
            bounds: tuple | None = None) -> bool:
    """Whether a simulated value's 95% half-width is narrow enough for a verdict.

    A value: at most :func:`required_half_width`, or, for a miss whose whole
    interval lies outside the tolerance, at most a quarter of its error (the
    decisive-miss rule without its threshold of two tolerances: the verdict
    cannot flip, and "how far off" is known to ±25%).  A bound: the interval
    lies wholly inside or wholly outside it (it does not straddle an edge).
    An exact number (NaN half-width) is always decided.
    """
    if math.isnan(half_width):
        return True
    if bounds is not None:
        low, high = bounds
        return not any(model - half_width <= edge <= model + half_width for edge in (low, high))
    if half_width <= required_half_width(published, tolerance, model):
        return True
    error = abs(model - published)
    return error - half_width > tolerance.allowed_error(published) and half_width <= PRECISION_FRACTION * error


def required_half_width(published: float, tolerance: Tolerance, model: float) -> float:
    """The widest 95% CI half-width at which a simulated ``model`` value may be compared.

    A quarter of the tolerance (:data:`PRECISION_FRACTION`): then noise cannot
    move a cell across its tolerance's edge by more than a quarter of it.  A
    cell at least :data:`DECISIVE_MISS` tolerances off is a decisive miss:
    its whole interval lies outside the tolerance, and it only needs to be
    known to a quarter of its own error (so "how many tolerances off" is known
    to +/-25%) rather than to a quarter of a tolerance it misses anyway.
    Pass it as a callable target to :func:`perfstudies.runner.replicate_until`
    or :func:`perfstudies.sweep.sweep_until`, e.g.
    ``lambda mean: required_half_width(cell.value, tolerance, mean)``.
    """
    published = _number("", "published", published)
    model = _number("", "model", model)
    if not isinstance(tolerance, Tolerance):
        raise ValueError(f"tolerance = {tolerance!r} has the wrong type: allowed a Tolerance")
    allowed = tolerance.allowed_error(published)
    error = abs(model - published)
    if allowed > 0 and error >= DECISIVE_MISS * allowed:
        return PRECISION_FRACTION * error
    return PRECISION_FRACTION * allowed


def imprecise_note(cell: Cell, replications: int, cap: int) -> str:
    """The standard note for a cell whose CI half-width stayed above its precision target ("" if precise).

    Sequential replication stops at a cap (:func:`perfstudies.runner.replicate_until`);
    a cell that reaches it is shown, says so in its note, and gets no verdict
    (the scoreboard counts such predictions as ``undecided``).
    """
    if not isinstance(cell, Cell):
        raise ValueError(f"cell = {cell!r} has the wrong type: allowed a Cell")
    for name, value in (("replications", replications), ("cap", cap)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
            raise ValueError(f"{name} = {value!r} is out of range: allowed an integer {name} >= 1")
    if cell.precise:
        return ""
    why = (f"the cap of {cap} replications was reached" if replications >= cap
           else f"{replications} replications, no precision target")
    if cell.bounds is not None:
        return (f"{IMPRECISE}: the 95% interval {_figures(cell.model)} ± {_figures(cell.ci_half_width)} "
                f"straddles an edge of the stated range; {why}")
    allowed = required_half_width(cell.published.value, cell.tolerance, cell.model)
    return (f"{IMPRECISE}: 95% half-width {_figures(cell.ci_half_width)} > {_figures(allowed)} "
            f"(required_half_width); {why}")


def _figures(value: float) -> str:
    """Three significant figures as a reader writes them: 1,500 and 0.5, never 1.5e+03 or 0.500."""
    text = number(value)
    return text.rstrip("0").rstrip(".") if "." in text else text


def _relative(value: float, published: float) -> float:
    if published == 0 or math.isnan(value):
        return math.nan
    return (value - published) / abs(published)


def comparison_table(cells: Iterable[Cell], study: str, document: str) -> pd.DataFrame:
    """Return the standard comparison table (columns :data:`COLUMNS`) for ``cells``."""
    _text("comparison_table", "study", study, empty=False)
    _text("comparison_table", "document", document, empty=False)
    if isinstance(cells, (str, bytes, Cell)) or not isinstance(cells, Iterable):
        raise ValueError(f"cells = {cells!r} has the wrong type: allowed a non-empty iterable of Cell")
    rows = []
    for cell in cells:
        if not isinstance(cell, Cell):
            raise ValueError(f"cells item {cell!r} has the wrong type: allowed Cell")
        rows.append({"study": study, "document": document, **cell.row()})
    if not rows:
        raise ValueError("cells is empty: allowed a non-empty iterable of Cell")
    table = pd.DataFrame(rows, columns=COLUMNS)
    repeated = table[table.duplicated(["table", "row", "column"], keep=False)]
    if not repeated.empty:
        raise ValueError(f"cells compare the same published cell twice: {repeated[['table', 'row', 'column']].values.tolist()}")
    repeated = table[table.duplicated("key", keep=False)]
    if not repeated.empty:
        raise ValueError(f"cells share keys: {sorted(set(repeated['key']))}")
    return table


#: Label of the scoreboard row that pools every study.
POOLED = "all studies"


def scoreboard(table: pd.DataFrame) -> pd.DataFrame:
    """Per study and pooled: cells by role, and the verdicts of the predicted cells.

    Columns: ``study``, ``cells``, ``calibration``, ``derived``, ``prediction``;
    of the predictions scored as values (``scored``): ``within_10pct``,
    ``within_tolerance``, ``hits``, ``misses``; ``undecided`` (predictions
    whose interval is still too wide for a verdict); of the predictions scored
    as bounds (``bounds``): ``bounds_held``; of all predictions:
    ``beats_baseline`` and ``weak_evidence`` (the baseline alone already
    passes); and the shares ``pct_within_10pct``, ``pct_within_tolerance``
    (of ``scored``) and ``pct_beats_baseline`` (of ``prediction``).
    """
    _check_table(table, ("study", "role", "precise", "verdict", "bound_low", "within_10pct", "within_tolerance",
                         "beats_baseline", "weak_evidence"))
    studies = list(dict.fromkeys(table["study"]))
    rows = [_board_row(study, table[table["study"] == study]) for study in studies]
    rows.append(_board_row(POOLED, table))
    return pd.DataFrame(rows)


def _board_row(study: str, cells: pd.DataFrame) -> dict:
    predicted = cells[cells["role"] == "prediction"]
    values = predicted[predicted["bound_low"].isna()]
    row = {"study": study, "cells": len(cells)}
    row.update({role: int((cells["role"] == role).sum()) for role in ROLES})
    row["scored"] = len(values)
    for column in ("within_10pct", "within_tolerance"):
        row[column] = int(values[column].astype(bool).sum())
    verdicts = predicted["verdict"].value_counts()
    row.update({"hits": int(verdicts.get("hit", 0)), "misses": int(verdicts.get("miss", 0)),
                "undecided": int(verdicts.get("undecided", 0)), "bounds": len(predicted) - len(values),
                "bounds_held": int(verdicts.get("bound held", 0))})
    for column in ("beats_baseline", "weak_evidence"):
        row[column] = int(predicted[column].fillna(False).astype(bool).sum())
    for column, total in (("within_10pct", len(values)), ("within_tolerance", len(values)),
                          ("beats_baseline", len(predicted))):
        row[f"pct_{column}"] = 100.0 * row[column] / total if total else math.nan
    return row


def cell_names(table: pd.DataFrame) -> pd.Series:
    """Each cell's name as the document has it: ``"table · row · column"``."""
    _check_table(table, ("table", "row", "column"))
    return table["table"] + " · " + table["row"] + " · " + table["column"]


def in_words(table: pd.DataFrame) -> str:
    """A study's comparison summed up for a reader, in the document's own names for its cells."""
    _check_table(table, ("table", "row", "column", "role", "verdict", "bound_low", "within_10pct",
                         "within_tolerance", "precise", "beats_baseline", "weak_evidence"))
    board = scoreboard(table).iloc[-1]
    named = table.assign(name=cell_names(table))
    calibrated = "; ".join(named.loc[named["role"] == "calibration", "name"])
    words = [f"{board['calibration']} published cells set parameters ({calibrated})."
             if board["calibration"] else "No published cell sets a parameter.",
             f"{board['derived']} follow from other published cells and are shown, not scored."]
    predictions = [f"{board['hits']} within their tolerance", f"{board['misses']} outside it"]
    if board["undecided"]:
        predictions.append(f"{board['undecided']} undecided (the interval is still too wide)")
    if board["bounds"]:
        predictions.append(f"{board['bounds_held']} of {board['bounds']} stated ranges held")
    words.append(f"Of the {board['prediction']} predictions, " + ", ".join(predictions) + "; "
                 f"{board['beats_baseline']} beat the planner's answer without the model, and for "
                 f"{board['weak_evidence']} that answer alone already passes.")
    worst = worst_cells(table, 1)
    if not worst.empty:
        cell = worst.iloc[0]
        words.append(f"The largest miss is {cell_names(worst).iloc[0]}: {_figures(cell['published'])} "
                     f"published, {_figures(cell['model'])} in the model.")
    return " ".join(words)


def tolerances_off(table: pd.DataFrame) -> pd.Series:
    """Each cell's error in units of its own tolerance (above 1 means outside it).

    This puts a tape count off by two tapes, a percentage off by eight points
    and a time off by 30% on one scale, so cells of different kinds rank fairly.
    A cell scored as a bound counts its half-range as its tolerance (its
    published value is the range's midpoint).
    """
    _check_table(table, ("tolerance", "tolerance_kind", "published", "model", "bound_low", "bound_high"))
    allowed = table["tolerance"].where(table["tolerance_kind"] == "absolute",
                                       table["tolerance"] * table["published"].abs())
    allowed = ((table["bound_high"] - table["bound_low"]) / 2).where(table["bound_low"].notna(), allowed)
    error = (table["model"] - table["published"]).abs()
    return error / allowed.where(allowed > 0)


def _check_table(table, columns: Iterable[str]) -> None:
    """Raise the standard ValueError unless ``table`` is a comparison table with ``columns``."""
    if not isinstance(table, pd.DataFrame):
        raise ValueError(f"table = {type(table).__name__} has the wrong type: allowed a comparison table "
                         "(a DataFrame with the columns of perfstudies.compare.COLUMNS)")
    missing = [column for column in columns if column not in table.columns]
    if missing:
        raise ValueError(f"table lacks columns {missing}: allowed a comparison table (columns of "
                         "perfstudies.compare.COLUMNS)")
    numeric = [column for column in ("published", "model", "tolerance") if column in columns
               and not (pd.api.types.is_numeric_dtype(table[column]) and not pd.api.types.is_bool_dtype(table[column]))]
    if numeric:
        raise ValueError(f"table columns {numeric} are not numeric: allowed a comparison table "
                         "(comparison_table makes one)")


def worst_cells(table: pd.DataFrame, count: int = 10, per_study: bool = False) -> pd.DataFrame:
    """The ``count`` predicted cells that miss furthest outside their tolerance (column ``tolerances_off``).

    Only decided misses are listed (verdict "miss" or "bound broken"): a cell
    inside its tolerance is never a "worst" cell, however large its relative
    error.  With ``per_study`` the worst ``count`` of each study, in registry
    order, so one study's misses do not hide another's.
    """
    if isinstance(count, bool) or not isinstance(count, numbers.Integral) or count < 1:
        raise ValueError(f"count = {count!r} is out of range: allowed an integer count >= 1")
    if not isinstance(per_study, bool):
        raise ValueError(f"per_study = {per_study!r} has the wrong type: allowed True or False")
    _check_table(table, ("study", "role", "verdict", "tolerance", "tolerance_kind", "published", "model",
                         "bound_low", "bound_high"))
    misses = table[table["verdict"].isin(["miss", "bound broken"])].assign(tolerances_off=lambda t: tolerances_off(t))
    ranked = misses.sort_values("tolerances_off", ascending=False, kind="stable")
    if per_study:
        studies = list(dict.fromkeys(table["study"]))
        ranked = ranked.groupby("study", sort=False).head(count)
        return ranked.sort_values("study", key=lambda s: s.map(studies.index), kind="stable")
    return ranked.head(count)
