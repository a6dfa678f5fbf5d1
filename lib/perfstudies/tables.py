"""Numbers and tables as a reader should see them.

Every table a reader sees goes through :func:`readable`: human column names,
numbers to a sensible number of significant figures with thousands
separators, never scientific notation, ``NaN`` or ``nan%`` (an empty cell
shows an en dash).

Examples
--------
>>> number(112_134.5), number(0.004823), number(7772.0, digits=4), number(float("nan"))
('112,000', '0.00482', '7,772', '–')
>>> percent(0.2108), percent(-0.05, signed=True)
('21%', '−5%')
"""

import math
import numbers
from collections.abc import Callable, Mapping

import pandas as pd
from pandas.io.formats.style import Styler

#: What an empty or undefined cell shows.
EMPTY = "–"
MINUS = "−"


def _is_missing(value) -> bool:
    return value is None or (isinstance(value, numbers.Real) and math.isnan(value)) or value is pd.NA


def number(value, digits: int = 3) -> str:
    """``value`` to ``digits`` significant figures, grouped by thousands, never in exponent notation."""
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 15:
        raise ValueError(f"digits = {digits!r} is out of range: allowed an integer 1 <= digits <= 15")
    if _is_missing(value):
        return EMPTY
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"value = {value!r} has the wrong type: allowed a real number or NaN")
    value = float(value)
    if math.isinf(value):
        return "∞" if value > 0 else f"{MINUS}∞"
    if value == 0:
        return "0"
    decimals = digits - 1 - math.floor(math.log10(abs(value)))
    if abs(round(value, decimals)) >= 10 ** (digits - decimals):  # rounding carried into a new digit
        decimals -= 1
    text = f"{round(value, decimals):,.{max(0, decimals)}f}"
    return text.replace("-", MINUS)


def percent(fraction, digits: int = 0, signed: bool = False) -> str:
    """A fraction as a percentage (``0.21`` -> ``"21%"``), with a sign when ``signed``."""
    if _is_missing(fraction):
        return EMPTY
    if isinstance(fraction, bool) or not isinstance(fraction, numbers.Real) or math.isinf(fraction):
        raise ValueError(f"fraction = {fraction!r} is not allowed: allowed a finite real number or NaN")
    text = f"{100 * fraction:{'+' if signed else ''}.{digits}f}%"
    return text.replace("-", MINUS)


#: Named cell formats :func:`readable` understands.
FORMATS: dict[str, Callable[[object], str]] = {
    "number": number,
    "count": lambda v: EMPTY if _is_missing(v) else f"{int(round(v)):,}",
    "percent": percent,
    "change": lambda v: percent(v, signed=True),
    "points": lambda v: EMPTY if _is_missing(v) else f"{v:.1f}",
    "text": lambda v: EMPTY if _is_missing(v) else str(v),
}


def readable(frame: pd.DataFrame, names: Mapping[str, str] | None = None,
             formats: Mapping[str, str | Callable] | None = None) -> Styler:
    """A Styler that shows ``frame`` to a reader: renamed columns, formatted cells, no index.

    Parameters
    ----------
    names : mapping, optional
        ``{column: reader's name (with unit)}``; columns not named keep theirs.
    formats : mapping, optional
        ``{column: format}``, a key of :data:`FORMATS` or a callable. Numeric
        columns not listed use :func:`number`; others show as text.
    """
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame = {type(frame).__name__} has the wrong type: allowed a pandas DataFrame")
    names, formats = dict(names or {}), dict(formats or {})
    unknown = [column for column in list(names) + list(formats) if column not in frame.columns]
    if unknown:
        raise ValueError(f"names/formats name columns {unknown} that frame lacks: allowed {list(frame.columns)}")
    chosen = {}
    for column in frame.columns:
        kind = formats.get(column, "number" if pd.api.types.is_numeric_dtype(frame[column])
                           and not pd.api.types.is_bool_dtype(frame[column]) else "text")
        if isinstance(kind, str) and kind not in FORMATS:
            raise ValueError(f"formats[{column!r}] = {kind!r} is not allowed: allowed one of {list(FORMATS)}")
        chosen[names.get(column, column)] = FORMATS[kind] if isinstance(kind, str) else kind
    return frame.rename(columns=names).style.format(chosen).hide(axis="index")
