"""The registry of studies, and the one skeleton every study package follows.

Each source document is one study: a package ``perfstudies.models.<key>``, a
``data/<key>/`` folder and a ``notebooks/<key>.md`` chapter.  A reader who has
read one study package can read them all, because they share one layout (the
modules in :data:`LAYERS`, lowest first)::

    models/<key>/
      __init__.py     the public API (PUBLIC_API) and STUDY = Study(...) (perfstudies.study), nothing else
      params.py       KEY, DOCUMENT, SEED; frozen records, every default with its unit and its source
      workload.py     (where needed) synthetic inputs
      mechanism.py    every Ciw Node / distribution / routing subclass of the study, and the plain
                      rules they follow (mdf's dispatch schedule); each docstring names the
                      mechanism and the passage of the document; __repr__
      analytic.py     theory first: closed forms, bounds, MVA (of the mechanism's rules, so above it)
      metrics.py      (where needed) records -> the report's quantities
      network.py      build_network(params); model(params, seed) -> one replication's metrics
      calibration.py  calibrate(): named published cells -> parameters
      comparison.py   experiments() and cells(): every published cell declared (perfstudies.cells);
                      comparison() runs the one evaluator (perfstudies.evaluate) on them
      explore.py      PANEL = Panel(...) (perfstudies.panel), widget_run(params=None) and
                      SWEEPS = {name: Sweep(...)} (perfstudies.stored_sweeps): the chapter's interactive parts
      figures.py      every chart and diagram the chapter shows
      facts.py       facts() -> {name: Fact}: every number the chapter's prose quotes (perfstudies.facts)

A module imports only modules listed before it (parameters flow *down*, from
the chapter through explore, network and mechanism to Ciw, and results come
back up as records -> metrics -> comparison, with no module calling back into
one above it).  Chapters import only the study's public API.

Conventions shared by every study:

``SEED``       the base seed (in ``params.py``) of every simulated number the study
               shows: calibration, comparison, widget re-runs and sweeps.  Replication
               *i* of anything uses ``replication_seeds(SEED, n)[i]``, so the same
               replication of the same configuration gives the same numbers wherever
               it appears.
``model``      ``model(params, seed) -> {metric: number}``, one replication.
``PANEL``      the live panel, declared (:class:`perfstudies.panel.Panel`): controls, the main
               control, the chapter's default, the headline metrics.
``widget_run`` ``widget_run(params=None)``: what one change of the live panel runs, the one panel
               table of :func:`perfstudies.panel.run_panel` (``None`` means the chapter's
               default); benchmarked by ``make bench`` at the default and the slowest setting.
``SWEEPS``     ``{name: Sweep}``, the precomputed sweeps behind the chapter's kernel-free
               sliders (:class:`perfstudies.stored_sweeps.Sweep`: model, points, replications,
               seed); ``make runs`` stores their values, which the book replays after a check.
``calibrate``  the calibrated parameters, each set from a named published cell.
``cells``      every compared published cell as a :class:`perfstudies.cells.CellSpec`.
``experiments`` the :class:`perfstudies.cells.Experiment` records the cells name.
``comparison`` the standard comparison table (:mod:`perfstudies.compare`), computed
               from ``cells`` and ``experiments`` by :func:`perfstudies.evaluate.evaluate`.
"""

import importlib
from types import ModuleType

from perfstudies.study import Study

#: Study key -> module, in the book's chapter order.
STUDIES: dict[str, str] = {
    "spxtape": "perfstudies.models.spxtape",
    "svcdump": "perfstudies.models.svcdump",
    "vts": "perfstudies.models.vts",
    "diag44": "perfstudies.models.diag44",
    "mdf": "perfstudies.models.mdf",
}

#: The modules of a study package, lowest layer first; a module imports only earlier ones.
LAYERS = ("params", "workload", "mechanism", "analytic", "metrics", "network", "calibration", "comparison",
          "explore", "figures", "facts")
#: Layers a study may leave out when it has nothing to put in them.
OPTIONAL_LAYERS = ("workload", "metrics")
#: Names every study's ``__init__`` exports.
PUBLIC_API = ("STUDY", "KEY", "DOCUMENT", "SEED", "model", "calibrate", "cells", "experiments", "comparison",
              "widget_run", "SWEEPS", "PANEL")


def study_module(key: str) -> ModuleType:
    """Import and return the model module of study ``key``."""
    if not isinstance(key, str) or key not in STUDIES:
        raise ValueError(f"study = {key!r} is not registered: allowed one of {list(STUDIES)}")
    return importlib.import_module(STUDIES[key])


def study(key: str) -> Study:
    """The :class:`~perfstudies.study.Study` record of study ``key``."""
    return study_module(key).STUDY
