"""Immutable parameter records that validate themselves on construction.

A model's parameters are a frozen dataclass that inherits from
:class:`Params`; each field is declared with :func:`param`, which records the
allowed range (or choices), the unit and a one-line description.  The same
metadata drives validation here and the widgets in :mod:`perfstudies.widgets`,
so a widget can only offer values that the model accepts.

Examples
--------
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Queue(Params):
...     servers: int = param(1, low=1, high=64, doc="parallel servers")
...     load: float = param(0.5, low=0.0, high=1.0, high_open=True, unit="Erlang/server")
>>> Queue(servers=2)
Queue(servers=2, load=0.5)
>>> Queue(servers=0)
Traceback (most recent call last):
...
ValueError: Queue.servers = 0 is out of range: allowed 1 <= servers <= 64 (parallel servers)
"""

import dataclasses
import math
import numbers
import sys
from collections.abc import Mapping
from typing import Any

from numpy import bool_ as np_bool

#: Smallest mean a model may sample a time from: the smallest normal double (``sys.float_info.min``,
#: about 2.2e-308).  Below it a positive number is denormal: it has lost precision, its rate
#: ``1 / mean`` overflows to ``inf`` (from about 5.6e-309 down), and its products underflow to 0
#: (5e-324 x 0.5 is 0.0), so a distribution built from it samples zero or fails to build
#: (see :meth:`Params.check_sampled_mean`).
MIN_SAMPLED_MEAN = sys.float_info.min

#: Most simulated events an accepted record may ask one replication for: about
#: a minute of Ciw on this project's 2-core machine, so no accepted input runs
#: for more than a few minutes (see :meth:`Params.check_event_budget`).
MAX_EVENTS = 3_000_000


def param(
    default: Any,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
    choices: tuple | None = None,
    unit: str = "",
    doc: str = "",
    step: float | None = None,
):
    """Declare a validated field of a :class:`Params` record.

    Parameters
    ----------
    default : int, float, bool or str
        Default value; its type is the field's type (an ``int`` default makes
        an integer field, a ``float`` default a real one).  It must itself be
        allowed.
    low, high : float, optional
        Inclusive bounds, or exclusive ones with ``low_open``/``high_open``;
        finite, ``low <= high``.
    choices : tuple, optional
        The allowed values, for categorical fields.
    unit, doc : str
        Unit and one-line description, shown in errors and widget labels.
    step : float, optional
        Slider step for widgets (defaults to 1 for integers); > 0.
    """
    kind = _kind_of(default)
    for name, bound in (("low", low), ("high", high)):
        if bound is not None:
            check_real(name, bound)
    if low is not None and high is not None and low > high:
        raise ValueError(f"high = {high!r} is out of range: allowed high >= low ({low})")
    check_flag("low_open", low_open)
    check_flag("high_open", high_open)
    if choices is not None:
        if isinstance(choices, (str, bytes)) or not isinstance(choices, (tuple, list)) or not choices:
            raise ValueError(f"choices = {choices!r} has the wrong type: allowed a non-empty tuple of values or None")
        if default not in choices:
            raise ValueError(f"default {default!r} is not one of choices {choices!r}")
    check_text("unit", unit)
    check_text("doc", doc)
    if step is not None:
        check_real("step", step, low=0.0, low_open=True)
    meta = dict(low=low, high=high, low_open=low_open, high_open=high_open,
                choices=tuple(choices) if choices is not None else None,
                unit=unit, doc=doc, step=step, kind=kind)
    try:
        validate_value("param", "default", default, meta)
    except ValueError as error:
        if low is None and high is None:
            raise
        raise ValueError(f"{error} (the range of low = {low!r}, high = {high!r})") from None
    return dataclasses.field(default=default, metadata=meta)


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, numbers.Integral):
        return "int"
    if isinstance(value, numbers.Real):
        return "float"
    if isinstance(value, str):
        return "str"
    raise ValueError(f"default = {value!r} has the wrong type: allowed a bool, int, float or str")


