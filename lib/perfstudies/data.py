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


#: What a study folder or table name may look like (no separators, no "..").
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def manifest_path(csv_path: Path) -> Path:
    """The manifest beside a CSV file (``table.csv`` -> ``table.csv.yml``)."""
    csv_path = _path("csv_path", csv_path)
    return csv_path.with_name(csv_path.name + ".yml")


def sha256(path: Path) -> str:
    """Hex sha256 digest of a file's bytes (FileNotFoundError naming it if it is not a file)."""
    path = _path("path", path)
    if not path.is_file():
        raise FileNotFoundError(f"{path} is not a file")
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_manifest(csv_path: Path) -> dict:
    """Read and return the manifest of ``csv_path``.

    Raises
    ------
    FileNotFoundError
        If there is no manifest.
    ValueError
        If the manifest is not a YAML mapping (empty, invalid YAML, a list, ...),
        naming the manifest file.
    """
    csv_path = _path("csv_path", csv_path)
    path = manifest_path(csv_path)
    if not path.exists():
        raise FileNotFoundError(f"{csv_path} has no manifest {path.name}")
    try:
        manifest = yaml.safe_load(path.read_text())
    except (yaml.YAMLError, UnicodeDecodeError) as error:
        raise ValueError(f"{path} is not valid YAML: {error}") from None
    if not isinstance(manifest, dict):
        what = "empty" if manifest is None else f"a {type(manifest).__name__}, not a mapping"
        raise ValueError(f"{path} is {what}: allowed a YAML mapping with keys {list(REQUIRED_KEYS)}")
    return manifest


def _read_csv(csv_path: Path, **options) -> pd.DataFrame:
    """``pd.read_csv`` whose every failure names the file."""
    try:
        return pd.read_csv(csv_path, **options)
    except pd.errors.EmptyDataError:
        raise ValueError(f"{csv_path} is empty: allowed a CSV file with a header line") from None
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError) as error:
        raise ValueError(f"{csv_path} cannot be read as CSV: {error}") from None


def problems(csv_path: Path) -> list[str]:
    """Every way ``csv_path`` disagrees with its manifest (empty when it matches).

    A missing data file, a missing or unreadable manifest, and a file that is
    not CSV are problems too.
    """
    csv_path = _path("csv_path", csv_path)
    if not csv_path.is_file():
        return [f"data file {csv_path.name} does not exist (its manifest {manifest_path(csv_path).name} names it)"]
    try:
        manifest = read_manifest(csv_path)
    except (FileNotFoundError, ValueError) as error:
        return [str(error)]
    found = [f"manifest lacks {key!r}" for key in REQUIRED_KEYS if key not in manifest]
    if found:
        return found
    found = _manifest_type_problems(manifest)
    if found:
        return found
    for key in ("document", "table"):
        if key not in manifest["source"]:
            found.append(f"manifest source lacks {key!r}")
    if manifest["sha256"] != sha256(csv_path):
        found.append("sha256 differs from the file (run: python -m perfstudies.data refresh FILE)")
    try:
        frame = _read_csv(csv_path, dtype=str, keep_default_na=False)
    except ValueError as error:
        return found + [str(error)]
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


def _manifest_type_problems(manifest: dict) -> list[str]:
    expected = {"source": (dict, "a mapping"), "columns": (dict, "a mapping"), "rows": (int, "an integer"),
                "sha256": (str, "a string"), "read_by": (list, "a list of paths")}
    found = [f"manifest {key} = {manifest[key]!r} is not {words}" for key, (kind, words) in expected.items()
             if not isinstance(manifest[key], kind) or isinstance(manifest[key], bool)]
    if not found:
        found += [f"manifest column {name!r} is not a mapping" for name, column in manifest["columns"].items()
                  if not isinstance(column, dict)]
        found += [f"manifest read_by entry {reader!r} is not a path" for reader in manifest["read_by"]
                  if not isinstance(reader, str)]
    return found


def _column_problems(name: str, column: dict, values: pd.Series) -> list[str]:
    missing = [key for key in ("dtype", "unit", "description") if key not in column]
    if missing:
        return [f"column {name} lacks {missing}"]
    if not isinstance(column["dtype"], str) or column["dtype"] not in DTYPES:
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

    ``study`` is a folder of ``data/`` and ``name`` a table in it (no path
    separators: a study loads its own tables only).

    Raises
    ------
    ValueError
        If there is no such table, or the file disagrees with its manifest
        (the message names the file).
    """
    for argument, value in (("study", study), ("name", name)):
        if not isinstance(value, str) or not NAME.fullmatch(value) or ".." in value:
            raise ValueError(f"{argument} = {value!r} is not allowed: allowed a {argument} of letters, digits, "
                             "'_', '.' or '-' (no path separators, no '..')")
    folder = DATA / study
    studies = sorted(path.name for path in DATA.iterdir() if path.is_dir()) if DATA.is_dir() else []
    if not folder.is_dir() or study not in studies:
        raise ValueError(f"study = {study!r} has no data folder: allowed one of {studies}")
    csv_path = folder / f"{name}.csv"
    if not csv_path.is_file() or csv_path.resolve().parent != folder.resolve():
        available = sorted(p.name[:-len(".csv")] for p in folder.glob("*.csv"))
        raise ValueError(f"name = {name!r} is not a table of study {study!r}: allowed one of {available}")
    found = problems(csv_path)
    if found:
        raise ValueError(f"{csv_path} does not match its manifest: " + "; ".join(found))
    columns = read_manifest(csv_path)["columns"]
    dtypes = {column: DTYPES[spec["dtype"]] for column, spec in columns.items()}
    return _read_csv(csv_path, dtype=dtypes)


def all_data_files() -> list[Path]:
    """Every data file under ``data/``: each CSV file, and each one a manifest names that is missing."""
    named = {path.with_name(path.name[:-len(".yml")]) for path in DATA.rglob("*.csv.yml")}
    return sorted(set(DATA.rglob("*.csv")) | named)


def _path(argument: str, value) -> Path:
    if not isinstance(value, (str, Path)) or "\x00" in str(value) or not Path(value).name:
        raise ValueError(f"{argument} = {value!r} is not allowed: allowed a file path (str or Path)")
    return Path(value)


def refresh(csv_path: Path) -> None:
    """Rewrite the manifest's ``sha256`` and ``rows`` lines from the file itself.

    Only those two lines change, so the hand-written rest keeps its layout.
    """
    csv_path = _path("csv_path", csv_path)
    path = manifest_path(csv_path)
    if not csv_path.is_file():
        raise FileNotFoundError(f"{csv_path} does not exist")
    if not path.is_file():
        raise FileNotFoundError(f"{csv_path} has no manifest {path.name}")
    rows = len(_read_csv(csv_path, dtype=str))
    text = path.read_text()
    for key, value in (("sha256", sha256(csv_path)), ("rows", rows)):
        text, count = re.subn(rf"^{key}:.*$", f"{key}: {value}", text, flags=re.MULTILINE)
        if count != 1:
            raise ValueError(f"{path} must have exactly one top-level '{key}:' line, found {count}")
    path.write_text(text)


def main(argv: list[str]) -> int:
    """``python -m perfstudies.data check`` or ``... refresh FILE [FILE ...]``."""
    if not isinstance(argv, list) or not all(isinstance(arg, str) for arg in argv):
        raise ValueError(f"argv = {argv!r} has the wrong type: allowed a list of strings")
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
