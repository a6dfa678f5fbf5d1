"""The parameter records refuse what the model cannot run, naming the field."""

import pytest

from perfstudies.models.spxtape import ConcurrentParams, SpxtapeParams


@pytest.mark.parametrize(("field", "value"), [
    ("drives", 0), ("drives", 9), ("volumes", 0), ("volumes", 17), ("change_time", -1.0),
    ("buffer_mb", 0.0), ("command", "TAPE"), ("function", "COPY"), ("mean_file_pages", 1.0),
    ("spread_skew", 0.95),
])
def test_invalid_parameters_are_refused_by_name(field, value):
    with pytest.raises(ValueError, match=f"SpxtapeParams.{field} = "):
        SpxtapeParams(**{field: value})


def test_sptape_with_two_drives_is_refused():
    with pytest.raises(ValueError, match="SpxtapeParams.drives = 2 .*SPTAPE"):
        SpxtapeParams(command="SPTAPE", drives=2)


def test_concurrent_parameters_are_refused_by_name():
    with pytest.raises(ValueError, match="ConcurrentParams.user_io_rate"):
        ConcurrentParams(page_io_time=0.01, user_io_rate=150.0)
    with pytest.raises(ValueError, match="ConcurrentParams.dump_reads_queued"):
        ConcurrentParams(dump_reads_queued=0)
