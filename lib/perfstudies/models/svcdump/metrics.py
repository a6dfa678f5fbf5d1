"""Records -> the report's quantities: what one replication of a dump, or of IPCS initialization, measured.

The report measures a dump by its elapsed time (from its start to the last
chunk written), its data rate and the utilizations of the resources it
shares; IPCS initialization by its elapsed time.  These functions read them
off Ciw's records of the networks :mod:`.network` builds, whose node numbers
are fixed here: page-in, capture, one volume per stripe, the channel paths
(and for IPCS: one volume per stripe, the channel paths, IPCS).
"""

import numpy as np
import pandas as pd

from perfstudies.models.svcdump import analytic
from perfstudies.models.svcdump.params import BLOCK_BYTES, BLOCKS_PER_IO, DumpParams
from perfstudies.networks import BATCH_AT

PAGE, CAPTURE = 1, 2  # node numbers of the dump network; volumes follow, then the channel


def channel_node(params: DumpParams) -> int:
    """The dump network's channel node: after page-in, capture and one volume per stripe."""
    return CAPTURE + 1 + params.stripes


def ipcs_node(params: DumpParams) -> int:
    """IPCS initialization's last node, the processor: after one volume per stripe and the channel."""
    return params.stripes + 2


def _columns(records: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The node, service time and exit date of every record, as arrays (cheaper to filter than the frame)."""
    return (records["node"].to_numpy(), records["service_time"].to_numpy(dtype=float),
            records["exit_date"].to_numpy(dtype=float))


def _every_chunk(node: np.ndarray, exit_date: np.ndarray, last: int, chunks: int, verb: str
                 ) -> tuple[np.ndarray, float]:
    """The records of node ``last`` (where every chunk ends) and the time from the batch to the last of them.

    Raises RuntimeError if fewer than ``chunks`` got there before the run's horizon.
    """
    finished = node == last
    if finished.sum() != chunks:
        raise RuntimeError(f"only {finished.sum()} of {chunks} chunks were {verb} before the horizon")
    return finished, float(exit_date[finished].max()) - BATCH_AT


def dump_metrics(params: DumpParams, records: pd.DataFrame) -> dict[str, float]:
    """The dump's quantities from its records.

    Returns
    -------
    dict
        ``elapsed_s`` (dump start to last chunk written), ``data_rate_mb_s``
        (dumped MB per elapsed second), ``io_response_ms`` (mean time of one
        dump I/O at its volume), and the utilizations ``cpu_util``,
        ``volume_util`` (mean over stripes), ``channel_util`` (per path) and
        ``page_util`` (per page data set).

    Raises
    ------
    RuntimeError
        If not every chunk was written before the run's horizon.
    """
    node, service, exit_date = _columns(records)
    written, elapsed = _every_chunk(node, exit_date, channel_node(params), params.chunks, "written")
    volumes = service[(node >= CAPTURE + 1) & (node <= CAPTURE + params.stripes)]
    ios_per_chunk = analytic.written_blocks(params) / params.chunks / BLOCKS_PER_IO
    return {
        "elapsed_s": elapsed,
        "data_rate_mb_s": params.dump_blocks * BLOCK_BYTES / 1e6 / elapsed,
        "io_response_ms": float(volumes.mean()) / ios_per_chunk * 1e3,
        "cpu_util": float(service[node == CAPTURE].sum()) / elapsed,
        "volume_util": float(volumes.sum()) / (params.stripes * elapsed),
        "channel_util": float(service[written].sum()) / (params.channel_paths * elapsed),
        "page_util": float(service[node == PAGE].sum()) / (params.page_data_sets * elapsed),
    }


def ipcs_metrics(params: DumpParams, records: pd.DataFrame) -> dict[str, float]:
    """IPCS initialization's elapsed time from its records: ``{"ipcs_s": start to last chunk processed}``.

    Raises
    ------
    RuntimeError
        If not every chunk was read before the run's horizon.
    """
    node, _, exit_date = _columns(records)
    return {"ipcs_s": _every_chunk(node, exit_date, ipcs_node(params), params.chunks, "read")[1]}
