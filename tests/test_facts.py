"""The quoted-number records (perfstudies.facts): what a fact may hold, the one glue call, and that every
chapter quotes exactly its study's facts (what a chapter may hide is tests/test_skeleton.py's)."""

import re

import numpy as np
import pandas as pd
import pytest

from perfstudies import facts as facts_module
from perfstudies.facts import Fact, checked_facts, glue_facts
from perfstudies.paths import ROOT
from perfstudies.studies import STUDIES, study


def test_a_fact_keeps_a_number_as_a_plain_python_number():
    assert type(Fact(np.float64(1.5), "s", "a wait").value) is float
    assert type(Fact(np.int64(3), "", "a count").value) is int
    assert isinstance(Fact(pd.DataFrame({"a": [1]}), "", "a table").value, pd.DataFrame)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), None, True, [1.0]])
def test_a_fact_refuses_what_glue_cannot_quote(value):
    with pytest.raises(ValueError, match=r"Fact\.value = .* allowed a finite number"):
        Fact(value, "s", "a wait")


def test_a_fact_says_what_it_is():
    with pytest.raises(ValueError, match="Fact.what"):
        Fact(1.0, "s", "")


@pytest.mark.parametrize("name", ["Wait", "mean wait", "wait-", "-wait", 3])
def test_fact_names_are_hyphenated_lower_case_words(name):
    with pytest.raises(ValueError, match="facts name .* allowed lower-case words joined by hyphens"):
        checked_facts("mm1", {name: Fact(1.0, "s", "a wait")})


def test_glue_facts_glues_each_fact_under_the_study_key(monkeypatch):
    glued = []
    monkeypatch.setattr("myst_nb.glue", lambda key, value, display: glued.append((key, value, display)))
    glue_facts("mm1", {"mean-wait": Fact(2.0, "s", "the mean wait"), "runs": Fact(5, "", "replications")})
    assert glued == [("mm1-mean-wait", 2.0, False), ("mm1-runs", 5, False)]
    with pytest.raises(ValueError, match=r"facts\['runs'\] = 5 has the wrong type: allowed a Fact"):
        glue_facts("mm1", {"runs": 5})
    assert facts_module.NAME.fullmatch("ex-fast-9-3")


def quoted(text: str, key: str) -> set[str]:
    """Fact names a chapter quotes: ``{glue:...}`<key>-NAME...``` roles and ``{glue}``/``{glue:figure}`` directives."""
    roles = re.findall(rf"\{{glue(?::\w+)?\}}`{key}-([a-z0-9_-]+)", text)
    directives = re.findall(rf"^```\{{glue(?::\w+)?\}} {key}-([a-z0-9_-]+)", text, flags=re.MULTILINE)
    return set(roles) | set(directives)


def test_the_quoted_parse_finds_roles_and_directives():
    text = "{glue:text}`vts-a-b:.1f` and {glue}`vts-c`\n```{glue} vts-d\n```\n{glue:text}`mm1-e`"
    assert quoted(text, "vts") == {"a-b", "c", "d"}


@pytest.mark.parametrize("key", list(STUDIES))
def test_every_chapter_quotes_exactly_the_numbers_its_studys_facts_compute(key):
    """Every name the chapter quotes is one of facts(), every fact is quoted (fails naming the missing or
    unused ones), and a count is glued as a whole number (as a float it reads '94.0 published cells')."""
    found = study(key).facts()
    names = quoted((ROOT / "notebooks" / f"{key}.md").read_text(), key)
    assert names, f"notebooks/{key}.md quotes no fact"
    assert not names - set(found), f"notebooks/{key}.md quotes names facts() lacks: {sorted(names - set(found))}"
    assert not set(found) - names, f"facts() computes names notebooks/{key}.md never quotes: " \
                                   f"{sorted(set(found) - names)}"
    assert list(checked_facts(key, found)) == [f"{key}-{name}" for name in found]
    counts = [name for name, fact in found.items() if fact.unit in ("cells", "replications")
              or (name.startswith("board-") and "pct" not in name)]
    assert all(isinstance(found[name].value, int) for name in counts), counts
