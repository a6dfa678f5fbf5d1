"""The by-eye checks of ``book_layout`` find what they look for, on a hand-made page in Chromium.

The book's own pages should pass them; this page must not, so a check that could never fail
(a selector that matches nothing, a box measured wrong) shows here.
"""

import pytest

from book_layout import ARGUMENTS, LAYOUT, chart_problems, scroll_problems
from conftest import CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.browser

#: A chart whose axis labels collide, two that touch (and two rotated ones that do not, though their upright boxes
#: would), a hidden label, a diagram label wider than its box, a legend entry past the figure's
#: right edge; a glued number bolder than its sentence (and one stressed with its sentence); a plain box that scrolls sideways and a table that scrolls with a cue.
#: Then three charts whose titles and legends make promises: the first breaks four (its band, steep
#: and tall as a whole, is 1 px thick at any x; its dashed line is hidden; it has no error bar and no
#: marker), the second keeps a band, a solid and a dashed line and markers, the third an interval by
#: its error bar alone.
PAGE = """<!DOCTYPE html><html><body><article class="bd-article">
<div class="perfstudies-chart" style="width: 300px">
 <svg width="300" height="220" viewBox="0 0 300 220" style="font: 12px sans-serif">
  <g class="mark-text role-title-text"><text x="5" y="15">A chart</text></g>
  <g class="mark-text role-axis-label">
   <text x="20" y="60">0.02</text><text x="36" y="60">0.03</text>
   <text x="60" y="90" text-anchor="end">0.12</text><text x="61" y="90">0.13</text>
   <text x="120" y="60" opacity="0">hidden</text><text x="124" y="60">seen</text>
   <text transform="translate(180,90) rotate(-45)">rotated one</text>
   <text transform="translate(205,90) rotate(-45)">rotated two</text>
  </g>
  <g class="mark-rect role-mark"><path d="M0,0h60v30h-60Z" transform="translate(20,120)"></path></g>
  <g class="mark-text role-mark"><text x="50" y="140" text-anchor="middle">far too long for its box</text></g>
  <g class="mark-group role-legend"><g class="mark-text role-legend-label">
   <text x="230" y="200">held: interrupt pending</text></g></g>
 </svg>
</div>
<div class="perfstudies-chart" style="width: 300px">
 <svg width="300" height="220" viewBox="0 0 300 220" style="font: 12px sans-serif">
  <g class="mark-text role-title-text"><text x="5" y="15"><tspan>Mean with its 95% CI</tspan><tspan x="5" dy="14">band,
   bound dashed, points</tspan></text></g>
  <g class="mark-area role-mark"><path d="M20,200L280,60L280,61L20,201Z" fill="#888"></path></g>
  <g class="mark-line role-mark"><path d="M20,190L280,50" stroke="#000" fill="none"></path></g>
  <g class="mark-line role-mark"><path d="M20,180L280,40" stroke="#000" stroke-dasharray="6,3" opacity="0"></path></g>
 </svg>
</div>
<div class="perfstudies-chart" style="width: 300px">
 <svg width="300" height="220" viewBox="0 0 300 220" style="font: 12px sans-serif">
  <g class="mark-text role-title-text"><text x="5" y="15">Mean (solid line), bound (dashed) and points</text></g>
  <g class="mark-area role-mark"><path d="M20,100L150,80L280,60L280,75L150,95L20,115Z" fill="#888"></path></g>
  <g class="mark-line role-mark"><path d="M20,190L280,50" stroke="#000" fill="none"></path></g>
  <g class="mark-line role-mark"><path d="M20,180L280,40" stroke="#000" stroke-dasharray="6,3" fill="none"></path></g>
  <g class="mark-symbol role-mark"><path transform="translate(150,120)" d="M3,0A3,3,0,1,1,-3,0A3,3,0,1,1,3,0"></path></g>
  <g class="mark-group role-legend"><g class="mark-text role-legend-label">
   <text x="20" y="210">shaded: the bounds</text></g></g>
 </svg>
</div>
<div class="perfstudies-chart" style="width: 300px">
 <svg width="300" height="220" viewBox="0 0 300 220" style="font: 12px sans-serif">
  <g class="mark-text role-title-text"><text x="5" y="15">Simulation with 95% CI</text></g>
  <g class="mark-rule role-mark"><line x1="150" y1="100" x2="150" y2="130" stroke="#d95f02"></line></g>
 </svg>
</div>
<p>A glued <span class="pasted-text" style="font-weight: bold">1,480</span> shouts;
 <strong>a stressed <span class="pasted-text">12</span></strong> does not.</p>
<div style="width: 200px; overflow-x: auto"><div style="width: 400px">a wide box</div></div>
<div style="width: 200px; overflow-x: auto; background-image: linear-gradient(to right, #fff, #eee)">
 <table><tr><td style="min-width: 400px">a wide table</td></tr></table></div>
</article></body></html>"""


@pytest.fixture(scope="module")
def layout():
    playwright = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: make test installs Debian's chromium (make browser)")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 420, "height": 600})
        page.set_content(PAGE)
        measured = page.evaluate(LAYOUT, ARGUMENTS)
        browser.close()
    return measured


def test_overlapping_and_touching_labels_are_found_and_rotated_neighbours_are_not(layout):
    overlaps = chart_problems(layout, "overlaps")
    assert len(overlaps) == 2, overlaps
    assert '"0.02" (axis label) and "0.03" (axis label)' in overlaps[0]
    assert '"0.12" (axis label) and "0.13" (axis label)' in overlaps[1], "1 px apart they read as one number"
    assert overlaps[0].startswith("chart 1 ('A chart')")


def test_a_label_spilling_out_of_its_box_is_found(layout):
    spills = chart_problems(layout, "spills")
    assert len(spills) == 1 and '"far too long for its box" spills' in spills[0], spills


def test_a_legend_entry_past_the_figure_is_found(layout):
    outside = chart_problems(layout, "outside")
    assert len(outside) == 1 and 'legend entry "held: interrupt pending"' in outside[0], outside


def test_only_a_cued_table_may_scroll_sideways(layout):
    problems = scroll_problems(layout)
    assert len(problems) == 1, problems
    assert "'a wide box'" in problems[0] and "not a table" in problems[0] and "no visible cue" in problems[0]
    assert len(layout["scrollers"]) == 2


def test_a_glued_number_bolder_than_its_sentence_is_found(layout):
    assert layout["shouted"] == ["1,480"]


def test_a_promise_of_the_title_that_nothing_drawn_keeps_is_found(layout):
    """A band 1 px thick (however tall its outline), a hidden dashed line, no error bar, no marker; the
    next two charts keep theirs, the last with an error bar and no band.  The first title's promise of
    a band starts its second line: read as one string ("CIband") it would be missed."""
    broken = chart_problems(layout, "broken")
    assert len(broken) == 4, broken
    assert all(problem.startswith("chart 2 ('Mean with its 95% CI band") for problem in broken), broken
    assert broken[0].endswith("promises a band, but no band is drawn 4 px thick (the thickest: 1.0 px)")
    assert broken[1].endswith("promises an interval, but no band or error bar is drawn 4 px across (the widest: 1.0 px)")
    assert broken[2].endswith("promises a dashed line, but no dashed line is drawn 10 px long (the longest: 0 px)")
    assert broken[3].endswith("promises markers, but no marker is drawn")
