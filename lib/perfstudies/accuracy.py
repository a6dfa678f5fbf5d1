"""The accuracy scoreboard: every study's comparison table in one place.

``python -m perfstudies.accuracy`` (``make accuracy``) runs each registered
study's comparison, writes one row per compared cell to
``_build/accuracy.csv`` and prints a per-study summary.  The book's Accuracy
page calls :func:`collect` too, and both read the same disk memo, so the page
and the file show the same numbers.
"""

import sys

import pandas as pd

from perfstudies.cache import memoized
from perfstudies.compare import COLUMNS, scoreboard
from perfstudies.paths import BUILD
from perfstudies.studies import STUDIES, study_module

OUTPUT = BUILD / "accuracy.csv"


def study_comparison(key: str) -> pd.DataFrame:
    """The comparison table of one study (memoized on sources and data)."""
    return memoized(f"comparison-{key}", study_module(key).comparison)


def collect(keys: list[str] | None = None) -> pd.DataFrame:
    """All studies' comparison tables, concatenated in registry order."""
    keys = list(STUDIES) if keys is None else keys
    if not keys:
        return pd.DataFrame(columns=COLUMNS)
    return pd.concat([study_comparison(key) for key in keys], ignore_index=True)


def main() -> int:
    table = collect()
    BUILD.mkdir(exist_ok=True)
    table.to_csv(OUTPUT, index=False)
    with pd.option_context("display.width", 140, "display.max_columns", 20):
        print(scoreboard(table).to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print(f"\n{len(table)} cells written to {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
