"""The chapter quotes exactly the numbers facts() computes, glued by one hidden glue_facts call."""

import re

import pytest

from perfstudies.facts import Fact
from perfstudies.models.svcdump import KEY, STUDY, facts
from perfstudies.paths import ROOT

CHAPTER = (ROOT / "notebooks" / f"{KEY}.md").read_text()
HIDDEN = ("remove-cell", "remove-input", "hide-input", "remove-output")


def quoted(text: str, key: str) -> set[str]:
    """Fact names the chapter quotes: ``{glue:...}`<key>-NAME...``` roles and ``{glue}``/``{glue:figure}`` directives."""
    roles = re.findall(rf"\{{glue(?::\w+)?\}}`{key}-([a-z0-9-]+)", text)
    directives = re.findall(rf"^```\{{glue(?::\w+)?\}} {key}-([a-z0-9-]+)", text, flags=re.MULTILINE)
    return set(roles) | set(directives)


def hidden_cells(text: str) -> list[str]:
    """The source of every code cell tagged to hide its input."""
    hidden = []
    for body in re.findall(r"```\{code-cell\}[^\n]*\n(.*?)```", text, flags=re.DOTALL):
        tags = re.search(r"^:tags: \[(.*?)\]", body, flags=re.MULTILINE)
        if tags and {tag.strip() for tag in tags.group(1).split(",")} & set(HIDDEN):
            hidden.append(re.sub(r"^:\w+:.*\n", "", body, flags=re.MULTILINE))
    return hidden


@pytest.fixture(scope="module")
def computed() -> dict[str, Fact]:
    return facts()


def test_facts_are_exactly_the_numbers_the_chapter_quotes(computed):
    names = quoted(CHAPTER, KEY)
    assert names, "the chapter quotes no fact"
    assert not names - set(computed), f"the chapter quotes names facts() does not compute: {sorted(names - set(computed))}"
    assert not set(computed) - names, f"facts() computes names the chapter never quotes: {sorted(set(computed) - names)}"
    assert all(isinstance(fact, Fact) for fact in computed.values())
    assert STUDY.facts is facts


def test_the_chapter_glues_once_and_hides_only_that_call():
    assert CHAPTER.count("glue_facts(KEY, facts())") == 1
    assert not re.search(r"(?<![\w.])glue\(", CHAPTER), "numbers reach the prose through facts() only"
    for source in hidden_cells(CHAPTER):
        lines = [line for line in source.splitlines() if line.strip()]
        assert len(lines) <= 3 and all("glue_facts" in line or "import" in line for line in lines), source


def test_the_quoted_parse_finds_roles_and_directives():
    text = "{glue:text}`svcdump-a-b:.1f` and {glue}`svcdump-c`\n```{glue} svcdump-d\n```\n{glue:text}`vts-e`"
    assert quoted(text, "svcdump") == {"a-b", "c", "d"}
