"""Where the code runs: a live kernel, or the build of the static book.

The book's Sphinx extension (``book/_ext/offline_assets.py``) sets
``PERFSTUDIES_BOOK_BUILD=1`` before notebooks execute; kernels inherit it.
Static pages then get charts drawn by the book's own Vega files, no
progress bars (a finished progress bar on a static page is only noise), and
live panels built as snapshots (controls disabled, no timing), since no
kernel is behind them.  Anywhere else (JupyterLab, a script, the tests) the
code runs live.
"""

import os

BOOK_BUILD_ENV = "PERFSTUDIES_BOOK_BUILD"


def building_book() -> bool:
    """True while the notebooks execute for the static book."""
    return os.environ.get(BOOK_BUILD_ENV) == "1"
