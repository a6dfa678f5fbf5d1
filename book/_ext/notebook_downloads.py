"""Sphinx extension: offer every executed chapter as an ``.ipynb`` download that reads well on its own.

MyST-NB writes each executed text notebook to ``_build/jupyter_execute``.
sphinx-book-theme shows an ``.ipynb`` download button when the page context
has ``ipynb_source``, but only sets it itself when a launch service (Binder,
JupyterHub, ...) is configured, which an offline book does not have.  This
extension writes the executed notebook into ``_sources`` as a reader gets it
(:mod:`reader_notebooks`: glued numbers pasted into the text, a first cell on
what it needs to run; in the student's edition without the solutions and the
hidden cells that computed only their numbers) and sets the context before the
theme builds its buttons.
"""

import json
from pathlib import Path

import reader_notebooks
import solutions_text


def _offer_executed_notebook(app, pagename, templatename, context, doctree):
    executed = Path(app.outdir).parent / "jupyter_execute" / f"{pagename}.ipynb"
    if doctree is None or not executed.exists():
        return
    notebook = json.loads(executed.read_text())
    if app.config.edition == "student":
        solutions_text.strip_notebook(notebook)
        reader_notebooks.drop_solution_cells(notebook)
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    values = reader_notebooks.glued(executed.with_name(f"{executed.stem}.glue.json"))
    target.write_text(json.dumps(reader_notebooks.for_reader(notebook, values), indent=1, ensure_ascii=False) + "\n")
    context["ipynb_source"] = f"{pagename}.ipynb"


def setup(app):
    # before sphinx-book-theme's header buttons (priority 501)
    app.connect("html-page-context", _offer_executed_notebook, priority=450)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
