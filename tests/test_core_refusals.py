"""Issue 27's reproducers for the core functions: overflow, zero, empty and nonsense inputs refused by name.

Each call below crashed (``OverflowError``, ``ZeroDivisionError``,
``KeyError``), returned nonsense (``percent(0.25, signed="no")`` gave
``'+25%'``, a denormal demand gave a NaN throughput) or ran without end
(``mva.sweep`` over a million populations) before this hardening.
"""

import itertools
import math
import time

import pytest

from perfstudies import charts, diagrams, mva, tables, warmup
from timeouts import within

DEMANDS = {"cpu": 2.0, "disk": 3.0}


@pytest.mark.parametrize(("call", "name"), [
    (lambda: mva.exact({"cpu": 10**400}, 3), r"demands\['cpu'\]"),
    (lambda: mva.exact({"cpu": 5e-324}, 3), r"demands\['cpu'\]"),               # a denormal: NaN throughput
    (lambda: mva.exact({"cpu": 1.0}, 3, think_time=5e-324), "think_time"),
    (lambda: mva.bard_schweitzer({"cpu": 10**400}, 3), r"demands\['cpu'\]"),
    (lambda: mva.bounds({"cpu": 5e-324}, 3), r"demands\['cpu'\]"),
    (lambda: mva.demands_from({"cpu": 10**400}, {"cpu": 1.0}), r"visits\['cpu'\]"),
    (lambda: mva.sweep(DEMANDS, range(1, 10**6)), "populations"),
    (lambda: mva.sweep(DEMANDS, range(1, 10**6), method="bard-schweitzer"), "populations"),
    (lambda: mva.sweep(DEMANDS, itertools.count(1)), "populations"),             # endless
    (lambda: warmup.mser5([10**400] * 100), "values"),
    (lambda: warmup.mser5([1e300] * 100), r"values\[0\]"),                       # squares overflow
    (lambda: warmup.mser5(list(range(100)), times=[10**400] * 100), "times"),
    (lambda: warmup.mser5("abc" * 50), "values"),
    (lambda: tables.number(10**400), "value"),
    (lambda: tables.exact(10**400), "value"),
    (lambda: tables.percent(10**400), "fraction"),
    (lambda: tables.percent(0.25, signed="no"), "signed"),
    (lambda: tables.percent(0.25, signed=None), "signed"),
    (lambda: charts.wrapped_title("t", font_size=0), "font_size"),
    (lambda: charts.wrapped_title("t", font_size=math.nan), "font_size"),
    (lambda: charts.wrapped_title("t", width=math.inf), "width"),
    (lambda: diagrams.network_diagram([], []), "nodes"),
    (lambda: diagrams.network_diagram(None, []), "nodes"),
    (lambda: diagrams.network_diagram([("a", 0, 0, "A")], None), "edges"),
    (lambda: diagrams.network_diagram([("a", math.inf, 0, "A")], []), "nodes item 'a' x"),
    (lambda: diagrams.network_diagram([("a", 0, 0, "A")], ["ab"]), "edges item"),
    (lambda: diagrams.network_diagram([("a", 0, 0, "A")], [], title=3), "title"),
])
def test_the_core_refuses_by_name(call, name):
    start = time.monotonic()
    with within(10), pytest.raises((ValueError, TypeError), match=rf"^{name}(?![A-Za-z0-9_]).*allowed"):
        call()
    assert time.monotonic() - start < 5


def test_valid_calls_keep_their_results():
    assert tables.percent(0.25, signed=True) == "+25%" and tables.percent(0.25) == "25%"
    assert tables.number(1234.5) == "1,230" and tables.number(math.nan) == tables.EMPTY
    assert mva.exact({"cpu": 0.0, "disk": 1e-12}, 2).throughput == pytest.approx(1e12)
    assert len(mva.sweep(DEMANDS, range(1, mva.MAX_SWEEP_POPULATIONS + 1))) == mva.MAX_SWEEP_POPULATIONS
    assert charts.wrapped_title("short title", font_size=1) == "short title"
