"""What a reader would catch by eye on a rendered page, measured in one pass of JavaScript.

:data:`LAYOUT` runs in a page of the built book (``page.evaluate``) and returns, per chart
(``.perfstudies-chart``), the text labels that overlap one another, the diagram labels that spill
out of their box, the legend entries drawn outside the figure and the promises of its title and legend
(a band, an interval, a line, a dashed line, markers) that nothing drawn keeps; and, for the page, every element
that scrolls sideways inside it, with whether it is a table that shows a scroll cue, and every glued
number (myst-nb's ``span.pasted-text``) set bolder than its sentence.  The helpers
below turn that into one line per problem, each naming the chart by its number and title, so
``tests/test_book.py`` can list them page by page.

Text boxes are the rendered SVG ``text`` elements' own boxes (``getBBox``) carried to the screen by
their transform (``getScreenCTM``), so rotated axis labels are compared as the rotated rectangles
they are, not as their much larger upright bounding boxes.

A promise is read from the words a reader reads (the chart's titles, subtitles, legend titles and
labels, never its axes) and kept by the SVG's own marks (Vega's ``role-mark`` groups, never the
legend's symbols), measured on the screen: a band's thickness is the greatest vertical extent of an
area (or rect) mark's filled outline over any one x, a line's length its drawn path's, so a band
drawn thinner than its line, or a line wholly hidden, does not count.
"""

#: Overlaps and spills smaller than this many pixels (anti-aliasing, font metrics) are not reported.
SLACK = 1.5
#: Labels on one line closer than this many pixels read as one word ("0.020.03"): they count as overlapping.
GAP = 4
#: A band (area or rect mark) thinner than this many pixels everywhere, or an error bar shorter, is not seen:
#: Vega strokes a line 2 px wide, and a band drawn around a line shows only where it clears it by 1 px each side.
BAND_PX = 4
#: A line (line path or rule) shorter than this many pixels on the screen is not seen as a line.
LINE_PX = 10
#: What a chart's words can promise and the words (JavaScript regular expressions, any case) that promise it:
#: a band (an area at least :data:`BAND_PX` thick), an interval (such a band, or an error bar at least
#: :data:`BAND_PX` long), a line, a dashed (or dotted) line (each at least :data:`LINE_PX` long), markers.
PROMISES = {
    "a band": r"\b(bands?|shaded)\b",
    "an interval": r"\b(CIs?|intervals?|error bars?)\b",
    "a line": r"\b(lines?|curves?|solid)\b",
    "a dashed line": r"\b(dash(ed|es)?|dotted)\b",
    "markers": r"\b(points|markers?|dots|crosses|circles|squares|triangles)\b",
}
#: What :data:`LAYOUT` takes (``page.evaluate(LAYOUT, ARGUMENTS)``).
ARGUMENTS = [SLACK, GAP, BAND_PX, LINE_PX, PROMISES]

