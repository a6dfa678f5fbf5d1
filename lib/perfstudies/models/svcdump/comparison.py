"""Every published statement beside the model: how each is computed, its role, tolerance and no-change baseline.

The document gives no absolute times, only ratios between configurations, so
each compared cell is a ratio of two simulated configurations (or, for the
flattening, a ratio of two gains).  A :class:`Statement` says how: which
configurations, which metric, and the cell's role, tolerance and note.

Roles (the rule of :mod:`perfstudies.compare`).  Three statements set the
three calibrated costs (:mod:`.calibration`).  Seven more are ``derived``: in
this model they hold whatever the uncalibrated assumptions (channel paths,
device constants) are, because they are a calibrated cell again, its
reciprocal, a copy of another cell, or a consequence of every demand being
linear in the dump size; each note says which.  The four left are predictions:
they move when the assumptions move (with one channel path instead of the
assumed two, for example, two stripes would cut the time by 45% instead of 50%).

Every value is computed per replication, with the same seed for every
configuration (common random numbers), so the confidence interval of a ratio
is the interval of the ratio itself; replications are added
(:func:`perfstudies.runner.replicate_until`) until every cell's 95%
half-width is at most a quarter of its tolerance.
"""

import dataclasses

import pandas as pd

from perfstudies.compare import (DEFAULT, PRECISION_FRACTION, Cell, Published, Tolerance, comparison_table,
                                 documented, resolution)
from perfstudies.models.svcdump.calibration import (RECOMMENDED, calibrated_params, documented_dump_blocks,
                                                    published_cells, statements)
from perfstudies.models.svcdump.network import dump_model, ipcs_model
from perfstudies.models.svcdump.params import DOCUMENT, SEED, STUDY
from perfstudies.runner import DEFAULT_CAP, replicate_until

#: First and largest number of replications of the comparison (every configuration runs each one).
INITIAL_REPLICATIONS = 5
MAX_REPLICATIONS = DEFAULT_CAP

#: The document's own measurement variability, quoted with where it is.
TIMING_VARIABILITY = documented(
    0.10, 'Introduction: "any particular number could easily change by +/- 10%, and at times more"')
COMPRESSION_VARIABILITY = documented(
    0.10, 'Multiple Page Data sets, SMS Compression, ESCON vs FICON (on compression): '
          '"within measurement error (i.e. 10%)"')
PAGE_DATA_SET_VARIABILITY = documented(
    0.10, 'Multiple Page Data sets, SMS Compression, ESCON vs FICON (on page data sets): '
          '"around the measurement error rate (+/-10%)"')


@dataclasses.dataclass(frozen=True)
class Statement:
    """One published statement and how the model computes it.

    Attributes
    ----------
    published : Published
        The statement's cell (``data/svcdump/statements.csv``).
    metric : str
        The metric of :func:`.network.dump_model` or :func:`.network.ipcs_model` it compares.
    configs : tuple of dict
        Field changes of each configuration (on :func:`.calibration.calibrated_params`);
        the first is the reference configuration.
    kind : {"ratio", "gain"}
        ``ratio``: metric of configs[1] / configs[0]; ``gain``: (T2 - T4) / (T1 - T2)
        for configs with 1, 2 and 4 stripes.
    role : {"calibration", "derived", "prediction"}
    tolerance : Tolerance
    note : str
        How the model gets the value (for a derived cell: how it follows).
    """

    published: Published
    metric: str
    configs: tuple
    kind: str = "ratio"
    role: str = "prediction"
    tolerance: Tolerance = DEFAULT
    note: str = ""

    @property
    def key(self) -> str:
        return self.published.row

    def value(self, values: list[float]) -> float:
        """The statement's value from the metric of each configuration (one replication)."""
        if self.kind == "gain":
            t1, t2, t4 = values
            return (t2 - t4) / (t1 - t2)
        return values[1] / values[0]


def no_change_baseline(statement: Statement) -> float:
    """What a capacity planner would answer without the model: nothing changes.

    Every statement compares a changed configuration with a reference one the
    planner has measured: one stripe (striping), the 3390-3 (ESS), ESCON
    (FICON), no compression, one page data set, the documented dump size, and
    for the gain ratios the two-stripe run.  The same quantity in the reference
    configuration is its ratio to itself, 1: the persistence forecast "the dump
    takes as long as it did", the naive answer the document's statements are
    news against.  (Proportional scaling, "two stripes halve the time", is not
    naive: it is already the one-resource model.)  For the gain ratio
    (T2 - T4) / (T1 - T2) the persistence forecast beyond the two-stripe
    reference is T4 = T2, a gain ratio of 0.
    """
    return 0.0 if statement.kind == "gain" else 1.0


