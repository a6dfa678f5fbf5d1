"""Declaring a study's compared cells: what each published number is, and how the model gets it.

A study does not write its own comparison loop.  It declares, once, every
published cell it compares as a :class:`CellSpec` and the simulated
configurations those cells need as :class:`Experiment` records; the one
evaluator (:func:`perfstudies.evaluate.evaluate`) runs them and builds the
standard comparison table (:mod:`perfstudies.compare`).

A cell's *role* decides what else it must declare:

``calibration``  ``sets``: the one parameter the cell's published value sets.
``derived``      a :class:`Derivation`: the cells it follows from and the
                 identity that gives its value from theirs.  The identity is
                 applied to the sources' *published* values and must reproduce
                 the cell's own published value within its tolerance
                 (:func:`refused_derivations`); otherwise the cell is a model
                 output the other cells do not imply, and it must be a
                 prediction.  Derived cells are shown, never scored.
``prediction``   a :class:`Baseline`: the answer a capacity planner would give
                 without the model, with its ground.  Only these are scored.

A cell whose value a later experiment is set from may also declare a
:class:`Precision`: a tighter half-width than its tolerance asks, with the
reason; the evaluator replicates it to that, whatever its role.

How the model value is obtained is either :class:`Simulated` (a function,
per replication, of metrics of one experiment's configurations, so ratios and
changes between configurations use common random numbers) or :class:`Exact`
(a closed form, no interval).

Examples
--------
>>> from perfstudies.compare import Published
>>> spec = CellSpec(Published("Table 1", "mean wait (s)", "rho = 0.5", 1.0), "prediction",
...                 metric("queue", "rho = 0.5", "wait_s"),
...                 baseline=Baseline(0.5, "persistence", "the wait measured at rho = 0.33"))
>>> spec.key
'Table 1 · mean wait (s) · rho = 0.5'
"""

import dataclasses
import math
from collections.abc import Callable, Iterable, Mapping

from perfstudies.compare import DEFAULT, ROLES, Published, Tolerance, check_bounds
from perfstudies.params import Params, check_callable, check_integer, check_text
from perfstudies.runner import DEFAULT_CAP, MAX_REPLICATIONS

#: Where a baseline comes from: the same quantity in the reference configuration
#: the planner measured, or a scaling rule the document itself states.
BASELINE_KINDS = ("persistence", "scaling")


@dataclasses.dataclass(frozen=True)
class Baseline:
    """The answer a capacity planner would give without the model, and why.

    Parameters
    ----------
    value : float
        The planner's number, in the cell's unit.
    kind : {"persistence", "scaling"}
        Persistence (the same quantity in the measured reference configuration)
        or a scaling rule the document states (proportional to stripes, ...).
    ground : str
        Which reference, or which rule and where the document states it.
    """

    value: float
    kind: str
    ground: str

    def __post_init__(self):
        value = self.value
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"Baseline.value = {value!r} is not allowed: allowed a finite number")
        object.__setattr__(self, "value", float(value))
        if self.kind not in BASELINE_KINDS:
            raise ValueError(f"Baseline.kind = {self.kind!r} is not allowed: allowed one of {list(BASELINE_KINDS)}")
        check_text("Baseline.ground", self.ground, empty=False)


@dataclasses.dataclass(frozen=True)
class Derivation:
    """How a derived cell follows from other cells: ``identity(*published values of sources)``.

    ``sources`` are cell keys (:attr:`CellSpec.key`); an identity of no
    sources is a definition (``1`` for a configuration's ratio to itself).
    ``why`` says in words what the identity is.
    """

    sources: tuple[str, ...]
    identity: Callable[..., float]
    why: str

    def __post_init__(self):
        if isinstance(self.sources, str) or not isinstance(self.sources, tuple) \
                or not all(isinstance(source, str) and source for source in self.sources):
            raise ValueError(f"Derivation.sources = {self.sources!r} has the wrong type: allowed a tuple of cell keys")
        check_callable("Derivation.identity", self.identity)
        check_text("Derivation.why", self.why, empty=False)


@dataclasses.dataclass(frozen=True)
class Precision:
    """A 95% half-width tighter than the tolerance rule asks, because a later experiment uses the cell's value.

    A staged comparison sets one experiment's configurations from another's
    results (:class:`Experiment`); the error of the earlier value carries over
    into the later cells, so the earlier cell may need to be known closer than
    its own tolerance would ask, even when it is derived.

    Parameters
    ----------
    half_width : float
        The largest 95% half-width, in the cell's unit (> 0).
    why : str
        Which later cells need it, and how the width was chosen.
    """

    half_width: float
    why: str

    def __post_init__(self):
        value = self.half_width
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not (math.isfinite(value) and value > 0):
            raise ValueError(f"Precision.half_width = {value!r} is not allowed: allowed a finite number > 0")
        object.__setattr__(self, "half_width", float(value))
        check_text("Precision.why", self.why, empty=False)


