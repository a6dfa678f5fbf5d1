"""The built book in Chromium at a desktop's width (1300 px), offline: what a reader at a desk sees.

Every page renders with no console error and no request past localhost, every chart draws, every
kernel-free slider moves its chart, charts and tables fit the text column, no table cell shows a raw
float, no two chart labels overlap, no label spills out of its box or its figure, every band or line a
chart promises is drawn, glued numbers keep their sentence's weight, and every self-check accepts its
answer and refuses a wrong one (``book_pages`` renders the pages; ``book_layout`` reads their layout).
"""

import re

import pytest

from book_layout import chart_problems
from book_pages import WIDE, by_page, layout_problems, offline_problems, render_pages
from perfstudies import self_checks
from perfstudies.studies import STUDIES

pytestmark = pytest.mark.book
#: What a reader-facing table cell must never show: NaN, or a number in exponent notation.
RAW_CELL = re.compile(r"(?i:\bnan\b)|\d[eE][+-]\d")


@pytest.fixture(scope="module")
def rendered(built_book, book_url):
    return render_pages(built_book, book_url, WIDE)


@pytest.mark.browser
def test_every_page_renders_offline_in_chromium(rendered):
    problems = offline_problems(rendered)
    assert not problems, "\n".join(problems)
    chapters = ({"book/intro.html"} | {f"notebooks/{key}.html" for key in STUDIES}) & set(rendered["pages"])
    missing = chapters - set(rendered["slider_pages"])
    assert not missing, f"pages without a kernel-free slider: {missing}"


@pytest.mark.browser
def test_charts_and_tables_fit_the_text_column_at_1300_px(rendered):
    problems = {}
    for page, measured in rendered["pages"].items():
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
    assert not problems, by_page(problems)


@pytest.mark.browser
def test_no_table_cell_shows_nan_or_exponent_notation(rendered):
    problems = {}
    for page, measured in rendered["pages"].items():
        for table in measured["tables"]:
            raw = sorted({cell for cell in table["cells"] if RAW_CELL.search(cell)})
            if raw:
                problems.setdefault(page, []).append(
                    f"table {table['index'] + 1} ({table['head'][:50]!r}) shows {raw[:5]} (use tables.readable)")
    assert not problems, by_page(problems)


@pytest.mark.browser
@pytest.mark.parametrize("kind", ["overlaps", "spills", "outside", "broken"])
def test_chart_labels_and_promises_at_1300_px(rendered, kind):
    """No two labels of a chart overlap, no diagram label spills out of its box, no legend entry lies
    outside its figure, and a band, interval, line or markers a chart's title or legend names is drawn
    where a reader can see it (book_layout.chart_problems of that kind)."""
    problems = layout_problems(rendered, WIDE, lambda layout: chart_problems(layout, kind))
    assert not problems, by_page(problems)


@pytest.mark.browser
def test_glued_numbers_are_set_in_the_weight_of_their_sentence(rendered):
    """myst-nb sets glued text bold; the book's stylesheet sets it as its sentence is (bold inside **...**)."""
    problems = {page: [f"glued {text!r} is bolder than its sentence" for text in measured["layout"]["shouted"]]
                for page, measured in rendered["pages"].items() if measured["layout"]["shouted"]}
    assert not problems, by_page(problems)


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
