"""Calibration: three named published statements set the three costs the document does not state.

The document gives no absolute times, only ratios between configurations.
Three costs are set, in closed form from the bottleneck bound (:mod:`.analytic`),
so that the model reproduces three named statements:

=============================  ==========================================================
statement                      sets
=============================  ==========================================================
``ess_vs_3390_response``       ``io_turnaround_ms``: the per-I/O time that both devices pay
``ficon_vs_escon``             ``capture_us_per_block``: the dump's processor time per block
``compression``                ``compression_cpu_factor``: what compressing a block costs
=============================  ==========================================================

The configurations the document leaves open (which device the FICON and
compression tests used, how many channel paths) are fixed in :data:`BASE` and
:data:`RECOMMENDED`, and the chapter says so.
"""

import functools
from collections.abc import Mapping

import pandas as pd

from perfstudies.compare import Published
from perfstudies.data import load
from perfstudies.models.svcdump import analytic
from perfstudies.models.svcdump.params import KEY, DumpParams
from perfstudies.params import validate_value

#: What every compared configuration shares unless a cell changes it: ESCON channels, two
#: channel paths to the dump volumes (not stated in the document: an assumption), no
#: compression, one page data set, no storage constraint.  The dump size comes from data.
BASE = dict(channel="ESCON", channel_paths=2, compression=False, page_data_sets=1, storage_constrained=False)
#: The configuration the document recommends, used where it does not say which one it measured.
RECOMMENDED = dict(device="ESS", stripes=2)

#: Calibrated field -> the statement that sets it.
CALIBRATED_ON = {"io_turnaround_ms": "ess_vs_3390_response", "capture_us_per_block": "ficon_vs_escon",
                 "compression_cpu_factor": "compression"}


def statements() -> pd.DataFrame:
    """The transcribed statements (``data/svcdump/statements.csv``), indexed by statement key."""
    return load(KEY, "statements").set_index("statement")


def published_cells() -> dict[str, Published]:
    """Every published statement as a :class:`~perfstudies.compare.Published` cell, by statement key.

    The cell is named as the document names it: its section, the quantity and
    the comparison (with the device); the statement key is for code only.
    """
    return {key: Published(row["section"], row["quantity"], f"{row['comparison']} ({row['device']})",
                           float(row["published"]))
            for key, row in statements().iterrows()}


@functools.cache
def documented_dump_blocks() -> int:
    """The dump size the document states, in 4 KiB blocks (read once per process)."""
    setup = load(KEY, "setup").set_index("quantity")
    return int(setup.loc["dump_blocks", "value"])


def calibrate(published: Mapping[str, Published] | None = None, dump_blocks: int | None = None) -> DumpParams:
    """The calibrated :class:`DumpParams`: three costs set so the bottleneck bound meets three statements.

    The record is the base configuration (:data:`BASE`) of the documented dump,
    with the three fields of :data:`CALIBRATED_ON` at their calibrated values,
    each solved in closed form:

    1. Response ratio r = (t + A_ess) / (t + A_3390), where A is a device's
       positioning + transfer and t the common turnaround: t = (r A_3390 - A_ess) / (1 - r).
    2. FICON / ESCON ratio q on the recommended setup: FICON leaves the capture
       processor as the bottleneck, so D_cpu = q T_escon.
    3. Compressed / plain ratio c on the same setup: compression halves the I/O
       and adds processor time, so D_cpu (1 + f) = c T_plain.

    Parameters
    ----------
    published : mapping of statement key to Published, optional
        The published cells (default :func:`published_cells`); only the three
        of :data:`CALIBRATED_ON` are read.
    dump_blocks : int, optional
        The dump size (default: the documented one).

    Raises
    ------
    ValueError
        If a statement cannot be met by this mechanism (for example if FICON
        would not leave the processor as the bottleneck).
    """
    published = published_cells() if published is None else _checked_published(published)
    dump_blocks = documented_dump_blocks() if dump_blocks is None else \
        validate_value("calibrate", "dump_blocks", dump_blocks, DumpParams.spec()["dump_blocks"])
    base = DumpParams(dump_blocks=dump_blocks, **BASE)

    r = published["ess_vs_3390_response"].value
    positioning_and_transfer = {
        device: analytic.io_ms(base.replace(device=device, io_turnaround_ms=0.0)) for device in ("3390-3", "ESS")}
    turnaround = (r * positioning_and_transfer["3390-3"] - positioning_and_transfer["ESS"]) / (1 - r)
    if turnaround < 0:
        raise ValueError(f"ess_vs_3390_response = {r!r} needs a negative turnaround: allowed ratios above "
                         f"{positioning_and_transfer['ESS'] / positioning_and_transfer['3390-3']:.3f}")
    recommended = base.replace(io_turnaround_ms=turnaround, **RECOMMENDED)

    q = published["ficon_vs_escon"].value
    cpu_s = q * analytic.io_bound_s(recommended)
    capture_us = cpu_s / dump_blocks * 1e6
    ficon = recommended.replace(channel="FICON", capture_us_per_block=capture_us)
    if analytic.bottleneck(ficon) != "cpu":
        raise ValueError(f"ficon_vs_escon = {q!r} is out of range: FICON would leave "
                         f"{analytic.bottleneck(ficon)} as the bottleneck, not the capture processor")

    c = published["compression"].value
    plain = recommended.replace(capture_us_per_block=capture_us)
    factor = c * analytic.bound_elapsed_s(plain) / cpu_s - 1
    compressed_io_s = analytic.io_bound_s(plain.replace(compression=True))
    if factor < 0 or compressed_io_s > c * analytic.bound_elapsed_s(plain):
        raise ValueError(f"compression = {c!r} is out of range: the processor cannot be what sets the "
                         f"compressed dump's time")
    return base.replace(io_turnaround_ms=turnaround, capture_us_per_block=capture_us, compression_cpu_factor=factor)


def _checked_published(published) -> Mapping[str, Published]:
    """``published`` if it maps each statement of :data:`CALIBRATED_ON` to a Published cell, or ValueError naming it."""
    if not isinstance(published, Mapping):
        raise ValueError(f"published = {published!r} has the wrong type: allowed a mapping of statement key to "
                         f"Published cell with keys {sorted(CALIBRATED_ON.values())}, or None")
    for key in CALIBRATED_ON.values():
        if not isinstance(published.get(key), Published):
            raise ValueError(f"published[{key!r}] = {published.get(key)!r} is not allowed: allowed a Published cell "
                             f"for each of {sorted(CALIBRATED_ON.values())}")
    return published


@functools.cache
def _calibrated() -> DumpParams:
    return calibrate()


def calibrated_params(**changes) -> DumpParams:
    """:func:`calibrate`'s record (the calibrated costs, the document's dump size) with ``changes``."""
    return _calibrated().replace(**changes)
