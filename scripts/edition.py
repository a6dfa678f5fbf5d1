"""Build the student's or the teacher's edition of the book (`make student`, `make teacher`).

    python scripts/edition.py student|teacher

The edition lands in ``_build/<edition>/html`` (the folder to publish or hand out), with its build
environment (``.doctrees``) and executed notebooks (``jupyter_execute``) beside it; the
``editions`` extension (``book/_ext/editions.py``) decides what each edition carries.  The teacher's
edition adds the solutions appendix (``book/solutions.md``) to the table of contents.

Notebooks are not executed again when they need not be: the editions run MyST-NB in ``cache`` mode
on a jupyter-cache kept per digest of the sources (``_build/editions/jupyter-cache-<digest>``), and
before building, any page missing from it is seeded from notebooks a build already executed from
these very sources (``make book``'s ``_build/jupyter_execute``, or the other edition's), so after
``make book`` both editions execute nothing.  Without such a build, the first edition executes the
chapters and the second reuses them.
"""

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import editions  # noqa: E402  (the book's extension: its digest and edition names)

BUILD = ROOT / "_build"
CACHES = BUILD / "editions"
BUILT_EDITIONS = ("student", "teacher")
#: The teacher's extra page, put at the end of the table of contents.
APPENDIX = "book/solutions"


def output(edition: str) -> Path:
    """The folder an edition is built into (its HTML in ``html/``)."""
    return BUILD / edition


def executed_folders(digest: str) -> list[Path]:
    """Folders of notebooks executed by a finished build of the sources with ``digest``."""
    candidates = [BUILD / "jupyter_execute"] + [output(name) / "jupyter_execute" for name in BUILT_EDITIONS]
    return [folder for folder in candidates
            if (folder / editions.DIGEST_FILE).is_file()
            and (folder / editions.DIGEST_FILE).read_text().strip() == digest]


def notebook_pages() -> list[Path]:
    """The pages that are notebooks (MyST text notebooks with a kernel), as their source files."""
    from myst_nb.core.read import is_myst_markdown_notebook

    return [path for pattern in ("book/*.md", "notebooks/*.md") for path in sorted(ROOT.glob(pattern))
            if is_myst_markdown_notebook(path.read_text())]


def read_page(path: Path):
    """A page as MyST-NB reads it for execution (so jupyter-cache hashes it alike)."""
    from myst_nb.core.read import read_myst_markdown_notebook
    from myst_parser.config.main import MdParserConfig

    return read_myst_markdown_notebook(path.read_text(), config=MdParserConfig(), add_source_map=True,
                                       path=str(path))


def hidden_glue(path: Path) -> list:
    """The page's ``glue(..., display=False)`` outputs, as the kernel gave them, from MyST-NB's glue file.

    MyST-NB takes those outputs out of the executed notebook it writes and keeps them in
    ``<page>.glue.json`` beside it (outputs shown in place stay in their cell).  Pasting finds a
    key in whichever code cell holds it, so they go back in the page's last code cell.
    """
    if not path.is_file():
        return []
    outputs = []
    for output in json.loads(path.read_text()).values():
        prefix = output.get("metadata", {}).get("scrapbook", {}).get("mime_prefix", "")
        if prefix:
            output["data"] = {prefix + kind: value for kind, value in output["data"].items()}
            outputs.append(nbformat.from_dict(output))
    return outputs


