"""The book builds cleanly with every notebook executed, rebuilds as a no-op, and searches offline.

This file builds the book (the ``built_book`` fixture, on one test worker); the browser suites that
read the built pages are ``test_book_wide.py`` and ``test_book_narrow.py`` (``book_pages``), and
the print edition's is ``test_book_pdf.py``: apart, so that they run on whichever worker is free
once the book is built.
"""

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from book_pages import by_page, pages
from conftest import BOOK_BUILDS, BUILT_BOOK_ENV, CHROMIUM, CHROMIUM_ARGS, ROOT, only_localhost

pytestmark = pytest.mark.book
#: Chapters need at least this many numbered exercises, each with a solution.
MIN_EXERCISES = 6


def _chapters(built: list[str]) -> list[str]:
    """The chapters: every study notebook, *Queueing in one page* when present, and the introduction."""
    return [page for page in built if page.startswith("notebooks/") or page in ("book/queueing.html",
                                                                                  "book/intro.html")]


def test_book_builds_with_every_notebook_executed(built_book):
    built = pages(built_book)
    assert {"book/intro.html", "book/accuracy.html", "book/glossary.html", "book/references.html"} <= set(built)
    intro = (built_book / "book" / "intro.html").read_text()
    assert "perfstudies-chart" in intro, "the intro's executed chart output is missing"
    assert (built_book / "_sources" / "book" / "intro.ipynb").exists(), "chapter .ipynb download missing"


def test_a_rebuild_with_nothing_changed_executes_no_notebook(built_book):
    """`make book` after `make test` (or twice) re-executes nothing: the same spelling of the build
    (conftest.build_book) and fresh_outputs.py, which re-executes only when the sources change."""
    if os.environ.get(BUILT_BOOK_ENV):
        pytest.skip(f"{BUILT_BOOK_ENV} names a book built elsewhere: no build of this tree to repeat")
    result = BOOK_BUILDS["rebuild"]  # built_book repeats its build at once, nothing changed
    log = result.stdout + result.stderr
    assert result.returncode == 0, f"the rebuild failed:\n{log[-6000:]}"
    executed = re.findall(r"(\S+): Executing notebook", log)
    assert not executed, f"a rebuild with nothing changed executed {executed}:\n{log[-3000:]}"
    assert "0 added, 0 changed, 0 removed" in log, log[-3000:]


class _Apparatus(HTMLParser):
    """Glossary links, numbered exercises and solutions of one built page."""

    def __init__(self):
        super().__init__()
        self.terms, self.exercises, self.solutions = set(), [], 0
        self._caption = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        href = attrs.get("href") or ""
        if tag == "a" and "glossary.html#term-" in href:
            self.terms.add(href.split("#", 1)[1])
        if "exercise" in classes and "admonition" in classes:
            self.exercises.append("")
            self._caption = "exercise"
        if "solution" in classes and "admonition" in classes:
            self.solutions += 1

    def handle_data(self, data):
        if self._caption and data.strip():
            self.exercises[-1] += data.strip() + " "
            if len(self.exercises[-1]) > 12:
                self._caption = None


def _apparatus_problems(html: Path) -> dict[str, list[str]]:
    problems = {}
    for page in _chapters(pages(html)):
        found = _Apparatus()
        found.feed((html / page).read_text())
        numbered = [title for title in found.exercises if re.match(r"Exercise \d+", title)]
        page_problems = []
        if not found.terms:
            page_problems.append("links no glossary term ({term}`...` on first use)")
        if len(numbered) < MIN_EXERCISES:
            page_problems.append(f"has {len(numbered)} numbered exercises ({{exercise}} directives): "
                                 f"at least {MIN_EXERCISES} needed")
        if found.solutions < len(numbered):
            page_problems.append(f"has {found.solutions} solutions for {len(numbered)} exercises")
        headings = {re.sub(r"\W", "", h.lower()) for h in re.findall(r"<h2>(.*?)<a", (html / page).read_text())}
        for wanted in ("Summary", "What's next"):
            if page != "book/intro.html" and re.sub(r"\W", "", wanted.lower()) not in headings:
                page_problems.append(f"has no '## {wanted}' section")
        source = ROOT / page.replace(".html", ".md")
        if source.exists() and "{solution-start}" in source.read_text():
            page_problems.append("uses gated solutions (solution-start), which a teacher's copy cannot hide")
        if page_problems:
            problems[page] = page_problems
    return problems


def test_every_chapter_links_the_glossary_and_has_numbered_exercises(built_book):
    """Glossary links, six numbered exercises with solutions, a Summary and a What's next (not the intro)."""
    problems = _apparatus_problems(built_book)
    assert not problems, by_page(problems)


def _search(context, url: str) -> tuple[list[str], list[str], int]:
    """The search page at ``url`` (asking for "queue"): its console errors, the non-file, non-localhost
    requests it made, and how many of its results show a snippet."""
    errors, blocked = [], []
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
                  else only_localhost(route, blocked))
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}?q=queue", wait_until="load")
    results = page.locator("#search-results ul.search li")
    results.first.wait_for(timeout=15_000)
    page.wait_for_timeout(1500)  # each result's snippet is fetched (or refused) after the result is listed
    count, snippets = results.count(), page.locator("#search-results ul.search li p.context").count()
    page.close()
    assert count > 0, f"{url}: the search for 'queue' listed no page"
    return errors, blocked, snippets


@pytest.mark.browser
def test_search_works_from_files_without_console_errors_and_with_snippets_when_served(built_book, book_url):
    """Opened as files (``file://``, no server), the search page lists the matching pages and logs no
    error: a browser refuses a file's fetch of another file, so the results come without their
    snippets (``book/_ext/static/file_search.js``); served over http, they keep them."""
    playwright = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: make test installs Debian's chromium (make browser)")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        from_file = _search(browser.new_context(), (built_book / "search.html").as_uri())
        served = _search(browser.new_context(), f"{book_url}/search.html")
        browser.close()
    assert from_file[:2] == ([], []), f"from file://: console errors {from_file[0]}, requests {from_file[1]}"
    assert from_file[2] == 0
    assert served[:2] == ([], []) and served[2] > 0, f"served: {served}"


