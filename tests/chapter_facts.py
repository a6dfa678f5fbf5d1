"""What a chapter quotes, read from its MyST text: the check of every study's test_facts.py.

(What a chapter may hide is checked for every study by tests/test_skeleton.py.)
"""

import re

from perfstudies.facts import Fact
from perfstudies.paths import ROOT


def chapter(key: str) -> str:
    """The text of ``notebooks/<key>.md``."""
    return (ROOT / "notebooks" / f"{key}.md").read_text()


def quoted(text: str, key: str) -> set[str]:
    """Fact names a chapter quotes: ``{glue:...}`<key>-NAME...``` roles and ``{glue}``/``{glue:figure}`` directives."""
    roles = re.findall(rf"\{{glue(?::\w+)?\}}`{key}-([a-z0-9_-]+)", text)
    directives = re.findall(rf"^```\{{glue(?::\w+)?\}} {key}-([a-z0-9_-]+)", text, flags=re.MULTILINE)
    return set(roles) | set(directives)


def check_quoted_are_facts(key: str, facts: dict[str, Fact]) -> None:
    """Every name the chapter quotes is a fact, every fact is quoted, and each is a Fact record."""
    names = quoted(chapter(key), key)
    assert names, f"notebooks/{key}.md quotes no fact"
    assert not names - set(facts), f"notebooks/{key}.md quotes names facts() lacks: {sorted(names - set(facts))}"
    assert not set(facts) - names, f"facts() computes names notebooks/{key}.md never quotes: " \
                                   f"{sorted(set(facts) - names)}"
    assert all(isinstance(fact, Fact) for fact in facts.values())
