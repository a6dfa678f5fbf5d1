"""Small books built in a temporary folder with the book's configuration and extensions.

A raising cell fails the build, and a teacher's copy (``hide_solutions: true``)
hides every solution but keeps the numbered exercises.  They need no built
book, so they live apart from ``test_book.py`` and run on whichever test worker
is free while the other builds the whole book.
"""

import shutil

import pytest

from conftest import ROOT, build_book

pytestmark = pytest.mark.book


def test_a_raising_cell_fails_the_build(tmp_path):
    (tmp_path / "_ext").symlink_to(ROOT / "book" / "_ext")
    shutil.copy(ROOT / "book" / "_config.yml", tmp_path / "_config.yml")
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: broken\n")
    (tmp_path / "broken.md").write_text((ROOT / "book" / "intro.md").read_text().split("---", 2)[1].join(
        ["---", "---\n\n# Broken\n\n```{code-cell} ipython3\nraise RuntimeError('deliberate')\n```\n"]))
    result = build_book(tmp_path, tmp_path / "_config.yml", tmp_path / "_toc.yml", output=tmp_path / "out")
    assert result.returncode != 0
    assert "deliberate" in result.stdout + result.stderr


def test_a_teachers_copy_hides_every_solution_but_keeps_the_exercises(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    (source / "_ext").symlink_to(ROOT / "book" / "_ext")
    (source / "book").mkdir()
    shutil.copy(ROOT / "book" / "favicon.svg", source / "book" / "favicon.svg")
    config = (ROOT / "book" / "_config.yml").read_text()
    assert "hide_solutions: false" in config
    (source / "_config.yml").write_text(config.replace("hide_solutions: false", "hide_solutions: true"))
    (source / "_toc.yml").write_text("format: jb-book\nroot: page\n")
    (source / "page.md").write_text("# Page\n\n```{exercise}\n:label: ex\n\nDo it.\n```\n\n"
                                      "```{solution} ex\n:class: dropdown\n\nSECRET\n```\n")
    result = build_book(source, source / "_config.yml", source / "_toc.yml", output=tmp_path / "out")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    page = (tmp_path / "out" / "_build" / "html" / "page.html").read_text()
    assert "Exercise 0.1" in page and "SECRET" not in page  # a book's root page numbers as chapter 0
