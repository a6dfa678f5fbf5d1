"""The course apparatus without a build: directive blocks, solution stripping, chapters, times, citation."""

import json
import tomllib

import pytest
import yaml

from conftest import ROOT, book_extension
from perfstudies import course, myst_blocks

PAGE = """# A page

```{exercise}
:label: ex-one

Do the *first* thing.
```

````{solution} ex-one
:class: dropdown

The first answer, with code:

```python
x = 1
```
````

Text between.

:::{solution} ex-two
The second answer.
:::

```{exercise}
:label: ex-two

Second.
```
"""


def test_blocks_are_found_with_their_labels_options_and_bodies():
    solutions = myst_blocks.blocks(PAGE, "solution")
    assert [block.label for block in solutions] == ["ex-one", "ex-two"]
    assert solutions[0].options == {"class": "dropdown"}
    assert solutions[0].body.startswith("The first answer") and solutions[0].body.endswith("```")
    assert [block.label for block in myst_blocks.blocks(PAGE, "exercise")] == ["ex-one", "ex-two"]


def test_stripping_removes_every_solution_and_nothing_else():
    stripped = myst_blocks.strip(PAGE, "solution")
    assert "answer" not in stripped and "{solution}" not in stripped and "x = 1" not in stripped
    assert "Do the *first* thing." in stripped and "Text between." in stripped and "Second." in stripped
    assert "\n\n\n" not in stripped


def test_an_unclosed_block_is_refused_with_its_line():
    with pytest.raises(ValueError, match="block opened on line 1 is never closed"):
        myst_blocks.blocks("```{solution} ex\nno end\n", "solution")


def test_a_notebook_loses_its_solutions_and_cells_that_held_nothing_else():
    solutions_text = book_extension("solutions_text")
    notebook = {"cells": [
        {"cell_type": "markdown", "source": ["Intro.\n\n", "```{solution} a\n", "Secret.\n", "```\n"]},
        {"cell_type": "markdown", "source": "```{solution} b\nAlso secret.\n```\n"},
        {"cell_type": "code", "source": "```{solution} c\n```", "outputs": []},
    ]}
    assert solutions_text.strip_notebook(notebook) == 2
    assert [cell["cell_type"] for cell in notebook["cells"]] == ["markdown", "code"]
    assert "Secret" not in notebook["cells"][0]["source"] and "Intro." in notebook["cells"][0]["source"]
    assert notebook["cells"][1]["source"] == "```{solution} c\n```", "code cells are left alone"


def test_the_numbered_chapters_are_the_concept_maps_chapters_in_order():
    toc = yaml.safe_load((ROOT / "book" / "_toc.yml").read_text())
    numbered = [part for part in toc["parts"] if part.get("numbered")]
    assert len(numbered) == 1 and numbered[0]["numbered"] == 1, "chapters numbered, their sections not"
    assert [entry["file"] for entry in numbered[0]["chapters"]] == [chapter.page for chapter in course.CHAPTERS]


def test_every_chapter_has_timed_exercises_some_without_a_kernel():
    for chapter in course.CHAPTERS:
        tasks = course.exercises(chapter.page)
        assert len(tasks) >= 6, chapter.page
        assert all(task.minutes >= course.MINUTES_STEP and task.minutes % course.MINUTES_STEP == 0
                   for task in tasks), chapter.page
        assert not all(task.live for task in tasks), chapter.page
        # the exercises share out about the chapter's reading time (each rounded, none below a step)
        reading = course.reading_minutes(chapter.page)
        assert reading - course.MINUTES_STEP <= sum(task.minutes for task in tasks) <= \
            reading + course.MINUTES_STEP * len(tasks), chapter.page


def test_an_exercise_on_the_live_panel_needs_the_kernel_and_a_slider_does_not():
    tasks = {task.label: task for task in course.exercises("notebooks/mdf")}
    assert tasks["mdf-predict-panel"].live and not tasks["mdf-predict-slider"].live


def test_a_longer_exercise_and_solution_take_longer(tmp_path, monkeypatch):
    monkeypatch.setattr(course, "ROOT", tmp_path)
    (tmp_path / "page.md").write_text(
        "```{exercise}\n:label: a\n\nShort.\n```\n\n```{exercise}\n:label: b\n\nLong.\n```\n\n"
        "```{solution} b\n" + "Many words here. " * 2000 + "\n```\n")
    short, long = course.exercises("page")
    assert short.minutes == course.MINUTES_STEP and long.minutes == course.reading_minutes("page")


