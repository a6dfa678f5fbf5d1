"""The disk memo: same call, same result; anything it cannot trust is recomputed; nothing it reads runs code."""

import hashlib
import json
import math
import pickle
import warnings

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
