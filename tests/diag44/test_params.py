"""The parameter record refuses what the model cannot run, naming the field and its range."""

import pytest

from perfstudies.models.diag44 import DiagParams


@pytest.mark.parametrize("field, value, allowed", [
    ("real_processors", 0, "1 <= real_processors <= 16"),
    ("client_vps", 9, "1 <= client_vps <= 8"),
    ("connections", -4, "2 <= connections <= 120"),
    ("contention", 1.0, "contention < 1.0"),
    ("fast_path", "yes", "True or False"),
])
def test_invalid_parameters_name_the_field_and_range(field, value, allowed):
    with pytest.raises(ValueError, match=f"DiagParams.{field} = .*{allowed}"):
        DiagParams(**{field: value})


def test_warmup_must_be_shorter_than_the_run():
    with pytest.raises(ValueError, match="DiagParams.warmup_us = .*warmup_us < max_time_us"):
        DiagParams(max_time_us=1e5, warmup_us=2e5)
