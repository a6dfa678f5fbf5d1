"""The disk memo: same call, same result; anything it cannot trust is recomputed; nothing it reads runs code."""

import hashlib
import json
import math
import pickle
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from perfstudies import cache
from perfstudies.reference import QueueParams
from perfstudies.runner import Replications, summarize


@pytest.fixture
def memo(tmp_path, monkeypatch):
    """The memo writing to a fresh folder; ``memo.calls`` counts computations."""
    monkeypatch.setattr(cache, "CACHE", tmp_path)
    monkeypatch.setattr(cache, "_warned", set())

    class Memo:
        """Its state lives on the instance: a chapter class's own attributes are part of the key."""

        def __init__(self):
            self.folder, self.calls, self.value = tmp_path, [], None

        def compute(self):
            self.calls.append(self.value)
            return self.value

        def run(self, value, name="demo", **arguments):
            self.value = value  # read by compute, which is the same callable (the same key) every time
            return cache.memoized(name, self.compute, **arguments)

        def entry(self):
            (path,) = tmp_path.glob("*.json")
            return path

    return Memo()


def test_memo_reuses_same_call_and_separates_arguments(memo):
    assert memo.run({"value": 1}, n=1) == {"value": 1}
    assert memo.run({"value": 1}, n=1) == {"value": 1}
    assert memo.run({"value": 2}, n=2) == {"value": 2}
    assert memo.calls == [{"value": 1}, {"value": 2}]
    assert len(list(memo.folder.glob("demo-*.json"))) == 2


def test_a_miss_shows_a_status_line_while_it_computes_and_a_hit_does_not(memo, capsys, monkeypatch):
    """A first run's silent wait: the entry's name and why, in the terminal (stderr), gone once stored."""
    monkeypatch.delenv("PERFSTUDIES_BOOK_BUILD", raising=False)
    memo.run(1, name="slow-sweep")
    assert "first run: computing slow-sweep (`make book` stores it in the disk memo)" in capsys.readouterr().err
    memo.run(1, name="slow-sweep")
    assert "computing" not in capsys.readouterr().err, "a stored entry is read back without a word"


def test_no_status_line_while_the_book_builds(memo, capsys, monkeypatch):
    monkeypatch.setenv("PERFSTUDIES_BOOK_BUILD", "1")
    memo.run(1, name="slow-sweep")
    assert capsys.readouterr().err == ""


def test_sources_digest_covers_library_sources():
    assert len(cache.sources_digest()) == 64


def _comparison_like() -> pd.DataFrame:
    return pd.DataFrame({
        "study": pd.Series(["a", "b", "c"], dtype="str"), "published": [1.0, math.nan, -0.0],
        "precise": [True, False, True], "beats_baseline": [None, True, False], "count": [1, 2, 3],
        "n": pd.array([1, None, 3], dtype="Int64"), "kind": pd.Categorical(["x", "y", "x"])})


STORED = [
    _comparison_like(),
    summarize(pd.DataFrame({"point": [0, 0, 1, 1], "metric": ["w"] * 4, "value": [1.0, 2.0, 3.0, 5.0]}),
              by=["point", "metric"]),
    {"sweep": _comparison_like(), "points": (QueueParams(), QueueParams(servers=2)), "seed": 7},
    Replications(pd.DataFrame({"replication": [0, 1], "seed": [3, 4], "metric": ["x", "x"], "value": [1.0, 2.5]})),
    [np.float64(0.1), np.int64(3), np.arange(6.0).reshape(2, 3), pd.Series([1.5, 2.5], name="s"), None, math.inf],
]


@pytest.mark.parametrize("value", STORED, ids=[type(v).__name__ for v in STORED])
def test_what_the_chapters_store_comes_back_exactly(memo, value):
    memo.run(value)
    again = memo.run("never computed")
    assert memo.calls == [value] and cache.same(again, value)
    assert memo.entry().read_bytes().startswith(b'{"format": 1')


@pytest.mark.parametrize("value", [object(), {1, 2}, lambda: 1, pd.DataFrame({"x": [object()]}),
                                   pd.DataFrame({"t": pd.to_datetime(["2020-01-01"]).tz_localize("UTC")})])
