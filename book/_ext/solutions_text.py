"""Remove the ``{solution}`` blocks from a page's text and from a notebook's cells.

The student's edition must not carry a solution anywhere a student can reach. Sphinx leaves the
solution nodes out of the pages (sphinx-exercise's ``hide_solutions``), but the page's source
download (``_sources/<page>.md``) and its ``.ipynb`` download are the chapter's own text, every
solution in it; the ``editions`` extension strips those with these two functions.
"""

from perfstudies import myst_blocks


def strip_solutions(text: str) -> str:
    """``text`` without its solution blocks."""
    return myst_blocks.strip(text, "solution")


def strip_notebook(notebook: dict) -> int:
    """Strip the solution blocks out of a notebook's markdown cells in place; return how many went.

    A markdown cell that held nothing but solutions is dropped.
    """
    removed, cells = 0, []
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            found = len(myst_blocks.blocks(source, "solution"))
            if found:
                removed += found
                source = strip_solutions(source)
                if not source.strip():
                    continue
                cell["source"] = source
        cells.append(cell)
    notebook["cells"] = cells
    return removed
