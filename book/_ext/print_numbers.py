"""Sphinx extension: in the print edition each chapter carries the number the web book gives it.

LaTeX numbers chapters itself, 1, 2, ... in the order they are typeset, and numbers equations
"(chapter.n)" by that count (the introduction, typeset without a chapter heading, "(n)"), while the
exercises and every reference to them carry Sphinx's numbers (:mod:`front_numbers`): the
introduction 0, the numbered part 1-6, the back matter none.  A chapter printed alone would be
chapter 1.  So for the LaTeX builder only, before each page this sets LaTeX's chapter counter to
the page's number (less one where a heading steps it) and writes its equation numbers "n.m", or,
for a page outside the numbered part, turns numbering off; sections go unnumbered, as on the web.
References to exercises on other pages print their numbers as text (see
:func:`_exercise_references_as_text`).
"""

from docutils import nodes
from sphinx import addnodes

from front_numbers import chapter_number

#: LaTeX's numbering depth for a numbered chapter (the chapter only, as the web book) and for a page without.
NUMBERED, UNNUMBERED = 0, -1


def numbering(env, docname: str, heading: bool = True) -> str:
    """The LaTeX that gives ``docname`` the book's number for it (or none), its equations "(n.m)".

    ``heading`` says whether the page is typeset under a chapter heading of its own (which steps the
    chapter counter and restarts the equations).  The page a document starts from is not: its title
    is the document's (the book's, for the introduction; the chapter's, for a chapter printed alone).
    """
    number = chapter_number(env, docname)
    if not number:
        return f"\\setcounter{{secnumdepth}}{{{UNNUMBERED}}}"
    chapter = int(number.split(".")[0])
    latex = [f"\\setcounter{{secnumdepth}}{{{NUMBERED}}}", f"\\setcounter{{chapter}}{{{chapter - heading}}}",
             f"\\renewcommand{{\\theequation}}{{{chapter}.\\arabic{{equation}}}}"]
    if not heading:
        latex += ["\\setcounter{equation}{0}", "\\markboth{}{}"]  # no heading to restart them or mark the page
    return "".join(latex)


def _exercise_references_as_text(env, doctree) -> None:
    """Every reference to an exercise written as Sphinx numbered it, linked.

    Sphinx writes a numbered reference as LaTeX's ``\\ref`` to its target, and sphinx-exercise
    typesets an exercise's number as text, with no LaTeX counter behind it: a reference from another
    page (the teachers' page) would print "Exercise ??".  sphinx-exercise rewrites references within
    a page only.
    """
    exercises = getattr(env, "sphinx_exercise_registry", {})
    for reference in list(doctree.findall(addnodes.number_reference)):
        target = reference.get("refid") or reference.get("refuri", "").rpartition("#")[2]
        if target in exercises:
            linked = nodes.reference("", "", *reference.children, internal=True,
                                     **{key: reference[key] for key in ("refid", "refuri") if key in reference})
            reference.replace_self(linked)


def _number_chapters(app, doctree, docname):
    if app.builder.format != "latex":
        return
    _exercise_references_as_text(app.env, doctree)
    doctree.insert(0, nodes.raw("", numbering(app.env, docname, heading=False), format="latex"))
    for start in doctree.findall(addnodes.start_of_file):
        start.insert(0, nodes.raw("", numbering(app.env, start["docname"]), format="latex"))


def setup(app):
    app.connect("doctree-resolved", _number_chapters)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