def test_a_result_the_format_cannot_hold_is_refused_when_stored(memo, value):
    with pytest.raises(ValueError, match="cannot be stored in the disk memo|does not come back"):
        memo.run(value)


def test_a_crafted_file_does_not_execute(memo, tmp_path):
    memo.run({"value": 1.0})
    path = memo.entry()
    marker = tmp_path / "pwned"

    class Exploit:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    payloads = [
        pickle.dumps(Exploit()),  # what the old pickle memo would have run
        json.dumps({"__type__": "record", "class": "os:system", "fields": [["command", f"touch {marker}"]]}).encode(),
        json.dumps({"__type__": "record", "class": "subprocess:run", "fields": [["args", ["touch", str(marker)]]]}).encode(),
        json.dumps({"__type__": "record", "class": "perfstudies.cache:os.system", "fields": []}).encode(),
    ]
    header = json.loads(path.read_bytes().partition(b"\n")[0])
    for payload in payloads:
        signed = {**header, "sha256": hashlib.sha256(payload).hexdigest()}  # a valid digest: the content is refused
        path.write_bytes(json.dumps(signed).encode() + b"\n" + payload)
        with pytest.warns(cache.CacheWarning, match=rf"{path}: disk memo entry cannot be used"):
            assert memo.run({"value": 1.0}) == {"value": 1.0}
        assert not marker.exists()
    path.write_bytes(pickle.dumps(Exploit()))  # a bare pickle where the entry was
    with pytest.warns(cache.CacheWarning, match="no header line|header is not JSON"):
        memo.run({"value": 1.0})
    assert not marker.exists()


def test_a_valid_but_wrong_entry_is_detected(memo):
    memo.run(QueueParams(arrival_rate=0.5))
    path = memo.entry()
    text = path.read_bytes()
    path.write_bytes(text.replace(b"0.5", b"0.9"))  # still a valid record, but not what was computed
    with pytest.warns(cache.CacheWarning, match="does not match the sha256"):
        assert memo.run(QueueParams(arrival_rate=0.5)) == QueueParams(arrival_rate=0.5)
    assert len(memo.calls) == 2
    # an entry filed under another call's key (renamed or copied) is refused too
    memo.run(QueueParams(arrival_rate=0.7), name="other")
    (other,) = memo.folder.glob("other-*.json")
    path.write_bytes(other.read_bytes())
    with pytest.warns(cache.CacheWarning, match="is not the one of this call"):
        assert memo.run(QueueParams(arrival_rate=0.5)) == QueueParams(arrival_rate=0.5)


