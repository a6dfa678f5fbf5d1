"""The print edition: the book (or one chapter) as an A4 PDF typeset by TeX, offline.

    python scripts/pdf.py                      # the reader's book  -> _build/pdf/book.pdf
    python scripts/pdf.py --chapter mdf        # one chapter        -> _build/pdf/mdf.pdf
    python scripts/pdf.py --edition teacher    # the teacher's book -> _build/pdf/teacher-book.pdf

`make pdf` (CHAPTER=..., EDITION=student|teacher) installs Debian's TeX (`make tex`), builds the
book's HTML and runs this.  Nothing is executed again: the notebooks a finished build executed from
these very sources (`make book`'s, or an edition's) go into a jupyter-cache of the print edition (as
``scripts/edition.py`` seeds the editions'), each output with what paper can show added
(:mod:`perfstudies.printed`: a chart drawn by vl-convert, a table as a MyST table sized for A4, a
note for a widget or the self-checks).  Sphinx's LaTeX builder, with
sphinx-jupyterbook-latex as ``jupyter-book build --builder pdflatex`` loads it, writes the TeX
(warnings are errors) and XeLaTeX typesets it through latexmk, on A4.
"""

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import edition as editions_build  # noqa: E402  (the editions' build: its cache seeding and tables of contents)

OUT = ROOT / "_build" / "pdf"
EDITIONS = ("reader",) + editions_build.BUILT_EDITIONS
#: Tables in 9 pt type (with 11 pt text): the widths perfstudies.printed gives their columns count
#: on it (its LINE_CHARS); their cells ragged right (Sphinx's sized columns justify, which in a
#: narrow column spreads a few words across it).
TABLE_TYPE = r"""
\makeatletter
\g@addto@macro\sphinxattablestart{\footnotesize}
\g@addto@macro\sphinxatlongtablestart{\footnotesize}
\newcolumntype{\X}[2]{>{\raggedright\arraybackslash}p{\dimexpr
      (\linewidth-\spx@arrayrulewidth)*#1/#2-\tw@\tabcolsep-\spx@arrayrulewidth\relax}}
\makeatother
"""
#: A4 paper, 11 pt type, printed one-sided (no blank page before a chapter); makeindex rather than
#: xindy, and a stand-in for bbm (book/print/bbm.sty says why), so that the Debian TeX packages
#: needed stay few (`make tex`).
LATEX = {"latex_elements": {"papersize": "a4paper", "pointsize": "11pt", "extraclassoptions": "openany,oneside",
                            "preamble": TABLE_TYPE},
         "latex_use_xindy": False,
         "latex_additional_files": ["book/print/bbm.sty"]}
