"""scripts/pdf.py's choices: which page a PDF starts from, and what it refuses (no TeX needed)."""

import importlib.util

import pytest

from conftest import ROOT

_spec = importlib.util.spec_from_file_location("pdf", ROOT / "scripts" / "pdf.py")
pdf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pdf)


def test_the_book_starts_from_its_root_and_a_chapter_from_its_page():
    assert pdf.chosen(None) == "book/intro"
    assert pdf.chosen("mdf") == "notebooks/mdf" and pdf.chosen("queueing") == "book/queueing"


def test_an_unknown_chapter_or_edition_is_refused_naming_the_allowed_ones():
    with pytest.raises(SystemExit, match=r"--chapter 'mdff' is not a page of the book: allowed one of intro, .*mdf"):
        pdf.chosen("mdff")
    with pytest.raises(SystemExit, match=r"--edition 'print' is not an edition: allowed one of reader, student, teacher"):
        pdf.build("print")
