"""Published tables as CSV files, each checked against its sidecar manifest.

Every ``data/<study>/<name>.csv`` has a ``<name>.csv.yml`` manifest that says
where the numbers come from and what they mean:

.. code-block:: yaml

    title: Elapsed times of the dump and load runs
    source:
      document: SPXTAPE Performance (VM/ESA Release 2.2 Performance Report)
      section: Measurement results
      table: Table 1
    layout: how an ambiguous extracted layout was read, with the arithmetic
    columns:
      elapsed_s: {dtype: float, unit: s, description: elapsed time}
    rows: 6
    sha256: <hex digest of the CSV file>
    read_by: [notebooks/spxtape.md]

:func:`load` refuses a file that does not match its manifest, so a table can
not change without its manifest (and its sha256) being updated on purpose:
``python -m perfstudies.data refresh data/<study>/<name>.csv``.
"""

import hashlib
import re
import sys
from pathlib import Path

import pandas as pd
import yaml

from perfstudies.paths import DATA, ROOT

DTYPES = {"string": "string", "int": "Int64", "float": "float64", "bool": "boolean"}
REQUIRED_KEYS = ("title", "source", "layout", "columns", "rows", "sha256", "read_by")


def manifest_path(csv_path: Path) -> Path:
    """The manifest beside a CSV file (``table.csv`` -> ``table.csv.yml``)."""
    return csv_path.with_name(csv_path.name + ".yml")


def sha256(path: Path) -> str:
    """Hex sha256 digest of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def read_manifest(csv_path: Path) -> dict:
    """Read and return the manifest of ``csv_path``."""
    path = manifest_path(csv_path)
    if not path.exists():
        raise FileNotFoundError(f"{csv_path} has no manifest {path.name}")
    return yaml.safe_load(path.read_text())


def problems(csv_path: Path) -> list[str]:
    """Every way ``csv_path`` disagrees with its manifest (empty when it matches)."""
    csv_path = Path(csv_path)
    try:
        manifest = read_manifest(csv_path)
    except FileNotFoundError as error:
        return [str(error)]
    found = [f"manifest lacks {key!r}" for key in REQUIRED_KEYS if key not in manifest]
    if found:
        return found
    for key in ("document", "table"):
        if key not in manifest["source"]:
            found.append(f"manifest source lacks {key!r}")
    if manifest["sha256"] != sha256(csv_path):
        found.append("sha256 differs from the file (run: python -m perfstudies.data refresh FILE)")
    frame = pd.read_csv(csv_path, dtype=str, keep_default_na=False)
    if len(frame) != manifest["rows"]:
        found.append(f"{len(frame)} rows, manifest says {manifest['rows']}")
    if list(frame.columns) != list(manifest["columns"]):
        found.append(f"columns {list(frame.columns)} differ from manifest {list(manifest['columns'])}")
        return found
    for name, column in manifest["columns"].items():
        found.extend(_column_problems(name, column, frame[name]))
    for reader in manifest["read_by"]:
        if not (ROOT / reader).exists():
            found.append(f"read_by names {reader}, which does not exist")
    return found


def _column_problems(name: str, column: dict, values: pd.Series) -> list[str]:
    missing = [key for key in ("dtype", "unit", "description") if key not in column]
    if missing:
        return [f"column {name} lacks {missing}"]
    if column["dtype"] not in DTYPES:
        return [f"column {name} dtype {column['dtype']!r} is not one of {list(DTYPES)}"]
    empty = values == ""
    if empty.any() and not column.get("nullable", False):
        return [f"column {name} has empty cells but is not nullable"]
    present = values[~empty]
    try:
        if column["dtype"] == "int":
            present.astype("int64")
        elif column["dtype"] == "float":
            present.astype("float64")
        elif column["dtype"] == "bool":
            if not present.isin(["true", "false", "True", "False"]).all():
                raise ValueError("not true/false")
    except ValueError as error:
        return [f"column {name} does not parse as {column['dtype']}: {error}"]
    return []


def load(study: str, name: str) -> pd.DataFrame:
    """Load ``data/<study>/<name>.csv`` with the dtypes its manifest declares.

    Raises
    ------
    ValueError
        If the file disagrees with its manifest.
    """
    csv_path = DATA / study / f"{name}.csv"
    if not csv_path.exists():
        available = sorted(p.stem for p in (DATA / study).glob("*.csv"))
        raise ValueError(f"name = {name!r} is not a table of study {study!r}: allowed one of {available}")
    found = problems(csv_path)
    if found:
        raise ValueError(f"{csv_path} does not match its manifest: " + "; ".join(found))
    columns = read_manifest(csv_path)["columns"]
    dtypes = {column: DTYPES[spec["dtype"]] for column, spec in columns.items()}
    return pd.read_csv(csv_path, dtype=dtypes)


def all_data_files() -> list[Path]:
    """Every CSV file under ``data/``."""
    return sorted(DATA.rglob("*.csv"))


def refresh(csv_path: Path) -> None:
    """Rewrite the manifest's ``sha256`` and ``rows`` lines from the file itself.

    Only those two lines change, so the hand-written rest keeps its layout.
    """
    csv_path = Path(csv_path)
    path = manifest_path(csv_path)
    rows = len(pd.read_csv(csv_path, dtype=str))
    text = path.read_text()
    for key, value in (("sha256", sha256(csv_path)), ("rows", rows)):
        text, count = re.subn(rf"^{key}:.*$", f"{key}: {value}", text, flags=re.MULTILINE)
        if count != 1:
            raise ValueError(f"{path} must have exactly one top-level '{key}:' line, found {count}")
    path.write_text(text)


def main(argv: list[str]) -> int:
    """``python -m perfstudies.data check`` or ``... refresh FILE [FILE ...]``."""
    if argv[:1] == ["refresh"] and len(argv) > 1:
        for path in argv[1:]:
            refresh(Path(path))
        return 0
    if argv == ["check"]:
        bad = {path: problems(path) for path in all_data_files()}
        for path, found in bad.items():
            print(f"{path.relative_to(ROOT)}: {'ok' if not found else '; '.join(found)}")
        return 1 if any(bad.values()) else 0
    print("usage: python -m perfstudies.data check | refresh FILE [FILE ...]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
