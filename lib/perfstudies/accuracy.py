"""The accuracy scoreboard: every study's comparison table in one place.

``python -m perfstudies.accuracy`` (``make accuracy``) runs each registered
study's comparison, writes one row per compared cell (every column of
:data:`perfstudies.compare.COLUMNS`) to ``_build/accuracy.csv`` and prints the
three-role scoreboard, per study and pooled, with the worst predicted cells.
``--readme`` also rewrites the scoreboard table in ``README.md``; a test fails
when the README's figures drift from the ones computed here.  The book's
Accuracy page calls :func:`collect` too, and all of them read the same disk
memo, so page, file and README show the same numbers.
"""

import re
import sys

import pandas as pd

from perfstudies.compare import COLUMNS, scoreboard, worst_cells
from perfstudies.paths import BUILD, ROOT
from perfstudies.studies import STUDIES, study

OUTPUT = BUILD / "accuracy.csv"
README = ROOT / "README.md"
#: The README's scoreboard sits between these two lines.
README_START = "<!-- scoreboard: start (python -m perfstudies.accuracy --readme) -->"
README_END = "<!-- scoreboard: end -->"


def study_comparison(key: str) -> pd.DataFrame:
    """The comparison table of one study, tabulated from its disk-memoized runs (:meth:`.Study.comparison`)."""
    return study(key).comparison()


def collect(keys: list[str] | None = None) -> pd.DataFrame:
    """All studies' comparison tables, concatenated in registry order."""
    if keys is None:
        keys = list(STUDIES)
    if isinstance(keys, str) or not isinstance(keys, (list, tuple)) \
            or not all(isinstance(key, str) and key in STUDIES for key in keys):
        raise ValueError(f"keys = {keys!r} is not allowed: allowed None or a list of registered studies, "
                         f"from {list(STUDIES)}")
    if not keys:
        return pd.DataFrame(columns=COLUMNS)
    return pd.concat([study_comparison(key) for key in keys], ignore_index=True)


#: The scoreboard's columns as README and ``make accuracy`` print them: (heading, how a row shows it).
BOARD_COLUMNS = (
    ("study", lambda row: str(row.study)),
    ("cells", lambda row: f"{row.cells}"),
    ("calibration / derived / prediction", lambda row: f"{row.calibration} / {row.derived} / {row.prediction}"),
    ("predicted within 10%", lambda row: f"{row.within_10pct} of {row.scored} ({row.pct_within_10pct:.0f}%)"),
    ("hits / misses / undecided", lambda row: f"{row.hits} / {row.misses} / {row.undecided}"),
    ("stated ranges held", lambda row: f"{row.bounds_held} of {row.bounds}"),
    ("beat the baseline", lambda row: f"{row.beats_baseline} ({row.pct_beats_baseline:.0f}%)"),
    ("weak evidence", lambda row: f"{row.weak_evidence}"),
)


def board_rows(table: pd.DataFrame) -> list[list[str]]:
    """The scoreboard of ``table`` as text rows of :data:`BOARD_COLUMNS`."""
    return [[show(row) for _, show in BOARD_COLUMNS] for row in scoreboard(table).itertuples()]


def markdown_board(table: pd.DataFrame) -> str:
    """The scoreboard as the Markdown table README.md shows."""
    lines = ["| " + " | ".join(heading for heading, _ in BOARD_COLUMNS) + " |",
             "|" + "---|" * len(BOARD_COLUMNS)]
    lines += ["| " + " | ".join(row) + " |" for row in board_rows(table)]
    return "\n".join(lines)


def readme_board(text: str) -> str:
    """The scoreboard block of a README text (between the markers), or a ValueError."""
    if not isinstance(text, str):
        raise ValueError(f"text = {type(text).__name__} has the wrong type: allowed the README's text (str)")
    found = re.search(re.escape(README_START) + r"\n(.*?)\n" + re.escape(README_END), text, flags=re.DOTALL)
    if found is None:
        raise ValueError(f"text = {text[:60]!r}... has no scoreboard block (README.md's text?): allowed a text with "
                         f"a block between {README_START!r} "
                         f"and {README_END!r}")
    return found.group(1)


def rewrite_readme(table: pd.DataFrame) -> None:
    """Replace README.md's scoreboard block with the figures of ``table``."""
    board = markdown_board(table)  # checks the table before README.md is touched
    text = README.read_text()
    old = readme_board(text)
    README.write_text(text.replace(f"{README_START}\n{old}\n{README_END}",
                                   f"{README_START}\n{board}\n{README_END}"))


def main(argv: list[str]) -> int:
    """``python -m perfstudies.accuracy [--readme]``."""
    if not isinstance(argv, list) or argv not in ([], ["--readme"]):
        print("usage: python -m perfstudies.accuracy [--readme]", file=sys.stderr)
        return 2
    table = collect()
    BUILD.mkdir(exist_ok=True)
    table.to_csv(OUTPUT, index=False)
    board = pd.DataFrame(board_rows(table), columns=[heading for heading, _ in BOARD_COLUMNS])
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.max_colwidth", 60):
        print(board.to_string(index=False))
        print("\nWorst misses of each study, in multiples of their tolerance:")
        worst = worst_cells(table, 3, per_study=True)
        print(worst[["study", "table", "row", "column", "published", "model", "baseline", "tolerances_off"]]
              .to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    print(f"\n{len(table)} cells written to {OUTPUT}")
    if argv == ["--readme"]:
        rewrite_readme(table)
        print(f"scoreboard rewritten in {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
