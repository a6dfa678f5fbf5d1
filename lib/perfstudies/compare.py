"""The standard published-vs-model comparison table every study reports through.

Each compared number is a :class:`Cell`: where it sits in the document (table,
row, column), the published value, the model's value with its confidence
half-width, and its *role*: ``calibration`` when the published value was used
to set a model parameter, ``prediction`` when the model produced it unaided.
:func:`comparison_table` turns cells into one DataFrame with the relative error
and whether each cell is within its tolerance.
"""

import dataclasses
import math
import numbers
from collections.abc import Iterable

import pandas as pd

ROLES = ("calibration", "prediction")
TOLERANCE_KINDS = ("relative", "absolute")

#: Columns of every comparison table, in order.
COLUMNS = ["study", "document", "table", "row", "column", "published", "model", "ci_half_width",
           "rel_error", "role", "tolerance", "tolerance_kind", "within_tolerance", "note"]


@dataclasses.dataclass(frozen=True)
class Cell:
    """One published number beside the model's number for it.

    Parameters
    ----------
    table, row, column : str
        Where the number sits in the document.
    published : float
        The document's value (transcribed from ``data/``, never typed in).
    model : float
        The model's value (mean over replications for simulated numbers).
    role : {"calibration", "prediction"}
        Whether the published value was used to set a parameter.
    ci_half_width : float
        95% confidence half-width of ``model``; NaN for exact numbers.
    tolerance : float
        Allowed error: a fraction for ``relative``, in the cell's unit for
        ``absolute`` (for example one tape, or five percentage points).
    tolerance_kind : {"relative", "absolute"}
    note : str
        Anything a reader needs to read the row (units, why it misses).
    """

    table: str
    row: str
    column: str
    published: float
    model: float
    role: str
    ci_half_width: float = math.nan
    tolerance: float = 0.10
    tolerance_kind: str = "relative"
    note: str = ""

    def __post_init__(self):
        if self.role not in ROLES:
            raise ValueError(f"Cell.role = {self.role!r} is not allowed: allowed one of {list(ROLES)}")
        if self.tolerance_kind not in TOLERANCE_KINDS:
            raise ValueError(f"Cell.tolerance_kind = {self.tolerance_kind!r} is not allowed: "
                             f"allowed one of {list(TOLERANCE_KINDS)}")
        if not self.tolerance >= 0:
            raise ValueError(f"Cell.tolerance = {self.tolerance!r} is out of range: allowed tolerance >= 0")
        for name in ("published", "model"):
            value = getattr(self, name)
            if not isinstance(value, numbers.Real) or isinstance(value, bool):
                raise ValueError(f"Cell.{name} = {value!r} has the wrong type: allowed a number")
            object.__setattr__(self, name, float(value))

    @property
    def rel_error(self) -> float:
        """``(model - published) / |published|``; NaN when published is 0."""
        if self.published == 0:
            return math.nan
        return (self.model - self.published) / abs(self.published)

    @property
    def within_tolerance(self) -> bool:
        if self.tolerance_kind == "absolute":
            return abs(self.model - self.published) <= self.tolerance
        return not math.isnan(self.rel_error) and abs(self.rel_error) <= self.tolerance


def comparison_table(cells: Iterable[Cell], study: str, document: str) -> pd.DataFrame:
    """Return the standard comparison table (columns :data:`COLUMNS`) for ``cells``."""
    rows = [{"study": study, "document": document, **dataclasses.asdict(cell),
             "rel_error": cell.rel_error, "within_tolerance": cell.within_tolerance} for cell in cells]
    if not rows:
        raise ValueError("cells is empty: allowed a non-empty iterable of Cell")
    return pd.DataFrame(rows, columns=COLUMNS)


def scoreboard(table: pd.DataFrame) -> pd.DataFrame:
    """Per-study summary: cell counts by role and the share of predictions within tolerance and 10%."""
    predicted = table[table["role"] == "prediction"]
    summary = table.groupby("study", sort=False).agg(
        cells=("role", "size"),
        calibrated=("role", lambda r: int((r == "calibration").sum())),
        predicted=("role", lambda r: int((r == "prediction").sum())),
    )
    by_study = predicted.groupby("study", sort=False)
    summary["predicted_within_tolerance"] = by_study["within_tolerance"].mean()
    summary["predicted_within_10pct"] = by_study["rel_error"].apply(lambda e: (e.abs() <= 0.10).mean())
    summary["worst_abs_rel_error"] = table.groupby("study", sort=False)["rel_error"].apply(lambda e: e.abs().max())
    return summary.reset_index()


def tolerances_off(table: pd.DataFrame) -> pd.Series:
    """Each cell's error in units of its own tolerance (above 1 means outside it).

    This puts a tape count off by two tapes, a percentage off by eight points
    and a time off by 30% on one scale, so cells of different kinds rank fairly.
    """
    absolute = table["tolerance_kind"] == "absolute"
    error = (table["model"] - table["published"]).abs().where(absolute, table["rel_error"].abs())
    return error / table["tolerance"].where(table["tolerance"] > 0)


def worst_cells(table: pd.DataFrame, count: int = 10, per_study: bool = False) -> pd.DataFrame:
    """The ``count`` predicted cells furthest outside their tolerance (column ``tolerances_off``).

    With ``per_study`` the worst ``count`` of each study, in registry order,
    so one study's misses do not hide another's.
    """
    predicted = table[table["role"] == "prediction"].assign(tolerances_off=lambda t: tolerances_off(t))
    ranked = predicted.sort_values("tolerances_off", ascending=False, kind="stable")
    if per_study:
        studies = list(dict.fromkeys(table["study"]))
        ranked = ranked.groupby("study", sort=False).head(count)
        return ranked.sort_values("study", key=lambda s: s.map(studies.index), kind="stable")
    return ranked.head(count)
