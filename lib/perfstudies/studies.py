"""The registry of studies: one model module per source document.

A study module in :mod:`perfstudies.models` provides

``STUDY``          its key (the notebook and data folder share it),
``DOCUMENT``       the source document's title, as the book cites it,
``comparison()``   its standard comparison table (:mod:`perfstudies.compare`),
``widget_run()``   the default model run one widget change triggers (benchmarked).

Adding a study means writing that module, a ``data/<key>/`` folder and a
``notebooks/<key>.md`` chapter, and adding the key here.
"""

import importlib
from types import ModuleType

#: Study key -> module, in the book's chapter order.
STUDIES: dict[str, str] = {
    "spxtape": "perfstudies.models.spxtape",
    "svcdump": "perfstudies.models.svcdump",
    "vts": "perfstudies.models.vts",
    "diag44": "perfstudies.models.diag44",
    "mdf": "perfstudies.models.mdf",
}


def study_module(key: str) -> ModuleType:
    """Import and return the model module of study ``key``."""
    if key not in STUDIES:
        raise ValueError(f"study = {key!r} is not registered: allowed one of {list(STUDIES)}")
    return importlib.import_module(STUDIES[key])
