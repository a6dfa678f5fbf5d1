"""Parameter records validate on construction and name what is wrong."""

from dataclasses import FrozenInstanceError, dataclass

import pytest

from perfstudies.params import Params, param
from perfstudies.reference import QueueParams


@dataclass(frozen=True)
class Example(Params):
    drives: int = param(1, low=1, high=4, doc="tape drives")
    rate: float = param(0.5, low=0.0, low_open=True, high=1.0, unit="1/s")
    device: str = param("ESS", choices=("ESS", "3390-3"))
    fast_path: bool = param(True)


def test_defaults_are_valid_and_integers_become_floats():
    assert Example(rate=1).rate == 1.0 and isinstance(Example(rate=1).rate, float)


@pytest.mark.parametrize(("changes", "message"), [
    ({"drives": 0}, r"Example\.drives = 0 is out of range: allowed 1 <= drives <= 4"),
    ({"drives": 2.5}, r"Example\.drives = 2\.5 has the wrong type"),
    ({"drives": True}, r"Example\.drives = True has the wrong type"),
    ({"rate": 0.0}, r"Example\.rate = 0\.0 is out of range: allowed 0\.0 < rate <= 1\.0 \[1/s\]"),
    ({"rate": float("nan")}, r"Example\.rate = nan is not finite"),
    ({"rate": "fast"}, r"Example\.rate = 'fast' has the wrong type"),
    ({"device": "tape"}, r"Example\.device = 'tape' is not allowed: one of \['ESS', '3390-3'\]"),
    ({"fast_path": 1}, r"Example\.fast_path = 1 has the wrong type: allowed True or False"),
])
def test_invalid_values_raise_value_error_naming_parameter_and_range(changes, message):
    with pytest.raises(ValueError, match=message):
        Example(**changes)


def test_records_are_frozen_and_replace_revalidates():
    record = Example()
    with pytest.raises(FrozenInstanceError):
        record.drives = 3
    assert record.replace(drives=3).drives == 3
    with pytest.raises(ValueError, match="drives"):
        record.replace(drives=9)


def test_cross_field_checks():
    with pytest.raises(ValueError, match=r"QueueParams\.arrival_rate = 2\.0 .*servers \* service_rate = 1\.0"):
        QueueParams(arrival_rate=2.0)
    with pytest.raises(ValueError, match=r"QueueParams\.warmup"):
        QueueParams(max_time=10.0, warmup=20.0)


