"""Records -> the report's quantities: host MB/s and each resource's utilisation, and a recall's mount response.

The paper reports a VTS workload by its host throughput (host MB/s) and a
recall by its mount response; the chapter adds each resource's utilisation.
These functions read them off Ciw's records of the networks :mod:`.network`
builds, whose node *i* is the *i*-th resource of the workload's path
(:data:`~perfstudies.models.vts.params.PATHS`).
"""

from collections.abc import Sequence

import pandas as pd

from perfstudies.models.vts.analytic import customer_mb
from perfstudies.models.vts.params import PATHS, VTSParams


def throughput_metrics(params: VTSParams, records: pd.DataFrame, servers: Sequence[int], start: float,
                       end: float) -> dict[str, float]:
    """Host MB/s and each resource's utilisation in the measurement window from ``start`` to ``end`` (s).

    Host MB/s counts customers leaving the host-facing node (channels) inside
    the window, times the MB each carries; busy time is clipped to the same
    window and shared over the node's ``servers``.
    """
    path = PATHS[params.workload]
    span = end - start
    host_node = path.index("channels") + 1
    done = records[(records["node"] == host_node) & (records["exit_date"] > start)]
    metrics = {"host_mb_s": len(done) * customer_mb(params) / span}
    busy_from = records["service_start_date"].clip(lower=start)
    busy_to = records["service_end_date"].clip(upper=end)
    busy = (busy_to - busy_from).clip(lower=0.0)
    for index, name in enumerate(path, start=1):
        in_node = busy[records["node"] == index].sum()
        metrics[f"utilisation_{name}"] = in_node / (servers[index - 1] * span)
    return metrics


def recall_metrics(records: pd.DataFrame) -> dict[str, float]:
    """Fig. 6's quantity: the mount response of the last recall to arrive, in seconds."""
    last = records.sort_values("arrival_date").iloc[-1]
    return {"mount_response_s": float(last["exit_date"] - last["arrival_date"])}
