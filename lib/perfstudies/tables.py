"""Numbers and tables as a reader should see them.

Every table a reader sees, in the book and in the chapters, goes through this
module:

- :func:`readable` formats one table: human column names (with units), numbers
  to a sensible number of significant figures with thousands separators, never
  scientific notation, ``NaN`` or ``nan%`` (an empty cell shows an en dash),
  yes/no for true/false, no index.  The standard comparison columns
  (``rel_error``, ``ci_half_width``, ``beats_baseline``, ...) get their reader's
  names and formats without being asked.
- :func:`fold` puts a long table under a one-line summary that opens on a click
  (an HTML ``<details>``), so a chapter shows its 60-row table without a wall of
  numbers.
- :func:`split` and :func:`long_format` restructure a table too wide for the
  text column: repeat the key columns beside a few value columns at a time, or
  turn the value columns into rows.  :func:`width` estimates a table's width in
  characters, :data:`COLUMN_CHARS` is what the text column holds.
- :func:`interval` is how any table shows a mean with its 95% interval.
- :func:`published_vs_model` is the chapter's standard published-vs-model table: one
  cell label, roles in words, model with its interval, misses first, folded
  when long.

Examples
--------
>>> number(112_134.5), number(0.004823), number(7772.0, digits=4), number(float("nan"))
('112,000', '0.00482', '7,772', '–')
>>> percent(0.2108), percent(-0.05, signed=True)
('21%', '−5%')
>>> exact(7772.0), exact(0.5), exact(2.108e-01)
('7,772', '0.5', '0.2108')
"""

import html
import math
import numbers
import re
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd
from pandas.io.formats.style import Styler

#: What an empty or undefined cell shows.
EMPTY = "–"
MINUS = "−"
#: How many characters of table (cells plus padding) the book's text column holds
#: at 1300 px (the column is about 650-700 px; a table cell character is about
#: 8 px, and every column adds about 2 characters of padding).
COLUMN_CHARS = 80
#: A table longer than this many rows folds under its summary in :func:`published_vs_model`.
FOLD_ROWS = 12
#: Cells of text at most this long do not wrap in the width estimate; longer ones wrap at spaces.
WRAP_CHARS = 18
_PADDING_CHARS = 2


def _is_missing(value) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, numbers.Integral)) and math.isnan(value)


def _check_digits(digits) -> None:
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 15:
        raise ValueError(f"digits = {digits!r} is out of range: allowed an integer 1 <= digits <= 15")


def _real(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} = {value!r} has the wrong type: allowed a real number or NaN")
    try:
        return float(value)
    except OverflowError:  # an integer beyond any float
        raise ValueError(f"{name} = {value!r} is out of range: allowed a real number within a float's range "
                         "(|value| < 1.8e308) or NaN") from None


def number(value, digits: int = 3) -> str:
    """``value`` to ``digits`` significant figures, grouped by thousands, never in exponent notation."""
    _check_digits(digits)
    if _is_missing(value):
        return EMPTY
    value = _real("value", value)
    if math.isinf(value):
        return "∞" if value > 0 else f"{MINUS}∞"
    if value == 0:
        return "0"
    decimals = digits - 1 - math.floor(math.log10(abs(value)))
    try:
        if abs(round(value, decimals)) >= 10 ** (digits - decimals):  # rounding carried into a new digit
            decimals -= 1
        rounded = round(value, decimals)
    except OverflowError:  # rounding up near the largest float
        rounded = value
    text = f"{rounded:,.{max(0, decimals)}f}"
    return text.replace("-", MINUS)