LAYOUT = """([slack, gap, bandPx, linePx, promises]) => {
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
  const words = el => {  // a text's words, its lines (tspans) joined by a space as a reader reads them
    const lines = [...el.querySelectorAll('tspan')];
    return (lines.length ? lines.map(line => line.textContent).join(' ') : el.textContent).trim();
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
  const screen = (m, x, y) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
  const outlines = el => {  // el's filled outline as closed polygons of screen points, one per subpath
    const m = el.getScreenCTM();
    if (!m) return [];
    const d = el.getAttribute('d') || '';
    const tokens = d.match(/[a-zA-Z]|-?(?:\\d+\\.?\\d*|\\.\\d+)(?:e[-+]?\\d+)?/g) || [];
    if (tokens.every(t => /^[-.\\d]/.test(t) || 'MLHVZ'.includes(t))) {  // straight segments: exact
      const polygons = [];
      let command = 'M', x = 0, y = 0, i = 0;
      while (i < tokens.length) {
        if (/[A-Z]/.test(tokens[i])) command = tokens[i++];
        if (command === 'Z') { if (i < tokens.length && !/[A-Z]/.test(tokens[i])) i++; continue; }
        if (command === 'H') x = +tokens[i++];
        else if (command === 'V') y = +tokens[i++];
        else { x = +tokens[i++]; y = +tokens[i++]; }
        if (command === 'M') { polygons.push([]); command = 'L'; }
        if (!polygons.length) polygons.push([]);
        polygons[polygons.length - 1].push(screen(m, x, y));
      }
      return polygons;
    }
    return d.split(/(?=M)/).map(part => {  // curves: each subpath sampled every half unit of its length
      const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
      path.setAttribute('d', part);
      el.parentNode.appendChild(path);
      const length = path.getTotalLength(), n = Math.min(4000, Math.ceil(length * 2) + 1), points = [];
      for (let k = 0; k <= n; k++) { const p = path.getPointAtLength(length * k / n); points.push([p.x, p.y]); }
      path.remove();
      return points.map(([px, py]) => screen(m, px, py));
    });
  };
  const thickness = polygon => {  // the greatest vertical extent of the polygon's inside over one x
    let most = 0;
    for (const [vx] of polygon) {
      for (const x of [vx - 1e-6, vx + 1e-6]) {
        const ys = [];
        for (let i = 0; i < polygon.length; i++) {
          const [x1, y1] = polygon[i], [x2, y2] = polygon[(i + 1) % polygon.length];
          if ((x1 <= x) !== (x2 <= x)) ys.push(y1 + (x - x1) * (y2 - y1) / (x2 - x1));
        }
        ys.sort((a, b) => a - b);
        let inside = 0;
        for (let k = 0; k + 1 < ys.length; k += 2) inside += ys[k + 1] - ys[k];
        most = Math.max(most, inside);
      }
    }
    return most;
  };
  const stroked = el => {  // a visible stroke: [on-screen length, dashed?], else null
    const style = getComputedStyle(el);
    if (style.stroke === 'none' || parseFloat(style.strokeOpacity) === 0 || parseFloat(style.strokeWidth) === 0) return null;
    const m = el.getScreenCTM();
    if (!m) return null;
    const dashes = (el.getAttribute('stroke-dasharray') || style.strokeDasharray || '').split(/[ ,]+/)
      .map(parseFloat).filter(v => !isNaN(v));
    return [el.getTotalLength() * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)),
            dashes.length > 1 && dashes.some((v, k) => k % 2 === 1 && v > 0)];
  };
  const drawn = svg => {  // what the chart's marks (not its legend) show, measured on the screen
    const marks = selector => [...svg.querySelectorAll(selector)].filter(el => shown(el, svg));
    const band = Math.max(0, ...marks('g.mark-area.role-mark > path').flatMap(outlines).map(thickness),
                          ...marks('g.mark-rect.role-mark > path').map(el => el.getBoundingClientRect().height));
    const strokes = marks('g.mark-line.role-mark > path').map(stroked).filter(Boolean);
    const rules = marks('g.mark-rule.role-mark > line, g.mark-rule.role-mark > path').map(stroked).filter(Boolean);
    const longest = list => Math.max(0, ...list.map(([length]) => length));
    const bar = longest(rules), line = longest([...strokes, ...rules]);
    const dashed = longest([...strokes, ...rules].filter(([, dash]) => dash));
    const markers = marks('g.mark-symbol.role-mark > path').filter(el => {
      const r = el.getBoundingClientRect(); return r.width >= 1 && r.height >= 1; }).length;
    return {
      'a band': [band >= bandPx, `no band is drawn ${bandPx} px thick (the thickest: ${band.toFixed(1)} px)`],
      'an interval': [band >= bandPx || bar >= bandPx,
                 `no band or error bar is drawn ${bandPx} px across (the widest: ${Math.max(band, bar).toFixed(1)} px)`],
      'a line': [line >= linePx, `no line is drawn ${linePx} px long (the longest: ${line.toFixed(0)} px)`],
      'a dashed line': [dashed >= linePx, `no dashed line is drawn ${linePx} px long (the longest: ${dashed.toFixed(0)} px)`],
      markers: [markers > 0, 'no marker is drawn'],
    };
  };
  const said = svg => [...svg.querySelectorAll('.role-title-text text, .role-title-subtitle text, '
                                             + '.role-legend-title text, .role-legend-label text')]
    .filter(t => shown(t, svg)).map(words).filter(Boolean);
  const charts = [...document.querySelectorAll('.perfstudies-chart')].map((chart, index) => {
    const svg = chart.querySelector('svg');
    const result = {index, title: '', overlaps: [], spills: [], outside: [], broken: []};
    if (!svg) return result;
    const titled = svg.querySelector('.role-title-text text') || svg.querySelector('.role-axis-title text');
    result.title = titled ? words(titled) : '';  // the chart's title, else its first axis title
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
    const claims = said(svg);
    let measured = null;
    for (const [promise, pattern] of Object.entries(promises)) {
      const text = claims.find(w => new RegExp(pattern, 'i').test(w));
      if (!text) continue;
      measured = measured || drawn(svg);
      const [kept, why] = measured[promise];
      if (!kept) result.broken.push(`"${text.slice(0, 60)}" promises ${promise}, but ${why}`);
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
    """One line per problem of kind ``key`` (``overlaps``, ``spills``, ``outside``, ``broken`` promises), naming
    its chart."""
    return [f"{_chart(chart)}: {problem}" for chart in layout["charts"] for problem in chart[key]]


def scroll_problems(layout: dict) -> list[str]:
    """Every element that scrolls sideways, unless it is a table showing a scroll cue."""
    return [f"{s['what'][:60]} ({s['text']!r}) scrolls sideways: {s['scrollWidth']} px of content in "
            f"{s['clientWidth']} px" + ("" if s["table"] else ", and it is not a table")
            + ("" if s["cue"] else " with no visible cue")
            for s in layout["scrollers"] if not (s["table"] and s["cue"])]
