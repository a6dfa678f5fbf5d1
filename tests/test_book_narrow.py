"""The built book in Chromium at a phone's width (420 px), offline: what a reader on a phone sees.

Every page renders with no console error and no request past localhost, no page scrolls sideways,
no chart or live panel is wider than its box, nothing but a cued table scrolls sideways inside a
page, and the chart labels and promises hold at this width too (``book_pages`` renders the pages).
"""

import pytest

from book_layout import chart_problems, scroll_problems
from book_pages import NARROW, by_page, layout_problems, offline_problems, render_pages

pytestmark = pytest.mark.book


@pytest.fixture(scope="module")
def rendered(built_book, book_url):
    return render_pages(built_book, book_url, NARROW)


@pytest.mark.browser
def test_every_page_renders_offline_in_chromium_at_420_px(rendered):
    problems = offline_problems(rendered)
    assert not problems, "\n".join(problems)


@pytest.mark.browser
def test_no_page_scrolls_sideways_at_420_px(rendered):
    problems = {}
    for page, measured in rendered["pages"].items():
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
    assert not problems, by_page(problems)


@pytest.mark.browser
@pytest.mark.parametrize("kind", ["overlaps", "spills", "outside", "broken"])
def test_chart_labels_and_promises_at_420_px(rendered, kind):
    """As at 1300 px (test_book_wide.py): labels apart and inside, promised marks drawn."""
    problems = layout_problems(rendered, NARROW, lambda layout: chart_problems(layout, kind))
    assert not problems, by_page(problems)


@pytest.mark.browser
def test_nothing_scrolls_sideways_inside_a_page_at_420_px_but_a_cued_table(rendered):
    """A box that scrolls sideways hides part of itself: only a table may, and it shows that it does."""
    problems = layout_problems(rendered, NARROW, scroll_problems)
    assert not problems, by_page(problems)