def exact(value, digits: int = 6) -> str:
    """A transcribed number as printed: whole numbers in full, others to at most ``digits``
    significant figures without trailing zeros (``7772.0`` -> ``"7,772"``, ``0.2108`` -> ``"0.2108"``)."""
    _check_digits(digits)
    if _is_missing(value):
        return EMPTY
    value = _real("value", value)
    if math.isfinite(value) and value == round(value) and abs(value) < 1e15:
        return f"{int(round(value)):,}".replace("-", MINUS)
    text = number(value, digits)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def percent(fraction, digits: int = 0, signed: bool = False) -> str:
    """A fraction as a percentage (``0.21`` -> ``"21%"``), with a sign when ``signed``."""
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 6:
        raise ValueError(f"digits = {digits!r} is out of range: allowed an integer 0 <= digits <= 6")
    if _is_missing(fraction):
        return EMPTY
    if not isinstance(signed, (bool, np.bool_)):
        raise ValueError(f"signed = {signed!r} has the wrong type: allowed True or False")
    if isinstance(fraction, bool) or not isinstance(fraction, numbers.Real):
        raise ValueError(f"fraction = {fraction!r} is not allowed: allowed a finite real number or NaN")
    fraction = _real("fraction", fraction)
    if not math.isfinite(100 * fraction):
        raise ValueError(f"fraction = {fraction!r} is not allowed: allowed a finite real number "
                         "(|fraction| < 1.8e306) or NaN")
    text = f"{100 * fraction:{'+' if signed else ''}.{digits}f}%"
    if re.fullmatch(r"[+-]?0\.?0*%", text):  # no "+0%" or "-0%"
        text = text.lstrip("+-")
    return text.replace("-", MINUS)


def _count(value) -> str:
    return EMPTY if _is_missing(value) else f"{int(round(_real('value', value))):,}"


def _yes_no(value) -> str:
    if _is_missing(value):
        return EMPTY
    if isinstance(value, str):
        return value
    return "yes" if bool(value) else "no"


def _text(value) -> str:
    return EMPTY if _is_missing(value) or (isinstance(value, str) and not value.strip()) else str(value)


def _multiple(value) -> str:
    """A ratio to a reference, such as an error in multiples of its tolerance: ``2.3×``."""
    return EMPTY if _is_missing(value) else f"{number(value, 2)}×"


#: Named cell formats :func:`readable` understands.
FORMATS: dict[str, Callable[[object], str]] = {
    "number": number,
    "exact": exact,
    "count": _count,
    "percent": percent,
    "change": lambda v: percent(v, signed=True),
    "points": lambda v: EMPTY if _is_missing(v) else f"{_real('value', v):.1f}".replace("-", MINUS),
    "multiple": _multiple,
    "yesno": _yes_no,
    "text": _text,
}

#: Reader's names of the standard comparison-table columns (see :mod:`perfstudies.compare`).
NAMES: dict[str, str] = {
    "ci_half_width": "95% CI ±",
    "rel_error": "error",
    "within_10pct": "within 10%",
    "tolerance_reason": "wider tolerance because",
    "within_tolerance": "within tolerance",
    "baseline": "no-change baseline",
    "baseline_rel_error": "baseline error",
    "beats_baseline": "beats baseline",
    "weak_evidence": "weak evidence",
    "tolerances_off": "tolerances off",
    "precise": "precise enough",
}

#: Formats of the standard comparison-table columns, used unless ``formats`` says otherwise.
COLUMN_FORMATS: dict[str, str] = {
    "published": "exact",
    "rel_error": "change",
    "baseline_rel_error": "change",
    "within_10pct": "yesno",
    "within_tolerance": "yesno",
    "beats_baseline": "yesno",
    "weak_evidence": "yesno",
    "precise": "yesno",
    "tolerances_off": "multiple",
}

#: A role of a compared cell, in the words a reader sees.
ROLE_WORDS = {"calibration": "calibration", "derived": "derived", "prediction": "prediction"}


def _boolean_column(column: pd.Series) -> bool:
    if pd.api.types.is_bool_dtype(column):
        return True
    present = [value for value in column if not _is_missing(value)]
    return bool(present) and all(isinstance(value, bool) for value in present)


def _frame(frame, name: str = "frame") -> pd.DataFrame:
    if isinstance(frame, Styler):
        return frame.data
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"{name} = {type(frame).__name__} has the wrong type: allowed a pandas DataFrame")
    return frame


