"""The book builds cleanly, fails on a raising cell, and works in a real browser offline.

The browser tests open every page in headless Chromium at two window widths, a
desktop's (1300 px) and a phone's (420 px), with every non-localhost request
blocked, and check what a reader would see: no console error, every chart
drawn, sliders that change their chart, charts and tables no wider than the
text column, no page that scrolls sideways, no raw ``nan`` or exponent in a
table; and what a reader would otherwise catch by eye (``book_layout``): no two
labels of a chart overlapping, no diagram label spilling out of its box, no
legend entry outside its figure, no band, interval, line or markers promised by a chart's title or
legend left undrawn, nothing but a cued table scrolling sideways; and search from the built files
(``file://``) without console errors.  Screenshots of every page at both widths, a screen at a time, land in
``_build/screenshots/<page>-<width>/``.
Failures are listed page by page, so each chapter's author sees what to fix.
"""

import base64
import importlib.util
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from book_layout import ARGUMENTS, LAYOUT, chart_problems, scroll_problems
from conftest import BOOK_BUILDS, BUILT_BOOK_ENV, CHROMIUM, CHROMIUM_ARGS, ROOT, only_localhost
from perfstudies import self_checks
from perfstudies.studies import STUDIES

pytestmark = pytest.mark.book
SCREENSHOTS = ROOT / "_build" / "screenshots"
#: A desktop window and a phone's, and the window's height.
WIDE, NARROW = 1300, 420
WINDOW_HEIGHT = 900
#: How much of one screenshot the next one repeats at its top (more than the sticky header's height).
SCREEN_OVERLAP = 100
# marks Vega draws as SVG paths, symbols, lines, rects or text inside a mark group
MARKS = "g[class*='mark-'] path, g[class*='mark-'] line, g[class*='mark-'] rect, g[class*='mark-'] text"
#: What a reader-facing table cell must never show: NaN, or a number in exponent notation.
RAW_CELL = re.compile(r"(?i:\bnan\b)|\d[eE][+-]\d")
#: Chapters need at least this many numbered exercises, each with a solution.
MIN_EXERCISES = 6

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


def _pages(html: Path) -> list[str]:
    return sorted(str(p.relative_to(html)) for p in html.rglob("*.html")
                  if p.parts[len(html.parts)] in ("book", "notebooks"))


def _chapters(pages) -> list[str]:
    """The chapters: every study notebook, *Queueing in one page* when present, and the introduction."""
    return [page for page in pages if page.startswith("notebooks/") or page in ("book/queueing.html",
                                                                                  "book/intro.html")]


def test_book_builds_with_every_notebook_executed(built_book):
    pages = _pages(built_book)
    assert {"book/intro.html", "book/accuracy.html", "book/glossary.html", "book/references.html"} <= set(pages)
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
    for page in _chapters(_pages(html)):
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
    assert not problems, _by_page(problems)


def _by_page(problems: dict[str, list[str]]) -> str:
    return "\n".join(f"{page}:\n  " + "\n  ".join(items) for page, items in sorted(problems.items()))


@pytest.fixture(scope="session")
def rendered(built_book, book_url):
    """Every page opened in Chromium at both widths: measurements, console problems, screenshots."""
    playwright = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: make test installs Debian's chromium (make browser)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    result = {"problems": [], "blocked": [], "slider_pages": [], "self_checks": {}, WIDE: {}, NARROW: {}}
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for width in (WIDE, NARROW):
            context = browser.new_context(viewport={"width": width, "height": WINDOW_HEIGHT})
            context.route("**/*", lambda route: only_localhost(route, result["blocked"]))
            for page_path in _pages(built_book):
                result[width][page_path] = _render(context, book_url, page_path, width, result)
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
    _screenshots(page, page_path, width)
    if width == WIDE and page.locator(".perfstudies-chart input[type=range]").count():
        result["slider_pages"].append(page_path)
        _move_slider_and_check_chart_changes(page, page_path, problems)
    chapter = page_path.removesuffix(".html")
    if width == WIDE and chapter in self_checks.CHAPTER_QUESTIONS:  # after the screenshot: it fills the forms
        typed = [[_wrong(question), question.shown_answer] for question in self_checks.for_chapter(chapter).questions]
        result["self_checks"][chapter] = page.evaluate(CHECK_ANSWERS, typed)
    page.close()
    return measured


