"""The fenced directive blocks of a MyST text (``{exercise}``, ``{solution}``, ...), found and removed.

Two readers need a page's exercises and solutions as text, before and apart from Sphinx: the
course pages (:mod:`perfstudies.course` times each exercise from its words) and the student's
edition (``book/_ext/editions.py`` strips every solution out of the downloads; its test greps the
build for each solution's text).

A block opens with a fence (three or more backticks or colons) followed by ``{name}`` and an
optional argument, takes ``:key: value`` option lines at its start, and ends at the first line that
is the same fence character repeated at least as often and nothing else, as MyST (markdown-it)
closes it.
"""

import re
from dataclasses import dataclass

_OPENING = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w-]+)\}\s*(?P<argument>.*?)\s*$")
_OPTION = re.compile(r"^:(?P<key>[\w-]+):\s*(?P<value>.*)$")


@dataclass(frozen=True)
class Block:
    """One directive block: its name, argument, options and body, and the lines it spans."""

    name: str
    argument: str
    options: dict
    body: str
    start: int  # index of the opening line
    stop: int  # index of the line after the closing fence

    @property
    def label(self) -> str:
        """The ``:label:`` option, else the argument (a solution names its exercise's label there)."""
        return self.options.get("label", self.argument)


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= len(fence) and set(stripped) == {fence[0]}


def blocks(text: str, name: str) -> list[Block]:
    """Every top-level ``{name}`` block of ``text``, in order (blocks nested in another are inside its body)."""
    lines = text.splitlines()
    found, index = [], 0
    while index < len(lines):
        opening = _OPENING.match(lines[index].strip())
        if not opening:
            index += 1
            continue
        end = index + 1
        while end < len(lines) and not _closes(lines[end], opening["fence"]):
            end += 1
        if end == len(lines):
            raise ValueError(f"the {{{opening['name']}}} block opened on line {index + 1} is never closed")
        if opening["name"] == name:
            body, options = lines[index + 1:end], {}
            while body and _OPTION.match(body[0]):
                option = _OPTION.match(body[0])
                options[option["key"]] = option["value"]
                body = body[1:]
            found.append(Block(name, opening["argument"], options, "\n".join(body).strip(), index, end + 1))
        index = end + 1
    return found


def strip(text: str, name: str) -> str:
    """``text`` without its ``{name}`` blocks (no more than one blank line left where each was)."""
    lines = text.splitlines(keepends=True)
    kept, position = [], 0
    for block in blocks(text, name):
        kept += lines[position:block.start]
        position = block.stop
    kept += lines[position:]
    return re.sub(r"\n{3,}", "\n\n", "".join(kept))
