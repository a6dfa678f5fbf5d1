"""Every published statement beside the model: how each is computed, its role, and its no-change baseline.

The document gives no absolute times, only ratios between configurations, so
each compared cell is a ratio of two simulated configurations (or, for the
flattening, a ratio of two gains), computed per replication with the same seed
for every configuration (common random numbers).
"""

import dataclasses

import pandas as pd

from perfstudies.compare import Cell, Published, Tolerance, comparison_table
from perfstudies.models.svcdump.calibration import RECOMMENDED, calibrated_params, documented_dump_blocks, published_cells, statements
from perfstudies.models.svcdump.network import model
from perfstudies.models.svcdump.params import DOCUMENT, SEED, STUDY
from perfstudies.runner import replicate, summarize

#: Replications per configuration in the comparison.
REPLICATIONS = 8


@dataclasses.dataclass(frozen=True)
class Statement:
    """How one published statement is computed from simulated configurations.

    ``configs`` are the field changes of each configuration; ``kind`` is
    ``ratio`` (metric of configs[1] / configs[0]) or ``gain`` ((T2 - T4) / (T1 - T2)
    for configs T1, T2, T4).
    """

    published: Published
    metric: str
    configs: tuple
    kind: str = "ratio"
    role: str = "prediction"

    def value(self, values: list):
        """The statement's value from the metric of each configuration (per replication)."""
        if self.kind == "gain":
            t1, t2, t4 = values
            return (t2 - t4) / (t1 - t2)
        return values[1] / values[0]


def _doubled(size_blocks: int) -> dict:
    return dict(RECOMMENDED, dump_blocks=2 * size_blocks)


def statement_specs() -> dict[str, Statement]:
    """The configurations behind every statement of ``statements.csv``."""
    cells, size = published_cells(), documented_dump_blocks()
    one_3390, one_ess = dict(device="3390-3", stripes=1), dict(device="ESS", stripes=1)
    specs = {
        "stripes_2v1_3390": ("elapsed_s", (one_3390, dict(one_3390, stripes=2))),
        "stripes_2v1_ess": ("elapsed_s", (one_ess, dict(one_ess, stripes=2))),
        "gain_4v2_3390": ("elapsed_s", tuple(dict(one_3390, stripes=n) for n in (1, 2, 4)), "gain"),
        "gain_4v2_ess": ("elapsed_s", tuple(dict(one_ess, stripes=n) for n in (1, 2, 4)), "gain"),
        "ess_vs_3390_elapsed": ("elapsed_s", (one_3390, one_ess)),
        "ess_vs_3390_data_rate": ("data_rate_mb_s", (one_3390, one_ess)),
        "ess_vs_3390_response": ("io_response_ms", (one_3390, one_ess), "ratio", "calibration"),
        "ficon_vs_escon": ("elapsed_s", (RECOMMENDED, dict(RECOMMENDED, channel="FICON")), "ratio", "calibration"),
        "compression": ("elapsed_s", (RECOMMENDED, dict(RECOMMENDED, compression=True)), "ratio", "calibration"),
        "page_data_sets": ("elapsed_s", (RECOMMENDED, dict(RECOMMENDED, page_data_sets=8))),
        "linear_size": ("elapsed_s", (RECOMMENDED, _doubled(size))),
        "ipcs_stripes_2v1": ("ipcs_s", (one_ess, dict(one_ess, stripes=2))),
        "ipcs_ess_vs_3390": ("ipcs_s", (one_3390, one_ess)),
        "ipcs_linear": ("ipcs_s", (RECOMMENDED, _doubled(size))),
    }
    return {key: Statement(cells[key], *spec) for key, spec in specs.items()}


def baseline(statement: Statement) -> float:
    """The no-change baseline: the statement's quantity in its reference configuration (1 for a ratio, 0 for a gain)."""
    return 0.0 if statement.kind == "gain" else 1.0


def _per_replication(params, replications: int, seed: int) -> pd.DataFrame:
    """One row per replication, one column per metric (same seeds for every configuration)."""
    return replicate(model, params, replications, seed, progress=False).wide().set_index("replication")


def comparison(replications: int = REPLICATIONS, seed: int = SEED) -> pd.DataFrame:
    """The standard comparison table: every statement, calibrated or predicted, with its 95% CI."""
    published = statements()
    cache: dict = {}

    def runs(config: dict) -> pd.DataFrame:
        params = calibrated_params(**config)
        if params not in cache:
            cache[params] = _per_replication(params, replications, seed)
        return cache[params]

    cells = []
    for key, spec in statement_specs().items():
        row = published.loc[key]
        values = spec.value([runs(config)[spec.metric] for config in spec.configs])
        summary = summarize(pd.DataFrame({"metric": key, "value": values})).loc[key]
        tolerance = Tolerance(float(row["band"]), str(row["band_kind"]), "resolution",
                              f"band of statements.csv ({row['band_source']})")
        cells.append(Cell(spec.published, model=float(summary["mean"]), role=spec.role,
                          ci_half_width=float(summary["half_width"]), baseline=baseline(spec), tolerance=tolerance,
                          note=str(row["gist"])))
    return comparison_table(cells, study=STUDY, document=DOCUMENT)
