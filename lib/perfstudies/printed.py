"""A chapter's outputs as the print edition shows them, in place of what only a browser can draw.

The book's LaTeX build (``make pdf``, ``scripts/pdf.py``) shows an output's PDF,
PNG, LaTeX, Markdown or plain text, never its HTML: a chart would vanish, a
table would print as ``<pandas.io.formats.style.Styler at 0x...>``.  So before
the LaTeX build, :func:`for_print` adds to each executed output what paper can
carry, and keeps everything it had (the HTML build never sees the result):

- a chart (the HTML of :mod:`perfstudies.charts`' book renderer) gets an
  ``application/pdf`` drawing of its spec by vl-convert: vector, offline, its
  text still text;
- a table (:func:`perfstudies.tables.readable`, ``split``, ``fold``) gets a
  MyST table per part, its columns' widths set from their text
  (:func:`column_widths`), which Sphinx typesets to the page's width and
  breaks across pages; a folded table prints under its summary line, open;
- a widget (it needs a live kernel) and the self-checks (they need a browser)
  get a paragraph that says what they are and where they work.

Examples
--------
>>> html = '<table><thead><tr><th>drives</th></tr></thead><tbody><tr><td>1|2</td></tr></tbody></table>'
>>> print(for_print({"output_type": "display_data", "data": {"text/html": html}})["data"]["text/markdown"])
````{table}
:widths: 11
:class: longtable
<BLANKLINE>
| drives |
| --- |
| 1\\|2 |
````
"""

import base64
import copy
import math
import re
from html.parser import HTMLParser

from perfstudies import charts

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: What a widget prints as: it runs only in a live kernel.
WIDGET_NOTE = ("*An interactive control stands here in the online book; it runs in a live kernel: open the "
               "chapter in JupyterLab (`make lab`) to use it.*")
#: What the self-checks print as, before their questions: the answer boxes check in a browser.
SELF_CHECK_NOTE = "*Self-check: answer each question, then check your answers in the online book.*"
#: A CSS rule of a table's stylesheet: its selectors and its declarations.
_RULE = re.compile(r"([^{}]+)\{([^}]*)\}")
#: How a folded table's summary tells a screen's reader to open it; paper prints it open.
_CLICK = re.compile(r"\s*(?:[,:;]\s*|\()click to open\)?$")
#: A table column's text wraps beyond this many characters; between columns go PADDING_CHARS more.
WRAP_CHARS = 36
PADDING_CHARS = 3
#: A header's bold sans-serif letter against a cell's: how much wider a header word prints.
HEADER_SCALE = 1.3
#: Characters of table text across the print edition's A4 text column (15.5 cm of 9 pt type,
#: scripts/pdf.py's table font; measured on spxtape's tables, whose short columns had room to spare
#: at 95).
LINE_CHARS = 110
#: Characters Markdown could read as markup inside a table cell: each is printed escaped.
_MARKUP = re.compile(r"([\\`*_{}\[\]<>|$&])")


class _Tables(HTMLParser):
    """The tables of an HTML output, each as its caption (if any) and rows of cell texts."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, list[list[str]]]] = []
        self.summary = ""
        self.style = ""
        self._caption, self._cell, self._id, self._in = "", None, None, None

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "table":
            self.found.append((self._caption, []))
            self._caption = ""
        elif tag == "tr" and self.found:
            self.found[-1][1].append([])
        elif tag in ("td", "th"):
            self._cell, self._id = "", dict(attrs).get("id")
        elif tag in ("summary", "style"):
            self._in = tag
        elif tag == "p" and "perfstudies-table-caption" in classes:
            self._in = "caption"
        elif tag == "br" and self._cell is not None:
            self._cell += " "

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self.found and self.found[-1][1]:
            text = _cell(" ".join(self._cell.split()))
            self.found[-1][1][-1].append(f"**{text}**" if text and self._id in self.bold() else text)
            self._cell = None
        elif tag in ("summary", "p", "style"):
            self._in = None

    def bold(self) -> set[str]:
        """The ids of the cells the table's stylesheet sets in bold (a Styler's emphasis: a missed prediction)."""
        return {selector.strip().lstrip("#") for selectors, rules in _RULE.findall(self.style)
                if "bold" in rules for selector in selectors.split(",")}

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data
        elif self._in == "summary":
            self.summary += data
        elif self._in == "style":
            self.style += data
        elif self._in == "caption":
            self._caption += data


def _cell(text: str) -> str:
    return _MARKUP.sub(r"\\\1", text)


def _plain(cell: str) -> str:
    """A table cell's text as printed: without the escapes and the bold markers it carries as Markdown."""
    return re.sub(r"\\(.)", r"\1", cell.removeprefix("**").removesuffix("**"))


