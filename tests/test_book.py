"""The book builds cleanly, fails on a raising cell, and works in a real browser offline."""

import os
import shutil
from pathlib import Path
from urllib.parse import urlparse

import pytest

from conftest import HTML, ROOT, build_book
from perfstudies.studies import STUDIES

pytestmark = pytest.mark.book
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
SCREENSHOTS = ROOT / "_build" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# marks Vega draws as SVG paths, symbols, lines, rects or text inside a mark group
MARKS = "g[class*='mark-'] path, g[class*='mark-'] line, g[class*='mark-'] rect, g[class*='mark-'] text"


def _pages(html: Path) -> list[str]:
    return sorted(str(p.relative_to(html)) for p in html.rglob("*.html")
                  if p.parts[len(html.parts)] in ("book", "notebooks"))


def test_book_builds_with_every_notebook_executed(built_book):
    pages = _pages(built_book)
    assert {"book/intro.html", "book/accuracy.html", "book/glossary.html", "book/references.html"} <= set(pages)
    intro = (built_book / "book" / "intro.html").read_text()
    assert "perfstudies-chart" in intro, "the intro's executed chart output is missing"
    assert (built_book / "_sources" / "book" / "intro.ipynb").exists(), "chapter .ipynb download missing"


def test_a_raising_cell_fails_the_build(tmp_path):
    (tmp_path / "_ext").symlink_to(ROOT / "book" / "_ext")
    shutil.copy(ROOT / "book" / "_config.yml", tmp_path / "_config.yml")
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: broken\n")
    (tmp_path / "broken.md").write_text((ROOT / "book" / "intro.md").read_text().split("---", 2)[1].join(
        ["---", "---\n\n# Broken\n\n```{code-cell} ipython3\nraise RuntimeError('deliberate')\n```\n"]))
    result = build_book(tmp_path, tmp_path / "_config.yml", tmp_path / "_toc.yml", output=tmp_path / "out")
    assert result.returncode != 0
    assert "deliberate" in result.stdout + result.stderr


@pytest.mark.browser
def test_every_page_renders_offline_in_chromium(book_url):
    playwright = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    problems, blocked, slider_pages = [], [], []
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1300, "height": 900})
        context.route("**/*", lambda route: _only_localhost(route, blocked))
        for page_path in _pages(HTML):
            page = context.new_page()
            page.on("console", lambda m, where=page_path: m.type == "error" and problems.append(f"{where}: {m.text}"))
            page.on("pageerror", lambda e, where=page_path: problems.append(f"{where}: {e}"))
            page.goto(f"{book_url}/{page_path}", wait_until="load")
            charts = page.locator(".perfstudies-chart")
            for index in range(charts.count()):
                chart = charts.nth(index)
                chart.scroll_into_view_if_needed()
                chart.locator(MARKS).first.wait_for(state="attached", timeout=15_000)
            if page.locator(".math").count():
                page.locator("mjx-container").first.wait_for(state="attached", timeout=15_000)
            if page.locator(".perfstudies-chart input[type=range]").count():
                slider_pages.append(page_path)
                _move_slider_and_check_chart_changes(page, page_path, problems)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(SCREENSHOTS / (page_path.replace("/", "__") + ".png")), full_page=True)
            page.close()
        browser.close()
    assert not blocked, f"pages asked for non-localhost resources: {sorted(set(blocked))}"
    assert not problems, "\n".join(problems)
    chapters = {"book/intro.html"} | {f"notebooks/{key}.html" for key in STUDIES}
    assert chapters <= set(slider_pages), f"pages without a kernel-free slider: {chapters - set(slider_pages)}"


def _only_localhost(route, blocked):
    host = urlparse(route.request.url).hostname
    if route.request.url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
        return route.continue_()
    blocked.append(route.request.url)
    return route.abort()


def _move_slider_and_check_chart_changes(page, page_path, problems):
    chart = page.locator(".perfstudies-chart", has=page.locator("input[type=range]")).first
    slider = chart.locator("input[type=range]").first
    before = chart.locator("svg").first.inner_html()
    target = slider.get_attribute("max")
    if slider.input_value() == target:
        target = slider.get_attribute("min")
    slider.fill(target)
    page.wait_for_timeout(500)
    if chart.locator("svg").first.inner_html() == before:
        problems.append(f"{page_path}: moving the slider to {target} did not change the chart")