def _check_columns(frame: pd.DataFrame, named: Sequence, what: str) -> None:
    unknown = [column for column in named if column not in frame.columns]
    if unknown:
        raise ValueError(f"{what} name columns {unknown} that frame lacks: allowed {list(frame.columns)}")


def _formatters(frame: pd.DataFrame, formats: Mapping) -> dict[str, Callable]:
    chosen = {}
    for column in frame.columns:
        if column in formats:
            kind = formats[column]
        elif column in COLUMN_FORMATS:
            kind = COLUMN_FORMATS[column]
        elif _boolean_column(frame[column]):
            kind = "yesno"
        elif pd.api.types.is_integer_dtype(frame[column]):
            kind = "count"
        elif pd.api.types.is_numeric_dtype(frame[column]):
            kind = "number"
        else:
            kind = "text"
        if isinstance(kind, str):
            if kind not in FORMATS:
                raise ValueError(f"formats[{column!r}] = {kind!r} is not allowed: allowed one of {list(FORMATS)}")
            chosen[column] = FORMATS[kind]
        elif callable(kind):
            chosen[column] = kind
        else:
            raise ValueError(f"formats[{column!r}] = {kind!r} is not allowed: allowed a callable or one of "
                             f"{list(FORMATS)}")
    return chosen


def formatted(frame: pd.DataFrame, names: Mapping[str, str] | None = None,
              formats: Mapping[str, str | Callable] | None = None) -> pd.DataFrame:
    """``frame`` as the strings a reader sees: renamed columns, every cell formatted (see :func:`readable`)."""
    frame = _frame(frame)
    names, formats = _mapping("names", names), _mapping("formats", formats)
    _check_columns(frame, list(names) + list(formats), "names/formats")
    chosen = _formatters(frame, formats)
    text = pd.DataFrame({column: [chosen[column](value) for value in frame[column]] for column in frame.columns},
                        index=frame.index)
    return text.rename(columns=_names(frame, names))


def _mapping(name: str, value) -> dict:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValueError(f"{name} = {value!r} has the wrong type: allowed a mapping from column names")
    return dict(value)


def _names(frame: pd.DataFrame, names: Mapping[str, str]) -> dict:
    chosen = {column: NAMES[column] for column in frame.columns if column in NAMES}
    chosen.update(names)
    bad = {column: name for column, name in chosen.items() if not isinstance(name, str) or not name.strip()}
    if bad:
        raise ValueError(f"names = {bad!r} is not allowed: allowed non-empty strings")
    return chosen


def readable(frame: pd.DataFrame, names: Mapping[str, str] | None = None,
             formats: Mapping[str, str | Callable] | None = None) -> Styler:
    """A Styler that shows ``frame`` to a reader: renamed columns, formatted cells, no index.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table; its index is not shown (``reset_index()`` first to show it).
    names : mapping, optional
        ``{column: reader's name (with unit)}``; the standard comparison
        columns have names already (:data:`NAMES`); other columns keep theirs.
    formats : mapping, optional
        ``{column: format}``, a key of :data:`FORMATS` or a callable returning
        the cell's text.  Otherwise: the standard comparison columns use
        :data:`COLUMN_FORMATS`, true/false columns ``"yesno"``, integer columns
        ``"count"``, other numeric columns :func:`number` (3 significant
        figures), the rest ``"text"``.

    Examples
    --------
    >>> frame = pd.DataFrame({"drives": [1, 4], "elapsed_s": [7772.0, float("nan")]})
    >>> html = readable(frame, names={"elapsed_s": "elapsed (s)"}, formats={"drives": "count"}).to_html()
    >>> "7,770" in html and "–" in html and "nan" not in html
    True
    """
    frame = _frame(frame)
    names, formats = _mapping("names", names), _mapping("formats", formats)
    _check_columns(frame, list(names) + list(formats), "names/formats")
    chosen = _formatters(frame, formats)
    renamed = _names(frame, names)
    if len(set(renamed.get(column, column) for column in frame.columns)) < len(frame.columns):
        raise ValueError(f"names = {names!r} gives two columns the same name: allowed distinct names")
    shown = frame.rename(columns=renamed)
    styler = shown.style.format({renamed.get(column, column): chosen[column] for column in frame.columns})
    styler = styler.hide(axis="index").set_table_attributes('class="perfstudies-table"')
    styler.perfstudies_text = pd.DataFrame(  # what the reader sees, for width()
        {renamed.get(c, c): [chosen[c](v) for v in frame[c]] for c in frame.columns}, index=frame.index)
    return styler