LATEXMK = ["latexmk", "-pdfxe", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error"]


def pages(toc: Path = ROOT / "book" / "_toc.yml") -> list[str]:
    """Every page of the table of contents in reading order (``folder/name``): the root, then each part's."""
    found = yaml.safe_load(toc.read_text())
    return [found["root"]] + [entry["file"] for part in found.get("parts", []) for entry in part["chapters"]]


def chosen(chapter: str | None, toc: Path = ROOT / "book" / "_toc.yml") -> str:
    """The page the PDF starts from: the root (the whole book), or the page named ``chapter`` (``mdf``)."""
    every = pages(toc)
    if chapter is None:
        return every[0]
    named = [page for page in every if Path(page).name == chapter]
    if not named:
        names = ", ".join(Path(page).name for page in every)
        raise SystemExit(f"--chapter {chapter!r} is not a page of the book: allowed one of {names}")
    return named[0]


def seed_for_print() -> Path:
    """The print edition's jupyter-cache, holding every notebook page as a finished build executed it.

    Refuses (naming the command to run) when a page has no such build: executing it here would
    print its charts blank.
    """
    from perfstudies.printed import notebook_for_print

    digest = editions_build.editions.sources_digest(ROOT)
    cache_path = OUT / f"jupyter-cache-{digest[:16]}"
    for old in OUT.glob("jupyter-cache-*"):
        if old != cache_path:
            shutil.rmtree(old)
    cached, seeded = editions_build.seed(cache_path, digest, convert=notebook_for_print)
    missing = len(editions_build.notebook_pages()) - len(cached) - len(seeded)
    if missing:
        raise SystemExit(f"{missing} notebook pages have no finished build of these sources to print from: "
                         "run `make book` first")
    return cache_path


def write_tex(edition: str, start: str, name: str, cache_path: Path) -> Path:
    """Write the TeX of the pages from ``start`` (the whole book from its root) to ``<name>.tex``; its folder."""
    from jupyter_book.config import get_final_config
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    latex = OUT / edition / "latex"
    # The whole book's parts (Chapters, Back matter) are LaTeX parts; a chapter alone is the document,
    # its sections LaTeX's top level.
    alone = {} if start == pages()[0] else {"jblatex_captions_to_parts": False, "latex_toplevel_sectioning": "section"}
    overrides = {"external_toc_path": editions_build.toc_for(edition).as_posix(), "latex_individualpages": False,
                 "edition": edition, "nb_execution_mode": "cache", "nb_execution_cache_path": str(cache_path),
                 "nb_render_markdown_format": "myst",  # the tables perfstudies.printed writes
                 **LATEX, **alone}
    config, _ = get_final_config(user_yaml=ROOT / "book" / "_config.yml", cli_config=overrides, sourcedir=ROOT,
                                 use_external_toc=True)
    config["extensions"].append("print_numbers")  # book/_ext: chapters numbered as on the web (LaTeX only)
    with patch_docutils(None), docutils_namespace():
        app = Sphinx(srcdir=ROOT, confdir=None, outdir=latex, doctreedir=OUT / edition / ".doctrees",
                     buildername="latex", confoverrides=config, warningiserror=True, keep_going=True)

        def document(app, env):
            """Say which document to write once the chapters are numbered: its title is its page's, numbered."""
            from front_numbers import chapter_number  # book/_ext, on the path once the book's extensions load

            number = chapter_number(env, start)
            title = app.config.html_title if start == app.config.root_doc else (
                f"{number}. " if number else "") + env.titles[start].astext()
            app.config.latex_documents = [(start, f"{name}.tex", title, app.config.author, app.config.latex_theme)]
            return []

        app.connect("env-get-updated", document, priority=900)  # after Sphinx numbers the chapters (500)
        app.build(False, [])
    if app.statuscode:
        shutil.rmtree(OUT / edition / ".doctrees", ignore_errors=True)  # read every page again next time
        raise SystemExit(f"the LaTeX build of {name} warned or failed (above)")
    return latex


def typeset(latex: Path, name: str, out: Path) -> Path:
    """Run XeLaTeX through latexmk on ``latex/<name>.tex`` and copy the PDF to ``out``."""
    if shutil.which("latexmk") is None:
        raise SystemExit("latexmk is missing: run `make tex` (Debian's TeX packages)")
    done = subprocess.run([*LATEXMK, f"{name}.tex"], cwd=latex, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"XeLaTeX failed on {latex / (name + '.tex')}:\n{done.stdout[-4000:]}")
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(latex / f"{name}.pdf", out)
    return out


def build(edition: str = "reader", chapter: str | None = None, out: Path | None = None) -> Path:
    """The PDF of ``edition`` (the whole book, or the page named ``chapter``); its path."""
    if edition not in EDITIONS:
        raise SystemExit(f"--edition {edition!r} is not an edition: allowed one of {', '.join(EDITIONS)}")
    start = chosen(chapter, editions_build.toc_for(edition))
    name = ("" if edition == "reader" else f"{edition}-") + (chapter or "book")
    latex = write_tex(edition, start, name, seed_for_print())
    return typeset(latex, name, out or OUT / f"{name}.pdf")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chapter", help="one page's name (mdf, queueing, intro, ...); default: the whole book")
    parser.add_argument("--edition", choices=EDITIONS, default="reader")
    parser.add_argument("--out", type=Path, help="the PDF to write (default: _build/pdf/...)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    out = build(args.edition, args.chapter, args.out)
    print(f"The PDF is at {out} ({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
