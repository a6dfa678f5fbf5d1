"""A disk memo for expensive, deterministic results (comparisons, sweeps).

The book executes every notebook on every build, so a page is never stale;
this memo keeps rebuilds fast.  A result is stored under ``_build/cache`` with
a key made from

* the call's name and arguments,
* a digest of every source file of the package and every data file
  (:func:`sources_digest`),
* the installed versions of Python and of the models' dependencies
  (:data:`DEPENDENCIES`, :func:`dependency_versions`), and
* the code of the callable it memoizes and of everything that callable reaches
  which no source file covers: functions and classes defined in a chapter (a
  notebook cell has no file) and the chapter's values they read
  (:func:`callable_digest`).

Change any of them and the result is computed again.  Delete ``_build/cache``
to start from scratch (``PERFSTUDIES_CACHE_DIR``, an absolute path, puts the folder elsewhere).

The folder is bounded: after each write the least recently used entries (by
modification time, which a read refreshes) are deleted until the entries
together take at most ``PERFSTUDIES_CACHE_MAX_MB`` megabytes (environment
variable; default :data:`DEFAULT_MAX_MB`).  A folder that cannot be written
(read-only, full, a directory where an entry belongs) costs speed, never the
result: the value is computed and returned, with one :class:`CacheWarning`.
An entry is written to a temporary file made by :func:`tempfile.mkstemp` in
the folder (created exclusively, under an unpredictable name, never through a
symlink) and renamed over the entry; entries are read without following symlinks.

Two processes that need the same entry compute it once: the first holds an
exclusive lock on ``.<name>-<key>.lock`` in the folder while it computes,
and the other waits (its status line says so) and then reads the stored entry
(:func:`_computing_alone`).  A kernel and a test, two kernels, or the two
workers of ``make test`` would otherwise each spend the same minutes.  The lock
is released when its holder finishes or dies; a folder that cannot hold a lock
file computes without one.

The files cannot run code: an entry is JSON (``<name>-<key>.json``), its first
line a header with the format, the name, the key and the sha256 of the rest,
which :func:`encode` writes from a closed set of types (``None``, bools,
numbers, strings, lists, tuples, dicts, numpy scalars and arrays of numbers,
pandas DataFrames, Series and indexes, and dataclass records defined in
``perfstudies``).  Reading checks the header and the digest; an entry that
cannot be read, decoded or verified is computed again and replaced, with one
:class:`CacheWarning` naming the file.  A result that would not come back
exactly as it was computed is refused when it is stored.

What the digest protects against: *damage* (a truncated write, a flipped bit,
a hand edit of the payload alone).  It is not a signature: anyone who can
write the folder can change a payload and its sha256 together, and that entry
is returned as it is.  Keep the folder as private as the checkout.
"""

import contextlib
import dataclasses
import fcntl
import functools
import hashlib
import importlib
import importlib.metadata
import json
import math
import os
import re
import sys
import tempfile
import types
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from tqdm.auto import tqdm

from perfstudies.context import building_book
from perfstudies.params import check_callable
from perfstudies.paths import BUILD, DATA, ROOT, RUNS

#: The environment variable that moves the folder (an absolute path; default ``_build/cache``): `make bench`
#: points a fresh kernel at an empty folder to time a chapter's first run.
DIR_VARIABLE = "PERFSTUDIES_CACHE_DIR"


def folder() -> Path:
    """The memo's folder: ``$PERFSTUDIES_CACHE_DIR`` when set, else ``_build/cache``."""
    text = os.environ.get(DIR_VARIABLE)
    if text is None:
        return BUILD / "cache"
    if not os.path.isabs(text):
        raise ValueError(f"{DIR_VARIABLE} = {text!r} is not allowed: allowed an absolute path to a folder")
    return Path(text)


CACHE = folder()
#: Version of the file layout; part of every key.
FORMAT = 1
#: Distributions whose installed versions are part of every key: what a model's
#: numbers (Ciw, numpy, scipy), tables (pandas), charts (altair), sweeps (dask,
#: distributed) and data (PyYAML) depend on.
DEPENDENCIES = ("Ciw", "numpy", "pandas", "scipy", "altair", "dask", "distributed", "PyYAML")
#: What a memo name may look like (it becomes part of a file name).
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,120}")
#: Largest number of items of a chapter value that goes into the key by content.
VALUE_ITEMS = 100_000
#: Default bound of the folder's entries together, in megabytes (``PERFSTUDIES_CACHE_MAX_MB`` overrides it).
DEFAULT_MAX_MB = 500
#: The environment variable that sets the bound (a number of megabytes > 0).
MAX_MB_VARIABLE = "PERFSTUDIES_CACHE_MAX_MB"
#: File name of an entry: ``<name>-<24 hex digit key>.json``.
ENTRY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,120}-[0-9a-f]{24}\.json")


class CacheWarning(UserWarning):
    """A disk memo entry could not be used and is computed again."""


