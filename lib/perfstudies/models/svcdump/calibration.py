"""Calibration on three named statements, and the comparison of every statement.

The document gives no absolute times, only ratios between configurations, so
each compared cell is a ratio of two simulated configurations (or, for the
flattening, a ratio of two gains).  Three costs the document does not state
are set, in closed form from the bottleneck bound (:mod:`.analytic`), so that
the model reproduces three named statements:

=============================  ==========================================================
statement                      sets
=============================  ==========================================================
``ess_vs_3390_response``       ``io_turnaround_ms``: the per-I/O time that both devices pay
``ficon_vs_escon``             ``capture_us_per_block``: the dump's processor time per block
``compression``                ``compression_cpu_factor``: what compressing a block costs
=============================  ==========================================================

Every other statement is a prediction.  The configurations the document leaves
open (which device the FICON and compression tests used, how many channel
paths) are fixed in :data:`BASE`, :data:`RECOMMENDED` and :func:`cell_specs`, and the
chapter says so.
"""

import dataclasses
import functools

import pandas as pd

from perfstudies.compare import Cell, comparison_table
from perfstudies.data import load
from perfstudies.models.svcdump import analytic
from perfstudies.models.svcdump.network import model
from perfstudies.models.svcdump.params import DumpParams
from perfstudies.runner import replicate, summarize

STUDY = "svcdump"
DOCUMENT = "z/OS Performance: SVC Dump"

#: Replications per configuration in the comparison, and its base seed.
REPLICATIONS = 8
SEED = 2002

#: What every compared configuration shares unless a cell changes it: ESCON channels, two
#: channel paths to the dump volumes (not stated in the document: an assumption), no
#: compression, one page data set, no storage constraint.  The dump size comes from data.
BASE = dict(channel="ESCON", channel_paths=2, compression=False, page_data_sets=1, storage_constrained=False)
#: The configuration the document recommends, used where it does not say which one it measured.
RECOMMENDED = dict(device="ESS", stripes=2)


@dataclasses.dataclass(frozen=True)
class CellSpec:
    """How one statement is computed from simulated configurations.

    ``configs`` are the field changes of each configuration; ``kind`` is
    ``ratio`` (metric of configs[1] / configs[0]) or ``gain`` ((T2 - T4) / (T1 - T2)
    for configs T1, T2, T4).
    """

    metric: str
    configs: tuple
    kind: str = "ratio"
    role: str = "prediction"


def _doubled(size_blocks: int) -> dict:
    return dict(RECOMMENDED, dump_blocks=2 * size_blocks)


def cell_specs(size_blocks: int) -> dict[str, CellSpec]:
    """The configurations behind every statement of ``statements.csv``."""
    one_3390, one_ess = dict(device="3390-3", stripes=1), dict(device="ESS", stripes=1)
    return {
        "stripes_2v1_3390": CellSpec("elapsed_s", (one_3390, dict(one_3390, stripes=2))),
        "stripes_2v1_ess": CellSpec("elapsed_s", (one_ess, dict(one_ess, stripes=2))),
        "gain_4v2_3390": CellSpec("elapsed_s", tuple(dict(one_3390, stripes=n) for n in (1, 2, 4)), kind="gain"),
        "gain_4v2_ess": CellSpec("elapsed_s", tuple(dict(one_ess, stripes=n) for n in (1, 2, 4)), kind="gain"),
        "ess_vs_3390_elapsed": CellSpec("elapsed_s", (one_3390, one_ess)),
        "ess_vs_3390_data_rate": CellSpec("data_rate_mb_s", (one_3390, one_ess)),
        "ess_vs_3390_response": CellSpec("io_response_ms", (one_3390, one_ess), role="calibration"),
        "ficon_vs_escon": CellSpec("elapsed_s", (RECOMMENDED, dict(RECOMMENDED, channel="FICON")),
                                   role="calibration"),
        "compression": CellSpec("elapsed_s", (RECOMMENDED, dict(RECOMMENDED, compression=True)),
                                role="calibration"),
        "page_data_sets": CellSpec("elapsed_s", (RECOMMENDED, dict(RECOMMENDED, page_data_sets=8))),
        "linear_size": CellSpec("elapsed_s", (RECOMMENDED, _doubled(size_blocks))),
        "ipcs_stripes_2v1": CellSpec("ipcs_s", (one_ess, dict(one_ess, stripes=2))),
        "ipcs_ess_vs_3390": CellSpec("ipcs_s", (one_3390, one_ess)),
        "ipcs_linear": CellSpec("ipcs_s", (RECOMMENDED, _doubled(size_blocks))),
    }


@dataclasses.dataclass(frozen=True)
class Calibration:
    """The three calibrated costs (see the module docstring for the statements behind them)."""

    io_turnaround_ms: float
    capture_us_per_block: float
    compression_cpu_factor: float


def statements() -> pd.DataFrame:
    """The published statements, indexed by statement key."""
    return load(STUDY, "statements").set_index("statement")


