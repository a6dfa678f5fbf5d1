"""The print edition: the built book (or one chapter) as an A4 PDF, printed by the tests' Chromium, offline.

    python scripts/pdf.py                      # _build/html -> _build/pdf/book.pdf
    python scripts/pdf.py --chapter mdf        # one chapter -> _build/pdf/mdf.pdf
    python scripts/pdf.py --edition student    # _build/student/html -> _build/pdf/student-book.pdf

`make pdf` (CHAPTER=..., EDITION=student|teacher) builds the HTML first and runs this.  Each page of
the table of contents is served from localhost, opened in Debian's Chromium (every other request
refused) at an A4 page's width, so the charts draw at the width they print at, then printed through
the DevTools protocol with the book's print stylesheet (no navigation, folded solutions printed
open) and a footer of page numbers; the pages are joined in reading order, one bookmark each.
Nothing is executed again: the PDF shows the outputs of the build it prints.
"""

import argparse
import functools
import http.server
import sys
import tempfile
import threading
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: A4's text width at 96 px per inch with the margins below: the width charts are drawn at.
A4_TEXT_WIDTH_PX = 720
MARGIN = "15mm"
# marks Vega draws as SVG paths, symbols, lines, rects or text inside a mark group
MARKS = "g[class*='mark-'] path, g[class*='mark-'] line, g[class*='mark-'] rect, g[class*='mark-'] text"
FOOTER = ("<div style='font-size:8px;width:100%;text-align:center;color:#555'>"
          "<span class='title'></span> &middot; page <span class='pageNumber'></span> of "
          "<span class='totalPages'></span></div>")
#: Folded solutions (sphinx-togglebutton) printed open: paper cannot be unfolded.  Folded tables
#: (perfstudies.tables.fold, every compared cell of a study) stay folded: their summary line says what
#: they hold, and unfolded they would print over a hundred pages.
UNFOLD = """() => {
  document.querySelectorAll('.solution.toggle-hidden').forEach(solution => solution.classList.remove('toggle-hidden'));
}"""


def pages(toc: Path = ROOT / "book" / "_toc.yml") -> list[str]:
    """Every page of the table of contents in reading order (``folder/name``): the root, then each part's."""
    found = yaml.safe_load(toc.read_text())
    return [found["root"]] + [entry["file"] for part in found.get("parts", []) for entry in part["chapters"]]


def chosen(chapter: str | None, toc: Path = ROOT / "book" / "_toc.yml") -> list[str]:
    """The pages to print: all, or the one whose name is ``chapter`` (``mdf``, ``queueing``, ``intro``)."""
    every = pages(toc)
    if chapter is None:
        return every
    named = [page for page in every if Path(page).name == chapter]
    if not named:
        names = ", ".join(Path(page).name for page in every)
        raise SystemExit(f"--chapter {chapter!r} is not a page of the book: allowed one of {names}")
    return named


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _print_page(context, url: str, target: Path) -> str:
    """Print one page to ``target``; return its title."""
    page = context.new_page()
    try:
        page.goto(url, wait_until="load")
        charts = page.locator(".perfstudies-chart")
        for index in range(charts.count()):
            charts.nth(index).scroll_into_view_if_needed()
            charts.nth(index).locator(MARKS).first.wait_for(state="attached", timeout=15_000)
        if page.locator(".math").count():
            page.locator("mjx-container").first.wait_for(state="attached", timeout=15_000)
        page.evaluate(UNFOLD)
        page.wait_for_timeout(300)
        page.emulate_media(media="print")
        page.pdf(path=str(target), format="A4", print_background=True, display_header_footer=True,
                 header_template="<span></span>", footer_template=FOOTER,
                 margin={"top": MARGIN, "bottom": MARGIN, "left": MARGIN, "right": MARGIN})
        return page.title().split(" — ")[0].strip()
    finally:
        page.close()


def print_book(html: Path, chosen_pages: list[str], out: Path) -> Path:
    """Print ``chosen_pages`` of the built book in ``html`` into one PDF at ``out``."""
    from playwright.sync_api import sync_playwright
    from pypdf import PdfReader, PdfWriter

    missing = [page for page in chosen_pages if not (html / f"{page}.html").exists()]
    if missing:
        raise SystemExit(f"{html} has no {missing[0]}.html: build the book first (make book, or make student/teacher)")
    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is missing: run `make browser` (Debian's chromium)")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(html)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    refused = []

    def only_localhost(route):
        if route.request.url.startswith((base, "data:", "blob:")):
            return route.continue_()
        refused.append(route.request.url)
        return route.abort()

    writer = PdfWriter()
    try:
        with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": A4_TEXT_WIDTH_PX, "height": 1000})
            context.route("**/*", only_localhost)
            for index, page in enumerate(chosen_pages):
                printed = Path(scratch) / f"{index}.pdf"
                title = _print_page(context, f"{base}/{page}.html", printed)
                first = len(writer.pages)
                writer.append(PdfReader(printed))
                writer.add_outline_item(title=title, page_number=first)
            browser.close()
    finally:
        server.shutdown()
    if refused:
        raise SystemExit(f"pages asked for non-localhost resources: {sorted(set(refused))}")
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as file:
        writer.write(file)
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chapter", help="one page's name (mdf, queueing, intro, ...); default: the whole book")
    parser.add_argument("--edition", choices=("reader", "student", "teacher"), default="reader")
    parser.add_argument("--html", type=Path, help="the built HTML to print (default: the edition's)")
    parser.add_argument("--out", type=Path, help="the PDF to write (default: _build/pdf/...)")
    args = parser.parse_args(argv)
    html = args.html or ROOT / "_build" / ("html" if args.edition == "reader" else f"{args.edition}/html")
    name = ("" if args.edition == "reader" else f"{args.edition}-") + (args.chapter or "book")
    out = print_book(html, chosen(args.chapter), args.out or ROOT / "_build" / "pdf" / f"{name}.pdf")
    print(f"The PDF is at {out}")


if __name__ == "__main__":
    sys.exit(main())