@dataclasses.dataclass(frozen=True)
class Simulated:
    """A model value computed per replication from metrics of one experiment's configurations.

    ``terms`` are ``(configuration, metric)`` pairs; ``combine`` takes one
    NumPy array per term (the replications both configurations ran, with the
    same seeds) and returns the cell's per-replication values.  Without
    ``combine`` there must be one term, taken as it is.  Build these with
    :func:`metric`, :func:`ratio` and :func:`change_pct` where they fit.
    """

    experiment: str
    terms: tuple[tuple[str, str], ...]
    combine: Callable | None = None

    def __post_init__(self):
        check_text("Simulated.experiment", self.experiment, empty=False)
        if not isinstance(self.terms, tuple) or not self.terms or not all(
                isinstance(term, tuple) and len(term) == 2 and all(isinstance(part, str) and part for part in term)
                for term in self.terms):
            raise ValueError(f"Simulated.terms = {self.terms!r} is not allowed: allowed a non-empty tuple of "
                             "(configuration, metric) pairs")
        if self.combine is None and len(self.terms) != 1:
            raise ValueError(f"Simulated.combine = None is not allowed with {len(self.terms)} terms: "
                             "allowed a callable of one array per term")
        if self.combine is not None:
            check_callable("Simulated.combine", self.combine)

    @property
    def configurations(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(config for config, _ in self.terms))


@dataclasses.dataclass(frozen=True)
class Exact:
    """A model value in closed form (no replications, no interval): ``compute()``."""

    compute: Callable[[], float]

    def __post_init__(self):
        check_callable("Exact.compute", self.compute)


def metric(experiment: str, configuration: str, name: str) -> Simulated:
    """One metric of one configuration."""
    return Simulated(experiment, ((configuration, name),))


def _ratio(reference, changed):
    return changed / reference


def _change_pct(before, after):
    return 100.0 * (after / before - 1.0)


def ratio(experiment: str, reference: str, changed: str, name: str) -> Simulated:
    """``name`` of ``changed`` over ``name`` of ``reference``, per replication (common random numbers)."""
    return Simulated(experiment, ((reference, name), (changed, name)), _ratio)


def change_pct(experiment: str, before: str, after: str, name: str) -> Simulated:
    """The percentage change of ``name`` from ``before`` to ``after``, per replication."""
    return Simulated(experiment, ((before, name), (after, name)), _change_pct)


@dataclasses.dataclass(frozen=True)
class Experiment:
    """Configurations simulated together: replication *i* of each uses the same seed.

    Parameters
    ----------
    name : str
    model : callable
        ``model(params, seed) -> {metric: value}``, one replication.
    configurations : mapping or callable
        ``{name: params record}``, or a callable that receives the finished
        experiments (``{experiment: {configuration: per-replication frame}}``,
        in declaration order) and returns that mapping: for configurations set
        from an earlier experiment's results.
    initial, cap : int
        First and largest number of replications (``2 <= initial <= cap``).
    """

    name: str
    model: Callable
    configurations: Mapping[str, Params] | Callable
    initial: int = 5
    cap: int = DEFAULT_CAP

    def __post_init__(self):
        check_text("Experiment.name", self.name, empty=False)
        check_callable("Experiment.model", self.model)
        if not callable(self.configurations):
            check_configurations(f"Experiment({self.name!r}).configurations", self.configurations)
        check_integer("Experiment.initial", self.initial, low=2, high=MAX_REPLICATIONS)
        check_integer("Experiment.cap", self.cap, low=self.initial, high=MAX_REPLICATIONS)


def check_configurations(label: str, configurations) -> dict:
    """``configurations`` as a dict, or a ValueError naming ``label``."""
    if not isinstance(configurations, Mapping) or not configurations or not all(
            isinstance(name, str) and name and isinstance(params, Params) for name, params in configurations.items()):
        raise ValueError(f"{label} = {configurations!r} is not allowed: allowed a non-empty "
                         "{name: parameter record} mapping")
    return dict(configurations)


