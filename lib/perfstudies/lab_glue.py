"""JupyterLab's contents manager for the book's pages: glued numbers show their values after "Run All".

A page's text quotes a glued value as ``{glue:text}`key:format``` (:mod:`perfstudies.glued`),
which the book's build fills in and jupyterlab-myst does not know.  jupyterlab-myst does evaluate
MyST's inline expressions, ``{eval}`expression```, in the page's kernel each time a Markdown cell
runs (so at every "Run All"), and shows the result's plain text in the sentence.  This contents
manager (Jupytext's, which opens the MyST text notebooks, with two steps added) therefore

* on opening a page, turns each role into the expression :data:`LOOKUP` (:func:`to_lab`): the
  kernel looks the key up among the values the page glued and formats it as the book does, and
  gives each such cell a first result, :data:`perfstudies.glued.PLACEHOLDER`, shown until the
  cell runs.  A ``{glue}`` block (a glued table, written as the two fence lines :data:`BLOCK` matches)
  becomes a paragraph of one expression, :data:`BLOCK_LOOKUP`, whose result is the table itself;
* on saving, turns each such expression back into its role or block (:func:`from_lab`) and drops
  the results jupyterlab-myst stored in the cell's metadata, so a page saved without edits is the
  file it was, byte for byte, and the book's build still reads ``{glue:text}`` roles.

``make lab`` starts JupyterLab with ``--ServerApp.contents_manager_class=`` this class, and with
every notebook cell attached (``windowingMode: none``, ``scripts/jupyterlab-overrides.json``):
jupyterlab-myst looks for a cell's expressions in the MyST it drew for the cell, so a cell that was
never on screen before "Run All" ran it would keep its placeholders.
"""

import copy
import re

from jupytext import AsyncTextFileContentsManager

from perfstudies.glued import PLACEHOLDER, ROLE

#: The inline expression a role becomes in JupyterLab (``{content}``: the role's ``key:format``).
LOOKUP = '__import__("perfstudies.glued").glued.text("{content}")'
#: A ``{glue}`` block as the pages write it: its own fence lines, no options, no body.
BLOCK = re.compile(r"^```\{glue\} (?P<content>[^\s`\"\\]+)\n```$", re.MULTILINE)
#: The inline expression, alone on its line, a ``{glue}`` block becomes (``{content}``: its key).
BLOCK_LOOKUP = '__import__("perfstudies.glued").glued.block("{content}")'


def _pattern(lookup: str) -> re.Pattern:
    """The expressions ``lookup`` gives, with the role's content as the group ``content``."""
    return re.compile(re.escape(lookup).replace(re.escape("{content}"), r'(?P<content>[^"\\`]+)'))


_EXPRESSION, _BLOCK_EXPRESSION = _pattern(LOOKUP), _pattern(BLOCK_LOOKUP)
_EVAL = re.compile(r"\{eval\}`(?P<expression>[^`]+)`")
_BLOCK_EVAL = re.compile(r"^\{eval\}`(?P<expression>[^`]+)`$", re.MULTILINE)
#: The cell metadata where jupyterlab-myst keeps an evaluated expression's result.
RESULTS = "user_expressions"


def _lookup(content: str) -> str | None:
    """The expression for a role's ``content``, or None when the content cannot be quoted in it."""
    return None if re.search(r'["\\]', content) else LOOKUP.format(content=content)


def to_lab(markdown: str) -> str:
    """``markdown`` with every ``{glue:text}`` role turned into its :data:`LOOKUP` inline expression and
    every :data:`BLOCK` into its :data:`BLOCK_LOOKUP`."""
    def role(match):
        expression = _lookup(match["content"])
        return match[0] if expression is None else f"{{eval}}`{expression}`"

    return ROLE.sub(role, BLOCK.sub(lambda match: f"{{eval}}`{BLOCK_LOOKUP.format(content=match['content'])}`",
                                    markdown))


def from_lab(markdown: str) -> str:
    """``markdown`` with every expression :func:`to_lab` writes turned back into its role or block."""
    def expression(match):
        lookup = _EXPRESSION.fullmatch(match["expression"])
        return match[0] if lookup is None else f"{{glue:text}}`{lookup['content']}`"

    def block(match):
        lookup = _BLOCK_EXPRESSION.fullmatch(match["expression"])
        return match[0] if lookup is None else f"```{{glue}} {lookup['content']}\n```"

    return _EVAL.sub(expression, _BLOCK_EVAL.sub(block, markdown))


def _ours(expression: str) -> bool:
    """Whether ``expression`` is one :func:`to_lab` writes."""
    return bool(_EXPRESSION.fullmatch(expression) or _BLOCK_EXPRESSION.fullmatch(expression))


def placeholders(markdown: str) -> list[dict]:
    """The results jupyterlab-myst shows for the lookups of ``markdown`` before its cell runs."""
    expressions = dict.fromkeys(match["expression"] for match in _EVAL.finditer(markdown)
                                if _ours(match["expression"]))
    return [{"expression": expression,
             "result": {"status": "ok", "data": {"text/plain": PLACEHOLDER}, "metadata": {}}}
            for expression in expressions]


def notebook_for_lab(notebook: dict) -> dict:
    """The page as JupyterLab shows it: each Markdown cell's roles as lookups, with placeholder results."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            source = to_lab(_text(cell["source"]))
            if source != _text(cell["source"]):
                cell["source"] = source
                cell.setdefault("metadata", {})[RESULTS] = placeholders(source)
    return notebook


def notebook_from_lab(notebook: dict) -> dict:
    """The page as its file holds it: lookups back to roles, and jupyterlab-myst's stored results of
    lookups dropped (a cell whose stored results include any other expression keeps them)."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        cell["source"] = from_lab(_text(cell["source"]))
        results = cell.get("metadata", {}).get(RESULTS)
        if isinstance(results, list) and all(
                isinstance(result, dict) and _ours(str(result.get("expression", "")))
                for result in results):
            del cell["metadata"][RESULTS]
    return notebook


def _text(source) -> str:
    return "".join(source) if isinstance(source, list) else source


class GlueContentsManager(AsyncTextFileContentsManager):
    """Jupytext's contents manager, showing a page's ``{glue:text}`` roles as lookups in its kernel
    (:func:`notebook_for_lab`) and saving them back as roles (:func:`notebook_from_lab`)."""

    async def get(self, path, content=True, type=None, format=None, **kwargs):
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        if model.get("type") == "notebook" and model.get("content") is not None:
            notebook_for_lab(model["content"])
        return model

    async def save(self, model, path=""):
        if model.get("type") == "notebook" and model.get("content") is not None:
            model = {**model, "content": notebook_from_lab(copy.deepcopy(model["content"]))}
        return await super().save(model, path)
