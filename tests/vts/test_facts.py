"""The chapter quotes exactly the numbers facts() computes, glued by one hidden glue_facts call."""

from chapter_facts import check_quoted_are_facts, quoted
from perfstudies.models.vts import KEY, STUDY, facts


def test_facts_are_exactly_the_numbers_the_chapter_quotes():
    check_quoted_are_facts(KEY, facts())
    assert STUDY.facts is facts



def test_the_quoted_parse_finds_roles_and_directives():
    text = "{glue:text}`vts-a-b:.1f` and {glue}`vts-c`\n```{glue} vts-d\n```\n{glue:text}`mm1-e`"
    assert quoted(text, "vts") == {"a-b", "c", "d"}