def test_the_citation_file_names_the_books_title_and_the_packages_version():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    config = yaml.safe_load((ROOT / "book" / "_config.yml").read_text())
    assert citation["cff-version"] == "1.2.0"
    assert citation["version"] == project["version"]
    assert citation["title"] == config["title"]
    assert "CITATION.cff" in (ROOT / "book" / "references.md").read_text()


#: What MyST-NB's ``<page>.glue.json`` holds for the notebook below (key: the output, its MIME bundle).
GLUED = {"shown": {"data": {"text/plain": "0.8123"}}, "quoted": {"data": {"text/plain": "2"}},
         "table": {"data": {"text/plain": "frame", "text/html": "<table>T</table>"}}}


def _notebook() -> dict:
    """An executed notebook as MyST-NB writes it: the glued outputs taken out of the cells."""
    return {"cells": [
        {"cell_type": "code", "metadata": {"tags": ["remove-cell"]}, "outputs": [],
         "source": "from myst_nb import glue\nx = 1\nglue('shown', 0.8123, display=False)"},
        {"cell_type": "code", "metadata": {"tags": ["remove-cell"]}, "outputs": [],
         "source": "secret = 2\nglue('quoted', secret, display=False)"},
        {"cell_type": "markdown", "metadata": {}, "source": "Wait {glue:text}`shown:.2f` s, {glue}`shown`.\n\n"
                                                               "```{glue} table\n```\n"},
        {"cell_type": "code", "metadata": {}, "source": "print(x)\nglue('table', frame)", "outputs": []},
        {"cell_type": "markdown", "metadata": {}, "source": "```{solution} ex\nIt is {glue:text}`quoted:d`.\n```\n"},
    ]}


def test_a_download_shows_glued_values_where_the_book_does_and_says_how_to_run(tmp_path):
    reader_notebooks = book_extension("reader_notebooks")
    (tmp_path / "page.glue.json").write_text(json.dumps(GLUED))
    values = reader_notebooks.glued(tmp_path / "page.glue.json")
    assert reader_notebooks.glued(tmp_path / "missing.glue.json") == {}, "a page that glued nothing"
    notebook = reader_notebooks.for_reader(_notebook(), values)
    assert notebook["cells"][0]["source"] == reader_notebooks.HOW_TO_RUN and "jupyterlab-myst" in \
        reader_notebooks.HOW_TO_RUN
    assert notebook["cells"][3]["source"] == "Wait 0.81 s, 0.8123.\n\n<table>T</table>\n"
    assert notebook["cells"][5]["source"] == "```{solution} ex\nIt is 2.\n```\n"
    assert reader_notebooks.paste("{glue:text}`never:.1f`", {}) == "{glue:text}`never:.1f`", "left for the build"


def test_the_students_notebook_loses_the_cells_that_computed_only_the_solutions_numbers():
    reader_notebooks, solutions_text = book_extension("reader_notebooks"), book_extension("solutions_text")
    notebook = _notebook()
    solutions_text.strip_notebook(notebook)
    assert reader_notebooks.drop_solution_cells(notebook) == 1
    sources = [cell["source"] for cell in notebook["cells"]]
    assert not any("secret" in source for source in sources)
    assert sources[0].startswith("from myst_nb import glue"), "its value is pasted in the text: kept"


def test_a_solutions_cell_that_a_later_cell_reads_or_whose_key_is_computed_stays():
    reader_notebooks, solutions_text = book_extension("reader_notebooks"), book_extension("solutions_text")
    notebook = _notebook()
    notebook["cells"][3]["source"] = "print(secret)"
    solutions_text.strip_notebook(notebook)
    assert reader_notebooks.drop_solution_cells(notebook) == 0
    notebook = _notebook()
    notebook["cells"][1]["source"] = "for n in (1, 2):\n    glue(f'quoted-{n}', n)"
    solutions_text.strip_notebook(notebook)
    assert reader_notebooks.drop_solution_cells(notebook) == 0