@pytest.mark.parametrize("damage", ["truncate", "garbage", "empty"])
def test_a_damaged_entry_is_recomputed_and_replaced_with_one_warning(memo, damage):
    memo.run({"value": [1.0, 2.0, 3.0]})
    path = memo.entry()
    raw = path.read_bytes()
    path.write_bytes({"truncate": raw[: len(raw) // 2], "garbage": bytes(range(256)) * 4, "empty": b""}[damage])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert memo.run({"value": [1.0, 2.0, 3.0]}) == {"value": [1.0, 2.0, 3.0]}
        assert memo.run({"value": [1.0, 2.0, 3.0]}) == {"value": [1.0, 2.0, 3.0]}
    messages = [str(w.message) for w in caught if issubclass(w.category, cache.CacheWarning)]
    assert len(messages) == 1 and str(path) in messages[0]
    assert len(memo.calls) == 2  # computed once more, then read from the replaced entry
    assert path.read_bytes() == raw


CHAPTER = """
from perfstudies.cache import memoized

REPLICATIONS = {replications}

def helper(n):
    # a chapter-defined helper, as in a notebook cell
    calls.append(n)
    return {{"value": {value} * n}}

result = memoized("chapter-demo", lambda: helper(REPLICATIONS))
"""


class _Calls:
    """Counts calls without being chapter data (a list's content would be part of the key)."""

    def __init__(self):
        self.made = []

    def append(self, item):
        self.made.append(item)

    def __len__(self):
        return len(self.made)


def _run_chapter(calls, **values):
    namespace = {"__name__": "__main__", "calls": calls}
    exec(compile(CHAPTER.format(**({"replications": 2, "value": 1.0} | values)), "<cell>", "exec"), namespace)
    return namespace["result"]


def test_editing_a_chapter_defined_function_or_value_recomputes(memo):
    calls = _Calls()
    assert _run_chapter(calls) == {"value": 2.0}
    assert _run_chapter(calls) == {"value": 2.0} and len(calls) == 1
    assert _run_chapter(calls, value=3.0) == {"value": 6.0} and len(calls) == 2   # the helper's body changed
    assert _run_chapter(calls, replications=5) == {"value": 5.0} and len(calls) == 3  # a chapter constant changed
    assert _run_chapter(calls) == {"value": 2.0} and len(calls) == 3  # back to the first version: its entry


def test_the_key_covers_the_installed_dependencies(memo, monkeypatch):
    assert {"Ciw", "numpy", "pandas", "scipy", "altair"} <= set(dict(cache.dependency_versions()))
    memo.run(1.0)
    versions = cache.dependency_versions()
    monkeypatch.setattr(cache, "dependency_versions", lambda: (*versions[:-1], ("PyYAML", "0.0")))
    memo.run(1.0)
    assert len(memo.calls) == 2


def test_library_functions_count_by_name_chapter_functions_by_code():
    from perfstudies.reference import queue_model

    def local(n):
        return n + 1

    assert cache.callable_digest(queue_model) == cache.callable_digest(queue_model)
    assert cache.callable_digest(local) != cache.callable_digest(lambda n: n + 2)


@pytest.mark.parametrize(("call", "name"), [
    (lambda: cache.memoized("../escape", lambda: 1), "name"), (lambda: cache.memoized("", lambda: 1), "name"),
    (lambda: cache.memoized(3, lambda: 1), "name"), (lambda: cache.memoized("ok", 3), "compute"),
    (lambda: cache.callable_digest(None), "compute"),
])
def test_bad_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name} = .*allowed"):
        call()


# --- hardening, second round (issue 27): a folder that cannot be written, planted files, a bound ----------------

import errno
import os
import tempfile
import time


def _entry_path(memo, name="demo"):
    return memo.folder / f"{name}-{cache.entry_key(name, memo.compute, {})}.json"


def _leftovers(folder):
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".tmp"))


def test_a_read_only_folder_returns_the_computed_value_with_one_warning(memo, monkeypatch):
    """Issue 27: a read-only cache threw the computed result away with ``OSError: Read-only file system``."""
    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    with pytest.warns(cache.CacheWarning, match=r"cannot be written \(OSError: Read-only file system\)") as caught:
        assert memo.run([1.5, 2.5]) == [1.5, 2.5]
        assert memo.run([1.5, 2.5]) == [1.5, 2.5]  # computed again, no second warning
    assert len(caught) == 1
    assert memo.calls == [[1.5, 2.5], [1.5, 2.5]]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through folder permissions")
def test_an_unwritable_folder_returns_the_computed_value(memo):
    memo.folder.chmod(0o555)
    try:
        with pytest.warns(cache.CacheWarning, match="cannot be written"):
            assert memo.run({"a": 1}) == {"a": 1}
    finally:
        memo.folder.chmod(0o755)


def test_a_directory_where_the_entry_belongs_leaves_nothing_behind(memo):
    """Issue 27: ``IsADirectoryError`` escaped and the temporary file stayed behind."""
    _entry_path(memo).mkdir()
    with pytest.warns(cache.CacheWarning) as caught:
        assert memo.run({"a": 1}) == {"a": 1}
    assert len(caught) == 1 and "IsADirectoryError" in str(caught[0].message)
    assert _leftovers(memo.folder) == []
    assert _entry_path(memo).is_dir()


def test_the_temporary_file_is_made_exclusively_in_the_folder_under_an_unpredictable_name(memo, monkeypatch):
    made = []
    mkstemp = tempfile.mkstemp

    def recording(*args, **kwargs):
        descriptor, name = mkstemp(*args, **kwargs)
        made.append((kwargs.get("dir"), name))
        return descriptor, name

    monkeypatch.setattr(tempfile, "mkstemp", recording)
    memo.run(1.5)
    ((folder, name),) = made
    assert Path(folder) == memo.folder and Path(name).parent == memo.folder
    assert f".{os.getpid()}." not in Path(name).name  # not the old predictable name
    assert _leftovers(memo.folder) == []


