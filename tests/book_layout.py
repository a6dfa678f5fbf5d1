"""What a reader would catch by eye on a rendered page, measured in one pass of JavaScript.

:data:`LAYOUT` runs in a page of the built book (``page.evaluate``) and returns, per chart
(``.perfstudies-chart``), the text labels that overlap one another, the diagram labels that spill
out of their box and the legend entries drawn outside the figure; and, for the page, every element
that scrolls sideways inside it, with whether it is a table that shows a scroll cue, and every glued
number (myst-nb's ``span.pasted-text``) set bolder than its sentence.  The helpers
below turn that into one line per problem, each naming the chart by its number and title, so
``tests/test_book.py`` can list them page by page.

Text boxes are the rendered SVG ``text`` elements' own boxes (``getBBox``) carried to the screen by
their transform (``getScreenCTM``), so rotated axis labels are compared as the rotated rectangles
they are, not as their much larger upright bounding boxes.
"""

#: Overlaps and spills smaller than this many pixels (anti-aliasing, font metrics) are not reported.
SLACK = 1.5
#: Labels on one line closer than this many pixels read as one word ("0.020.03"): they count as overlapping.
GAP = 4
#: What :data:`LAYOUT` takes (``page.evaluate(LAYOUT, ARGUMENTS)``).
ARGUMENTS = [SLACK, GAP]

