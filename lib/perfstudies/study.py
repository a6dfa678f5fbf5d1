"""The study contract: what one study declares, and what the core does with it.

A study is a declaration, ``STUDY = Study(...)`` in its package's ``__init__``.
The core does the work once for every study: :meth:`Study.runs` simulates the
study's declared experiments and :meth:`Study.comparison` tabulates its
declared cells from them (:mod:`perfstudies.evaluate`); the registry (:mod:`perfstudies.studies`), the
Accuracy page, ``make accuracy``, the benchmark and the contract test read
the record, never a study's internals.

Fields
------
key : str
    The study's name: its package ``perfstudies.models.<key>``, its
    ``data/<key>/`` folder and its chapter ``notebooks/<key>.md``.
document : str
    The source document's title, as the comparison table names it.
seed : int
    The base seed of every simulated number the study shows (replication *i*
    of anything uses ``replication_seeds(seed, n)[i]``).
params : type
    The study's parameter record class (a :class:`perfstudies.params.Params`).
model : callable
    ``model(params, seed) -> {metric: number}``, one replication.
calibrate : callable
    ``calibrate()``: the calibrated parameters, each set from a named
    published cell (the cells of role ``calibration`` name them).
cells : callable
    ``cells()``: every compared published cell as a
    :class:`perfstudies.cells.CellSpec`, a plain list with no control flow
    beyond building it.
experiments : callable
    ``experiments()``: the :class:`perfstudies.cells.Experiment` records the
    simulated cells name.
widget_run : callable
    ``widget_run(params=None)``: what one change of the live panel runs,
    :func:`perfstudies.panel.run_panel` of :attr:`panel` (a study that draws
    a trace returns :func:`perfstudies.panel.run_traced`'s ``PanelRun``, the
    same table plus the first replication's frames).
sweeps : mapping
    ``{name: Sweep}``: the precomputed sweeps behind the chapter's kernel-free
    sliders (:class:`perfstudies.stored_sweeps.Sweep`, each of scope ``key``);
    ``make runs`` stores their values and :meth:`Sweep.runs` replays them.
panel : Panel
    The live panel, declared (:class:`perfstudies.panel.Panel`): its record,
    controls and main control, the chapter's default, the model one
    replication runs and the headline metrics.
facts : callable
    ``facts()``: every number the chapter's prose quotes, ``{name: Fact}``
    (:mod:`perfstudies.facts`), glued by the chapter's one
    ``glue_facts(KEY, facts())``.
"""

import dataclasses
from collections.abc import Callable, Mapping

import pandas as pd

from perfstudies import stored_runs
from perfstudies.cache import memoized
from perfstudies.evaluate import simulate, tabulate
from perfstudies.panel import Panel
from perfstudies.params import Params, check_callable, check_integer, check_text
from perfstudies.runner import MAX_SEED
from perfstudies.stored_sweeps import Sweep

#: The callable fields of :class:`Study`.
CALLABLES = ("model", "calibrate", "cells", "experiments", "widget_run", "facts")


@dataclasses.dataclass(frozen=True)
class Study:
    """One study, declared (see the module docstring for each field)."""

    key: str
    document: str
    seed: int
    params: type
    model: Callable
    calibrate: Callable
    cells: Callable
    experiments: Callable
    widget_run: Callable
    sweeps: Mapping
    panel: Panel
    facts: Callable

    def __post_init__(self):
        check_text("Study.key", self.key, empty=False)
        if not self.key.isidentifier():
            raise ValueError(f"Study.key = {self.key!r} is not allowed: allowed a Python identifier")
        check_text("Study.document", self.document, empty=False)
        check_integer("Study.seed", self.seed, low=0, high=MAX_SEED)
        if not (isinstance(self.params, type) and issubclass(self.params, Params)):
            raise ValueError(f"Study.params = {self.params!r} has the wrong type: allowed a Params record class")
        for name in CALLABLES:
            check_callable(f"Study.{name}", getattr(self, name))
        if not isinstance(self.sweeps, Mapping) or not all(
                isinstance(name, str) and name.isidentifier() and isinstance(sweep, Sweep) and sweep.scope == self.key
                for name, sweep in self.sweeps.items()):
            raise ValueError(f"Study.sweeps = {self.sweeps!r} is not allowed: allowed a {{name: Sweep}} mapping "
                             f"(perfstudies.stored_sweeps), names identifiers, each Sweep of scope {self.key!r}")
        if not isinstance(self.panel, Panel):
            raise ValueError(f"Study.panel = {self.panel!r} has the wrong type: allowed a Panel (perfstudies.panel)")

    def __repr__(self) -> str:
        return f"Study(key={self.key!r}, document={self.document!r}, params={self.params.__name__})"

    def runs(self) -> dict[str, dict[str, pd.DataFrame]]:
        """The comparison's replications: ``{experiment: {configuration: frame}}`` (:func:`.evaluate.simulate`).

        Disk-memoized on the sources and data this study depends on (the core,
        its own package and data; not the other studies'), so a chapter that
        shows a run's own numbers reads the very replications the comparison
        table is made of.  A cold memo takes the runs ``make runs`` stored in
        ``data/runs/`` when they reproduce under this code
        (:mod:`perfstudies.stored_runs`), and simulates them otherwise.
        """
        return memoized(f"runs-{self.key}", self._stored_or_simulated, scope=self.key)

    def _stored_or_simulated(self) -> dict[str, dict[str, pd.DataFrame]]:
        stored = stored_runs.reproduced(self)
        return stored if stored is not None else simulate(self.seed, self.experiments(), self.cells())

    def comparison(self) -> pd.DataFrame:
        """The standard comparison table of every declared cell (:func:`.evaluate.tabulate` of :meth:`runs`)."""
        return tabulate(self.key, self.document, self.experiments(), self.cells(), self.runs())