@dataclasses.dataclass(frozen=True)
class CellSpec:
    """One published cell, its role, and how the model value is obtained.

    Parameters
    ----------
    published : Published
    role : {"calibration", "derived", "prediction"}
    model : Simulated or Exact
    tolerance : Tolerance
    sets : str
        Calibration cells: the parameter the published value sets.
    derivation : Derivation
        Derived cells: the sources and identity (checked on published values).
    baseline : Baseline
        Predicted cells: the planner's answer without the model.
    precision : Precision
        Optional, any role: a tighter half-width a later experiment needs.
    note : str
        What a reader needs to read the row (how the model gets the value).
    key : str
        The name other cells' derivations use (default: ``published.where``).
    bounds : (float, float), optional
        The open range the document states where it prints no number
        (``published`` is its midpoint); the cell is then scored as a bound
        (:class:`perfstudies.compare.Cell`).
    """

    published: Published
    role: str
    model: Simulated | Exact
    tolerance: Tolerance = DEFAULT
    sets: str = ""
    derivation: Derivation | None = None
    baseline: Baseline | None = None
    precision: Precision | None = None
    note: str = ""
    key: str = ""
    bounds: tuple | None = None

    def __post_init__(self):
        if not isinstance(self.published, Published):
            raise ValueError(f"CellSpec.published = {self.published!r} has the wrong type: allowed a Published cell")
        where = self.published.where
        if self.role not in ROLES:
            raise ValueError(f"CellSpec.role = {self.role!r} is not allowed for {where}: allowed one of {list(ROLES)}")
        if not isinstance(self.model, (Simulated, Exact)):
            raise ValueError(f"CellSpec.model = {self.model!r} has the wrong type for {where}: "
                             "allowed Simulated or Exact")
        if not isinstance(self.tolerance, Tolerance):
            raise ValueError(f"CellSpec.tolerance = {self.tolerance!r} has the wrong type for {where}: "
                             "allowed a Tolerance")
        if self.bounds is not None:
            object.__setattr__(self, "bounds", check_bounds("CellSpec.bounds", self.bounds, self.published))
        if self.precision is not None and not isinstance(self.precision, Precision):
            raise ValueError(f"CellSpec.precision = {self.precision!r} has the wrong type for {where}: "
                             "allowed a Precision or None")
        check_text("CellSpec.note", self.note)
        check_text("CellSpec.key", self.key)
        if not self.key:
            object.__setattr__(self, "key", where)
        required = {"calibration": ("sets", bool(self.sets.strip()) if isinstance(self.sets, str) else False),
                    "derived": ("derivation", isinstance(self.derivation, Derivation)),
                    "prediction": ("baseline", isinstance(self.baseline, Baseline))}
        for role, (field, present) in required.items():
            if role == self.role and not present:
                raise ValueError(f"CellSpec.{field} is missing for {where}: a {role} cell must declare its {field}")
            if role != self.role and field != "sets" and getattr(self, field) is not None:
                raise ValueError(f"CellSpec.{field} is not allowed for {where}: only a {role} cell declares one")
        if self.role != "calibration" and self.sets:
            raise ValueError(f"CellSpec.sets = {self.sets!r} is not allowed for {where}: only a calibration "
                             "cell sets a parameter")


def refused_derivations(specs: Iterable[CellSpec]) -> list[str]:
    """Every derived cell whose identity, fed the sources' *published* values, misses its own published value.

    Each entry names the cell, what the identity gives and what is published;
    unknown or circular sources are refused too.  An empty list means every
    derived cell follows from published cells as it claims.
    """
    specs = check_specs(specs)
    by_key = {spec.key: spec for spec in specs}
    refused = []
    for spec in specs:
        if spec.role != "derived":
            continue
        missing = [source for source in spec.derivation.sources if source not in by_key or source == spec.key]
        if missing:
            refused.append(f"{spec.key}: sources {missing} are not other cells of the study")
            continue
        value = identity_value(spec, by_key)
        published = spec.published.value
        if not (math.isfinite(value) and abs(value - published) <= spec.tolerance.allowed_error(published)):
            refused.append(f"{spec.key}: the identity on published sources gives {value:.6g}, "
                           f"published {published:.6g} (tolerance {spec.tolerance.describe()})")
    return refused


def identity_value(spec: CellSpec, by_key: Mapping[str, CellSpec]) -> float:
    """A derived cell's identity applied to the published values of its sources."""
    values = [by_key[source].published.value for source in spec.derivation.sources]
    try:
        return float(spec.derivation.identity(*values))
    except (ArithmeticError, ValueError, TypeError) as error:
        raise ValueError(f"Derivation.identity of {spec.key} fails on the published sources {values}: {error}") \
            from error


def check_specs(specs: Iterable[CellSpec]) -> list[CellSpec]:
    """``specs`` as a list: non-empty, all :class:`CellSpec`, keys and published cells unique."""
    if isinstance(specs, (str, bytes, CellSpec)) or not isinstance(specs, Iterable):
        raise ValueError(f"specs = {specs!r} has the wrong type: allowed a non-empty iterable of CellSpec")
    specs = list(specs)
    if not specs:
        raise ValueError("specs is empty: allowed a non-empty iterable of CellSpec")
    for spec in specs:
        if not isinstance(spec, CellSpec):
            raise ValueError(f"specs item {spec!r} has the wrong type: allowed CellSpec")
    for attribute in ("key", "published"):
        seen, repeated = set(), []
        for spec in specs:
            value = getattr(spec, attribute)
            value = value.where if attribute == "published" else value
            if value in seen:
                repeated.append(value)
            seen.add(value)
        if repeated:
            raise ValueError(f"specs declare the same {attribute} twice: {repeated}")
    return specs
