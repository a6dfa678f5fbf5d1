"""Sphinx extension: offer every executed chapter as an ``.ipynb`` download.

MyST-NB writes each executed text notebook to ``_build/jupyter_execute``.
sphinx-book-theme shows an ``.ipynb`` download button when the page context
has ``ipynb_source``, but only sets it itself when a launch service (Binder,
JupyterHub, ...) is configured, which an offline book does not have.  This
extension copies the executed notebook into ``_sources`` and sets the context
before the theme builds its buttons.
"""

import shutil
from pathlib import Path


def _offer_executed_notebook(app, pagename, templatename, context, doctree):
    executed = Path(app.outdir).parent / "jupyter_execute" / f"{pagename}.ipynb"
    if doctree is None or not executed.exists():
        return
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(executed, target)
    context["ipynb_source"] = f"{pagename}.ipynb"


def setup(app):
    # before sphinx-book-theme's header buttons (priority 501)
    app.connect("html-page-context", _offer_executed_notebook, priority=450)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
