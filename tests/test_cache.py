"""The disk memo returns stored results for the same call and recomputes otherwise."""

from perfstudies import cache


def test_memo_reuses_same_call_and_separates_arguments(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "CACHE", tmp_path)
    calls = []

    def compute(value):
        calls.append(value)
        return {"value": value}

    assert cache.memoized("demo", lambda: compute(1), n=1) == {"value": 1}
    assert cache.memoized("demo", lambda: compute(1), n=1) == {"value": 1}
    assert cache.memoized("demo", lambda: compute(2), n=2) == {"value": 2}
    assert calls == [1, 2]
    assert len(list(tmp_path.glob("demo-*.pickle"))) == 2


def test_sources_digest_covers_library_sources():
    assert len(cache.sources_digest()) == 64
