"""A chapter's ``.ipynb`` download as a reader opens it: glued numbers in the text, what to install first.

The executed notebook holds the chapter's text with ``{glue:text}`` roles and ``{glue}`` blocks,
whose values the book pastes in when it builds the page.  A notebook opened elsewhere than in the
JupyterLab ``make lab`` starts (whose contents manager, :mod:`perfstudies.lab_glue`, shows them once
the notebook runs) would show a role as its key.  :func:`for_reader` pastes every glued value into
the text, formatted as the book's page shows it (:mod:`perfstudies.glued`), and puts a first cell
saying what the notebook needs to run.  For the student's edition, :func:`drop_solution_cells`
first takes out the hidden code cells that only compute numbers the (stripped) solutions quoted,
so a student's notebook does not print them either.
"""

import ast
import json
import re
from pathlib import Path

from perfstudies.glued import key_and_spec, plain_formatted

#: The first cell of every download.
HOW_TO_RUN = (
    "*A chapter of* Reproducible performance studies, *as an executed notebook.* Its glued numbers are "
    "pasted into the text; its outputs are those of the book's build. To run it again you need the "
    "book's `perfstudies` package: from a clone of the book's repository, `make lab` installs the pinned "
    "environment and opens JupyterLab (or `pip install -r requirements.txt && pip install -e .` in a "
    "Python 3.11 environment). JupyterLab shows its exercises, equations and glossary terms as the book "
    "does with the `jupyterlab-myst` extension, which that environment includes."
)
_ROLE = re.compile(r"\{glue(?::(?P<kind>text|md|any))?\}`(?P<content>[^`]+)`")
_BLOCK = re.compile(r"^(?P<fence>`{3,}|:{3,})\{glue(?::\w+)?\}\s+(?P<key>\S+)\s*\n(?P<body>.*?)^(?P=fence)[ \t]*$",
                    re.MULTILINE | re.DOTALL)


def _source(cell: dict) -> str:
    return _text(cell["source"])


def glued(values_file: Path) -> dict[str, dict]:
    """Every value a page glued, key -> MIME bundle, from the ``<page>.glue.json`` MyST-NB writes beside
    the executed notebook (whose own cells no longer carry the glued outputs)."""
    if not values_file.exists():
        return {}
    return {key: output.get("data", {}) for key, output in json.loads(values_file.read_text()).items()}


def _text(data) -> str:
    return "".join(data) if isinstance(data, list) else data


def paste(text: str, values: dict[str, dict]) -> str:
    """``text`` with every glue role and block replaced by its value, as the book shows it.

    A role or block whose key was never glued is left as written (the book's build has already
    refused it with a warning, which fails the build).
    """
    def role(match):
        content, kind = match["content"], match["kind"] or "any"
        key, spec = key_and_spec(content) if kind == "text" else (content, "")
        bundle = values.get(key)
        if bundle is None:
            return match[0]
        if kind == "md" and "text/markdown" in bundle:
            return _text(bundle["text/markdown"]).strip()
        return plain_formatted(_text(bundle.get("text/plain", "")), spec)

    def block(match):
        bundle = values.get(match["key"])
        if bundle is None:
            return match[0]
        for mime in ("text/markdown", "text/html"):
            if mime in bundle:
                return _text(bundle[mime]).strip()
        return "```\n" + _text(bundle.get("text/plain", "")).strip() + "\n```"

    return _ROLE.sub(role, _BLOCK.sub(block, text))


def _keys(source: str) -> set[str] | None:
    """The keys a code cell glues (``glue("key", ...)``), or None when one is not a plain string."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # IPython magics
        return None
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "glue":
            if not (node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                return None
            keys.add(node.args[0].value)
    return keys


def _names(source: str, context) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:  # IPython magics: keep the cell
        return {"<unparsed>"}
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, context)}
    if context is ast.Store:  # an import binds names too
        names |= {(alias.asname or alias.name).split(".")[0] for node in ast.walk(tree)
                  if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    return names


def drop_solution_cells(notebook: dict) -> int:
    """Drop the hidden code cells whose every glued value only solutions quoted; return how many went.

    Run after the solutions are stripped.  A code cell goes when it is hidden from the page
    (``remove-cell``), glues at least one value under a plain-string key, no remaining text pastes any
    of its values, and no later code cell reads a name it assigns (so the notebook still runs from the top).
    """
    cells = notebook.get("cells", [])
    text = "\n".join(_source(cell) for cell in cells if cell.get("cell_type") == "markdown")
    pasted = {match["content"].split(":")[0] for match in _ROLE.finditer(text)} | \
        {match["key"] for match in _BLOCK.finditer(text)}
    kept, dropped = [], 0
    for index, cell in enumerate(cells):
        keys = _keys(_source(cell)) if cell.get("cell_type") == "code" else set()
        if keys and "remove-cell" in cell.get("metadata", {}).get("tags", []) and not keys & pasted:
            later = set().union(*(_names(_source(other), ast.Load) for other in cells[index + 1:]
                                  if other.get("cell_type") == "code"))
            if not _names(_source(cell), ast.Store) & later:
                dropped += 1
                continue
        kept.append(cell)
    notebook["cells"] = kept
    return dropped


def for_reader(notebook: dict, values: dict[str, dict]) -> dict:
    """The download: the glued ``values`` pasted into every markdown cell, and a first cell on how to run it."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            cell["source"] = paste(_source(cell), values)
    notebook["cells"].insert(0, {"cell_type": "markdown", "metadata": {}, "source": HOW_TO_RUN})
    return notebook