LAYOUT = """([slack, gap]) => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main');
  const quad = (el, pad) => {  // the element's own box, pad wider at each end of its line, as four corners on the screen
    let box;
    try { box = el.getBBox(); } catch (error) { return null; }
    const m = el.getScreenCTM();
    if (!m || !box.width || !box.height) return null;
    const left = box.x - pad, right = box.x + box.width + pad;
    return [[left, box.y], [right, box.y], [right, box.y + box.height], [left, box.y + box.height]]
      .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
  };
  const depth = (p, q) => {  // separating axes: how deep two convex quadrilaterals overlap (<= 0: apart)
    let least = Infinity;
    for (const poly of [p, q]) {
      for (let i = 0; i < 4; i++) {
        const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % 4];
        const length = Math.hypot(x2 - x1, y2 - y1);
        if (!length) continue;
        const nx = (y1 - y2) / length, ny = (x2 - x1) / length;
        const a = p.map(([x, y]) => x * nx + y * ny), b = q.map(([x, y]) => x * nx + y * ny);
        least = Math.min(least, Math.min(Math.max(...a), Math.max(...b)) - Math.max(Math.min(...a), Math.min(...b)));
      }
    }
    return least;
  };
  const shown = (el, svg) => {
    for (let node = el; node && node !== svg.parentNode; node = node.parentNode) {
      const style = getComputedStyle(node);
      if (style.display === 'none' || style.visibility === 'hidden' || parseFloat(style.opacity) === 0
          || node.getAttribute('opacity') === '0' || node.getAttribute('fill-opacity') === '0') return false;
    }
    return true;
  };
  const role = el => {
    const group = el.closest('[class*="role-"]');
    const found = group ? (group.getAttribute('class').match(/role-([\\w-]+)/) || [])[1] : '';
    return {'axis-label': 'axis label', 'axis-title': 'axis title', 'legend-label': 'legend label',
            'legend-title': 'legend title', 'title-text': 'title', 'title-subtitle': 'subtitle',
            'mark': 'mark label'}[found] || (found || 'text').replace(/-/g, ' ');
  };
  const name = el => `"${el.textContent.trim().slice(0, 40)}" (${role(el)})`;
  const clip = (el, svg) => {  // the part of the screen where el's figure is seen: its svg within clipping boxes
    let r = svg.getBoundingClientRect();
    let box = {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
    for (let node = svg.parentElement; node && node !== document.documentElement; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.overflowX !== 'visible') {
        r = node.getBoundingClientRect();
        box = {left: Math.max(box.left, r.left), right: Math.min(box.right, r.right), top: box.top, bottom: box.bottom};
      }
    }
    return box;
  };
  const charts = [...document.querySelectorAll('.perfstudies-chart')].map((chart, index) => {
    const svg = chart.querySelector('svg');
    const result = {index, title: '', overlaps: [], spills: [], outside: []};
    if (!svg) return result;
    const titled = svg.querySelector('.role-title-text text') || svg.querySelector('.role-axis-title text');
    result.title = titled ? titled.textContent.trim() : '';  // the chart's title, else its first axis title
    const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() && shown(t, svg))
      .map(t => ({el: t, quad: quad(t, gap / 2)})).filter(t => t.quad);
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        const d = depth(texts[i].quad, texts[j].quad);
        if (d > slack) result.overlaps.push(`${name(texts[i].el)} and ${name(texts[j].el)} overlap by ${d.toFixed(1)} px`);
      }
    }
    // diagram labels: a mark's text whose centre lies in a box (a rect mark) stays inside that box
    const boxes = [...svg.querySelectorAll('g.mark-rect > path')].filter(b => shown(b, svg))
      .map(b => b.getBoundingClientRect());
    for (const text of svg.querySelectorAll('g.mark-text.role-mark > text')) {
      if (!text.textContent.trim() || !shown(text, svg)) continue;
      const r = text.getBoundingClientRect();
      const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
      const box = boxes.find(b => b.left <= cx && cx <= b.right && b.top <= cy && cy <= b.bottom);
      if (!box) continue;
      const out = Math.max(box.left - r.left, r.right - box.right, box.top - r.top, r.bottom - box.bottom);
      if (out > slack) result.spills.push(`"${text.textContent.trim().slice(0, 40)}" spills ${out.toFixed(1)} px out of its box`);
    }
    const seen = clip(chart, svg);
    for (const entry of svg.querySelectorAll('.role-legend-label text, .role-legend-symbol path, .role-legend-title text')) {
      if (!shown(entry, svg)) continue;
      const r = entry.getBoundingClientRect();
      const out = Math.max(seen.left - r.left, r.right - seen.right, seen.top - r.top, r.bottom - seen.bottom);
      if (out > slack) {
        const what = entry.tagName === 'text' ? `legend entry "${entry.textContent.trim().slice(0, 40)}"` : 'a legend symbol';
        result.outside.push(`${what} lies ${out.toFixed(0)} px outside the figure`);
      }
    }
    return result;
  });
  const scrollers = [...article.querySelectorAll('*')].filter(el => !(el instanceof SVGElement)
      && el.scrollWidth > el.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX))
    .map(el => ({what: el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
                   ? '.' + el.className.trim().split(/\\s+/).join('.') : ''),
                 text: (el.innerText || el.textContent).trim().replace(/\\s+/g, ' ').slice(0, 50),
                 scrollWidth: el.scrollWidth, clientWidth: el.clientWidth,
                 table: (el.tagName === 'TABLE' || !!el.querySelector('table')) && !el.querySelector('svg, canvas'),
                 cue: getComputedStyle(el).backgroundImage.includes('gradient')}));
  const weight = el => parseInt(getComputedStyle(el).fontWeight, 10);
  const shouted = [...article.querySelectorAll('span.pasted-text')]
    .filter(span => weight(span) > weight(span.parentElement)).map(span => span.textContent.trim().slice(0, 40));
  return {charts, scrollers, shouted};
}"""


def _chart(chart: dict) -> str:
    return f"chart {chart['index'] + 1} ({chart['title'][:50]!r})"


def chart_problems(layout: dict, key: str) -> list[str]:
    """One line per problem of kind ``key`` (``overlaps``, ``spills``, ``outside``), naming its chart."""
    return [f"{_chart(chart)}: {problem}" for chart in layout["charts"] for problem in chart[key]]


def scroll_problems(layout: dict) -> list[str]:
    """Every element that scrolls sideways, unless it is a table showing a scroll cue."""
    return [f"{s['what'][:60]} ({s['text']!r}) scrolls sideways: {s['scrollWidth']} px of content in "
            f"{s['clientWidth']} px" + ("" if s["table"] else ", and it is not a table")
            + ("" if s["cue"] else " with no visible cue")
            for s in layout["scrollers"] if not (s["table"] and s["cue"])]