@functools.cache
def documented_dump_blocks() -> int:
    """The dump size the document states, in 4 KiB blocks (read once per process)."""
    setup = load(STUDY, "setup").set_index("quantity")
    return int(setup.loc["dump_blocks", "value"])


def calibrate(published: pd.DataFrame | None = None, dump_blocks: int | None = None) -> Calibration:
    """Set the three costs in closed form so the bottleneck bound meets the three statements.

    1. Response ratio r = (t + A_ess) / (t + A_3390), where A is a device's
       positioning + transfer and t the common turnaround: t = (r A_3390 - A_ess) / (1 - r).
    2. FICON / ESCON ratio q on the recommended setup: FICON leaves the capture
       processor as the bottleneck, so D_cpu = q T_escon.
    3. Compressed / plain ratio c on the same setup: compression halves the I/O
       and adds processor time, so D_cpu (1 + f) = c T_plain.

    Raises
    ------
    ValueError
        If a statement cannot be met by this mechanism (for example if FICON
        would not leave the processor as the bottleneck).
    """
    published = statements() if published is None else published
    dump_blocks = documented_dump_blocks() if dump_blocks is None else dump_blocks
    base = DumpParams(dump_blocks=dump_blocks, **BASE)

    r = float(published.loc["ess_vs_3390_response", "published"])
    positioning_and_transfer = {
        device: analytic.io_ms(base.replace(device=device, io_turnaround_ms=0.0)) for device in ("3390-3", "ESS")}
    turnaround = (r * positioning_and_transfer["3390-3"] - positioning_and_transfer["ESS"]) / (1 - r)
    if turnaround < 0:
        raise ValueError(f"ess_vs_3390_response = {r!r} needs a negative turnaround: allowed ratios above "
                         f"{positioning_and_transfer['ESS'] / positioning_and_transfer['3390-3']:.3f}")
    recommended = base.replace(io_turnaround_ms=turnaround, **RECOMMENDED)

    q = float(published.loc["ficon_vs_escon", "published"])
    cpu_s = q * analytic.io_bound_s(recommended)
    capture_us = cpu_s / dump_blocks * 1e6
    ficon = recommended.replace(channel="FICON", capture_us_per_block=capture_us)
    if analytic.bottleneck(ficon) != "cpu":
        raise ValueError(f"ficon_vs_escon = {q!r} is out of range: FICON would leave "
                         f"{analytic.bottleneck(ficon)} as the bottleneck, not the capture processor")

    c = float(published.loc["compression", "published"])
    plain = recommended.replace(capture_us_per_block=capture_us)
    factor = c * analytic.bound_elapsed_s(plain) / cpu_s - 1
    compressed_io_s = analytic.io_bound_s(plain.replace(compression=True))
    if factor < 0 or compressed_io_s > c * analytic.bound_elapsed_s(plain):
        raise ValueError(f"compression = {c!r} is out of range: the processor cannot be what sets the "
                         f"compressed dump's time")
    return Calibration(turnaround, capture_us, factor)


@functools.cache
def _calibration() -> Calibration:
    return calibrate()


def calibrated_params(**changes) -> DumpParams:
    """A :class:`DumpParams` with the calibrated costs and the document's dump size, plus ``changes``."""
    fields = dict(BASE, dump_blocks=documented_dump_blocks(), **dataclasses.asdict(_calibration()))
    return DumpParams(**{**fields, **changes})


def _per_replication(params: DumpParams, replications: int, seed: int) -> pd.DataFrame:
    """One row per replication, one column per metric (same seeds for every configuration)."""
    return replicate(model, params, replications, seed, progress=False).wide().set_index("replication")


def cell_values(spec: CellSpec, runs) -> pd.Series:
    """The statement's value in each replication, from the runs of its configurations."""
    values = [runs(config)[spec.metric] for config in spec.configs]
    if spec.kind == "gain":
        t1, t2, t4 = values
        return (t2 - t4) / (t1 - t2)
    return values[1] / values[0]


def comparison(replications: int = REPLICATIONS, seed: int = SEED) -> pd.DataFrame:
    """The standard comparison table: every statement, calibrated or predicted, with its 95% CI."""
    published = statements()
    size = documented_dump_blocks()
    cache: dict = {}

    def runs(config: dict) -> pd.DataFrame:
        params = calibrated_params(**config)
        if params not in cache:
            cache[params] = _per_replication(params, replications, seed)
        return cache[params]

    cells = []
    for key, spec in cell_specs(size).items():
        row = published.loc[key]
        values = cell_values(spec, runs)
        summary = summarize(pd.DataFrame({"metric": key, "value": values})).loc[key]
        cells.append(Cell(
            table="statements", row=key, column=f"{row['quantity']}: {row['comparison']} ({row['device']})",
            published=float(row["published"]), model=float(summary["mean"]), role=spec.role,
            ci_half_width=float(summary["half_width"]), tolerance=float(row["band"]),
            tolerance_kind=str(row["band_kind"]), note=str(row["gist"])))
    return comparison_table(cells, study=STUDY, document=DOCUMENT)