def describe_range(name: str, meta: dict) -> str:
    """Return the allowed values of a field in words, e.g. ``1 <= servers <= 64``."""
    check_text("name", name)
    _check_meta(meta)
    if meta["choices"] is not None:
        return f"one of {list(meta['choices'])}"
    if meta["kind"] == "bool":
        return "True or False"
    low, high = meta["low"], meta["high"]
    left = "" if low is None else f"{low} {'<' if meta['low_open'] else '<='} "
    right = "" if high is None else f" {'<' if meta['high_open'] else '<='} {high}"
    kind = {"int": "an integer", "float": "a finite number", "str": "a string"}[meta["kind"]]
    return f"{left}{name}{right}" if (left or right) else f"{name} is {kind}"


def _bounds(name: str, low, high, low_open: bool = False, high_open: bool = False) -> str:
    left = "" if low is None else f"{low} {'<' if low_open else '<='} "
    right = "" if high is None else f" {'<' if high_open else '<='} {high}"
    return f"{left}{name}{right}"


def check_integer(name: str, value, low: int | None = None, high: int | None = None, *, none: bool = False) -> int | None:
    """``value`` as an ``int`` (numpy integers too, never a bool), or the standard ValueError naming ``name``.

    With ``none=True``, ``None`` is allowed too (and returned).
    """
    if value is None and none:
        return None
    allowed = f"allowed an integer {_bounds(name, low, high)}" + (" or None" if none else "")
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} = {value!r} has the wrong type: {allowed}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name} = {value!r} is out of range: {allowed}")
    return int(value)


def check_real(name: str, value, low: float | None = None, high: float | None = None, *,
               low_open: bool = False, high_open: bool = False) -> float:
    """``value`` as a finite ``float`` (ints and numpy numbers too, never a bool), or the standard ValueError."""
    allowed = f"allowed a finite number {_bounds(name, low, high, low_open, high_open)}"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} = {value!r} has the wrong type: {allowed}")
    try:
        number = float(value)
    except (OverflowError, ValueError):
        raise ValueError(f"{name} = {value!r} is out of range: {allowed}") from None
    if not math.isfinite(number):
        raise ValueError(f"{name} = {value!r} is not finite: {allowed}")
    too_low = low is not None and (number <= low if low_open else number < low)
    too_high = high is not None and (number >= high if high_open else number > high)
    if too_low or too_high:
        raise ValueError(f"{name} = {value!r} is out of range: {allowed}")
    return number


def check_flag(name: str, value) -> bool:
    """``value`` if it is ``True`` or ``False`` (numpy booleans too), or the standard ValueError."""
    if not isinstance(value, (bool, np_bool)):
        raise ValueError(f"{name} = {value!r} has the wrong type: allowed True or False")
    return bool(value)


def check_text(name: str, value, *, empty: bool = True) -> str:
    """``value`` if it is a string (non-empty unless ``empty``), or the standard ValueError."""
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise ValueError(f"{name} = {value!r} is not allowed: allowed a {'' if empty else 'non-empty '}string")
    return value


def check_callable(name: str, value) -> Any:
    """``value`` if it can be called, or the standard ValueError."""
    if not callable(value):
        raise ValueError(f"{name} = {value!r} has the wrong type: allowed a callable")
    return value


#: Longest shown value in :func:`check_record`'s message (a record's repr can run to hundreds of characters).
SHOWN_CHARS = 80


