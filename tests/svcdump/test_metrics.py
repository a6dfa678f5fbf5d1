"""Records -> the report's quantities: each metric read off a hand-made set of records."""

import pandas as pd
import pytest

from perfstudies.models.svcdump import calibrated_params
from perfstudies.models.svcdump.metrics import CAPTURE, PAGE, channel_node, dump_metrics, ipcs_metrics, ipcs_node
from perfstudies.networks import BATCH_AT

#: Two chunks of 5,000 blocks on one stripe: node 3 is the volume, node 4 the channel.
PARAMS = calibrated_params(dump_blocks=10_000, chunk_blocks=5_000, stripes=1)


def records(rows: list[tuple[int, float, float]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["node", "service_time", "exit_date"])


def test_dump_metrics_are_elapsed_time_data_rate_and_busy_shares():
    channel = channel_node(PARAMS)
    dump = records([(CAPTURE, 1.0, BATCH_AT + 1), (CAPTURE, 1.0, BATCH_AT + 2), (channel - 1, 2.0, BATCH_AT + 3),
                    (channel - 1, 2.0, BATCH_AT + 4), (channel, 0.5, BATCH_AT + 3.5), (channel, 0.5, BATCH_AT + 5)])
    metrics = dump_metrics(PARAMS, dump)
    assert metrics["elapsed_s"] == pytest.approx(5.0)
    assert metrics["data_rate_mb_s"] == pytest.approx(10_000 * 4096 / 1e6 / 5.0)
    assert metrics["cpu_util"] == pytest.approx(2.0 / 5.0)
    assert metrics["volume_util"] == pytest.approx(4.0 / 5.0)
    assert metrics["channel_util"] == pytest.approx(1.0 / (PARAMS.channel_paths * 5.0))
    assert metrics["page_util"] == 0.0 and PAGE not in set(dump["node"])


def test_a_run_that_did_not_finish_is_refused():
    with pytest.raises(RuntimeError, match="only 1 of 2 chunks were written"):
        dump_metrics(PARAMS, records([(channel_node(PARAMS), 0.5, BATCH_AT + 5)]))
    with pytest.raises(RuntimeError, match="only 0 of 2 chunks were read"):
        ipcs_metrics(PARAMS, records([(1, 1.0, BATCH_AT + 1)]))


def test_ipcs_time_is_its_last_chunk_processed():
    done = ipcs_node(PARAMS)
    assert ipcs_metrics(PARAMS, records([(done, 1.0, BATCH_AT + 7), (done, 1.0, BATCH_AT + 9)])) == {"ipcs_s": pytest.approx(9.0)}