def width(table) -> int:
    """The narrowest width, in characters, at which ``table`` shows without long wraps.

    Each column is as wide as its longest cell (text longer than
    :data:`WRAP_CHARS` wraps at spaces, so counts as its longest word or
    :data:`WRAP_CHARS`) and its header's longest word, plus padding.  Compare
    with :data:`COLUMN_CHARS`.  ``table`` is a DataFrame or a Styler from
    :func:`readable` (then the shown text is measured).
    """
    if isinstance(table, Styler):
        text = getattr(table, "perfstudies_text", None)
        if text is None:
            text = formatted(table.data)
    elif isinstance(table, pd.DataFrame):
        text = formatted(table)
    else:
        raise ValueError(f"table = {type(table).__name__} has the wrong type: allowed a DataFrame or a Styler")
    return _text_width(text)


def _text_width(text: pd.DataFrame) -> int:
    """:func:`width` of cells already formatted (strings, shown as they are)."""
    total = 0
    for column in text.columns:
        header = max((len(word) for word in str(column).split()), default=1)
        cells = [_cell_chars(str(value)) for value in text[column]]
        total += max([header, *cells]) + _PADDING_CHARS
    return total


def _cell_chars(text: str) -> int:
    if len(text) <= WRAP_CHARS:
        return len(text)
    return max(min(WRAP_CHARS, len(text)), max((len(word) for word in text.split()), default=0))


class Tables:
    """Several tables shown one after another (what :func:`split` returns)."""

    def __init__(self, parts: Sequence[Styler], captions: Sequence[str] | None = None):
        self.parts = list(parts)
        self.captions = list(captions) if captions is not None else [""] * len(self.parts)

    def _repr_html_(self) -> str:
        blocks = []
        for styler, caption in zip(self.parts, self.captions):
            title = f'<p class="perfstudies-table-caption">{html.escape(caption)}</p>' if caption else ""
            blocks.append(f"{title}{styler.to_html()}")
        return '<div class="perfstudies-tables">' + "\n".join(blocks) + "</div>"

    def __repr__(self) -> str:
        return f"Tables({len(self.parts)} parts)"


class Folded:
    """A table under a one-line summary that opens on a click (an HTML ``<details>``)."""

    def __init__(self, table, summary: str, opened: bool = False):
        self.table, self.summary, self.opened = table, summary, opened

    def _repr_html_(self) -> str:
        inner = self.table._repr_html_() if isinstance(self.table, Tables) else self.table.to_html()
        return (f'<details class="perfstudies-fold"{" open" if self.opened else ""}>'
                f"<summary>{html.escape(self.summary)}</summary>\n{inner}\n</details>")

    def __repr__(self) -> str:
        return f"Folded({self.summary!r})"


def fold(table, summary: str, opened: bool = False) -> Folded:
    """Show ``table`` folded under ``summary``: one line that opens the whole table on a click.

    ``table`` is a Styler (from :func:`readable`), a :class:`Tables`, or a
    DataFrame (formatted with :func:`readable`).  The book and JupyterLab both
    render it as an HTML ``<details>`` element; ``opened`` starts it open.

    Examples
    --------
    >>> folded = fold(pd.DataFrame({"x": [1.5]}), "Every cell (1 row)")
    >>> folded._repr_html_().startswith('<details class="perfstudies-fold"><summary>Every cell (1 row)')
    True
    """
    if isinstance(table, pd.DataFrame):
        table = readable(table)
    if not isinstance(table, (Styler, Tables)):
        raise ValueError(f"table = {type(table).__name__} has the wrong type: allowed a Styler, Tables or DataFrame")
    if not isinstance(summary, str) or not summary.strip():
        raise ValueError(f"summary = {summary!r} is not allowed: allowed a non-empty string")
    if not isinstance(opened, bool):
        raise ValueError(f"opened = {opened!r} has the wrong type: allowed True or False")
    return Folded(table, summary.strip(), opened)


