"""Glued values as the text shows them: the book's ``{glue:text}`` formatting, in a kernel and in a download.

A page glues a value once (:func:`glue`, which :func:`perfstudies.facts.glue_facts` calls for a
chapter) and its text quotes it as ``{glue:text}`key:format```.  The book's build pastes the
value's plain text, formatted by the role's format spec, where the role stands.  This module
holds that one formatting rule (:func:`formatted`, MyST-NB's own) and the role's syntax
(:data:`ROLE`, :func:`key_and_spec`) for the three places that show glued values:

* the book, through MyST-NB;
* a chapter's ``.ipynb`` download, where ``book/_ext/reader_notebooks.py`` pastes the values;
* JupyterLab, where the lab's contents manager (:mod:`perfstudies.lab_glue`) turns each role into
  an inline expression that jupyterlab-myst evaluates in the page's kernel when the Markdown cell
  runs: :func:`text`, which looks the key up among the values this kernel glued (and each
  ``{glue}`` block, a glued table, into :func:`block`).

Examples
--------
>>> key_and_spec("mdf-switch-ms:.2f")
('mdf-switch-ms', '.2f')
>>> key_and_spec("mdf-rmf-rule")
('mdf-rmf-rule', '')
>>> formatted(0.0123, "+.0%"), formatted("after clearing", "")
('+1%', 'after clearing')
>>> VALUES["doc-wait"] = 2.345
>>> text("doc-wait:.1f")
2.3
>>> text("doc-never:.1f")
[Run All to compute]
>>> block("doc-wait"), block("doc-never")
(2.345, [Run All to compute])
>>> del VALUES["doc-wait"]
"""

import re
from typing import Any

#: A ``{glue:text}`` role (``content`` is ``key`` or ``key:format``), as the book's text writes it.
ROLE = re.compile(r"\{glue:text\}`(?P<content>[^`]+)`")
#: What a role shows in JupyterLab until the page's code has glued its value (before "Run All").
PLACEHOLDER = "[Run All to compute]"
#: The values this process glued, by key: what :func:`text` shows in JupyterLab.
VALUES: dict[str, Any] = {}


def key_and_spec(content: str) -> tuple[str, str]:
    """A role's ``key:format`` split as MyST-NB splits it (at the last colon; no colon: no format)."""
    key, _, spec = content.rpartition(":") if ":" in content else (content, "", "")
    return key, spec


def formatted(value: Any, spec: str) -> str:
    """``value`` as a ``{glue:text}`` role with format ``spec`` shows it in the book: its plain-text
    display (what ``glue`` stores), formatted by MyST-NB's own rule."""
    from IPython.core.formatters import format_display_data

    return plain_formatted(format_display_data(value)[0]["text/plain"], spec)


def plain_formatted(plain_text: str, spec: str) -> str:
    """A glued value's stored plain text formatted by ``spec``, by MyST-NB's rule (the book's)."""
    from myst_nb.core.variables import format_plain_text

    return format_plain_text(plain_text, spec)


def glue(name: str, value: Any, display: bool = False) -> None:
    """MyST-NB's ``glue`` (for the book), which also keeps ``value`` for :func:`text` (for JupyterLab)."""
    from myst_nb import glue as myst_glue   # the book's glue, imported only where a page glues

    VALUES[name] = value
    myst_glue(name, value, display=display)


class Shown:
    """Text whose plain-text display is itself, with no quotes (jupyterlab-myst shows an inline
    expression's ``text/plain``)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def text(content: str) -> Shown:
    """A role's ``key:format`` shown as the book shows it, from the value this kernel glued under
    ``key``; :data:`PLACEHOLDER` while nothing is glued under it yet."""
    key, spec = key_and_spec(content)
    if key not in VALUES:
        return Shown(PLACEHOLDER)
    return Shown(formatted(VALUES[key], spec))


def block(key: str) -> Any:
    """What a ``{glue}`` block shows in JupyterLab: the value this kernel glued under ``key`` itself (its
    display, a table's HTML as in the book); :data:`PLACEHOLDER` while nothing is glued under it yet."""
    return VALUES.get(key, Shown(PLACEHOLDER))
