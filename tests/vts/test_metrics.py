"""Records -> the report's quantities: each metric read off a hand-made set of records."""

import pandas as pd
import pytest

from perfstudies.models.vts import paf
from perfstudies.models.vts.analytic import customer_mb
from perfstudies.models.vts.metrics import recall_metrics, throughput_metrics
from perfstudies.models.vts.params import PATHS

#: Peak write: node 1 is the channels (host-facing), 2 the processors, 3 the cache.
PARAMS = paf(workload="peak_write")
COLUMNS = ["node", "service_start_date", "service_end_date", "exit_date", "arrival_date"]


def records(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=COLUMNS)


def test_host_throughput_counts_what_leaves_the_channels_inside_the_window():
    assert PATHS["peak_write"][0] == "channels"
    run = records([(1, 0.0, 2.0, 2.0, 0.0),    # leaves before the window: not counted, busy 0 s inside it
                   (1, 9.0, 12.0, 12.0, 9.0),  # counted; busy 3 s, all inside
                   (1, 19.0, 21.0, 21.0, 19.0),  # counted; busy clipped at the end to 1 s
                   (2, 4.0, 14.0, 14.0, 4.0),  # processors: 10 s, clipped at the start to 9 s
                   (3, 5.0, 8.0, 8.0, 5.0)])   # cache: 3 s
    metrics = throughput_metrics(PARAMS, run, servers=[8, 4, 1], start=5.0, end=20.0)
    assert metrics["host_mb_s"] == pytest.approx(2 * customer_mb(PARAMS) / 15.0)
    assert metrics["utilisation_channels"] == pytest.approx(4.0 / (8 * 15.0))
    assert metrics["utilisation_processors"] == pytest.approx(9.0 / (4 * 15.0))
    assert metrics["utilisation_cache"] == pytest.approx(3.0 / 15.0)


def test_the_mount_response_is_the_last_arrivals():
    run = records([(1, 0.0, 100.0, 100.0, 0.0), (1, 0.0, 90.0, 250.0, 2.0), (1, 0.0, 80.0, 180.0, 1.0)])
    assert recall_metrics(run) == {"mount_response_s": pytest.approx(248.0)}
