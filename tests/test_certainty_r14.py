"""Round 14 of the grader's doubt: which verdicts turn on a doubted item, by how the answer is written
(core/scoring/certainty.py, docs/grading.md "When the grader is unsure")."""

from __future__ import annotations

from medbench_tui.core.scoring.certainty import AnswerWords, condition_doubts

TERSE = {"a": ["terse plan"]}
"""A required item left out of a terse plan that holds half its words."""


def test_a_must_include_verdict_of_a_short_prose_answer_stands_on_a_terse_plan_doubt() -> None:
    """Prose that leaves out a required action left it out; shorthand may have left it implied."""
    assert condition_doubts(["A"], TERSE, False, required=True, shorthand=False) == []
    assert condition_doubts(["A"], TERSE, False, required=True, shorthand=True) == ["rests on an uncertain item"]


def test_a_prose_answer_still_doubts_its_verdict_on_other_doubts_of_the_item() -> None:
    both = {"a": ["words present", "terse plan"]}
    assert condition_doubts(["A"], both, False, required=True, shorthand=False) == ["rests on an uncertain item"]
    assert condition_doubts(["A"], TERSE, False, shorthand=False) == ["rests on an uncertain item"]  # must-not


def test_shorthand_is_read_by_mentions_per_word() -> None:
    words = AnswerWords(frozenset(), frozenset())
    assert AnswerWords(words.whole, words.unread, count=100, read=15).shorthand
    assert not AnswerWords(words.whole, words.unread, count=100, read=14).shorthand