def split(frame: pd.DataFrame, keep: Sequence[str], names: Mapping[str, str] | None = None,
          formats: Mapping[str, str | Callable] | None = None, max_chars: int = COLUMN_CHARS,
          captions: Sequence[str] | None = None) -> Tables:
    """A table too wide for the text column as several narrower tables, each repeating ``keep``.

    The other columns are taken in order, as many per table as fit in
    ``max_chars`` (see :func:`width`).  Use it for a table whose columns are
    different quantities (spxtape's Table 1); for one quantity measured in many
    configurations, :func:`long_format` reads better.

    Examples
    --------
    >>> wide = pd.DataFrame({"case": ["a"], **{f"quantity {i} (s)": [100.0 * i] for i in range(12)}})
    >>> parts = split(wide, keep=["case"], max_chars=40).parts
    >>> len(parts) > 1 and all(part.data.columns[0] == "case" for part in parts)
    True
    """
    frame = _frame(frame)
    keep = _columns("keep", keep, frame)
    names, formats = _mapping("names", names), _mapping("formats", formats)
    _check_columns(frame, list(names) + list(formats), "names/formats")
    if isinstance(max_chars, bool) or not isinstance(max_chars, int) or not 20 <= max_chars <= 400:
        raise ValueError(f"max_chars = {max_chars!r} is out of range: allowed an integer 20 <= max_chars <= 400")
    text = formatted(frame, names, formats)
    shown = dict(zip(frame.columns, text.columns))

    def chars(columns):
        return _text_width(text[[shown[c] for c in columns]])

    rest = [column for column in frame.columns if column not in keep]
    if chars(keep) >= max_chars:
        raise ValueError(f"keep = {keep} is {chars(keep)} characters wide on its own: allowed fewer columns "
                         f"than max_chars = {max_chars}")
    groups, current = [], []
    for column in rest:
        if current and chars(keep + current + [column]) > max_chars:
            groups.append(current)
            current = []
        current.append(column)
    if current or not groups:
        groups.append(current)
    if captions is not None:
        captions = list(captions)
        if len(captions) != len(groups) or not all(isinstance(c, str) for c in captions):
            raise ValueError(f"captions = {captions!r} is not allowed: allowed {len(groups)} strings, one per part")
    parts = [readable(frame[keep + group], {k: v for k, v in names.items() if k in keep + group},
                      {k: v for k, v in formats.items() if k in keep + group}) for group in groups]
    return Tables(parts, captions)


def _columns(name: str, columns, frame: pd.DataFrame) -> list:
    if isinstance(columns, str) or not isinstance(columns, Sequence):
        raise ValueError(f"{name} = {columns!r} has the wrong type: allowed a list of column names")
    columns = list(columns)
    _check_columns(frame, columns, name)
    return columns


def long_format(frame: pd.DataFrame, keep: Sequence[str], variable: str, value: str,
                names: Mapping[str, str] | None = None) -> pd.DataFrame:
    """A wide table as rows: one row per ``keep`` key and other column, its value in column ``value``.

    ``variable`` and ``value`` are the reader's names of the two new columns;
    ``names`` renames the former columns' labels as they appear in ``variable``.
    Rows come key by key, in ``frame``'s order.

    Examples
    --------
    >>> wide = pd.DataFrame({"stripes": [1, 2], "ESS (s)": [10.0, 6.0], "3390-3 (s)": [30.0, 16.0]})
    >>> long_format(wide, ["stripes"], variable="device", value="elapsed (s)").to_dict("records")[1]
    {'stripes': 1, 'device': '3390-3 (s)', 'elapsed (s)': 30.0}
    """
    frame = _frame(frame)
    keep = _columns("keep", keep, frame)
    names = _mapping("names", names)
    for name, text in (("variable", variable), ("value", value)):
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"{name} = {text!r} is not allowed: allowed a non-empty column name")
        if text in keep:
            raise ValueError(f"{name} = {text!r} is a kept column: allowed a new name")
    rest = [column for column in frame.columns if column not in keep]
    if not rest:
        raise ValueError(f"keep = {keep} leaves no column to turn into rows: allowed a subset of the columns")
    _check_columns(frame, list(names), "names")
    order = {column: i for i, column in enumerate(rest)}
    long = frame.reset_index(drop=True).reset_index().melt(id_vars=["index", *keep], value_vars=rest,
                                                             var_name=variable, value_name=value)
    long["_order"] = long[variable].map(order)
    long = long.sort_values(["index", "_order"], kind="stable").drop(columns=["index", "_order"])
    long[variable] = long[variable].map(lambda column: names.get(column, column))
    return long.reset_index(drop=True)


