"""Sphinx extension: the book's JavaScript comes from its own static files.

Vega, Vega-Lite and vega-embed (for Altair charts), RequireJS and the
ipywidgets HTML manager (for static widget state) and MathJax are installed from the npm
registry at the versions pinned in ``book/package-lock.json`` (``make`` runs
``npm ci``) and copied here into ``_static/vendor``, so a rendered page makes
no request beyond its own site.  The extension also tells notebook kernels,
through the environment they inherit, that they run for the static book
(see :mod:`perfstudies.context`), for the build's duration only (:func:`_flag_book_build`).
"""

import os
import shutil
from pathlib import Path

NODE_MODULES = Path(__file__).resolve().parents[1] / "node_modules"

#: Files loaded on every page, in order, before RequireJS can intercept them.
VEGA_SCRIPTS = ["vega/build/vega.min.js", "vega-lite/build/vega-lite.min.js",
                "vega-embed/build/vega-embed.min.js"]
#: Folders copied whole (the widget manager loads its fonts relative to itself).
FOLDERS = {"@jupyter-widgets/html-manager/dist": "html-manager", "requirejs": "requirejs",
           "mathjax/es5": "mathjax"}
#: MathJax, relative to ``_static``, instead of Sphinx's CDN default.
MATHJAX = "vendor/mathjax/tex-mml-chtml.js"


def _stage_vendor_files(app):
    """Copy the pinned npm files into a static folder Sphinx will publish."""
    missing = [path for path in VEGA_SCRIPTS + list(FOLDERS) if not (NODE_MODULES / path).exists()]
    if missing:
        raise RuntimeError(f"book/node_modules lacks {missing}: run `make env` (npm ci in book/)")
    staging = Path(app.outdir).parent / "vendor-static"
    vendor = staging / "vendor"
    shutil.rmtree(staging, ignore_errors=True)
    vendor.mkdir(parents=True)
    for path in VEGA_SCRIPTS:
        shutil.copy2(NODE_MODULES / path, vendor / Path(path).name)
    shutil.copy2(Path(__file__).with_name("widgets_setup.js"), vendor / "widgets_setup.js")
    for source, target in FOLDERS.items():
        shutil.copytree(NODE_MODULES / source, vendor / target,
                        ignore=shutil.ignore_patterns("*.map", "*.d.ts", "bin", "tests"))
    app.config.html_static_path.append(str(staging))


def _use_local_mathjax(app, config):
    config.mathjax_path = MATHJAX


#: Set while the book builds, so the notebook kernels the build starts inherit it (see perfstudies.context).
BOOK_BUILD = "PERFSTUDIES_BOOK_BUILD"


def _flag_book_build(app) -> None:
    """Set :data:`BOOK_BUILD` for the build and give the process its old value back when the build ends.

    The build runs in the caller's process (``jupyter-book``, or ``scripts/pdf.py``'s Sphinx), so a flag
    left behind would make every kernel or JupyterLab that process starts later build static snapshots.
    """
    previous = os.environ.get(BOOK_BUILD)
    os.environ[BOOK_BUILD] = "1"

    def restore(app, exception):
        if previous is None:
            os.environ.pop(BOOK_BUILD, None)
        else:
            os.environ[BOOK_BUILD] = previous

    app.connect("build-finished", restore)


def setup(app):
    _flag_book_build(app)
    app.connect("config-inited", _use_local_mathjax)
    # MathJax on every page: Sphinx misses the equations of some executed notebooks
    app.set_html_assets_policy("always")
    app.connect("builder-inited", _stage_vendor_files)
    for order, path in enumerate(VEGA_SCRIPTS):
        app.add_js_file(f"vendor/{Path(path).name}", priority=200 + order)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
