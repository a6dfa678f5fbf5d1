"""The numbers a chapter's prose quotes: computed by the study's library, glued by one call.

A study's ``facts()`` returns ``{name: Fact}``, every number (or small table)
its chapter's text and solutions quote, each computed from the library's own
functions so the words cannot drift from the model.  The chapter glues them
with one call in one hidden cell, ``glue_facts(KEY, facts())``, and its prose,
plain Markdown, quotes each as ``{glue:text}`<key>-<name>:<format>```.  A
hidden cell therefore holds glue and setup only; every computation a reader
might want to see is a library function with a docstring.

Examples
--------
>>> f = Fact(0.25, "s", "mean wait at the default")
>>> f
Fact(0.25 s: mean wait at the default)
>>> Fact(float("nan"), "s", "a wait")
Traceback (most recent call last):
...
ValueError: Fact.value = nan is not allowed: allowed a finite number, a string or a table (DataFrame)
"""

import dataclasses
import math
import numbers
import re
from collections.abc import Mapping

import pandas as pd

from perfstudies import glued
from perfstudies.params import check_text

#: What a fact's name may be: lower-case words joined by hyphens (its glue key is ``<study>-<name>``).
NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


@dataclasses.dataclass(frozen=True)
class Fact:
    """One quoted number: its value, its unit ("" for a count or a table) and what it is, in words."""

    value: float | int | str | pd.DataFrame
    unit: str
    what: str

    def __post_init__(self):
        value = self.value
        number = isinstance(value, numbers.Real) and not isinstance(value, bool)
        if not (number and math.isfinite(value)) and not isinstance(value, (str, pd.DataFrame)):
            raise ValueError(f"Fact.value = {value!r} is not allowed: allowed a finite number, a string or a "
                             "table (DataFrame)")
        if number and not isinstance(value, numbers.Integral):
            object.__setattr__(self, "value", float(value))   # numpy scalars glue as plain floats
        elif number:
            object.__setattr__(self, "value", int(value))
        check_text("Fact.unit", self.unit)
        check_text("Fact.what", self.what, empty=False)

    def __repr__(self) -> str:
        shown = "a table" if isinstance(self.value, pd.DataFrame) else f"{self.value!r}"
        return f"Fact({shown}{' ' + self.unit if self.unit else ''}: {self.what})"


def checked_facts(key: str, facts: Mapping[str, Fact]) -> dict[str, Fact]:
    """``facts`` checked: a mapping of names (:data:`NAME`) to :class:`Fact` records, keyed ``<key>-<name>``."""
    if not isinstance(facts, Mapping):
        raise ValueError(f"facts = {facts!r} has the wrong type: allowed a mapping of names to Fact records")
    check_text("key", key, empty=False)
    glued = {}
    for name, fact in facts.items():
        if not (isinstance(name, str) and NAME.fullmatch(name)):
            raise ValueError(f"facts name {name!r} is not allowed: allowed lower-case words joined by hyphens")
        if not isinstance(fact, Fact):
            raise ValueError(f"facts[{name!r}] = {fact!r} has the wrong type: allowed a Fact")
        glued[f"{key}-{name}"] = fact
    return glued


def glue_facts(key: str, facts: Mapping[str, Fact]) -> None:
    """Glue every fact as ``<key>-<name>`` (not displayed): the one glue call of a chapter
    (:func:`perfstudies.glued.glue`: for the book, and for JupyterLab's text)."""
    for glue_key, fact in checked_facts(key, facts).items():
        glued.glue(glue_key, fact.value, display=False)