def published_vs_model(table: pd.DataFrame, order: str = "misses first", summary: str | None = None,
                       fold_rows: int = FOLD_ROWS, notes: bool = False) -> Styler | Folded:
    """A chapter's published-vs-model table, as a reader should see it.

    One row per compared cell: where it is (``table · row · column``), its role
    in words, the published number as printed, the model with its 95%
    interval, the error, the tolerance, the no-change baseline and whether the
    model beats it.  ``order="misses first"`` puts the predictions outside their
    tolerance first (worst first), then the other predictions, then derived and
    calibrated cells; ``order="document"`` keeps the table's order.  A table
    longer than ``fold_rows`` folds under ``summary`` (by default a count of
    its cells by role and of the misses).  With ``notes`` each cell's note
    (why it is derived, what its baseline is) shows under its label.

    ``table`` has the columns of :func:`perfstudies.compare.comparison_table`.
    """
    frame = _frame(table, "table")
    needed = ["table", "row", "column", "published", "model", "ci_half_width", "rel_error", "role", "tolerance",
              "tolerance_kind", "within_tolerance", "baseline", "beats_baseline"]
    missing = [column for column in needed if column not in frame.columns]
    if missing:
        raise ValueError(f"table lacks columns {missing}: allowed a comparison table (perfstudies.compare)")
    if order not in ("misses first", "document"):
        raise ValueError(f"order = {order!r} is not allowed: allowed 'misses first' or 'document'")
    if isinstance(fold_rows, bool) or not isinstance(fold_rows, int) or fold_rows < 1:
        raise ValueError(f"fold_rows = {fold_rows!r} is out of range: allowed an integer >= 1")
    if not isinstance(notes, bool):
        raise ValueError(f"notes = {notes!r} has the wrong type: allowed True or False")
    if summary is not None and (not isinstance(summary, str) or not summary.strip()):
        raise ValueError(f"summary = {summary!r} is not allowed: allowed a non-empty string or None")
    unknown = sorted(set(frame["role"]) - set(ROLE_WORDS))
    if unknown:
        raise ValueError(f"table has roles {unknown}: allowed {list(ROLE_WORDS)}")
    frame = frame.reset_index(drop=True)
    allowed = frame["tolerance"].where(frame["tolerance_kind"] == "absolute",
                                       frame["tolerance"] * frame["published"].abs())
    off = (frame["model"] - frame["published"]).abs() / allowed.where(allowed > 0)
    if "verdict" in frame.columns:
        miss = frame["verdict"].isin(["miss", "bound broken"])
    else:
        miss = (frame["role"] == "prediction") & ~frame["within_tolerance"].astype(bool)
    if order == "misses first":
        rank = frame["role"].map({"prediction": 1, "derived": 2, "calibration": 3}).where(~miss, 0)
        frame = frame.assign(_rank=rank, _off=-off.fillna(0)).sort_values(["_rank", "_off"], kind="stable")
        miss = miss.loc[frame.index]
    labels = [f'<span class="perfstudies-label">{html.escape(f"{t} · {r} · {c}")}</span>'
              for t, r, c in zip(frame["table"], frame["row"], frame["column"])]
    if notes and "note" in frame.columns:
        grounds = frame["baseline_ground"] if "baseline_ground" in frame.columns else pd.Series("", frame.index)
        texts = [" ".join(part for part in (note if isinstance(note, str) else "",
                                            f"Baseline, {ground}." if isinstance(ground, str) and ground else "")
                          if part.strip())
                 for note, ground in zip(frame["note"], grounds)]
        labels = [label + (f'<br><span class="perfstudies-note">{html.escape(text)}</span>' if text else "")
                  for label, text in zip(labels, texts)]
    shown = pd.DataFrame({
        "cell": labels,
        "role": frame["role"].map(ROLE_WORDS),
        "published": frame["published"].map(exact),
        "model (95% CI)": [interval(m, h) for m, h in zip(frame["model"], frame["ci_half_width"])],
        "error": frame["rel_error"].map(lambda v: percent(v, signed=True)),
        "tolerance": [_tolerance(v, k) if _is_missing(low) else f"{exact(low)}\u2013{exact(high)}"
                      for v, k, low, high in zip(frame["tolerance"], frame["tolerance_kind"],
                                                  frame.get("bound_low", pd.Series(math.nan, frame.index)),
                                                  frame.get("bound_high", pd.Series(math.nan, frame.index)))],
        "baseline": frame["baseline"].map(number),
        "beats baseline": frame["beats_baseline"].map(_yes_no),
    })
    styler = shown.style.hide(axis="index").set_table_attributes('class="perfstudies-table"')
    styler.perfstudies_text = shown
    missed = list(miss.to_numpy())
    styler = styler.apply(lambda column: ["font-weight: bold" if m else "" for m in missed], subset=["error"])
    if len(shown) <= fold_rows:
        return styler
    if summary is None:
        counts = frame["role"].value_counts()
        roles = ", ".join(f"{counts.get(role, 0)} {word}" for role, word in
                          (("calibration", "calibration"), ("derived", "derived"), ("prediction", "prediction")))
        summary = (f"Every compared cell ({len(shown)}: {roles}; {int(miss.sum())} predictions missed, "
                   "in bold), click to open")
    return fold(styler, summary)


