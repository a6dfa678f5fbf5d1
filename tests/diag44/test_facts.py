"""The chapter's quoted numbers: every glue key the chapter names is one of facts(), and every fact is quoted."""

import re
from pathlib import Path

from perfstudies.facts import checked_facts
from perfstudies.models.diag44 import KEY, STUDY, facts

ROOT = Path(__file__).resolve().parents[2]

#: A glue role or directive of the chapter: ``{glue:text}`diag44-name:.2f```, ``{glue}`diag44-name```, or the
#: ``{glue}`` directive's ``diag44-name``.
GLUED = re.compile(r"\{glue(?::\w+)?\}(?:`|\s+)" + KEY + r"-([a-z0-9-]+?)(?=[:`\s])")


def test_the_chapter_quotes_exactly_the_declared_facts():
    quoted = set(GLUED.findall((ROOT / "notebooks" / f"{KEY}.md").read_text()))
    found = facts()
    declared = set(found)
    assert STUDY.facts is facts
    assert quoted - declared == set(), f"the chapter quotes keys facts() does not declare: {sorted(quoted - declared)}"
    assert declared - quoted == set(), f"facts() declares facts the chapter never quotes: {sorted(declared - quoted)}"
    assert list(checked_facts(KEY, found)) == [f"{KEY}-{name}" for name in found]

    counts = [name for name in found if name.startswith("board-") and "pct" not in name]
    assert counts and all(isinstance(found[name].value, int) for name in counts), \
        "a count glued as a float reads '94.0 published cells'"