def check_record(name: str, value, cls, *, none: bool = False):
    """``value`` if it is a record of class ``cls`` (or of one of a tuple of classes), or TypeError naming ``name``.

    The check every study entry point makes first (``model(params, seed)``,
    ``widget_run(params)``, ...): a record of another study or a non-record
    would otherwise fail deep inside the model, naming an attribute rather than
    the argument.  The message names the argument, the value, the class given
    and the class allowed.  With ``none=True``, ``None`` is allowed too (and
    returned).

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Queue(Params):
    ...     servers: int = param(1, low=1)
    >>> check_record("params", "defaults", Queue, none=True)
    Traceback (most recent call last):
    ...
    TypeError: params = 'defaults' has the wrong type: allowed a Queue record or None, given a str
    """
    check_text("name", name, empty=False)
    classes = cls if isinstance(cls, tuple) else (cls,)
    if not classes or not all(isinstance(c, type) and issubclass(c, Params) for c in classes):
        raise ValueError(f"cls = {cls!r} has the wrong type: allowed a Params record class or a tuple of them")
    check_flag("none", none)
    if (value is None and none) or isinstance(value, classes):
        return value
    names = [c.__name__ for c in classes]
    allowed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    shown = repr(value)
    if len(shown) > SHOWN_CHARS:
        shown = shown[:SHOWN_CHARS - 3] + "..."
    raise TypeError(f"{name} = {shown} has the wrong type: allowed a {allowed} record{' or None' if none else ''}, "
                    f"given a {type(value).__name__}")


def check_field_values(name: str, values, cls, field: str) -> list:
    """``values`` as a list if it is a non-empty tuple or list of values allowed for ``cls.field``, or ValueError.

    For an entry point that takes several settings of one field (a sweep's
    rates, its channel-path counts): each value is checked against the field's
    own declaration and a refused one is named ``name[index]``.
    """
    check_text("name", name, empty=False)
    if not (isinstance(cls, type) and issubclass(cls, Params)) or field not in cls.spec():
        raise ValueError(f"field = {field!r} is not allowed: allowed a field declared by param() in a Params record "
                         f"class (cls = {cls!r})")
    if isinstance(values, (str, bytes)) or not isinstance(values, (tuple, list)) or not values:
        raise ValueError(f"{name} = {values!r} has the wrong type: allowed a non-empty tuple or list of "
                         f"{cls.__name__}.{field} values")
    meta = cls.spec()[field]
    return [_field_value(f"{name}[{index}]", value, meta) for index, value in enumerate(values)]


def _field_value(name: str, value, meta: dict):
    """``value`` checked against one field's declaration, refused under the argument's ``name``."""
    if meta["choices"] is not None:
        plain = isinstance(value, (str, numbers.Real)) and isinstance(value, bool) == (meta["kind"] == "bool")
        if not plain or value not in meta["choices"]:
            raise ValueError(f"{name} = {value!r} is not allowed: allowed one of {list(meta['choices'])}")
        return value
    low, high = meta["low"], meta["high"]
    if meta["kind"] == "int":
        low = None if low is None else math.floor(low) + 1 if meta["low_open"] else math.ceil(low)
        high = None if high is None else math.ceil(high) - 1 if meta["high_open"] else math.floor(high)
        return check_integer(name, value, low=low, high=high)
    if meta["kind"] == "float":
        return check_real(name, value, low=low, high=high, low_open=meta["low_open"], high_open=meta["high_open"])
    return check_flag(name, value) if meta["kind"] == "bool" else check_text(name, value)


_META_KEYS = ("low", "high", "low_open", "high_open", "choices", "unit", "doc", "step", "kind")


def _check_meta(meta) -> None:
    if not isinstance(meta, Mapping) or any(key not in meta for key in _META_KEYS) \
            or meta["kind"] not in ("bool", "int", "float", "str"):
        raise ValueError(f"meta = {meta!r} is not allowed: allowed the metadata of a field made by param()")