#: Said after a mean whose 95% interval is wider than the mean itself: the mean alone says little.
WIDE_INTERVAL = "(interval wider than the mean: too few replications to say)"


def interval_note(mean, half_width) -> str:
    """:data:`WIDE_INTERVAL` (with a leading space) when the 95% half-width exceeds the mean's size, else "".

    ``1,480 ± 4,050`` read alone looks like a measurement; said in words, the reader knows the
    interval holds zero and the mean's sign and size are not yet known.
    """
    if _is_missing(mean) or _is_missing(half_width):
        return ""
    return f" {WIDE_INTERVAL}" if abs(_real("half_width", half_width)) > abs(_real("mean", mean)) else ""


def interval(mean, half_width) -> str:
    """A mean and its 95% half-width as a reader sees them, in every table: ``"150 ± 1.0"``.

    Three significant figures for the mean and two for the half-width (:func:`number`), never
    broken over two lines, and an interval wider than its mean said in words (:func:`interval_note`);
    the mean alone when it has no half-width (missing or 0), an en dash when there is no mean.
    A half-width below 0 is refused by name.

    >>> interval(7772.4, 31.2), interval(0.4449, 0.00069), interval(2.5, float("nan"))
    ('7,770\xa0±\xa031', '0.445\xa0±\xa00.00069', '2.50')
    """
    if _is_missing(mean):
        return EMPTY
    mean = _real("mean", mean)
    if _is_missing(half_width):
        return number(mean)
    half_width = _real("half_width", half_width)
    if not half_width >= 0:
        raise ValueError(f"half_width = {half_width!r} is out of range: allowed a half-width >= 0, or NaN")
    if half_width == 0:
        return number(mean)
    return f"{number(mean)}\u00a0±\u00a0{number(half_width, 2)}{interval_note(mean, half_width)}"


def _tolerance(value, kind) -> str:
    if _is_missing(value):
        return EMPTY
    return f"±{percent(value)}" if kind == "relative" else f"±{exact(value)}"
