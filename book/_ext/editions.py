"""Sphinx extension: the reader's, the student's and the teacher's edition of the book from one source.

The config value ``edition`` (``reader`` unless ``scripts/edition.py`` sets it) picks one:

* ``reader``: the book as ``make book`` builds it, every solution folded under its exercise.
* ``student``: no solution anywhere a student can reach.  sphinx-exercise's ``hide_solutions``
  leaves the solution nodes out of the pages (and so out of the search index and the doctrees);
  when the build has finished, this extension strips the solution blocks out of every page source
  (``_sources/*.md``) and every notebook (the ``.ipynb`` downloads and ``jupyter_execute``) too.
* ``teacher``: every solution under its exercise, and the ``{solutions-appendix}`` directive
  (``book/solutions.md``, in the teacher's table of contents only) gathers them all, unfolded,
  chapter by chapter, each titled "Solution to Exercise n.m" and linked back to its exercise.

The edition is also a Sphinx tag, so a page can say something to one edition only
(```` ```{only} student ````).

Every build records, beside its executed notebooks, a digest of the sources their outputs depend
on (:func:`sources_digest`); ``scripts/edition.py`` reuses executed notebooks only when that digest
is today's, so an edition never shows outputs of older code.
"""

import hashlib
import json
import posixpath
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.errors import ConfigError

import solutions_text
from front_numbers import chapter_number

EDITIONS = ("reader", "student", "teacher")
#: Beside a build's executed notebooks: the digest of the sources they were executed from.
DIGEST_FILE = ".sources-digest"
#: What a notebook's outputs can depend on besides its own code cells (in jupyter-cache's key) and
#: the library and data (perfstudies.cache.sources_digest): every page (the introduction counts the
#: chapters' words) and the pinned packages.
PAGE_SOURCES = ("book/*.md", "notebooks/*.md", "requirements.txt", "pyproject.toml")


def sources_digest(root: Path) -> str:
    """SHA-256 over the library and data (the disk memo's digest), the pages and the pins under ``root``."""
    from perfstudies.cache import sources_digest as library_digest

    digest = hashlib.sha256(library_digest().encode())
    for path in sorted(p for pattern in PAGE_SOURCES for p in Path(root).glob(pattern)):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _check_edition(app, config):
    if config.edition not in EDITIONS:
        raise ConfigError(f"edition must be one of {', '.join(EDITIONS)}, not {config.edition!r}")
    if config.edition == "student":
        config.hide_solutions = True
    app.tags.add(config.edition)


def _note_digest(app):
    """The digest of the sources as the build starts reading them."""
    app.editions_sources_digest = sources_digest(Path(app.srcdir))


def _record_digest(app, exception):
    """Note which sources this build's executed notebooks come from.

    A build that failed or warned notes nothing: a notebook whose execution stopped half-way is
    written all the same, without the outputs of its later cells.
    """
    executed = Path(app.outdir).parent / "jupyter_execute"
    (executed / DIGEST_FILE).unlink(missing_ok=True)
    if exception is None and not getattr(app, "_warncount", 0) and executed.is_dir():
        (executed / DIGEST_FILE).write_text(app.editions_sources_digest + "\n")


def _strip_student_files(app, exception):
    """Strip the solutions from every page source and notebook the student build wrote."""
    if exception is not None or app.config.edition != "student":
        return
    folders = [Path(app.outdir) / "_sources", Path(app.outdir).parent / "jupyter_execute"]
    for path in (p for folder in folders if folder.is_dir() for p in folder.rglob("*") if p.is_file()):
        if path.suffix == ".ipynb":
            notebook = json.loads(path.read_text())
            if solutions_text.strip_notebook(notebook):
                path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")
        elif path.suffix in (".md", ".txt"):
            text = path.read_text()
            stripped = solutions_text.strip_solutions(text)
            if stripped != text:
                path.write_text(stripped)


class solutions_appendix(nodes.General, nodes.Element):
    """Where the teacher's appendix puts every chapter's solutions (filled in when the page is resolved)."""


class SolutionsAppendix(Directive):
    """``{solutions-appendix}``: every solution of the book, chapter by chapter (teacher's edition)."""

    def run(self):
        env = self.state.document.settings.env
        if env.config.edition != "teacher":
            raise self.error("the solutions appendix belongs to the teacher's edition (edition: teacher)")
        env.note_reread()  # the chapters' solutions can change without this page changing
        return [solutions_appendix()]


def _chapters_in_order(env) -> list[str]:
    """The root page, then every page of the table of contents, in reading order."""
    ordered = [env.config.root_doc]
    for docname in ordered:
        ordered += [child for child in env.toctree_includes.get(docname, []) if child not in ordered]
    return ordered


def _relocate(node, source: str, target: str) -> None:
    """Make the links of ``node``, resolved on page ``source``, work on page ``target``."""
    here, page = posixpath.dirname(source), posixpath.relpath(f"{source}.html", posixpath.dirname(target))
    for reference in node.findall(nodes.reference):
        if reference.get("refid") and not reference.get("refuri"):
            reference["refuri"] = f"{page}#{reference['refid']}"
            del reference["refid"]
        elif reference.get("refuri", "").startswith("#"):  # an anchor on the chapter's own page
            reference["refuri"] = page + reference["refuri"]
            continue
        uri = reference.get("refuri", "")
        if uri and "://" not in uri and not uri.startswith(("#", "mailto:")):
            path, _, anchor = uri.partition("#")
            if path:
                full = posixpath.normpath(posixpath.join(here, path))
                reference["refuri"] = posixpath.relpath(full, posixpath.dirname(target)) + \
                    (f"#{anchor}" if anchor else "")


def _fill_appendix(app, doctree, docname):
    from sphinx_exercise.nodes import solution_node

    for placeholder in list(doctree.findall(solutions_appendix)):
        content = []
        for chapter in _chapters_in_order(app.env):
            if chapter == docname:
                continue
            resolved = app.env.get_and_resolve_doctree(chapter, app.builder)
            solutions = list(resolved.findall(solution_node))
            if not solutions:
                continue
            number = chapter_number(app.env, chapter)
            title = app.env.titles[chapter].astext()
            content.append(nodes.rubric("", f"{number}. {title}" if number else title))
            for solution in solutions:
                copy = solution.deepcopy()
                copy["classes"] = [name for name in copy["classes"] if name != "dropdown"]
                copy["ids"] = []
                _relocate(copy, chapter, docname)
                content.append(copy)
        if not content:
            raise ValueError("the solutions appendix found no solution in any chapter")
        placeholder.replace_self(content)


def setup(app):
    app.add_config_value("edition", "reader", "env", types=[str])
    app.add_node(solutions_appendix)
    app.add_directive("solutions-appendix", SolutionsAppendix)
    # after sphinx-exercise registered hide_solutions (config-inited runs in registration order)
    app.connect("config-inited", _check_edition, priority=800)
    app.connect("builder-inited", _note_digest)
    app.connect("doctree-resolved", _fill_appendix)
    app.connect("build-finished", _strip_student_files)
    app.connect("build-finished", _record_digest)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
