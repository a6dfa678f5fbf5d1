"""The chapter quotes exactly the numbers facts() computes (tests/chapter_facts.py)."""

from chapter_facts import check_quoted_are_facts
from perfstudies.facts import checked_facts
from perfstudies.models.diag44 import KEY, STUDY, facts


def test_the_chapter_quotes_exactly_the_declared_facts():
    found = facts()
    check_quoted_are_facts(KEY, found)
    assert STUDY.facts is facts
    assert list(checked_facts(KEY, found)) == [f"{KEY}-{name}" for name in found]
    counts = [name for name in found if name.startswith("board-") and "pct" not in name]
    assert counts and all(isinstance(found[name].value, int) for name in counts), \
        "a count glued as a float reads '94.0 published cells'"