class _Unreadable(Exception):
    """Why a stored entry cannot be used."""


@functools.cache
def sources_digest(study: str | None = None) -> str:
    """sha256 over the package's Python sources and the data files.

    With ``study``, over the files that study's results can depend on: every
    source and data file but the other studies' packages and data folders
    (:func:`in_scope`), so changing one study leaves the others' entries valid.
    """
    digest = hashlib.sha256()
    files = sorted((ROOT / "lib").rglob("*.py")) + sorted(p for p in DATA.rglob("*")
                                                           if p.is_file() and not p.is_relative_to(RUNS))
    for path in files:
        relative = path.relative_to(ROOT)
        if study is not None and not in_scope(relative, study):
            continue
        digest.update(str(relative).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def in_scope(relative: Path, study: str) -> bool:
    """Whether the file at ``relative`` (to the repository) can change study ``study``'s results.

    Studies import only the core, never each other, so another study's
    package (``lib/perfstudies/models/<other>/``) and data (``data/<other>/``)
    are out of scope; everything else is in.
    """
    parts = relative.parts
    if parts[:3] == ("lib", "perfstudies", "models") and len(parts) > 4:
        return parts[3] == study
    if parts[:1] == ("data",) and len(parts) > 2 and (ROOT / "lib" / "perfstudies" / "models" / parts[1]).is_dir():
        return parts[1] == study
    return True


@functools.cache
def dependency_versions() -> tuple[tuple[str, str], ...]:
    """``(name, version)`` of Python and of every distribution in :data:`DEPENDENCIES`."""
    versions = [("python", sys.version.split()[0])]
    for name in DEPENDENCIES:
        try:
            versions.append((name, importlib.metadata.version(name)))
        except importlib.metadata.PackageNotFoundError:
            versions.append((name, "not installed"))
    return tuple(versions)


def memoized(name: str, compute: Callable[[], object], scope: str | None = None, **arguments) -> object:
    """Return ``compute()``, from the disk memo when the same call was made before.

    ``name`` (letters, digits, ``_.-``) and ``arguments`` (their ``repr``)
    identify the call; the key also covers the sources, the installed
    dependencies and ``compute``'s own code (see the module docstring).  With
    ``scope`` (a study's key) the sources are only those that study's results
    can depend on (:func:`sources_digest`).  The result must be one of the
    types :func:`encode` stores.  While an entry not stored yet is computed,
    a status line names it (:func:`computing`).
    """
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ValueError(f"name = {name!r} is not allowed: allowed 1-121 letters, digits, '_', '.' or '-', "
                         "starting with a letter or digit")
    check_callable("compute", compute)
    limit = max_bytes()
    if scope is not None and (not isinstance(scope, str) or not scope.isidentifier()):
        raise ValueError(f"scope = {scope!r} is not allowed: allowed None or a study's key (an identifier)")
    key = entry_key(name, compute, arguments, scope)
    path = CACHE / f"{name}-{key}.json"
    stored = _stored(path, name, key)
    if stored is not _MISSING:
        return stored
    with _computing_alone(path, name):
        stored = _stored(path, name, key, quiet=True)  # another process may have stored it while this one waited
        if stored is not _MISSING:
            return stored
        with computing(name):
            result = compute()
        try:
            _write(path, name, key, result)
        except OSError as error:
            _warn_once(path, f"disk memo entry cannot be written ({type(error).__name__}: "
                             f"{error.strerror or error}); returning the computed value without storing it")
            return result
    _warned.discard(path)  # replaced: should it break again, that is news
    evict(limit)
    return result


#: What :func:`_stored` returns for an entry that is not there (or cannot be used).
_MISSING = object()


def _stored(path: Path, name: str, key: str, quiet: bool = False) -> object:
    """The entry at ``path``, or :data:`_MISSING` (with one warning, unless ``quiet``, if it cannot be used)."""
    if not os.path.lexists(path):
        return _MISSING
    try:
        result = _read(path, name, key)
    except _Unreadable as reason:
        if not quiet:
            _warn_once(path, f"disk memo entry cannot be used ({reason}); computing it again and replacing it")
        return _MISSING
    _touch(path)
    return result


@contextlib.contextmanager
def _computing_alone(path: Path, name: str):
    """Hold the entry's lock file (``.<entry>.lock``) while the block computes and stores it.

    Another process that holds it is computing the same entry: wait for it,
    with a status line naming the entry.  The lock file goes when the block
    ends (a process still waiting on it gets it, finds the entry stored and
    reads it).  Where no lock file can be made (a read-only folder), the block
    runs without one.
    """
    lock = path.with_name(f".{path.stem}.lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC, 0o600)
    except OSError:
        yield
        return
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            with status_line(f"waiting for another process computing {name}"):
                fcntl.flock(descriptor, fcntl.LOCK_EX)
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                if os.lstat(lock).st_ino == os.fstat(descriptor).st_ino:  # not a newer process's lock file
                    os.unlink(lock)
    finally:
        os.close(descriptor)  # releases the lock


@contextlib.contextmanager
def computing(name: str):
    """A status line while a memo entry that is not stored yet is computed, outside the book build.

    A first run of a chapter computes what the memo does not hold yet (a
    calibration, a comparison's runs, a sweep), seconds to minutes with no
    output of its own; the line names the entry and says why, in JupyterLab
    (tqdm's notebook line) and in a terminal, and disappears when the entry is
    stored.  It is shown at once rather than after a delay (no thread): an
    entry that computes quickly flashes by.  Off while the book builds, where
    nobody watches (:func:`perfstudies.context.building_book`).
    """
    with status_line(f"first run: computing {name} (`make book` stores it in the disk memo)"):
        yield


@contextlib.contextmanager
def status_line(text: str):
    """``text`` as one line (tqdm's, in JupyterLab or a terminal) while the block runs; none in the book build."""
    line = tqdm(total=None, desc=text, bar_format="{desc}", leave=False, disable=building_book())
    try:
        yield
    finally:
        line.close()


def max_bytes() -> int:
    """The folder's bound in bytes: ``PERFSTUDIES_CACHE_MAX_MB`` megabytes, or :data:`DEFAULT_MAX_MB`.

    A value that is not a number > 0 is refused with a ValueError naming the variable.
    """
    text = os.environ.get(MAX_MB_VARIABLE)
    if text is None or not text.strip():
        return DEFAULT_MAX_MB * 1_000_000
    try:
        megabytes = float(text)
    except ValueError:
        megabytes = math.nan
    if not (0 < megabytes < 1e9):
        raise ValueError(f"{MAX_MB_VARIABLE} = {text!r} is not allowed: allowed a number of megabytes "
                         f"0 < megabytes < 1e9 (unset: {DEFAULT_MAX_MB})")
    return max(1, int(megabytes * 1_000_000))


def evict(limit: int) -> list[Path]:
    """Delete the least recently used entries until the rest take at most ``limit`` bytes; return the deleted.

    Only files named like an entry count (and go); the most recently used entry
    is kept even when it alone is larger than ``limit``.  Files that vanish or
    cannot be deleted meanwhile are skipped.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ValueError(f"limit = {limit!r} is not allowed: allowed a number of bytes >= 0")
    entries = []
    try:
        with os.scandir(CACHE) as found:
            for item in found:
                if ENTRY.fullmatch(item.name) and item.is_file(follow_symlinks=False):
                    try:
                        status = item.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    entries.append((status.st_mtime_ns, item.name, status.st_size))
    except OSError:
        return []
    entries.sort(reverse=True)  # the most recently used first
    total, deleted = 0, []
    for position, (_, file_name, size) in enumerate(entries):
        total += size
        if total > limit and position > 0:
            try:
                os.unlink(CACHE / file_name)
            except OSError:
                continue
            deleted.append(CACHE / file_name)
    return deleted


def _touch(path: Path) -> None:
    """Mark an entry used now (its modification time), for least-recently-used eviction."""
    try:
        os.utime(path, follow_symlinks=False)
    except (OSError, NotImplementedError):
        pass  # a read-only folder: the entry keeps its age


def entry_key(name: str, compute: Callable[[], object], arguments: dict, scope: str | None = None) -> str:
    """The 24-hex-digit key of a call: name, arguments, sources (of ``scope``), versions and ``compute``'s code."""
    described = sorted((argument, _argument_text(value)) for argument, value in arguments.items())
    parts = (FORMAT, name, described, sources_digest(scope), dependency_versions(), callable_digest(compute))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:24]


def _argument_text(value) -> str:
    if callable(value) and not isinstance(value, type):
        return "callable " + callable_digest(value)
    return repr(value)


#: Entries warned about and not yet replaced (one warning each, even if replacing fails).
_warned: set[Path] = set()


def _warn_once(path: Path, message: str) -> None:
    if path in _warned:
        return
    _warned.add(path)
    warnings.warn(f"{path}: {message}", CacheWarning, stacklevel=3)


def read_entry(path: Path, name: str) -> tuple[str, object]:
    """The key and value of an entry file written by :func:`write_entry` (or the memo), whatever its key.

    Raises ValueError naming the file and the reason when it cannot be read,
    is not an entry named ``name``, or does not match its sha256.
    """
    path, name = _entry_arguments(path, name)
    try:
        header = json.loads(_read_bytes(path).partition(b"\n")[0])
        key = header["key"] if isinstance(header, dict) and isinstance(header.get("key"), str) else ""
        return key, _read(path, name, key)
    except (OSError, ValueError, _Unreadable) as reason:
        raise ValueError(f"{path} cannot be used: {reason}") from None


def write_entry(path: Path, name: str, key: str, value: object) -> None:
    """Store ``value`` at ``path`` as an entry named ``name`` made under ``key`` (OSError if it cannot)."""
    path, name = _entry_arguments(path, name)
    if not isinstance(key, str) or not re.fullmatch(r"[0-9a-f]{24}", key):
        raise ValueError(f"key = {key!r} is not allowed: allowed 24 lowercase hexadecimal digits")
    _write(path, name, key, value)


def write_entry_unless_same(path: Path, name: str, key: str, value: object) -> bool:
    """:func:`write_entry` unless the entry at ``path`` already holds ``value`` (:func:`same`); True when written.

    An entry that is missing or cannot be read counts as different.  ``make runs`` rewrites a stored
    file this way, so a file that still holds what this code gives keeps its bytes.
    """
    try:
        current = read_entry(path, name)[1] if os.path.lexists(path) else None
    except ValueError:
        current = None
    if current is not None and same(current, value):
        return False
    write_entry(path, name, key, value)
    return True


def _entry_arguments(path, name) -> tuple[Path, str]:
    if not isinstance(path, (str, Path)) or not str(path) or "\x00" in str(path):
        raise ValueError(f"path = {path!r} is not allowed: allowed a file path (str or Path)")
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ValueError(f"name = {name!r} is not allowed: allowed 1-121 letters, digits, '_', '.' or '-', "
                         "starting with a letter or digit")
    return Path(path), name


def _read(path: Path, name: str, key: str) -> object:
    try:
        raw = _read_bytes(path)
    except OSError as error:
        raise _Unreadable(f"cannot read it: {type(error).__name__}: {error.strerror or error}") from None
    header_line, newline, payload = raw.partition(b"\n")
    if not newline:
        raise _Unreadable("no header line")
    try:
        header = json.loads(header_line)
    except (ValueError, RecursionError):
        raise _Unreadable("its header is not JSON") from None
    expected = {"format": FORMAT, "name": name, "key": key}
    if not isinstance(header, dict) or any(header.get(field) != value for field, value in expected.items()):
        raise _Unreadable(f"its header {header_line[:200]!r} is not the one of this call ({expected})")
    if header.get("sha256") != hashlib.sha256(payload).hexdigest():
        raise _Unreadable("its content does not match the sha256 in its header")
    try:
        return _decode(json.loads(payload))
    except Exception as error:  # anything a crafted payload provokes: refuse the entry, recompute
        raise _Unreadable(f"its content does not decode: {type(error).__name__}: {error}") from None


def _read_bytes(path: Path) -> bytes:
    """The entry's bytes, never through a symlink (ELOOP), at most the folder's bound (else OSError)."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(descriptor, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        limit = max_bytes()
        if size > limit:
            raise OSError(27, f"{size:,} bytes is larger than the folder's bound of {limit:,} bytes")
        return file.read(limit + 1)


def _write(path: Path, name: str, key: str, result: object) -> None:
    """Store ``result`` at ``path`` through an exclusive, unpredictably named temporary file (OSError if it cannot)."""
    try:
        payload = dump(result)
    except ValueError as error:
        raise ValueError(f"compute() returned a {type(result).__name__} that the disk memo cannot store: "
                         f"{error}") from None
    header = {"format": FORMAT, "name": name, "key": key, "sha256": hashlib.sha256(payload).hexdigest()}
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{name}-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(json.dumps(header).encode() + b"\n" + payload)
        os.replace(temporary, path)  # renames over a symlink at path, never through it
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def dump(value: object) -> bytes:
    """``value`` as the JSON bytes the memo stores, checked to decode to an equal value (else ValueError)."""
    payload = json.dumps(encode(value), separators=(",", ":")).encode()
    if not same(_decode(json.loads(payload)), value):
        raise ValueError(f"value of type {type(value).__name__} does not come back from the disk memo exactly "
                         "as computed: allowed values made of the types perfstudies.cache.encode stores")
    return payload


# --- the closed set of stored types ----------------------------------------------------------------------------

_PLAIN = (type(None), bool, int, float, str)
_NUMERIC_KINDS = "biuf"


def encode(value: object) -> object:
    """``value`` as plain JSON data (tagged with ``"__type__"`` where JSON has no such type).

    Allowed: ``None``, ``bool``, ``int``, ``float`` (NaN and infinities too),
    ``str``; ``list``, ``tuple`` and ``dict`` of allowed values; numpy
    booleans and numbers, and arrays of them; pandas DataFrames, Series and
    indexes whose columns hold numbers, booleans, strings, categories,
    datetimes or allowed objects; and instances of dataclasses defined in
    ``perfstudies`` (all fields set by ``__init__``).  Anything else raises
    ValueError naming its type.
    """
    if type(value) in _PLAIN:
        return value
    if isinstance(value, (list, tuple)) and type(value) in (list, tuple):
        return {"__type__": type(value).__name__, "items": [encode(item) for item in value]}
    if type(value) is dict:
        return {"__type__": "dict", "items": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, np.generic) and value.dtype.kind in _NUMERIC_KINDS:
        return {"__type__": "numpy", "dtype": value.dtype.str, "value": value.item()}
    if isinstance(value, np.ndarray) and value.dtype.kind in _NUMERIC_KINDS:
        return {"__type__": "ndarray", "dtype": value.dtype.str, "shape": list(value.shape),
                "values": value.ravel().tolist()}
    if isinstance(value, pd.DataFrame):
        return {"__type__": "DataFrame", "index": _encode_index(value.index), "columns": _encode_index(value.columns),
                "data": [_encode_array(value.iloc[:, position]) for position in range(value.shape[1])]}
    if isinstance(value, pd.Series):
        return {"__type__": "Series", "name": encode(value.name), "index": _encode_index(value.index),
                "values": _encode_array(value)}
    if isinstance(value, pd.Index):
        return _encode_index(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _encode_record(value)
    raise ValueError(f"value of type {type(value).__module__}.{type(value).__qualname__} cannot be stored in the "
                     "disk memo: allowed None, bool, int, float, str, list, tuple, dict, numpy numbers and arrays, "
                     "pandas DataFrame/Series/Index and perfstudies dataclass records")


def _encode_record(value) -> dict:
    kind = type(value)
    if not _perfstudies_module(kind.__module__) or "<" in kind.__qualname__:
        raise ValueError(f"value of type {kind.__module__}.{kind.__qualname__} cannot be stored in the disk memo: "
                         "allowed dataclass records defined at module level in perfstudies")
    fields = dataclasses.fields(value)
    if any(not field.init for field in fields):
        raise ValueError(f"value of type {kind.__qualname__} cannot be stored in the disk memo: a field is not "
                         "set by __init__")
    return {"__type__": "record", "class": f"{kind.__module__}:{kind.__qualname__}",
            "fields": [[field.name, encode(getattr(value, field.name))] for field in fields]}


def _encode_index(index: pd.Index) -> dict:
    if isinstance(index, pd.RangeIndex):
        return {"__type__": "RangeIndex", "start": index.start, "stop": index.stop, "step": index.step,
                "name": encode(index.name)}
    if isinstance(index, pd.MultiIndex):
        return {"__type__": "MultiIndex", "names": [encode(name) for name in index.names],
                "levels": [_encode_array(index.get_level_values(level)) for level in range(index.nlevels)]}
    return {"__type__": "Index", "name": encode(index.name), "values": _encode_array(index)}


def _encode_array(values) -> dict:
    """One column (or index level) with its dtype."""
    dtype = values.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        categorical = pd.Categorical(values)
        return {"dtype": "category", "ordered": bool(dtype.ordered),
                "categories": _encode_index(pd.Index(categorical.categories)),
                "codes": categorical.codes.tolist()}
    if isinstance(dtype, np.dtype) and dtype.kind in _NUMERIC_KINDS:
        return {"dtype": dtype.str, "values": np.asarray(values).tolist()}
    if isinstance(dtype, np.dtype) and dtype.kind in "mM":
        return {"dtype": dtype.str, "values": np.asarray(values).view("i8").tolist()}
    if isinstance(dtype, pd.api.extensions.ExtensionDtype) and (
            isinstance(dtype, pd.StringDtype) or dtype.kind in _NUMERIC_KINDS):
        present = pd.notna(values)
        items = [encode(item.item() if isinstance(item, np.generic) else item) if ok else None
                 for item, ok in zip(np.asarray(values, dtype=object), np.asarray(present))]
        return {"dtype": str(dtype), "values": items}
    if isinstance(dtype, np.dtype) and dtype.kind == "O":
        return {"dtype": "object", "values": [encode(item) for item in np.asarray(values, dtype=object)]}
    raise ValueError(f"a column of dtype {dtype} cannot be stored in the disk memo: allowed numbers, booleans, "
                     "strings, categories, timezone-naive datetimes and objects of the stored types")


def decode(data: object) -> object:
    """The value :func:`encode` encoded as ``data``; a ValueError for anything it would not have written."""
    try:
        return _decode(data)
    except Exception as error:  # whatever a crafted document provokes is one refusal
        shown = repr(data)
        raise ValueError(f"data = {shown[:120]}{'...' if len(shown) > 120 else ''} is not allowed: "
                         f"{type(error).__name__}: {error}; allowed what perfstudies.cache.encode writes") from None


def _decode(data: object) -> object:
    if type(data) in _PLAIN:
        return data
    if type(data) is not dict or "__type__" not in data:
        raise ValueError(f"untagged {type(data).__name__} in a disk memo entry")
    kind = data["__type__"]
    if kind in ("list", "tuple"):
        items = [_decode(item) for item in _list(data["items"])]
        return items if kind == "list" else tuple(items)
    if kind == "dict":
        return {_hashable(_decode(k)): _decode(v) for k, v in (_pair(item) for item in _list(data["items"]))}
    if kind == "numpy":
        return _numeric_dtype(data["dtype"]).type(data["value"])
    if kind == "ndarray":
        shape = tuple(_integer(size) for size in _list(data["shape"]))
        return np.array(_list(data["values"]), dtype=_numeric_dtype(data["dtype"])).reshape(shape)
    if kind == "DataFrame":
        index, columns = _decode_index(data["index"]), _decode_index(data["columns"])
        arrays = [_decode_array(column) for column in _list(data["data"])]
        if len(arrays) != len(columns) or any(len(array) != len(index) for array in arrays):
            raise ValueError("DataFrame shape does not match its index and columns")
        frame = pd.DataFrame({position: pd.Series(array, index=index, dtype=array.dtype, copy=False)
                              for position, array in enumerate(arrays)}, index=index)
        frame.columns = columns
        return frame
    if kind == "Series":
        index = _decode_index(data["index"])
        values = _decode_array(data["values"])
        return pd.Series(values, index=index, dtype=values.dtype, name=_hashable(_decode(data["name"])), copy=False)
    if kind in ("RangeIndex", "MultiIndex", "Index"):
        return _decode_index(data)
    if kind == "record":
        return _decode_record(data)
    raise ValueError(f"unknown tag {kind!r} in a disk memo entry")


def _decode_record(data: dict):
    module_name, _, qualname = str(data["class"]).partition(":")
    if not _perfstudies_module(module_name) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", qualname):
        raise ValueError(f"record class {data['class']!r} is not allowed: allowed dataclasses defined in perfstudies")
    target: object = importlib.import_module(module_name)
    for part in qualname.split("."):
        target = getattr(target, part)
    if not isinstance(target, type) or not dataclasses.is_dataclass(target) \
            or not _perfstudies_module(target.__module__):
        raise ValueError(f"record class {data['class']!r} is not a perfstudies dataclass")
    fields = {str(name): _decode(value) for name, value in (_pair(item) for item in _list(data["fields"]))}
    return target(**fields)


def _decode_index(data) -> pd.Index:
    if type(data) is not dict:
        raise ValueError("an index must be a tagged object")
    kind = data.get("__type__")
    if kind == "RangeIndex":
        return pd.RangeIndex(_integer(data["start"]), _integer(data["stop"]), _integer(data["step"]),
                             name=_hashable(_decode(data["name"])))
    if kind == "MultiIndex":
        levels = [_decode_array(level) for level in _list(data["levels"])]
        names = [_hashable(_decode(name)) for name in _list(data["names"])]
        return pd.MultiIndex.from_arrays(levels, names=names)
    if kind == "Index":
        values = _decode_array(data["values"])
        return pd.Index(values, dtype=values.dtype, name=_hashable(_decode(data["name"])), copy=False)
    raise ValueError(f"unknown index tag {kind!r}")


def _decode_array(data):
    if type(data) is not dict:
        raise ValueError("a column must be a tagged object")
    dtype = data["dtype"]
    if dtype == "category":
        categories = _decode_index(data["categories"])
        codes = np.array([_integer(code) for code in _list(data["codes"])], dtype=np.int64)
        return pd.Categorical.from_codes(codes, categories=categories, ordered=bool(data["ordered"]))
    if dtype == "object":
        values = [_decode(item) for item in _list(data["values"])]
        array = np.empty(len(values), dtype=object)
        array[:] = values
        return array
    if not isinstance(dtype, str):
        raise ValueError(f"dtype {dtype!r} is not a string")
    if dtype.startswith(("<", ">", "|")):
        resolved = np.dtype(dtype)
        if resolved.kind in _NUMERIC_KINDS:
            return np.array(_list(data["values"]), dtype=resolved)
        if resolved.kind in "mM":
            return np.array(_list(data["values"]), dtype=np.int64).view(resolved)
        raise ValueError(f"dtype {dtype!r} is not stored by the disk memo")
    resolved = pd.api.types.pandas_dtype(dtype)
    if not isinstance(resolved, pd.api.extensions.ExtensionDtype) or not (
            isinstance(resolved, pd.StringDtype) or resolved.kind in _NUMERIC_KINDS):
        raise ValueError(f"dtype {dtype!r} is not stored by the disk memo")
    values = [_decode(item) for item in _list(data["values"])]
    return pd.array(values, dtype=resolved)


def _numeric_dtype(text) -> np.dtype:
    resolved = np.dtype(str(text))
    if resolved.kind not in _NUMERIC_KINDS:
        raise ValueError(f"dtype {text!r} is not a numeric numpy dtype")
    return resolved


def _list(value) -> list:
    if type(value) is not list:
        raise ValueError(f"expected a list, found {type(value).__name__}")
    return value


def _pair(value) -> list:
    if type(value) is not list or len(value) != 2:
        raise ValueError("expected a [key, value] pair")
    return value


def _integer(value) -> int:
    if type(value) is not int:
        raise ValueError(f"expected an integer, found {value!r}")
    return value


def _hashable(value):
    hash(value)
    return value


def _perfstudies_module(name: str) -> bool:
    return name == "perfstudies" or name.startswith("perfstudies.")


def same(first: object, second: object) -> bool:
    """Whether two stored-type values are equal in type and content (NaN equals NaN)."""
    try:
        return _same(first, second)
    except (TypeError, ValueError):  # values that do not even compare are not the same
        return False


def _same(first: object, second: object) -> bool:
    if type(first) is not type(second):
        return False
    if isinstance(first, pd.DataFrame):
        return _frames_equal(first, second)
    if isinstance(first, pd.Series):
        return _frames_equal(first.to_frame(), second.to_frame()) and _same_label(first.name, second.name)
    if isinstance(first, pd.Index):
        return first.equals(second) and first.dtype == second.dtype and list(first.names) == list(second.names)
    if isinstance(first, np.ndarray):
        return first.dtype == second.dtype and first.shape == second.shape and bool(
            np.array_equal(first, second, equal_nan=first.dtype.kind in "fc"))
    if isinstance(first, (list, tuple)):
        return len(first) == len(second) and all(same(a, b) for a, b in zip(first, second))
    if isinstance(first, dict):
        return list(first) == list(second) and all(same(first[k], second[k]) for k in first)
    if dataclasses.is_dataclass(first):
        return all(same(getattr(first, f.name), getattr(second, f.name)) for f in dataclasses.fields(first))
    return _same_label(first, second)


def _same_label(first, second) -> bool:
    if isinstance(first, (float, np.floating)) and isinstance(second, (float, np.floating)):
        return bool((math.isnan(first) and math.isnan(second)) or first == second)
    return bool(type(first) is type(second) and first == second)


def _frames_equal(first: pd.DataFrame, second: pd.DataFrame) -> bool:
    try:
        pd.testing.assert_frame_equal(first, second, check_exact=True, check_index_type=True,
                                      check_column_type=True, check_freq=False)
    except AssertionError:
        return False
    return all(same(a, b) for a, b in zip(first.columns, second.columns)) and all(
        _objects_same(first.iloc[:, i], second.iloc[:, i]) for i in range(first.shape[1]))


def _objects_same(first: pd.Series, second: pd.Series) -> bool:
    """Object columns hold Python values whose types pandas' comparison ignores (True vs 1)."""
    if first.dtype != object:
        return True
    return all(same(a, b) or (a is None and b is None) for a, b in zip(first, second))


# --- what a memoized callable reaches that no source file covers -----------------------------------------------

def callable_digest(compute: Callable) -> str:
    """sha256 of ``compute``'s code and of the chapter-defined code and values it reaches.

    Functions and classes whose source file is in the package (covered by
    :func:`sources_digest`) or in the installed environment (covered by the
    interpreter and :func:`dependency_versions`) count by their qualified name.
    Anything else (a function defined in a notebook cell, which has no file, a
    lambda, a class defined in a chapter) counts by its code: the bytecode,
    constants and names of every code object in it, its defaults and closure,
    and the globals it names, followed recursively.  Globals that are plain
    values (numbers, strings, tuples, records, DataFrames, ...) count by their
    content, so changing ``REPLICATIONS = 5`` in a chapter recomputes too.
    """
    check_callable("compute", compute)
    walker = _Walker()
    walker.visit(compute)
    return walker.digest.hexdigest()


def _covered_file(filename: str | None) -> bool:
    """Whether a source file is covered by the package digest or the installed environment."""
    if not filename or filename.startswith("<"):
        return False
    try:
        path = Path(filename).resolve()
    except (OSError, RuntimeError):
        return False
    if not path.is_file():
        return False
    roots = [ROOT / "lib", Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix)]
    return any(path.is_relative_to(root.resolve()) for root in roots)