def _range_tolerance(key: str, reason: str) -> Tolerance:
    """The half-width of the range the document prints instead of a number (``low``-``high`` in the data)."""
    row = statements().loc[key]
    return resolution((float(row["high"]) - float(row["low"])) / 2, reason)


def statement_specs() -> dict[str, Statement]:
    """Every statement of ``statements.csv``: its configurations, role, tolerance and note."""
    cells, size = published_cells(), documented_dump_blocks()
    one_3390, one_ess = dict(device="3390-3", stripes=1), dict(device="ESS", stripes=1)
    doubled = dict(RECOMMENDED, dump_blocks=2 * size)
    inequality = ("the document states only an inequality (more than two stripes helped a little, far less "
                  "than the first split: 0 < g < 1), stored as the midpoint 0.5; the tolerance is the half-range")
    specs = [
        Statement(cells["stripes_2v1_3390"], "elapsed_s", (one_3390, dict(one_3390, stripes=2)),
                  tolerance=TIMING_VARIABILITY,
                  note="Two 3390-3 stripes over one. The halving needs the volumes to stay the bottleneck at two "
                       "stripes: the capture CPU and the two channel paths (assumed, not in the document) must "
                       "not bind; with one path the model gives 0.55."),
        Statement(cells["stripes_2v1_ess"], "elapsed_s", (one_ess, dict(one_ess, stripes=2)),
                  tolerance=TIMING_VARIABILITY,
                  note="Two ESS stripes over one. The FICON calibration puts the capture CPU at 0.8 of the "
                       "two-stripe time; the halving needs the two assumed channel paths not to bind either "
                       "(with one path the model gives 0.55)."),
        Statement(cells["gain_4v2_3390"], "elapsed_s", tuple(dict(one_3390, stripes=n) for n in (1, 2, 4)),
                  "gain", tolerance=resolution(0.5, inequality),
                  note="(T2 - T4) / (T1 - T2), 1, 2 and 4 stripes on 3390-3: the channel paths take over between "
                       "two and four stripes, so the ratio is 1 minus connect time over I/O time (device "
                       "constants, calibrated turnaround, two assumed paths). Published: 0 < g < 1."),
        Statement(cells["gain_4v2_ess"], "elapsed_s", tuple(dict(one_ess, stripes=n) for n in (1, 2, 4)),
                  "gain", tolerance=resolution(0.5, inequality),
                  note="The same gain ratio on ESS: the capture CPU takes over before four stripes, so the ratio "
                       "is 1 minus the calibrated FICON/ESCON ratio while the assumed paths do not bind; it "
                       "tests which resource takes over, not a magnitude. Published: 0 < g < 1."),
        Statement(cells["ess_vs_3390_elapsed"], "elapsed_s", (one_3390, one_ess), role="derived",
                  tolerance=TIMING_VARIABILITY,
                  note="The calibrated I/O time ratio again, by construction: at one stripe the volume binds on "
                       "both devices (an I/O lasts longer than its connect time, and the calibrated capture CPU "
                       "is below it), so the elapsed time is the volume's work and the ratio is the calibrated "
                       "one-I/O ratio."),
        Statement(cells["ess_vs_3390_data_rate"], "data_rate_mb_s", (one_3390, one_ess), role="derived",
                  tolerance=_range_tolerance("ess_vs_3390_data_rate", "the document prints only a range, 3-4 "
                                             "times, stored as its midpoint 3.5; the tolerance is the half-range"),
                  note="Reciprocal of the ESS/3390-3 elapsed-time ratio (data rate = dump size / elapsed time), "
                       "which is the calibrated I/O ratio: 1 / 0.25 = 4, the top of the document's 3-4."),
        Statement(cells["ess_vs_3390_response"], "io_response_ms", (one_3390, one_ess), role="calibration",
                  tolerance=TIMING_VARIABILITY, note="Sets the turnaround per I/O (in closed form)."),
        Statement(cells["ficon_vs_escon"], "elapsed_s", (RECOMMENDED, dict(RECOMMENDED, channel="FICON")),
                  role="calibration", tolerance=TIMING_VARIABILITY,
                  note="Sets the capture CPU time per block, on ESS with two stripes (the document does not say "
                       "which configurations it averaged)."),
        Statement(cells["compression"], "elapsed_s", (RECOMMENDED, dict(RECOMMENDED, compression=True)),
                  role="calibration", tolerance=COMPRESSION_VARIABILITY,
                  note="Sets the processor cost of compression, on ESS with two stripes."),
        Statement(cells["page_data_sets"], "elapsed_s", (RECOMMENDED, dict(RECOMMENDED, page_data_sets=8)),
                  role="derived", tolerance=PAGE_DATA_SET_VARIABILITY,
                  note="1 by construction of an assumption: the assumed paged fraction (1%, for the document's "
                       "little use of page data sets) keeps page-in far below every other resource, so page data "
                       "sets cannot change the time. The document's hint of slightly slower dumps with more page "
                       "data sets has no mechanism here."),
        Statement(cells["linear_size"], "elapsed_s", (RECOMMENDED, doubled), role="derived",
                  note="2 by construction: every resource's work is linear in the dump size; only the pipeline "
                       "filling and draining keeps the ratio a little below 2. (Not measured in the document.)"),
        Statement(cells["ipcs_stripes_2v1"], "ipcs_s", (one_ess, dict(one_ess, stripes=2)), role="derived",
                  tolerance=TIMING_VARIABILITY,
                  note="A copy of the dump's two-stripe ratio on ESS, by construction: IPCS is assumed to read a block at the cost of "
                       "writing it and to spend the capture's CPU per block, so its demands are the dump's."),
        Statement(cells["ipcs_ess_vs_3390"], "ipcs_s", (one_3390, one_ess), role="derived",
                  tolerance=TIMING_VARIABILITY,
                  note="The calibrated I/O time ratio again, by construction, as for the dump: IPCS "
                       "demands are the dump's, and one stripe is volume-bound on both devices."),
        Statement(cells["ipcs_linear"], "ipcs_s", (RECOMMENDED, doubled), role="derived",
                  note="2 by construction, as for the dump: IPCS demands are linear in the dump size. "
                       "(Not measured in the document.)"),
    ]
    return {spec.key: spec for spec in specs}


