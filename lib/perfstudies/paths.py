"""Where the repository's folders are, for code installed in editable mode."""

from pathlib import Path

#: The repository root (``lib/perfstudies/paths.py`` -> three levels up).
ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
BUILD = ROOT / "_build"
#: The comparisons' replications as `make runs` stored them (outputs, not inputs: no memo key covers them).
RUNS = DATA / "runs"
