"""What a chapter quotes and hides, read from its MyST text: the checks of every study's test_facts.py."""

import re

from perfstudies.facts import Fact
from perfstudies.paths import ROOT

#: Tags that hide a code cell's input from the reader.
HIDDEN = ("remove-cell", "remove-input", "hide-input", "remove-output")
#: Longest hidden cell (non-blank lines): setup and the one glue_facts call.
HIDDEN_LINES_MAX = 3


def chapter(key: str) -> str:
    """The text of ``notebooks/<key>.md``."""
    return (ROOT / "notebooks" / f"{key}.md").read_text()


def quoted(text: str, key: str) -> set[str]:
    """Fact names a chapter quotes: ``{glue:...}`<key>-NAME...``` roles and ``{glue}``/``{glue:figure}`` directives."""
    roles = re.findall(rf"\{{glue(?::\w+)?\}}`{key}-([a-z0-9_-]+)", text)
    directives = re.findall(rf"^```\{{glue(?::\w+)?\}} {key}-([a-z0-9_-]+)", text, flags=re.MULTILINE)
    return set(roles) | set(directives)


def hidden_cells(text: str) -> list[str]:
    """The source of every code cell tagged to hide its input."""
    hidden = []
    for body in re.findall(r"```\{code-cell\}[^\n]*\n(.*?)```", text, flags=re.DOTALL):
        tags = re.search(r"^:tags: \[(.*?)\]", body, flags=re.MULTILINE)
        if tags and {tag.strip() for tag in tags.group(1).split(",")} & set(HIDDEN):
            hidden.append(re.sub(r"^:\w+:.*\n", "", body, flags=re.MULTILINE))
    return hidden


def check_quoted_are_facts(key: str, facts: dict[str, Fact]) -> None:
    """Every name the chapter quotes is a fact, every fact is quoted, and each is a Fact record."""
    names = quoted(chapter(key), key)
    assert names, f"notebooks/{key}.md quotes no fact"
    assert not names - set(facts), f"notebooks/{key}.md quotes names facts() lacks: {sorted(names - set(facts))}"
    assert not set(facts) - names, f"facts() computes names notebooks/{key}.md never quotes: " \
                                   f"{sorted(set(facts) - names)}"
    assert all(isinstance(fact, Fact) for fact in facts.values())


def check_hides_only_the_glue(key: str) -> None:
    """One glue_facts call, no other glue, and no hidden cell beyond a few lines of setup and that call."""
    text = chapter(key)
    assert text.count("glue_facts(KEY, facts())") == 1, f"notebooks/{key}.md glues its facts once"
    assert not re.search(r"(?<![\w.])glue\(", text), f"notebooks/{key}.md glues numbers past facts()"
    for source in hidden_cells(text):
        lines = [line for line in source.splitlines() if line.strip()]
        assert len(lines) <= HIDDEN_LINES_MAX, f"notebooks/{key}.md hides a {len(lines)}-line cell:\n{source}"
        assert all("glue_facts" in line or "import" in line for line in lines), \
            f"notebooks/{key}.md hides more than setup and glue:\n{source}"