class Params:
    """Base class for frozen dataclass parameter records.

    Subclasses are ``@dataclass(frozen=True)`` with fields made by
    :func:`param`.  Construction checks every field's type and range and raises
    :class:`ValueError` naming the record, the field, the value and the allowed
    values.  Integers are accepted for real fields and stored as ``float``.
    """

    def __post_init__(self):
        for field in dataclasses.fields(self):
            if "kind" not in field.metadata:
                continue
            value = validate_value(type(self).__name__, field.name, getattr(self, field.name), field.metadata)
            object.__setattr__(self, field.name, value)

    def check_warmup(self, warmup: str = "warmup", length: str = "max_time") -> None:
        """Raise the standard ValueError unless field ``warmup`` ends before field ``length``.

        The cross-field check every simulated record needs (records discarded
        as warm-up must leave some to measure); call it from ``__post_init__``.
        """
        self._check_field_names("warmup", (warmup,))
        self._check_field_names("length", (length,))
        if warmup == length:
            raise ValueError(f"length = {length!r} is not allowed: allowed a field other than warmup ({warmup!r})")
        start, end = getattr(self, warmup), getattr(self, length)
        if start >= end:
            raise ValueError(f"{type(self).__name__}.{warmup} = {start!r} is out of range: "
                             f"allowed 0 <= {warmup} < {length} ({end})")

    def check_event_budget(self, events: float, fields: tuple[str, ...], shrinking: tuple[str, ...] = ()) -> None:
        """Raise the standard ValueError when one replication would need more than ``MAX_EVENTS`` events.

        ``events`` is the record's own estimate (for example arrival rate x
        run length x nodes visited); ``fields`` are the fields it grows with and
        ``shrinking`` those it falls with (a smaller service time means more
        events per simulated second), which the message names so the reader
        knows what to change.  Call it from ``__post_init__`` of every
        simulated record: in-range values can still multiply into a run of hours.
        """
        if isinstance(fields, str) or not isinstance(fields, (tuple, list)) or not fields:
            raise ValueError(f"fields = {fields!r} has the wrong type: allowed a non-empty tuple of field names")
        if isinstance(shrinking, str) or not isinstance(shrinking, (tuple, list)):
            raise ValueError(f"shrinking = {shrinking!r} has the wrong type: allowed a tuple of field names")
        self._check_field_names("fields", fields)
        self._check_field_names("shrinking", shrinking)
        if isinstance(events, bool) or not isinstance(events, numbers.Real) or math.isnan(events) or events < 0:
            raise ValueError(f"events = {events!r} is out of range: allowed a number of events >= 0")
        if not events <= MAX_EVENTS:
            named = list(fields) + list(shrinking)
            values = ", ".join(f"{name} = {getattr(self, name)!r}" for name in named)
            change = f"reduce {' or '.join(fields)}" + (f", or raise {' or '.join(shrinking)}" if shrinking else "")
            raise ValueError(f"{type(self).__name__}.{named[0]} = {getattr(self, named[0])!r} is out of range: "
                             f"with {values}, one replication needs about {events:.3g} simulated events; "
                             f"allowed at most {MAX_EVENTS:,} ({change})")

    def check_sampled_mean(self, mean: float, expression: str, fields: tuple[str, ...], zero: bool = False) -> None:
        """Raise the standard ValueError unless ``mean``, a mean the model samples a time from, is at least
        :data:`MIN_SAMPLED_MEAN` (or exactly 0 with ``zero=True``, for a mean the model treats as "no time").

        ``mean`` is computed from the record's fields (``expression`` says how,
        in words the message shows); ``fields`` are those it is made of, the
        first being the one the message names.  A field's own range cannot
        catch a product of fields that underflows (``client_share x
        base_work_us`` with both tiny), so call it from ``__post_init__``,
        before anything divides by the mean.
        """
        check_text("expression", expression, empty=False)
        if isinstance(fields, str) or not isinstance(fields, (tuple, list)) or not fields:
            raise ValueError(f"fields = {fields!r} has the wrong type: allowed a non-empty tuple of field names")
        self._check_field_names("fields", fields)
        check_flag("zero", zero)
        if isinstance(mean, bool) or not isinstance(mean, numbers.Real):
            raise ValueError(f"mean = {mean!r} has the wrong type: allowed a real number")
        if mean >= MIN_SAMPLED_MEAN or (zero and mean == 0):
            return
        values = ", ".join(f"{name} = {getattr(self, name)!r}" for name in fields)
        raise ValueError(f"{type(self).__name__}.{fields[0]} = {getattr(self, fields[0])!r} is out of range: with "
                         f"{values}, {expression} is {mean!r}; allowed {expression} >= {MIN_SAMPLED_MEAN!r}"
                         f"{' or = 0' if zero else ''} (the smallest normal float: below it a sampled time is "
                         f"zero or its rate 1/mean overflows)")

    def budget_names(self, fields: tuple[str, ...]) -> tuple[str, ...]:
        """``("Record.field = value", ...)`` for ``fields``: what sets a run's length, for its event budget.

        Pass it as ``budget_names`` to :func:`perfstudies.runner.run_ciw` (or
        :func:`perfstudies.runner.event_budget`), so a run that passes its event
        budget is stopped with an error naming the record's fields to change.
        """
        if isinstance(fields, str) or not isinstance(fields, (tuple, list)) or not fields:
            raise ValueError(f"fields = {fields!r} has the wrong type: allowed a non-empty tuple of field names")
        self._check_field_names("fields", fields)
        return tuple(f"{type(self).__name__}.{name} = {getattr(self, name)!r}" for name in fields)

    def _check_field_names(self, argument: str, names) -> None:
        known = [field.name for field in dataclasses.fields(self)]
        for name in names:
            if name not in known:
                raise ValueError(f"{argument} = {name!r} is not allowed: allowed a field of "
                                 f"{type(self).__name__}, one of {known}")

    def replace(self, **changes) -> "Params":
        """Return a copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict:
        """Return the fields as a plain ``dict`` (for tables and sweeps)."""
        return dataclasses.asdict(self)

    @classmethod
    def spec(cls) -> dict:
        """Return ``{field name: metadata}`` for every validated field."""
        return {f.name: dict(f.metadata) for f in dataclasses.fields(cls) if "kind" in f.metadata}


def validate_value(owner: str, name: str, value: Any, meta: dict) -> Any:
    """Return ``value`` checked (and coerced) against one field's metadata, or raise ValueError."""
    check_text("owner", owner, empty=False)
    check_text("name", name, empty=False)
    _check_meta(meta)
    allowed = describe_range(name, meta)
    doc = f" ({meta['doc']})" if meta["doc"] else ""
    unit = f" [{meta['unit']}]" if meta["unit"] else ""
    kind = meta["kind"]
    wrong_type = (
        (kind == "bool" and not isinstance(value, bool))
        or (kind == "int" and (isinstance(value, bool) or not isinstance(value, numbers.Integral)))
        or (kind == "float" and (isinstance(value, bool) or not isinstance(value, numbers.Real)))
        or (kind == "str" and not isinstance(value, str))
    )
    if wrong_type:
        raise ValueError(f"{owner}.{name} = {value!r} has the wrong type: allowed {allowed}{unit}{doc}")
    if meta["choices"] is not None:
        if value not in meta["choices"]:
            raise ValueError(f"{owner}.{name} = {value!r} is not allowed: {allowed}{unit}{doc}")
        return value
    if kind == "float":
        try:
            value = float(value)
        except OverflowError:
            value = math.inf if value > 0 else -math.inf
        if not math.isfinite(value):
            raise ValueError(f"{owner}.{name} = {value!r} is not finite: allowed {allowed}{unit}{doc}")
    if kind in ("int", "float"):
        low, high = meta["low"], meta["high"]
        too_low = low is not None and (value <= low if meta["low_open"] else value < low)
        too_high = high is not None and (value >= high if meta["high_open"] else value > high)
        if too_low or too_high:
            raise ValueError(f"{owner}.{name} = {value!r} is out of range: allowed {allowed}{unit}{doc}")
        if kind == "int":
            value = int(value)
    return value