def seed(cache_path: Path, digest: str, convert=None) -> tuple[list[str], list[str]]:
    """Put into the jupyter-cache every page a finished build executed from these sources.

    ``convert``, when given, is applied to each executed page before it is cached (the print
    edition adds what paper shows to the outputs).  Returns the pages that were in the cache
    already and the pages seeded now.
    """
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache = get_cache(str(cache_path))
    folders = executed_folders(digest)
    cached, seeded = [], []
    for path in notebook_pages():
        page = read_page(path)
        docname = path.relative_to(ROOT).with_suffix("").as_posix()
        try:
            cache.match_cache_notebook(page)
            cached.append(docname)
            continue
        except KeyError:
            pass
        for folder in folders:
            executed_path = folder / f"{docname}.ipynb"
            if not executed_path.is_file():
                continue
            done = nbformat.read(executed_path, as_version=4)
            executed = [cell for cell in done.cells if cell.cell_type == "code"]
            code = [cell for cell in page.cells if cell.cell_type == "code"]
            if [cell.source for cell in executed] != [cell.source for cell in code] or any(
                    output.output_type == "error" for cell in executed for output in cell.outputs) or any(
                    cell.execution_count is None for cell in executed if cell.source.strip()):
                continue  # another page's code, or an execution that failed or stopped half-way
            for cell, ran in zip(code, executed):
                cell.outputs, cell.execution_count = ran.outputs, ran.execution_count
            for key in ("language_info", "widgets"):
                if key in done.metadata:
                    page.metadata[key] = done.metadata[key]
            if code:
                code[-1].outputs += hidden_glue(folder / f"{docname}.glue.json")
            if convert is not None:
                convert(page)
            cache.cache_notebook_bundle(CacheBundleIn(page, str(path), data={"seeded_from": str(folder)}),
                                        check_validity=False, overwrite=True)
            seeded.append(docname)
            break
    return cached, seeded


def toc_for(edition: str) -> Path:
    """The table of contents of ``edition``: the book's, and for the teacher the solutions appendix last."""
    toc = ROOT / "book" / "_toc.yml"
    if edition != "teacher":
        return toc
    tree = yaml.safe_load(toc.read_text())
    last = tree["parts"][-1]["chapters"] if "parts" in tree else tree["chapters"]
    last.append({"file": APPENDIX})
    generated = output(edition) / "_toc.yml"
    generated.parent.mkdir(parents=True, exist_ok=True)
    generated.write_text("# Generated by scripts/edition.py from book/_toc.yml\n" + yaml.safe_dump(tree, sort_keys=False))
    return generated


def build(edition: str) -> int:
    """Build ``edition`` as `make book` builds the reader's (warnings are errors); return Sphinx's status."""
    from jupyter_book.sphinx import build_sphinx

    digest = editions.sources_digest(ROOT)
    cache_path = CACHES / f"jupyter-cache-{digest[:16]}"
    for old in CACHES.glob("jupyter-cache-*"):
        if old != cache_path:
            shutil.rmtree(old)
    cached, seeded = seed(cache_path, digest)
    print(f"{edition} edition: {len(cached) + len(seeded)} notebooks executed from these sources "
          f"({len(cached)} in the editions' cache, {len(seeded)} from a finished build); "
          f"the other {len(notebook_pages()) - len(cached) - len(seeded)} execute now", flush=True)
    status = build_sphinx(
        ROOT, output(edition) / "html", doctreedir=output(edition) / ".doctrees", noconfig=True,
        path_config=ROOT / "book" / "_config.yml", warningiserror=True, keep_going=True,
        confoverrides={"external_toc_path": toc_for(edition).as_posix(), "latex_individualpages": False,
                       "edition": edition, "nb_execution_mode": "cache",
                       "nb_execution_cache_path": str(cache_path)})
    if status != 0:
        # Sphinx counts a page read with warnings as up to date: forget the build environment, so the
        # next build reads every page again (from the cache, bar the pages that failed) instead of
        # keeping a failed page and reporting success
        shutil.rmtree(output(edition) / ".doctrees", ignore_errors=True)
    return status


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("edition", choices=BUILT_EDITIONS, help="which edition to build")
    edition = parser.parse_args(argv).edition
    started = time.monotonic()
    status = build(edition)
    if status == 0:
        print(f"The {edition} edition is at {output(edition) / 'html' / 'index.html'} "
              f"({time.monotonic() - started:.0f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