def test_a_symlink_planted_at_the_old_temporary_name_or_at_the_entry_is_not_followed(memo, tmp_path_factory):
    """Issue 27: the write followed a symlink planted at the (predictable) temporary name."""
    victim = tmp_path_factory.mktemp("elsewhere") / "victim.txt"
    victim.write_text("keep me")
    entry = _entry_path(memo)
    (memo.folder / f".{entry.name}.{os.getpid()}.tmp").symlink_to(victim)
    assert memo.run({"a": 1}) == {"a": 1}
    assert victim.read_text() == "keep me"
    other = _entry_path(memo, "other")
    other.symlink_to(victim)  # a symlink where an entry belongs: not read, replaced
    with pytest.warns(cache.CacheWarning, match="cannot read it"):
        assert memo.run({"b": 2}, name="other") == {"b": 2}
    assert victim.read_text() == "keep me"
    assert not other.is_symlink() and json.loads(other.read_bytes().partition(b"\n")[0])["name"] == "other"


def _sized_entries(memo, count):
    for index in range(count):
        memo.run(list(range(200)), name=f"entry{index}")
        path, = memo.folder.glob(f"entry{index}-*.json")
        stamp = time.time() - 1000 + index  # entry0 the least recently used
        os.utime(path, (stamp, stamp))
    return sorted(memo.folder.glob("entry*.json"))


def test_the_least_recently_used_entries_go_when_the_folder_passes_its_bound(memo, monkeypatch):
    """Issue 27: nothing ever evicted (each change to lib/ or data/ added about 6.9 MB)."""
    _sized_entries(memo, 4)
    size = max(path.stat().st_size for path in memo.folder.glob("entry*.json"))
    first, = memo.folder.glob("entry1-*.json")
    assert memo.run(list(range(200)), name="entry1") == list(range(200))  # a read makes entry1 the newest
    monkeypatch.setenv(cache.MAX_MB_VARIABLE, str(3.5 * size / 1e6))      # room for three
    memo.run(list(range(200)), name="entry9")  # an entry of the same size
    left = sorted(path.name.split("-")[0] for path in memo.folder.glob("*.json"))
    assert left == ["entry1", "entry3", "entry9"]  # entry0 and entry2 were the least recently used
    assert first.exists()


def test_the_default_bound_and_a_bad_bound(memo, monkeypatch):
    monkeypatch.delenv(cache.MAX_MB_VARIABLE, raising=False)
    assert cache.max_bytes() == cache.DEFAULT_MAX_MB * 1_000_000
    for text in ("abc", "0", "-5", "nan", "inf"):
        monkeypatch.setenv(cache.MAX_MB_VARIABLE, text)
        with pytest.raises(ValueError, match=rf"^PERFSTUDIES_CACHE_MAX_MB = '{text}' is not allowed"):
            memo.run(1.0)
    assert memo.calls == []  # refused before computing


def test_an_entry_larger_than_the_bound_is_not_read(memo, monkeypatch):
    memo.run(list(range(1000)))
    monkeypatch.setenv(cache.MAX_MB_VARIABLE, "0.0001")  # 100 bytes
    with pytest.warns(cache.CacheWarning, match="larger than the folder's bound"):
        assert memo.run(list(range(1000))) == list(range(1000))


def test_the_digest_guards_against_damage_not_against_a_writer(memo):
    """What README says: an edited payload with its sha256 recomputed is returned as it is."""
    memo.run({"a": 1})
    header, _, _ = memo.entry().read_bytes().partition(b"\n")
    forged = json.dumps(cache.encode({"a": 2}), separators=(",", ":")).encode()
    fields = json.loads(header) | {"sha256": hashlib.sha256(forged).hexdigest()}
    memo.entry().write_bytes(json.dumps(fields).encode() + b"\n" + forged)
    assert memo.run({"a": 1}) == {"a": 2}