def column_widths(rows: list[list[str]], line: int | None = None) -> list[int]:
    """Relative widths for the columns of ``rows`` (header first), so that no word is split on paper.

    Left to itself, LaTeX gives a column of long sentences nearly the whole line and breaks the
    numbers and names beside it inside words.  Here each column starts as wide as its longest cell
    (at most :data:`WRAP_CHARS`) plus :data:`PADDING_CHARS` between columns; when the columns
    together are wider than ``line`` characters (:data:`LINE_CHARS`), each gives up the same share
    of what it has beyond its longest word (a header's counted :data:`HEADER_SCALE` wider), so no
    column gets narrower than its longest word and a column of sentences stays the widest.
    """
    line = LINE_CHARS if line is None else line
    texts = [[_plain(cell) for cell in row] for row in rows]
    words = [max([math.ceil(HEADER_SCALE * len(word)) for word in column[0].split()] +
                 [len(word) for cell in column[1:] for word in cell.split()] + [1]) + PADDING_CHARS
             for column in zip(*texts)]
    widths = [max(word, min(max(map(len, column)), WRAP_CHARS) + PADDING_CHARS)
              for column, word in zip(zip(*texts), words)]
    spare = sum(widths) - sum(words)
    if sum(widths) <= line or spare == 0:
        return widths
    kept = max(0.0, 1 - (sum(widths) - line) / spare)
    return [word + int((width - word) * kept) for width, word in zip(widths, words)]


def markdown_tables(html: str) -> str:
    """The tables in ``html`` as Markdown: each caption in bold, then the table, a folded one under its summary."""
    parser = _Tables()
    parser.feed(html)
    summary = _CLICK.sub("", parser.summary.strip())
    blocks = [f"**{_cell(summary)}**"] if summary else []
    for caption, rows in parser.found:
        rows = [row for row in rows if row]
        if not rows:
            continue
        columns = max(map(len, rows))
        rows = [row + [""] * (columns - len(row)) for row in rows]
        lines = ["| " + " | ".join(row) + " |" for row in rows]
        lines.insert(1, "| " + " | ".join(["---"] * columns) + " |")
        # a longtable breaks across pages: a short table of long sentences can be taller than a page
        table = "\n".join(["````{table}", f":widths: {' '.join(map(str, column_widths(rows)))}", ":class: longtable",
                            "", *lines, "````"])
        blocks.append((f"**{_cell(caption.strip())}**\n\n" if caption.strip() else "") + table)
    return "\n\n".join(blocks)


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else value


def for_print(output: dict) -> dict:
    """``output`` (a notebook output) with what print shows added beside its own data; see the module's text.

    Outputs with nothing a browser alone can draw come back unchanged.
    """
    if not isinstance(output, dict):
        raise ValueError(f"output = {type(output).__name__} has the wrong type: allowed a notebook output (a dict)")
    data = output.get("data")
    if not data:
        return output
    page = _text(data.get("text/html", ""))
    added = {}
    if WIDGET_VIEW in data:
        added["text/markdown"] = WIDGET_NOTE
    elif 'class="perfstudies-chart"' in page:
        import vl_convert

        drawn = vl_convert.vegalite_to_pdf(charts.spec_of(page))
        added["application/pdf"] = base64.b64encode(drawn).decode("ascii")
    elif 'class="perfstudies-self-checks"' in page:
        questions = [line for line in _text(data.get("text/plain", "")).splitlines() if line.strip()]
        added["text/markdown"] = "\n\n".join([SELF_CHECK_NOTE, *(_cell(line) for line in questions)])
    elif "<table" in page:
        added["text/markdown"] = markdown_tables(page)
    if not added:
        return output
    printed = copy.deepcopy(output)
    printed["data"].update(added)
    return printed


def notebook_for_print(notebook) -> int:
    """Add what print shows to every output of ``notebook`` (an nbformat notebook), in place; how many changed."""
    changed = 0
    for cell in notebook.cells:
        if cell.get("cell_type") != "code":
            continue
        printed = [for_print(output) for output in cell.get("outputs", [])]
        changed += sum(new is not old for new, old in zip(printed, cell.get("outputs", [])))
        if printed:
            cell.outputs = printed
    return changed