def _screenshots(page, page_path, width):
    """The page as a reader scrolls through it: one window-sized shot per screen, each one viewable.

    A single full-page shot of a chapter is 30,000-55,000 px tall: no image viewer shows it whole.
    Consecutive screens overlap by ``SCREEN_OVERLAP`` px, so a line the theme's sticky header covers at
    the top of one is seen at the bottom of the one before.  Each screen is taken by Chromium's own
    ``Page.captureScreenshot`` with ``optimizeForSpeed`` (a faster PNG encoder, larger files): vts's 49
    screens at 1,300 px took 4.0 s that way against 7.5 s through Playwright's ``page.screenshot``."""
    folder = SCREENSHOTS / f"{page_path.replace('/', '__')}-{width}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    chromium = page.context.new_cdp_session(page)
    height = page.evaluate("document.documentElement.scrollHeight")
    for number, top in enumerate(range(0, height, WINDOW_HEIGHT - SCREEN_OVERLAP), start=1):
        page.evaluate(f"window.scrollTo(0, {top})")
        shot = chromium.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
        (folder / f"{number:02d}.png").write_bytes(base64.b64decode(shot["data"]))
    chromium.detach()
    page.evaluate("window.scrollTo(0, 0)")


@pytest.mark.browser
def test_every_page_renders_offline_in_chromium(rendered):
    assert not rendered["blocked"], f"pages asked for non-localhost resources: {sorted(set(rendered['blocked']))}"
    assert not rendered["problems"], "\n".join(rendered["problems"])
    chapters = ({"book/intro.html"} | {f"notebooks/{key}.html" for key in STUDIES}) & set(rendered[WIDE])
    missing = chapters - set(rendered["slider_pages"])
    assert not missing, f"pages without a kernel-free slider: {missing}"


@pytest.mark.browser
def test_charts_and_tables_fit_the_text_column_at_1300_px(rendered):
    problems = {}
    for page, measured in rendered[WIDE].items():
        column = measured["column"]
        for chart in measured["charts"]:
            if chart["natural"] > column + 1:
                problems.setdefault(page, []).append(
                    f"chart {chart['index'] + 1} ({chart['title'][:50]!r}) is {chart['natural']:.0f} px wide "
                    f"in a {column:.0f} px column")
        for table in measured["tables"]:
            if table["width"] > column + 1:
                problems.setdefault(page, []).append(
                    f"table {table['index'] + 1} ({table['head'][:50]!r}) is {table['width']:.0f} px wide "
                    f"in a {column:.0f} px column (tables.split or tables.long_format)")
    assert not problems, _by_page(problems)


@pytest.mark.browser
def test_no_page_scrolls_sideways_at_420_px(rendered):
    problems = {}
    for page, measured in rendered[NARROW].items():
        if measured["scrollWidth"] > measured["clientWidth"] + 1:
            problems.setdefault(page, []).append(
                f"the page is {measured['scrollWidth']} px wide in a {measured['clientWidth']} px window")
        for chart in measured["charts"]:
            if chart["shown"] > chart["container"] + 1:
                problems.setdefault(page, []).append(
                    f"chart {chart['index'] + 1} ({chart['title'][:50]!r}) shows {chart['shown']:.0f} px "
                    f"in {chart['container']:.0f} px")
        for panel in measured["panels"]:  # controls stack, tables fold: nothing scrolls inside the panel
            if panel["scrollWidth"] > panel["clientWidth"] + 1 or panel["width"] > measured["column"] + 1:
                problems.setdefault(page, []).append(
                    f"live panel {panel['index'] + 1} scrolls sideways: {panel['scrollWidth']} px of content in "
                    f"{panel['clientWidth']} px, {panel['width']:.0f} px in a {measured['column']:.0f} px column")
    assert not problems, _by_page(problems)


@pytest.mark.browser
def test_no_table_cell_shows_nan_or_exponent_notation(rendered):
    problems = {}
    for page, measured in rendered[WIDE].items():
        for table in measured["tables"]:
            raw = sorted({cell for cell in table["cells"] if RAW_CELL.search(cell)})
            if raw:
                problems.setdefault(page, []).append(
                    f"table {table['index'] + 1} ({table['head'][:50]!r}) shows {raw[:5]} (use tables.readable)")
    assert not problems, _by_page(problems)


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


def _layout_problems(rendered, widths, problems_of) -> dict[str, list[str]]:
    problems = {}
    for width in widths:
        for page, measured in rendered[width].items():
            for problem in problems_of(measured["layout"]):
                problems.setdefault(page, []).append(f"({width} px) {problem}")
    return problems


@pytest.mark.browser
def test_no_two_labels_of_a_chart_overlap(rendered):
    """Axis labels, legend labels, titles and mark labels of one chart, at both widths."""
    problems = _layout_problems(rendered, (WIDE, NARROW), lambda layout: chart_problems(layout, "overlaps"))
    assert not problems, _by_page(problems)


@pytest.mark.browser
def test_every_diagram_label_stays_inside_its_box(rendered):
    problems = _layout_problems(rendered, (WIDE, NARROW), lambda layout: chart_problems(layout, "spills"))
    assert not problems, _by_page(problems)


