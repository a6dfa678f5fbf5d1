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
from typing import Any

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
        an integer field, a ``float`` default a real one).
    low, high : float, optional
        Inclusive bounds, or exclusive ones with ``low_open``/``high_open``.
    choices : tuple, optional
        The allowed values, for categorical fields.
    unit, doc : str
        Unit and one-line description, shown in errors and widget labels.
    step : float, optional
        Slider step for widgets (defaults to 1 for integers).
    """
    if choices is not None and default not in choices:
        raise ValueError(f"default {default!r} is not one of choices {choices!r}")
    meta = dict(low=low, high=high, low_open=low_open, high_open=high_open,
                choices=tuple(choices) if choices is not None else None,
                unit=unit, doc=doc, step=step, kind=_kind_of(default))
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
    raise TypeError(f"unsupported parameter default {value!r}")


def describe_range(name: str, meta: dict) -> str:
    """Return the allowed values of a field in words, e.g. ``1 <= servers <= 64``."""
    if meta["choices"] is not None:
        return f"one of {list(meta['choices'])}"
    if meta["kind"] == "bool":
        return "True or False"
    low, high = meta["low"], meta["high"]
    left = "" if low is None else f"{low} {'<' if meta['low_open'] else '<='} "
    right = "" if high is None else f" {'<' if meta['high_open'] else '<='} {high}"
    kind = {"int": "an integer", "float": "a finite number", "str": "a string"}[meta["kind"]]
    return f"{left}{name}{right}" if (left or right) else f"{name} is {kind}"


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
        start, end = getattr(self, warmup), getattr(self, length)
        if start >= end:
            raise ValueError(f"{type(self).__name__}.{warmup} = {start!r} is out of range: "
                             f"allowed 0 <= {warmup} < {length} ({end})")

    def check_event_budget(self, events: float, fields: tuple[str, ...]) -> None:
        """Raise the standard ValueError when one replication would need more than ``MAX_EVENTS`` events.

        ``events`` is the record's own estimate (for example arrival rate x
        run length x nodes visited) and ``fields`` the fields it grows with,
        which the message names so the reader knows what to reduce.  Call it
        from ``__post_init__`` of every simulated record: in-range values can
        still multiply into a run of hours.
        """
        if not events <= MAX_EVENTS:
            values = ", ".join(f"{name} = {getattr(self, name)!r}" for name in fields)
            raise ValueError(f"{type(self).__name__}.{fields[0]} = {getattr(self, fields[0])!r} is out of range: "
                             f"with {values}, one replication needs about {events:.3g} simulated events; "
                             f"allowed at most {MAX_EVENTS:,} (reduce {' or '.join(fields)})")

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
        value = float(value)
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
