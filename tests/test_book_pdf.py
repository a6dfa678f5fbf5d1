"""The print edition of one chapter, typeset by TeX from the book this session built (``make pdf``)."""

import importlib.util

import pytest

from conftest import ROOT

pytestmark = pytest.mark.book


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
    printed = PdfReader(pdf.build("reader", "spxtape", tmp_path / "spxtape.pdf"))
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