def test_a_study_scope_leaves_out_the_other_studies_files_only():
    """Changing svcdump cannot change spxtape's results: its package and data are out of spxtape's scope."""
    assert cache.in_scope(Path("lib/perfstudies/models/spxtape/network.py"), "spxtape")
    assert not cache.in_scope(Path("lib/perfstudies/models/svcdump/network.py"), "spxtape")
    assert not cache.in_scope(Path("data/svcdump/statements.csv"), "spxtape")
    assert cache.in_scope(Path("data/spxtape/table1.csv"), "spxtape")
    assert cache.in_scope(Path("lib/perfstudies/evaluate.py"), "spxtape"), "the core is in every study's scope"
    assert cache.in_scope(Path("lib/perfstudies/models/__init__.py"), "spxtape")
    assert cache.sources_digest("spxtape") != cache.sources_digest("svcdump") != cache.sources_digest()


def test_a_scope_must_be_a_study_key():
    with pytest.raises(ValueError, match="scope = 'no where' is not allowed"):
        cache.memoized("x", lambda: 1, scope="no where")


def test_the_folder_moves_with_its_variable_and_refuses_a_relative_path(monkeypatch, tmp_path):
    monkeypatch.setenv(cache.DIR_VARIABLE, str(tmp_path))
    assert cache.folder() == tmp_path
    monkeypatch.setenv(cache.DIR_VARIABLE, "relative/memo")
    with pytest.raises(ValueError, match=r"^PERFSTUDIES_CACHE_DIR = 'relative/memo' is not allowed: allowed an absolute"):
        cache.folder()
    monkeypatch.delenv(cache.DIR_VARIABLE)
    assert cache.folder() == cache.BUILD / "cache"


# --- two processes, one computation ---------------------------------------------------------------------------

import subprocess
import sys
import textwrap

import psutil

from perfstudies.context import BOOK_BUILD_ENV

SLOW_ENTRY = '''
import os, time
from perfstudies import cache


def slow():
    with open(os.environ["MARKER"], "a") as marker:
        marker.write(f"{os.getpid()}\\n")
    while not os.path.exists(os.environ["RELEASE"]):  # computing until the test says so
        time.sleep(0.05)
    return [1.5, 2.5]


print(cache.memoized("shared", slow))
'''


def _until(condition, what: str, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not happen in {seconds:g} s"
        time.sleep(0.05)


def _holds_a_lock_file(pid: int) -> bool:
    try:
        return any(opened.path.endswith(".lock") for opened in psutil.Process(pid).open_files())
    except psutil.Error:
        return False


def test_two_processes_needing_the_same_entry_compute_it_once(tmp_path):
    """The second waits on the first's lock file, then reads what it stored (and no lock file is left)."""
    script = tmp_path / "slow_entry.py"
    script.write_text(textwrap.dedent(SLOW_ENTRY))
    marker, release, folder = tmp_path / "computed", tmp_path / "release", tmp_path / "memo"
    environment = {**os.environ, cache.DIR_VARIABLE: str(folder), "MARKER": str(marker), "RELEASE": str(release)}
    environment.pop(BOOK_BUILD_ENV, None)  # status lines on
    run = dict(env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = subprocess.Popen([sys.executable, str(script)], **run)
    second = None
    try:
        _until(marker.exists, "the first process computing")
        second = subprocess.Popen([sys.executable, str(script)], **run)
        _until(lambda: _holds_a_lock_file(second.pid), "the second process waiting on the entry's lock file")
        release.touch()
        outputs = [process.communicate(timeout=120) for process in (first, second)]
    finally:
        release.touch()
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
    assert [out.strip() for out, _ in outputs] == ["[1.5, 2.5]", "[1.5, 2.5]"]
    assert len(marker.read_text().split()) == 1, "both processes computed the entry"
    assert "waiting for another process computing shared" in outputs[1][1]
    assert [path.name for path in folder.iterdir() if path.suffix == ".lock"] == []


def test_a_folder_that_cannot_hold_a_lock_file_still_computes(memo, monkeypatch):
    real_open = os.open

    def no_lock_files(path, *args, **kwargs):
        if str(path).endswith(".lock"):
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", no_lock_files)
    assert memo.run([4.0]) == [4.0] and memo.run([4.0]) == [4.0]
    assert memo.calls == [[4.0]]
