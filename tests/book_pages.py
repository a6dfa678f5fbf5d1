"""Every page of the built book opened in headless Chromium at one window width, offline.

The browser suites (``test_book_wide.py`` at a desktop's 1300 px, ``test_book_narrow.py`` at a phone's
420 px) each render every page once at their width, with every non-localhost request blocked, and
check what the pass measured; the two files run on whichever test workers are free once the book is
built (xdist hands out whole files).  Screenshots of every page at both widths land in
``_build/screenshots/``.  Failures are listed page by page, so each chapter's author sees what to fix.
"""

from pathlib import Path

import pytest

from book_layout import ARGUMENTS, LAYOUT
from conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, only_localhost
from perfstudies import self_checks

SCREENSHOTS = ROOT / "_build" / "screenshots"
#: A desktop window and a phone's.
WIDE, NARROW = 1300, 420
# marks Vega draws as SVG paths, symbols, lines, rects or text inside a mark group
MARKS = "g[class*='mark-'] path, g[class*='mark-'] line, g[class*='mark-'] rect, g[class*='mark-'] text"

#: Measured in the page: the text column's width, every chart's drawn and natural width,
#: every table's width, the page's scroll width, the text of every table cell, and every live
#: panel's scroll and client widths.
MEASURE = """() => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main');
  const style = getComputedStyle(article);
  const column = article.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const charts = [...document.querySelectorAll('.perfstudies-chart')].map((chart, index) => {
    const svg = chart.querySelector('svg');
    return {index, title: (chart.querySelector('svg .role-title-text') || {}).textContent || '',
            container: chart.clientWidth, natural: svg ? parseFloat(svg.getAttribute('width')) : 0,
            shown: svg ? svg.getBoundingClientRect().width : 0};
  });
  const tables = [...article.querySelectorAll('table')].map((table, index) => {
    const head = [...table.querySelectorAll('th')].slice(0, 3).map(th => th.textContent.trim()).join(' | ');
    return {index, head, width: table.getBoundingClientRect().width,
            cells: [...table.querySelectorAll('td, th')].map(cell => cell.textContent.trim())};
  });
  const panels = [...document.querySelectorAll('.perfstudies-live-panel')].map((panel, index) => (
    {index, scrollWidth: panel.scrollWidth, clientWidth: panel.clientWidth,
     width: panel.getBoundingClientRect().width}));
  return {column, scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth, charts, tables, panels};
}"""


def pages(html: Path) -> list[str]:
    return sorted(str(p.relative_to(html)) for p in html.rglob("*.html")
                  if p.parts[len(html.parts)] in ("book", "notebooks"))



def render_pages(built_book: Path, book_url: str, width: int) -> dict:
    """Every page opened in Chromium at ``width``: measurements by page, console problems, blocked requests,
    the pages whose kernel-free slider moved its chart and (at the wide width) the self-checks answered."""
    playwright = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: make test installs Debian's chromium (make browser)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    result = {"problems": [], "blocked": [], "slider_pages": [], "self_checks": {}, "pages": {}}
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": width, "height": 900})
        context.route("**/*", lambda route: only_localhost(route, result["blocked"]))
        for page_path in pages(built_book):
            result["pages"][page_path] = _render(context, book_url, page_path, width, result)
        context.close()
        browser.close()
    return result


def _render(context, book_url, page_path, width, result):
    problems = result["problems"]
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and problems.append(f"{page_path} ({width} px): {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"{page_path} ({width} px): {e}"))
    page.goto(f"{book_url}/{page_path}", wait_until="load")
    charts = page.locator(".perfstudies-chart")
    for index in range(charts.count()):
        chart = charts.nth(index)
        chart.scroll_into_view_if_needed()
        chart.locator(MARKS).first.wait_for(state="attached", timeout=15_000)
    if page.locator(".math").count():
        page.locator("mjx-container").first.wait_for(state="attached", timeout=15_000)
    page.wait_for_timeout(300)  # container-sized charts redraw once their width is known
    measured = page.evaluate(MEASURE)
    measured["layout"] = page.evaluate(LAYOUT, ARGUMENTS)
    page.evaluate("window.scrollTo(0, 0)")
    # A window as tall as the page first: Chromium's full-page capture otherwise resizes the window
    # for the shot, and charts sized to their container redraw at a transient width.
    page.set_viewport_size({"width": width, "height": page.evaluate("document.documentElement.scrollHeight")})
    page.wait_for_timeout(300)
    page.screenshot(path=str(SCREENSHOTS / f"{page_path.replace('/', '__')}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": width, "height": 900})
    if width == WIDE and page.locator(".perfstudies-chart input[type=range]").count():
        result["slider_pages"].append(page_path)
        _move_slider_and_check_chart_changes(page, page_path, problems)
    chapter = page_path.removesuffix(".html")
    if width == WIDE and chapter in self_checks.CHAPTER_QUESTIONS:  # after the screenshot: it fills the forms
        typed = [[_wrong(question), question.shown_answer] for question in self_checks.for_chapter(chapter).questions]
        result["self_checks"][chapter] = page.evaluate(CHECK_ANSWERS, typed)
    page.close()
    return measured


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



def layout_problems(rendered: dict, width: int, problems_of) -> dict[str, list[str]]:
    """``problems_of(layout)`` of every page rendered at ``width``, by page."""
    problems = {}
    for page, measured in rendered["pages"].items():
        for problem in problems_of(measured["layout"]):
            problems.setdefault(page, []).append(f"({width} px) {problem}")
    return problems


def offline_problems(rendered: dict) -> list[str]:
    """What the pass saw go wrong on any page: requests past localhost, console errors, page errors."""
    blocked = sorted(set(rendered["blocked"]))
    return ([f"pages asked for non-localhost resources: {blocked}"] if blocked else []) + rendered["problems"]


def by_page(problems: dict[str, list[str]]) -> str:
    return "\n".join(f"{page}:\n  " + "\n  ".join(items) for page, items in sorted(problems.items()))


#: Types each given answer into its form and submits it as the Check button does; returns, per form and
#: answer, what was typed, the form's classes and what the form then says.
CHECK_ANSWERS = """(typed) => [...document.querySelectorAll('form.perfstudies-self-check')].map((form, index) =>
  typed[index].map(text => {
    form.querySelector('input').value = text;
    form.requestSubmit(form.querySelector('button'));
    return [text, form.className, form.querySelector('.perfstudies-self-check-verdict').textContent];
  }))"""


def _wrong(question) -> str:
    """A number outside the question's tolerance."""
    return repr(question.answer + 1 if question.tolerance == 0 else question.answer * (1 + 3 * question.tolerance))