@pytest.mark.browser
def test_every_legend_entry_is_inside_its_figure(rendered):
    problems = _layout_problems(rendered, (WIDE, NARROW), lambda layout: chart_problems(layout, "outside"))
    assert not problems, _by_page(problems)


@pytest.mark.browser
def test_every_promise_of_a_chart_title_or_legend_is_drawn(rendered):
    """A band, an interval, a line, a dashed line or markers that a chart's title or legend names is drawn
    where a reader can see it (a band 4 px thick somewhere, clear of a 2 px line; a line 10 px long), at both widths."""
    problems = _layout_problems(rendered, (WIDE, NARROW), lambda layout: chart_problems(layout, "broken"))
    assert not problems, _by_page(problems)


@pytest.mark.browser
def test_nothing_scrolls_sideways_inside_a_page_at_420_px_but_a_cued_table(rendered):
    """A box that scrolls sideways hides part of itself: only a table may, and it shows that it does."""
    problems = _layout_problems(rendered, (NARROW,), scroll_problems)
    assert not problems, _by_page(problems)


@pytest.mark.browser
def test_glued_numbers_are_set_in_the_weight_of_their_sentence(rendered):
    """myst-nb sets glued text bold; the book's stylesheet sets it as its sentence is (bold inside **...**)."""
    problems = {page: [f"glued {text!r} is bolder than its sentence" for text in measured["layout"]["shouted"]]
                for page, measured in rendered[WIDE].items() if measured["layout"]["shouted"]}
    assert not problems, _by_page(problems)


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


@pytest.mark.browser
def test_every_chapters_self_check_questions_accept_the_answer_and_refuse_a_wrong_one(rendered):
    """On every chapter: a number outside each question's tolerance is refused, the answer as the page
    shows it once found is accepted (perfstudies.self_checks computes both; the page's script checks).
    The forms are filled on the pages the ``rendered`` pass opened, after their screenshots."""
    problems = []
    for chapter in self_checks.CHAPTER_QUESTIONS:
        questions, checked = self_checks.for_chapter(chapter).questions, rendered["self_checks"].get(chapter, [])
        if len(checked) != len(questions):
            problems.append(f"{chapter}: {len(checked)} self-check forms for {len(questions)} questions")
            continue
        for index, (question, answers) in enumerate(zip(questions, checked)):
            for (text, classes, said), verdict in zip(answers, ("perfstudies-wrong", "perfstudies-right")):
                if verdict not in classes.split():
                    problems.append(f"{chapter} Q{index + 1}: typing {text!r} gave {classes!r}, "
                                    f"not {verdict} (answer {question.answer!r} {question.rule})")
            if question.shown_answer not in said:
                problems.append(f"{chapter} Q{index + 1}: a right answer says {said!r}")
    assert not problems, "\n".join(problems)


def test_a_chapter_typesets_to_an_a4_pdf_with_its_charts_drawn(built_book, tmp_path):
    """`make pdf CHAPTER=spxtape` on the book this session built: TeX typesets it, nothing executes."""
    spec = importlib.util.spec_from_file_location("pdf", ROOT / "scripts" / "pdf.py")
    pdf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pdf)
    import nbformat
    from pypdf import PdfReader

    executed = nbformat.read(built_book.parent / "jupyter_execute" / "notebooks" / "spxtape.ipynb", as_version=4)
    charts = sum('class="perfstudies-chart"' in "".join(output.get("data", {}).get("text/html", ""))
                 for cell in executed.cells for output in cell.get("outputs", []))
    environment = dict(os.environ)
    printed = PdfReader(pdf.build("reader", "spxtape", tmp_path / "spxtape.pdf"))
    # Sphinx ran in this process: what it set (the book build's flag) must not reach a later JupyterLab
    assert dict(os.environ) == environment, "the PDF build left the process's environment changed"
    text = " ".join(page.extract_text() for page in printed.pages)
    width, height = (float(side) * 25.4 / 72 for side in printed.pages[0].mediabox[2:])
    assert (round(width), round(height)) == (210, 297), "A4 portrait"
    assert len(printed.pages) >= 10
    assert "SPXTAPE" in text and "Exercise 2.1" in text and "Exercise 2.6" in text, "the chapter, numbered"
    assert "??" not in text, "every reference resolved"
    drawn = {(index, name) for index, page in enumerate(printed.pages)
             for name, image in page.get("/Resources", {}).get("/XObject", {}).items()
             if image.get_object().get("/Subtype") in ("/Form", "/Image")}
    assert charts >= 3 and len(drawn) >= charts, f"{len(drawn)} drawings for {charts} charts"
