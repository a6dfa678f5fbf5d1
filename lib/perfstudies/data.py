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

A column may also state its allowed values, which ``check`` and :func:`load`
enforce: ``min`` and ``max`` (inclusive bounds of an int or float column) and
``finite`` (float columns hold finite numbers unless ``finite: false``; an
empty cell of a ``nullable`` column is not a number and passes).

Bounds before parsing: a manifest is at most :data:`MAX_MANIFEST_BYTES` and a
CSV file at most :data:`MAX_CSV_BYTES`; YAML aliases (``*name``, which can
expand a kilobyte into gigabytes) are refused; study and table names are at
most :data:`MAX_NAME_CHARS` characters, and a study folder must resolve inside
``data/`` (no symlink out of it).
"""

import hashlib
import re
import sys
from pathlib import Path

import pandas as pd
import yaml

from perfstudies.paths import DATA, ROOT, RUNS

DTYPES = {"string": "string", "int": "Int64", "float": "float64", "bool": "boolean"}
REQUIRED_KEYS = ("title", "source", "layout", "columns", "rows", "sha256", "read_by")


#: Longest study folder or table name.
MAX_NAME_CHARS = 100
#: What a study folder or table name may look like (no separators, no "..").
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,%d}" % (MAX_NAME_CHARS - 1))
#: Largest manifest and CSV file read (the project's are a few kilobytes).
MAX_MANIFEST_BYTES = 64_000
MAX_CSV_BYTES = 10_000_000


class _ManifestLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing aliases (a "billion laughs" manifest expands without bound)."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(None, None, f"found the alias *{event.anchor}: aliases are not "
                                              "allowed in a manifest", event.start_mark)
        return super().compose_node(parent, index)


def _check_size(path: Path, limit: int, what: str) -> None:
    """Raise the ValueError naming ``path`` when it is larger than ``limit`` bytes."""
    size = path.stat().st_size
    if size > limit:
        raise ValueError(f"{path} is {size:,} bytes: allowed a {what} of at most {limit:,} bytes")


def manifest_path(csv_path: Path) -> Path:
    """The manifest beside a CSV file (``table.csv`` -> ``table.csv.yml``)."""
    csv_path = _path("csv_path", csv_path)
    return csv_path.with_name(csv_path.name + ".yml")


def sha256(path: Path) -> str:
    """Hex sha256 digest of a file's bytes (FileNotFoundError naming it if it is not a file)."""
    path = _path("path", path)
    if not path.is_file():
        raise FileNotFoundError(f"path = {str(path)!r} is not a file: allowed the path of an existing file")
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
        raise FileNotFoundError(f"csv_path = {str(csv_path)!r} has no manifest {path.name}: allowed a CSV file "
                                "with its manifest beside it")
    _check_size(path, MAX_MANIFEST_BYTES, "manifest")
    try:
        manifest = yaml.load(path.read_text(), Loader=_ManifestLoader)  # noqa: S506 - safe loader, no aliases
    except (yaml.YAMLError, UnicodeDecodeError, RecursionError) as error:
        text = str(error)
        raise ValueError(f"{path} is not valid YAML: {text[:500]}") from None
    if not isinstance(manifest, dict):
        what = "empty" if manifest is None else f"a {type(manifest).__name__}, not a mapping"
        raise ValueError(f"{path} is {what}: allowed a YAML mapping with keys {list(REQUIRED_KEYS)}")
    return manifest


def _read_csv(csv_path: Path, **options) -> pd.DataFrame:
    """``pd.read_csv`` whose every failure names the file (and a file over :data:`MAX_CSV_BYTES` is one)."""
    _check_size(Path(csv_path), MAX_CSV_BYTES, "CSV file")
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
    try:
        _check_size(csv_path, MAX_CSV_BYTES, "CSV file")
    except ValueError as error:
        return found + [str(error)]
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
    return _range_problems(name, column, present)


