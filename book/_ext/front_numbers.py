"""Sphinx extension: the introduction numbers its exercises and equations 0.1, 0.2, ... like a chapter 0.

Chapters are numbered from 1 (the numbered part of ``book/_toc.yml``) and Sphinx numbers their
exercises and equations "n.m" (``numfig_secnum_depth: 1``).  The introduction is the book's root page,
outside the numbered part, so Sphinx numbers its exercises 1, 2, ..., which a reader takes for
chapter 1's.  Once Sphinx has assigned the figure numbers, this extension puts :data:`FRONT` before
every number of the root page (exercises, equations, figures, tables), so text, the concept map and
the teachers page, which all read Sphinx's numbers, say "Exercise 0.3".
"""

#: The introduction's chapter number.
FRONT = 0


def chapter_number(env, docname: str) -> str:
    """The chapter number of ``docname`` as a reader reads it: "0" for the root page, "" outside the chapters."""
    if docname == env.config.root_doc:
        return str(FRONT)
    return ".".join(str(part) for part in env.toc_secnumbers.get(docname, {}).get("", ()))


def _number_the_front_page(app, env):
    numbers = env.toc_fignumbers.get(env.config.root_doc, {})
    for by_id in numbers.values():
        for node_id, number in by_id.items():
            by_id[node_id] = (FRONT, *number)
    return [env.config.root_doc] if numbers else []


def setup(app):
    # after Sphinx's toctree collector (priority 500) has assigned the numbers on this event
    app.connect("env-get-updated", _number_the_front_page, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