class _Walker:
    def __init__(self):
        self.digest = hashlib.sha256()
        self.seen: set[int] = set()

    def add(self, *parts) -> None:
        for part in parts:
            self.digest.update(repr(part).encode())
            self.digest.update(b"\x00")

    def visit(self, value, depth: int = 0) -> None:
        if depth > 40:
            self.add("deep")
            return
        if id(value) in self.seen:
            self.add("seen", getattr(value, "__qualname__", type(value).__qualname__))
            return
        self.seen.add(id(value))
        if isinstance(value, functools.partial):
            self.add("partial")
            self.visit(value.func, depth + 1)
            for item in (*value.args, *value.keywords.values()):
                self.value(item, depth + 1)
            self.add(sorted(value.keywords))
        elif isinstance(value, types.MethodType):
            self.add("method")
            self.visit(value.__func__, depth + 1)
            self.visit(type(value.__self__), depth + 1)
        elif isinstance(value, types.FunctionType):
            self.function(value, depth)
        elif isinstance(value, type):
            self.klass(value, depth)
        elif isinstance(value, types.BuiltinFunctionType):
            self.add("builtin", getattr(value, "__module__", None), value.__qualname__)
        elif callable(value):
            self.add("callable object")
            self.visit(type(value), depth + 1)
        else:
            self.value(value, depth)

    def function(self, function: types.FunctionType, depth: int) -> None:
        code = function.__code__
        self.add("function", function.__module__, function.__qualname__)
        covered = _covered_file(code.co_filename)
        if not covered:
            self.code(code)
            for default in (*(function.__defaults__ or ()), *(function.__kwdefaults__ or {}).values()):
                self.value(default, depth + 1)
            for name in sorted(_names(code)):
                if name in function.__globals__:
                    self.add("global", name)
                    self.value(function.__globals__[name], depth + 1)
        for cell in function.__closure__ or ():  # a covered function can still close over chapter code
            try:
                content = cell.cell_contents
            except ValueError:  # an empty cell
                self.add("empty cell")
                continue
            self.value(content, depth + 1)

    def klass(self, klass: type, depth: int) -> None:
        self.add("class", klass.__module__, klass.__qualname__)
        module = sys.modules.get(klass.__module__)
        if klass.__module__ != "__main__" and _covered_file(getattr(module, "__file__", None)):
            return
        for base in klass.__bases__:
            self.visit(base, depth + 1)
        for name, member in sorted(vars(klass).items()):
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            if isinstance(member, property):
                member = member.fget
            if isinstance(member, types.FunctionType):
                self.add("member", name)
                self.visit(member, depth + 1)
            elif not name.startswith("__"):
                self.add("attribute", name)
                self.value(member, depth + 1)

    def code(self, code: types.CodeType) -> None:
        self.add("code", code.co_name, code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount,
                 code.co_flags, code.co_code, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars)
        for constant in code.co_consts:
            if isinstance(constant, types.CodeType):
                self.code(constant)
            elif isinstance(constant, frozenset):
                self.add("frozenset", sorted(repr(item) for item in constant))
            else:
                self.add(type(constant).__name__, constant)

    def value(self, value, depth: int) -> None:
        """A value a chapter callable reads: code by its code, data by its content, the rest by its type."""
        if isinstance(value, (types.FunctionType, types.MethodType, functools.partial, type)):
            self.visit(value, depth)
        elif isinstance(value, types.ModuleType):
            self.add("module", value.__name__)
        elif isinstance(value, pd.DataFrame | pd.Series | pd.Index):
            self.add(type(value).__name__, _pandas_digest(value))
        elif _plain_data(value):
            self.add("value", value)
        elif type(value) in (list, tuple):
            self.add(type(value).__name__, len(value))
            for item in value[:VALUE_ITEMS]:
                self.value(item, depth + 1)
        elif type(value) is dict:
            self.add("dict", len(value))
            for key, item in list(value.items())[:VALUE_ITEMS]:
                self.value(key, depth + 1)
                self.value(item, depth + 1)
        elif type(value) in (set, frozenset) and all(_plain_data(item) for item in value):
            self.add(type(value).__name__, sorted(repr(item) for item in value))
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            self.add("record", type(value).__module__, type(value).__qualname__)
            for field in dataclasses.fields(value):
                self.add(field.name)
                self.value(getattr(value, field.name), depth + 1)
        elif callable(value):
            self.visit(value, depth + 1)
        else:
            self.add("object", type(value).__module__, type(value).__qualname__)


def _names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _names(constant)
    return names


def _plain_data(value, budget: list | None = None) -> bool:
    """Whether ``value`` is small plain data whose ``repr`` is its content (deterministic across runs)."""
    budget = [VALUE_ITEMS] if budget is None else budget
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if type(value) in _PLAIN or (isinstance(value, np.generic) and value.dtype.kind in _NUMERIC_KINDS):
        return True
    if type(value) in (list, tuple):
        return all(_plain_data(item, budget) for item in value)
    if type(value) is dict:
        return all(_plain_data(k, budget) and _plain_data(v, budget) for k, v in value.items())
    if type(value) in (set, frozenset):
        return False  # repr order depends on the hash seed
    return False


def _pandas_digest(value) -> str:
    frame = value.to_frame() if isinstance(value, pd.Series) else value
    if isinstance(frame, pd.Index):
        frame = frame.to_frame(index=False)
    try:
        hashed = pd.util.hash_pandas_object(frame, index=True).to_numpy().tobytes()
    except TypeError:
        hashed = repr(frame.to_dict()).encode()
    shape = (list(map(str, frame.columns)), [str(dtype) for dtype in frame.dtypes])
    return hashlib.sha256(repr(shape).encode() + hashed).hexdigest()