def test_event_budget_names_the_fields_that_make_a_run_too_long():
    from dataclasses import dataclass

    from perfstudies.params import MAX_EVENTS, Params, param

    @dataclass(frozen=True)
    class Run(Params):
        rate: float = param(1.0, low=0.0, high=1e6)
        max_time: float = param(10.0, low=1.0, high=1e9)

        def __post_init__(self):
            super().__post_init__()
            self.check_event_budget(2 * self.rate * self.max_time, ("max_time", "rate"))

    Run(rate=MAX_EVENTS / 20, max_time=10.0)
    with pytest.raises(ValueError, match=r"^Run.max_time = 1000000.0 is out of range: with max_time = 1000000.0, "
                                         r"rate = 10.0, one replication needs about 2e\+07 simulated events.*reduce max_time or rate"):
        Run(rate=10.0, max_time=1e6)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: param(5, low=1, high=4), r"^param.default = 5 is out of range: allowed 1 <= default <= 4"),
    (lambda: param(1, low=4, high=1), r"^high = 1 is out of range: allowed high >= low \(4\)"),
    (lambda: param(1.0, low=float("nan")), r"^low = nan is not finite"),
    (lambda: param(1.0, step=0.0), r"^step = 0.0 is out of range"),
    (lambda: param(None), r"^default = None has the wrong type"),
    (lambda: param("a", choices="abc"), r"^choices = 'abc' has the wrong type"),
    (lambda: param(1, doc=3), r"^doc = 3 is not allowed: allowed a string"),
    (lambda: Example().check_warmup("drives", "nope"), r"^length = 'nope' is not allowed: allowed a field of Example"),
    (lambda: Example().check_event_budget(float("nan"), ("drives",)), r"^events = nan is out of range"),
    (lambda: Example().check_event_budget(10.0, "drives"), r"^fields = 'drives' has the wrong type"),
])
def test_declarations_and_checks_refuse_nonsense(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_argument_checkers_accept_numpy_numbers_and_name_the_argument():
    import math

    import numpy as np

    from perfstudies.params import check_flag, check_integer, check_real

    assert check_integer("count", np.int64(3), low=1) == 3 and type(check_integer("count", np.int64(3))) is int
    assert check_real("rate", np.float32(0.5), low=0.0) == 0.5 and check_flag("fast", np.bool_(True)) is True
    for call, message in ((lambda: check_integer("count", True), "count = True has the wrong type"),
                          (lambda: check_integer("count", 0, low=1), "count = 0 is out of range: allowed an integer 1 <= count"),
                          (lambda: check_real("rate", math.inf), "rate = inf is not finite"),
                          (lambda: check_real("rate", 10**400), "rate = 1000"),
                          (lambda: check_flag("fast", 1), "fast = 1 has the wrong type: allowed True or False")):
        with pytest.raises(ValueError, match=message):
            call()


def test_a_huge_integer_for_a_real_field_is_refused_as_not_finite():
    with pytest.raises(ValueError, match=r"Example\.rate = inf is not finite"):
        Example(rate=10**400)


def test_event_budget_names_the_fields_to_raise_first():
    from dataclasses import dataclass

    from perfstudies.params import Params, param

    @dataclass(frozen=True)
    class Work(Params):
        service_s: float = param(1.0, low=0.0, low_open=True, high=10.0)
        max_time: float = param(10.0, low=1.0, high=1e9)

        def __post_init__(self):
            super().__post_init__()
            self.check_event_budget(self.max_time / self.service_s, ("max_time",), shrinking=("service_s",))

    with pytest.raises(ValueError, match=r"^Work.max_time = 10.0 is out of range: with max_time = 10.0, "
                                         r"service_s = 1e-09, .*\(reduce max_time, or raise service_s\)"):
        Work(service_s=1e-9)


def test_check_record_refuses_another_class_or_a_non_record_naming_argument_and_classes():
    from perfstudies.params import check_record

    @dataclass(frozen=True)
    class Other(Params):
        rate: float = param(1.0, low=0.0)

    assert check_record("params", Example(), Example) == Example()
    assert check_record("params", None, Example, none=True) is None
    assert check_record("params", Other(), (Example, Other)) == Other()
    for value, cls, none, message in (
            ("defaults", Example, True, r"^params = 'defaults' has the wrong type: allowed a Example record or None, "
                                        r"given a str$"),
            (Other(), Example, False, r"^params = .* has the wrong type: allowed a Example record, "
                                      r"given a Other$"),
            (None, Example, False, r"^params = None has the wrong type: allowed a Example record, given a NoneType$"),
            (3, (Example, Other), False, r"^params = 3 has the wrong type: allowed a Example or Other record, given a int"),
            ("x" * 500, Example, False, r"^params = 'x{76}\.\.\. has the wrong type")):
        with pytest.raises(TypeError, match=message):
            check_record("params", value, cls, none=none)
    with pytest.raises(ValueError, match=r"^cls = <class 'str'> has the wrong type"):
        check_record("params", "x", str)


def test_check_field_values_checks_each_value_against_the_field_under_the_argument_name():
    from perfstudies.params import check_field_values

    @dataclass(frozen=True)
    class Sweep(Params):
        rate: float = param(1.0, low=0.0, low_open=True, high=60.0)
        paths: int = param(2, low=1, high=8)
        rule: str = param("a", choices=("a", "b"))

    assert check_field_values("rates", (5, 10.0), Sweep, "rate") == [5.0, 10.0]
    assert check_field_values("paths", [1, 8], Sweep, "paths") == [1, 8]
    for values, field, message in (
            ((5.0, 0.0), "rate", r"^rates\[1\] = 0\.0 is out of range: allowed a finite number 0\.0 < rates\[1\] <= 60\.0"),
            ((5.0, "x"), "rate", r"^rates\[1\] = 'x' has the wrong type"),
            ((), "rate", r"^rates = \(\) has the wrong type: allowed a non-empty tuple or list of Sweep\.rate values"),
            ("ab", "rule", r"^rates = 'ab' has the wrong type"),
            ((2, 9), "paths", r"^rates\[1\] = 9 is out of range: allowed an integer 1 <= rates\[1\] <= 8"),
            ((2.0,), "paths", r"^rates\[0\] = 2\.0 has the wrong type"),
            (("c",), "rule", r"^rates\[0\] = 'c' is not allowed: allowed one of \['a', 'b'\]"),
            ((1.0,), "nope", r"^field = 'nope' is not allowed")):
        with pytest.raises(ValueError, match=message):
            check_field_values("rates", values, Sweep, field)


def test_check_sampled_mean_refuses_a_mean_below_the_smallest_normal_float_naming_the_fields():
    import sys

    from perfstudies.params import MIN_SAMPLED_MEAN

    @dataclass(frozen=True)
    class Work(Params):
        work_us: float = param(1.0, low=0.0, low_open=True, high=1e6)
        share: float = param(0.5, low=0.0, low_open=True, high=1.0)
        idle_us: float = param(1.0, low=0.0, high=1e6)

        def __post_init__(self):
            super().__post_init__()
            self.check_sampled_mean(self.share * self.work_us, "share x work_us", ("work_us", "share"))
            self.check_sampled_mean(self.idle_us, "idle_us", ("idle_us",), zero=True)

    assert MIN_SAMPLED_MEAN == sys.float_info.min
    Work(work_us=MIN_SAMPLED_MEAN, share=1.0)
    Work(idle_us=0.0)
    with pytest.raises(ValueError, match=r"^Work\.work_us = 5e-324 is out of range: with work_us = 5e-324, "
                                         r"share = 0\.5, share x work_us is 0\.0; allowed share x work_us >= "
                                         r"2\.2250738585072014e-308 \(the smallest normal float"):
        Work(work_us=5e-324)
    with pytest.raises(ValueError, match=r"^Work\.work_us = 1e-300 is out of range: .*share x work_us is 1e-310"):
        Work(work_us=1e-300, share=1e-10)
    with pytest.raises(ValueError, match=r"^Work\.idle_us = 1e-310 is out of range: .*allowed idle_us >= "
                                         r"2\.2250738585072014e-308 or = 0"):
        Work(idle_us=1e-310)
    with pytest.raises(ValueError, match=r"^fields = 'nope' is not allowed"):
        Work().check_sampled_mean(1.0, "x", ("nope",))
