"""Glued numbers in JupyterLab: the lab's contents manager shows roles as kernel lookups, saves them back.

`perfstudies.lab_glue` turns each ``{glue:text}`` role (and ``{glue}`` block) of a page into a
jupyterlab-myst inline expression when JupyterLab opens the page, and back when it saves it;
`perfstudies.glued` is what those expressions call in the kernel.  What a reader then sees after
"Run All" is checked in a real browser by `test_lab_browser.py`.
"""

import asyncio
import doctest
import json
import shutil

import jupytext
import pytest

from conftest import book_extension
from perfstudies import glued, lab_glue
from test_lab import ROOT, TEXT_NOTEBOOKS

#: Every page whose text quotes a glued value.
GLUING = [path for path in TEXT_NOTEBOOKS if glued.ROLE.search(path.read_text())]


def test_the_examples_hold():
    result = doctest.testmod(glued)
    assert result.failed == 0 and result.attempted > 0


def _ran(notebook) -> None:
    """What jupyterlab-myst stores after a Markdown cell runs: every expression's result, a number."""
    for cell in notebook["cells"]:
        if lab_glue.RESULTS in cell.get("metadata", {}):
            cell["metadata"][lab_glue.RESULTS] = [
                {"expression": entry["expression"], "result": {"status": "ok", "data": {"text/plain": "1.5"},
                                                               "metadata": {}}}
                for entry in cell["metadata"][lab_glue.RESULTS]]


def test_every_glued_page_is_quoted():
    assert {path.relative_to(ROOT).as_posix() for path in GLUING} >= {
        "book/intro.md", "book/queueing.md", *(f"notebooks/{key}.md" for key in
                                               ("diag44", "mdf", "spxtape", "svcdump", "vts"))}


@pytest.mark.parametrize("path", GLUING, ids=lambda p: str(p.relative_to(ROOT)))
def test_jupyterlab_opens_a_page_with_lookups_and_saves_it_byte_for_byte(path, tmp_path):
    """Through the contents manager `make lab` configures: opened, every role and block is a lookup with a
    placeholder result; run (results stored in the cells' metadata) and saved, the file is the page's own."""
    shutil.copy(ROOT / "jupytext.toml", tmp_path / "jupytext.toml")
    shutil.copy(path, tmp_path / path.name)
    manager = lab_glue.GlueContentsManager(root_dir=str(tmp_path))
    model = asyncio.run(manager.get(path.name))
    assert model["type"] == "notebook"
    markdown = [cell for cell in model["content"]["cells"] if cell["cell_type"] == "markdown"]
    text = "\n".join(cell["source"] for cell in markdown)
    roles = len(glued.ROLE.findall(path.read_text())) + len(lab_glue.BLOCK.findall(path.read_text()))
    assert "{glue" not in text and text.count("{eval}`") == roles
    shown = [entry for cell in markdown for entry in cell["metadata"].get(lab_glue.RESULTS, [])]
    assert shown and all(entry["result"]["data"] == {"text/plain": glued.PLACEHOLDER} for entry in shown)
    _ran(model["content"])
    asyncio.run(manager.save({**model, "content": json.loads(json.dumps(model["content"]))}, "saved.md"))
    assert (tmp_path / "saved.md").read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", GLUING, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_translation_round_trips_every_cell(path):
    notebook = jupytext.read(path)
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            lab = lab_glue.to_lab(cell.source)
            assert not glued.ROLE.search(lab) and not lab_glue.BLOCK.search(lab)
            assert lab_glue.from_lab(lab) == cell.source


def test_only_the_lookups_it_wrote_go_back_and_other_expressions_keep_their_results():
    text = ("A {glue:text}`mm1-wait:.2f` s wait, {eval}`1 + 1` other, {glue:text}`odd\"key` kept.\n\n"
            "```{glue} mm1-table\n```\n")
    lab = lab_glue.to_lab(text)
    assert lab.startswith('A {eval}`__import__("perfstudies.glued").glued.text("mm1-wait:.2f")` s wait, '
                          "{eval}`1 + 1` other, {glue:text}`odd\"key` kept.")
    assert lab.endswith('\n{eval}`__import__("perfstudies.glued").glued.block("mm1-table")`\n')
    assert lab_glue.from_lab(lab) == text
    notebook = lab_glue.notebook_for_lab({"cells": [{"cell_type": "markdown", "metadata": {}, "source": text}]})
    assert [entry["expression"] for entry in notebook["cells"][0]["metadata"][lab_glue.RESULTS]] == [
        '__import__("perfstudies.glued").glued.text("mm1-wait:.2f")',
        '__import__("perfstudies.glued").glued.block("mm1-table")']
    mixed = {"cells": [{"cell_type": "markdown", "source": lab,
                        "metadata": {lab_glue.RESULTS: [{"expression": "1 + 1", "result": {}}]}}]}
    assert lab_glue.notebook_from_lab(mixed)["cells"][0]["metadata"] == {
        lab_glue.RESULTS: [{"expression": "1 + 1", "result": {}}]}, "results of another expression stay"


@pytest.mark.parametrize("value, spec", [(0.81234, ".2f"), (20, ".1f"), (7, ""), (0.0123, "+.0%"),
                                         ("after clearing", ""), (1234.5, ",.0f")])
def test_the_kernel_shows_a_glued_value_as_the_books_text_and_the_reader_download_do(value, spec, monkeypatch):
    published = []
    monkeypatch.setattr("myst_nb.glue", lambda key, value, display: published.append((key, value, display)))
    monkeypatch.setattr(glued, "VALUES", {})
    content = f"mm1-x:{spec}" if spec else "mm1-x"
    assert repr(glued.text(content)) == glued.PLACEHOLDER, "before the page's code has run"
    glued.glue("mm1-x", value, display=False)
    assert published == [("mm1-x", value, False)], "the book's glue still gets the value"
    from IPython.core.formatters import format_display_data

    bundle = format_display_data(value)[0]   # what MyST-NB's glue stores for the book
    book = book_extension("reader_notebooks").paste(f"{{glue:text}}`{content}`", {"mm1-x": bundle})
    assert repr(glued.text(content)) == book and "mm1-x" not in book and "'" not in book
    assert glued.block("mm1-x") is value
