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


def test_the_tests_build_the_book_with_the_command_make_book_runs():
    """Spelled differently (e.g. an absolute ``--toc``), the same book is a changed config to Sphinx,
    and every page is re-read and re-executed: `make book` after `make test` would run every notebook again."""
    import subprocess

    from conftest import book_command

    dry_run = subprocess.run(["make", "-n", "book"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    line = next(line for line in dry_run.splitlines() if "jupyter-book build" in line)
    made = line.split()[1:]
    tested = book_command(ROOT, ROOT / "book" / "_config.yml", ROOT / "book" / "_toc.yml")[1:]
    assert tested == made, f"the tests build with {tested}, `make book` with {made}"
