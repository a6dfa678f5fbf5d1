"""The spool files: sizes, their spread over volumes, and coarse simulated customers.

The report states the range of file sizes (100 to 600,000 80-byte records) and
the mean (10.4 pages) but not the shape.  A bounded Pareto distribution over the
stated range, with its shape solved so that the mean is the stated one, gives
what such spool populations look like: mostly small files and a rare huge one.
Files are then cut into *chunks* of about ``chunk_pages`` pages, the customers
the simulation moves, so a run costs thousands of events, not millions.
"""

import functools
from typing import NamedTuple

import numpy as np
from scipy.optimize import brentq

from perfstudies.models.spxtape.params import PAGE_BYTES

# "The reader files ranged in size from 100 to 600,000 80-byte records" (Measurement Discussion)
SMALLEST_PAGES = 100 * 80 / PAGE_BYTES
LARGEST_PAGES = 600_000 * 80 / PAGE_BYTES


class Chunk(NamedTuple):
    """One simulated customer: ``pages`` of spool data holding the starts of ``files`` files.

    A named tuple rather than a dataclass: a run makes thousands, and a tuple is
    built several times faster.
    """

    volume: int
    pages: float
    files: int


def pareto_mean(shape: float, low: float = SMALLEST_PAGES, high: float = LARGEST_PAGES) -> float:
    """Mean of the bounded Pareto distribution on ``[low, high]`` with tail index ``shape``."""
    if abs(shape - 1.0) < 1e-9:
        return low * high / (high - low) * np.log(high / low)
    ratio = (low / high) ** shape
    return low**shape / (1 - ratio) * shape / (shape - 1) * (low ** (1 - shape) - high ** (1 - shape))


def pareto_shape(mean_pages: float) -> float:
    """The tail index whose bounded Pareto over the stated size range has mean ``mean_pages``."""
    if not SMALLEST_PAGES < mean_pages < pareto_mean(0.05):
        raise ValueError(f"mean_pages = {mean_pages!r} is out of range: allowed "
                         f"{SMALLEST_PAGES:.2f} < mean_pages < {pareto_mean(0.05):.0f}")
    return brentq(lambda a: pareto_mean(a) - mean_pages, 0.05, 50.0, xtol=1e-12)


def file_sizes(files: int, total_pages: float, mean_pages: float, rng: np.random.Generator) -> np.ndarray:
    """Sample ``files`` sizes (pages) and scale them so that they add up to ``total_pages``."""
    shape = pareto_shape(mean_pages)
    u = rng.random(files)
    sizes = SMALLEST_PAGES / (1 - u * (1 - (SMALLEST_PAGES / LARGEST_PAGES) ** shape)) ** (1 / shape)
    return sizes * (total_pages / sizes.sum())


def volume_shares(volumes: int, skew: float) -> np.ndarray:
    """Probability that a file lives on each volume: equal at ``skew = 0``, geometric otherwise."""
    weights = (1.0 - skew) ** np.arange(volumes)
    return weights / weights.sum()


def spread(sizes: np.ndarray, volumes: int, skew: float, rng: np.random.Generator) -> list[np.ndarray]:
    """Assign each file to a volume at random with :func:`volume_shares`; return sizes per volume."""
    where = rng.choice(volumes, size=len(sizes), p=volume_shares(volumes, skew))
    return [sizes[where == v] for v in range(volumes)]


def chunks_of(volume: int, sizes: np.ndarray, chunk_pages: int) -> list[Chunk]:
    """Cut one volume's files, read back to back, into chunks of about ``chunk_pages`` pages.

    A chunk ends where a file ends once the chunk has passed a multiple of
    ``chunk_pages``, and a file longer than that is also cut at those
    multiples, so chunks follow file boundaries and their sizes vary as the
    files do (which keeps the volumes from running in lockstep).
    """
    if len(sizes) == 0:
        return []
    ends = np.cumsum(sizes)
    starts = ends - sizes
    crossing = np.floor(starts / chunk_pages) != np.floor(ends / chunk_pages)
    multiples = np.arange(chunk_pages, ends[-1], chunk_pages)
    inside_big = multiples[np.isin(np.searchsorted(ends, multiples), np.flatnonzero(sizes > chunk_pages))]
    cuts = np.unique(np.concatenate([ends[crossing], inside_big, ends[-1:]]))
    edges = np.concatenate([[0.0], cuts])
    files, _ = np.histogram(starts, bins=edges)
    return [Chunk(volume, pages, count) for pages, count in zip(np.diff(edges).tolist(), files.tolist())]


def workload(p, seed: int) -> list[list[Chunk]]:
    """The chunks of every volume for parameters ``p`` (a ``SpxtapeParams``).

    The sizes and their spread come from a NumPy generator built from ``seed``
    alone, so the same seed gives the same files.  They depend on six fields
    only, not on the command, the drives, the buffer or the change time, so
    the live panel's settings share the default's files (common random
    numbers): the last :data:`KEPT_WORKLOADS` are kept, and each call gets
    its own lists of the (immutable) chunks.
    """
    kept = _workload(p.files, p.total_pages, p.mean_file_pages, p.volumes, p.spread_skew, p.chunk_pages, seed)
    return [list(chunks) for chunks in kept]


#: Workloads (fields and seed) kept by :func:`workload`: a panel's three seeds at two settings, and more.
KEPT_WORKLOADS = 16


@functools.lru_cache(maxsize=KEPT_WORKLOADS)
def _workload(files: int, total_pages: int, mean_file_pages: float, volumes: int, spread_skew: float,
              chunk_pages: int, seed: int) -> tuple[tuple[Chunk, ...], ...]:
    rng = np.random.default_rng(seed)
    per_volume = spread(file_sizes(files, total_pages, mean_file_pages, rng), volumes, spread_skew, rng)
    return tuple(tuple(chunks_of(v, sizes, chunk_pages)) for v, sizes in enumerate(per_volume))


def interleave(per_volume: list[list[Chunk]]) -> list[Chunk]:
    """Chunks in the order a parallel dump put them on tape: one from each volume in turn."""
    longest = max((len(chunks) for chunks in per_volume), default=0)
    return [chunks[i] for i in range(longest) for chunks in per_volume if i < len(chunks)]
