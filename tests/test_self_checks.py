"""Self-check questions: three or more per chapter, answers from the library, checked in Chromium offline.

No build needed: the browser test, which types answers into every chapter's questions, is in
``tests/test_book.py`` (it reuses that file's session build, which another file would repeat on
another xdist worker).
"""

import math
import re

import pytest

from conftest import ROOT
from perfstudies import course, self_checks
from perfstudies.self_checks import Question

#: Every chapter has at least this many self-check questions.
MIN_QUESTIONS = 3


def test_every_chapter_has_at_least_three_questions_with_finite_answers():
    assert set(self_checks.CHAPTER_QUESTIONS) == {chapter.page for chapter in course.CHAPTERS}
    for page in self_checks.CHAPTER_QUESTIONS:
        questions = self_checks.for_chapter(page).questions
        assert len(questions) >= MIN_QUESTIONS, page
        assert all(math.isfinite(q.answer) and q.unit and q.text.endswith("?") for q in questions), page


def test_every_chapter_page_shows_its_own_questions_before_its_exercises():
    for page in self_checks.CHAPTER_QUESTIONS:
        text = (ROOT / f"{page}.md").read_text()
        assert f'self_checks.for_chapter("{page}")' in text, page
        assert text.index("## Check yourself") < text.index("## Exercises"), page


def test_an_answer_is_accepted_within_its_tolerance_and_refused_outside():
    question = Question("How much?", 50.0, "ms", 0.02)
    assert question.accepts(50.0) and question.accepts(49.0) and question.accepts(51.0)
    assert not question.accepts(48.9) and not question.accepts(51.1)
    exact = Question("How many?", 9, "cartridges", 0)
    assert exact.accepts(9) and not exact.accepts(9.5) and not exact.accepts(8)
    assert question.rule == "within 2%" and exact.rule == "exactly"
    assert question.accepts(float(question.shown_answer)), "the answer shown is itself accepted"


@pytest.mark.parametrize("answer, tolerance, message", [
    (float("nan"), 0.02, "answer = nan is out of range"),
    (math.inf, 0.02, "answer = inf is out of range"),
    (1.0, 1.0, "tolerance = 1.0 is out of range"),
    (1.0, -0.1, "tolerance = -0.1 is out of range"),
    (1.5, 0, "tolerance = 0 asks for an exact answer"),
])
def test_a_question_refuses_what_it_cannot_check(answer, tolerance, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        Question("?", answer, "unit", tolerance)


def test_an_unknown_chapter_is_refused_by_name():
    with pytest.raises(ValueError, match="page = 'book/intro' has no self-checks: allowed one of book/queueing"):
        self_checks.for_chapter("book/intro")


def test_the_block_shows_each_question_and_its_rule_without_a_raw_float():
    block = self_checks.for_chapter("notebooks/diag44")
    html = block._repr_html_()
    assert html.count('<form class="perfstudies-self-check"') == len(block.questions)
    visible = re.sub(r"<[^>]+>", " ", html)  # the text a reader sees, not the forms' data
    assert not re.search(r"\d\.\d{5,}", visible), visible
    assert "within 1%" in visible and "Q3." in visible