def statement_values(specs: tuple[Statement, ...], seed: int) -> dict[str, float]:
    """One replication of every statement: each configuration runs once with ``seed`` (common random numbers)."""
    runs: dict = {}

    def run(config: dict, metric: str) -> float:
        params = calibrated_params(**config)
        ipcs = metric == "ipcs_s"
        if (params, ipcs) not in runs:
            runs[params, ipcs] = (ipcs_model if ipcs else dump_model)(params, seed)
        return runs[params, ipcs][metric]

    return {spec.key: spec.value([run(config, spec.metric) for config in spec.configs]) for spec in specs}


def precision_targets(specs: tuple[Statement, ...]) -> dict[str, float]:
    """Largest allowed 95% half-width of each statement: a quarter of its tolerance."""
    return {spec.key: PRECISION_FRACTION * spec.tolerance.allowed_error(spec.published.value) for spec in specs}


def comparison(initial: int = INITIAL_REPLICATIONS, cap: int = MAX_REPLICATIONS) -> pd.DataFrame:
    """The standard comparison table: every statement with its role, 95% CI, tolerance and baseline.

    Replications (from :data:`~.params.SEED`) are added until every cell is
    precise (:func:`perfstudies.runner.replicate_until`); a cell still
    imprecise at ``cap`` says so in its note.  ``attrs["replications"]`` holds
    the number run.
    """
    specs = tuple(statement_specs().values())
    runs = replicate_until(statement_values, specs, precision_targets(specs), seed=SEED, initial=initial, cap=cap)
    summary = runs.summary()
    cells = []
    for spec in specs:
        note = spec.note
        if spec.key in runs.imprecise:
            note += f" Imprecise: the 95% interval is still wider than a quarter of the tolerance after {cap} replications."
        cells.append(Cell(spec.published, model=float(summary.loc[spec.key, "mean"]), role=spec.role,
                          ci_half_width=float(summary.loc[spec.key, "half_width"]),
                          baseline=no_change_baseline(spec), tolerance=spec.tolerance, note=note))
    table = comparison_table(cells, study=STUDY, document=DOCUMENT)
    table.attrs["replications"] = int(summary["n"].max())
    return table
