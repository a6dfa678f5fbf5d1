"""`make book` re-executes every page when the library or the data change, and only then."""

import importlib.util
from types import SimpleNamespace

from perfstudies.paths import ROOT

spec = importlib.util.spec_from_file_location("fresh_outputs", ROOT / "book" / "_ext" / "fresh_outputs.py")
fresh_outputs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fresh_outputs)


def test_pages_are_outdated_exactly_when_the_sources_digest_changes(monkeypatch):
    env = SimpleNamespace(found_docs={"book/intro", "notebooks/mdf", "notebooks/vts"})
    outdated = fresh_outputs._outdated_when_sources_change
    monkeypatch.setattr(fresh_outputs, "sources_digest", lambda: "one")
    assert outdated(None, env, added={"notebooks/vts"}, changed=set(), removed=set()) == ["book/intro", "notebooks/mdf"]
    assert outdated(None, env, added=set(), changed=set(), removed=set()) == []
    monkeypatch.setattr(fresh_outputs, "sources_digest", lambda: "two")
    assert outdated(None, env, added=set(), changed=set(), removed=set()) == sorted(env.found_docs)
