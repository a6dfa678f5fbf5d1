"""The quoted-number records (perfstudies.facts): what a fact may hold, and the one glue call."""

import numpy as np
import pandas as pd
import pytest

from perfstudies import facts as facts_module
from perfstudies.facts import Fact, checked_facts, glue_facts


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