def _range_problems(name: str, column: dict, present: pd.Series) -> list[str]:
    """The column's values against its stated ``min``, ``max`` and ``finite`` (floats finite by default)."""
    kind = column["dtype"]
    stated = [key for key in ("min", "max", "finite") if key in column]
    if kind not in ("int", "float"):
        return [f"column {name} states {stated} but is {kind}: allowed on int and float columns only"] if stated \
            else []
    found = []
    for key in ("min", "max"):
        bound = column.get(key)
        if key in column and (isinstance(bound, bool) or not isinstance(bound, (int, float))
                              or bound != bound or abs(bound) == float("inf")):
            found.append(f"column {name} {key} = {bound!r} is not allowed: allowed a finite number")
    if "finite" in column and not isinstance(column["finite"], bool):
        found.append(f"column {name} finite = {column['finite']!r} is not allowed: allowed true or false")
    if found or present.empty:
        return found
    values = present.astype("float64")
    if kind == "float" and column.get("finite", True) is True:
        bad = values[~values.map(lambda value: value == value and abs(value) != float("inf"))]
        if not bad.empty:
            found.append(f"column {name} holds {len(bad)} values that are not finite (first {present[bad.index[0]]!r}):"
                         " allowed finite numbers (state finite: false to allow inf and nan)")
    for key, outside in (("min", values < column.get("min", -float("inf"))),
                         ("max", values > column.get("max", float("inf")))):
        if outside.any():
            found.append(f"column {name} holds {int(outside.sum())} values beyond its {key} = {column[key]!r} "
                         f"(first {present[outside].iloc[0]!r})")
    return found


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
            shown = repr(value) if len(repr(value)) <= 120 else f"{repr(value)[:100]}... ({len(value) if isinstance(value, str) else len(repr(value))} characters)"
            raise ValueError(f"{argument} = {shown} is not allowed: allowed a {argument} of 1 to {MAX_NAME_CHARS} "
                             "letters, digits, '_', '.' or '-' (no path separators, no '..')")
    folder = DATA / study
    studies = sorted(path.name for path in DATA.iterdir() if path.is_dir() and path != RUNS) if DATA.is_dir() else []
    if not folder.is_dir() or study not in studies:
        raise ValueError(f"study = {study!r} has no data folder: allowed one of {studies}")
    if folder.is_symlink() or not folder.resolve().is_relative_to(DATA.resolve()):
        raise ValueError(f"study = {study!r} is not allowed: its folder {folder} resolves to {folder.resolve()}, "
                         f"outside {DATA}; allowed a study folder inside data/")
    csv_path = folder / f"{name}.csv"
    if not csv_path.is_file() or csv_path.resolve().parent != folder.resolve():
        available = sorted(p.name[:-len(".csv")] for p in folder.glob("*.csv"))
        raise ValueError(f"name = {name!r} is not a table of study {study!r}: allowed one of {available}")
    contents = _contents(csv_path)
    if contents not in _LOADED:
        found = problems(csv_path)
        if found:
            raise ValueError(f"{csv_path} does not match its manifest: " + "; ".join(found))
        columns = read_manifest(csv_path)["columns"]
        frame = _read_csv(csv_path, dtype={column: DTYPES[spec["dtype"]] for column, spec in columns.items()})
        if _contents(csv_path) != contents:  # changed while it was checked and read: not kept
            return frame
        _LOADED[contents] = frame
    return _LOADED[contents].copy()  # a copy: a caller's edits never reach the next caller


#: Tables checked and read in this process, by :func:`_contents`: a study's cells read the same table
#: many times, and parsing and checking its manifest each time cost seconds per comparison table.
_LOADED: dict[tuple, pd.DataFrame] = {}


def _contents(csv_path: Path) -> tuple:
    """What a loaded table depends on: the CSV file's path and the digests of its and its manifest's bytes."""
    manifest = manifest_path(csv_path)
    _check_size(csv_path, MAX_CSV_BYTES, "CSV file")
    if manifest.is_file():
        _check_size(manifest, MAX_MANIFEST_BYTES, "manifest")
    return (str(csv_path.resolve()), hashlib.sha256(csv_path.read_bytes()).hexdigest(),
            hashlib.sha256(manifest.read_bytes()).hexdigest() if manifest.is_file() else None)


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
        raise FileNotFoundError(f"csv_path = {str(csv_path)!r} does not exist: allowed an existing CSV file")
    if not path.is_file():
        raise FileNotFoundError(f"csv_path = {str(csv_path)!r} has no manifest {path.name}: allowed a CSV file "
                                "with its manifest beside it")
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
