"""Theory first: per-I/O times, resource demands and the bottleneck bound of a dump.

A dump moves every block through four resources: the processor that captures
it (after a page data set has read it back, if it was paged out), the volume
of its stripe, and a channel path.  With all blocks waiting at the start, the
dump cannot finish before its busiest resource has done its share of the work:

    T >= max(D_cpu, D_volumes / stripes, D_channel / paths, D_page / page_data_sets)

where each D is a total *demand* in seconds (operational analysis: Lazowska et
al., *Quantitative System Performance*).  Adding stripes divides only the
volume term, so striping helps until another term takes over: that is where
the flattening starts (:func:`knee_stripes`).  The simulation adds what the
bound leaves out: the pipeline filling and draining, and randomness.
"""

import math

from perfstudies.models.svcdump.params import (AVERAGE_SEEK_MS, BLOCK_BYTES, BLOCKS_PER_IO, CHANNEL_MB_S,
                                               COMPRESSION_RATIO, DISK_MEDIA_MB_S, ESS_IO_CV,
                                               PAGE_BLOCKS_PER_IO, PAGED_FRACTION, REVOLUTION_MS, DumpParams)
from perfstudies.params import check_record


def transfer_ms(device: str, channel: str, blocks: float) -> float:
    """Time to move ``blocks`` between host and device, in ms.

    A 3390 streams at its media rate (slower than either link); an ESS write
    lands in its cache, so the link sets the pace.
    """
    rate = CHANNEL_MB_S[channel] if device == "ESS" else min(DISK_MEDIA_MB_S, CHANNEL_MB_S[channel])
    return blocks * BLOCK_BYTES / (rate * 1e6) * 1e3


def connect_ms(device: str, channel: str, blocks: float) -> float:
    """Time a channel path is busy moving ``blocks``, in ms.

    ESCON holds its path for the whole transfer at the transfer's pace; FICON
    interleaves frames, so a path is busy only for the bytes at link speed.
    """
    if channel == "ESCON":
        return transfer_ms(device, channel, blocks)
    return blocks * BLOCK_BYTES / (CHANNEL_MB_S[channel] * 1e6) * 1e3


def positioning_ms(device: str) -> float:
    """Average wait for the data to come under the head: half a revolution on a 3390, none in ESS cache."""
    return REVOLUTION_MS / 2 if device == "3390-3" else 0.0


def io_ms(p: DumpParams) -> float:
    """Mean time of one dump I/O at its volume: turnaround + positioning + transfer, in ms."""
    return p.io_turnaround_ms + positioning_ms(p.device) + transfer_ms(p.device, p.channel, BLOCKS_PER_IO)


def io_cv(p: DumpParams) -> float:
    """Coefficient of variation of one dump I/O.

    On a 3390 the rotational wait is uniform over one revolution (standard
    deviation ``REVOLUTION_MS / sqrt(12)``); an ESS cache write uses ``ESS_IO_CV``.
    """
    if p.device == "3390-3":
        return REVOLUTION_MS / math.sqrt(12) / io_ms(p)
    return ESS_IO_CV


def page_io_ms(p: DumpParams) -> float:
    """One page-in I/O from a page data set on a 3390-3: a random seek, half a turn, the transfer."""
    return (p.io_turnaround_ms + AVERAGE_SEEK_MS + REVOLUTION_MS / 2
            + transfer_ms("3390-3", "ESCON", PAGE_BLOCKS_PER_IO))


def written_blocks(p: DumpParams) -> float:
    """Blocks that reach the dump volumes (fewer when SMS compression is on)."""
    return p.dump_blocks / (COMPRESSION_RATIO if p.compression else 1.0)


def cpu_us_per_block(p: DumpParams) -> float:
    """Processor time to capture (and, with compression, compress) one block, in microseconds."""
    return p.capture_us_per_block * (1.0 + (p.compression_cpu_factor if p.compression else 0.0))


def demands(p: DumpParams) -> dict[str, float]:
    """Total work of each resource over the whole dump, in seconds."""
    ios = written_blocks(p) / BLOCKS_PER_IO
    paged_blocks = p.dump_blocks * PAGED_FRACTION[p.storage_constrained]
    return {
        "cpu": p.dump_blocks * cpu_us_per_block(p) / 1e6,
        "volumes": ios * io_ms(p) / 1e3,
        "channel": ios * connect_ms(p.device, p.channel, BLOCKS_PER_IO) / 1e3,
        "page": paged_blocks / PAGE_BLOCKS_PER_IO * page_io_ms(p) / 1e3,
    }


def servers(p: DumpParams) -> dict[str, int]:
    """How many servers share each resource's demand."""
    return {"cpu": 1, "volumes": p.stripes, "channel": p.channel_paths, "page": p.page_data_sets}


def resource_times(p: DumpParams) -> dict[str, float]:
    """Each resource's demand divided over its servers: the time it alone would need, in s."""
    count = servers(p)
    return {name: demand / count[name] for name, demand in demands(p).items()}


def bound_elapsed_s(p: DumpParams) -> float:
    """Bottleneck lower bound of the dump's elapsed time, in s."""
    check_record("p", p, DumpParams)
    return max(resource_times(p).values())


def io_bound_s(p: DumpParams) -> float:
    """The bound without the processor: what the I/O side alone would need, in s."""
    times = resource_times(p)
    return max(times["volumes"], times["channel"], times["page"])


def bottleneck(p: DumpParams) -> str:
    """The resource whose time sets the bound."""
    check_record("p", p, DumpParams)
    times = resource_times(p)
    return max(times, key=times.get)


def bound_ipcs_s(p: DumpParams) -> float:
    """Bottleneck bound of IPCS initialization: read every block back and process it once.

    IPCS is assumed to spend as much processor time per block as the capture
    (same machine, same load, one pass over each block; an assumption).
    """
    check_record("p", p, DumpParams)
    times = resource_times(p)
    return max(times["cpu"], times["volumes"], times["channel"])


def knee_stripes(p: DumpParams) -> float:
    """Stripe count at which the volumes stop being the bottleneck (the flattening point).

    Beyond it, another resource's time exceeds the volumes' share, so more
    stripes cannot help any more.
    """
    check_record("p", p, DumpParams)
    times = resource_times(p)
    other = max(times["cpu"], times["channel"], times["page"])
    return demands(p)["volumes"] / other


def paged_fraction_threshold(p: DumpParams) -> float:
    """The largest share of the dump that may be paged out before page-in starts to set the dump's time.

    The page-in work grows in proportion to the paged share ``f`` (``PAGED_FRACTION``, an
    assumption), so ``D_page(f) / page_data_sets`` reaches the largest other resource time
    at ``f* = f * T_other / T_page(f)``.  Below ``f*`` the bound, and so every ratio the
    comparison takes from it, does not depend on ``f`` at all.
    """
    times = resource_times(p)
    other = max(times["cpu"], times["volumes"], times["channel"])
    return PAGED_FRACTION[p.storage_constrained] * other / times["page"]


def bound_metrics(p: DumpParams) -> dict[str, float]:
    """The model's metrics in the bottleneck bound: what :func:`.network.model` returns, without simulation.

    ``elapsed_s`` and ``ipcs_s`` are the bounds, ``data_rate_mb_s`` the dump size over the
    elapsed bound, ``io_response_ms`` the mean time of one I/O.
    """
    elapsed = bound_elapsed_s(p)
    return {"elapsed_s": elapsed, "ipcs_s": bound_ipcs_s(p), "io_response_ms": io_ms(p),
            "data_rate_mb_s": p.dump_blocks * BLOCK_BYTES / 1e6 / elapsed}
