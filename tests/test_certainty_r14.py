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
    both = {"a": ["near words", "terse plan"]}
    assert condition_doubts(["A"], both, False, required=True, shorthand=False) == ["rests on an uncertain item"]
    assert condition_doubts(["A"], TERSE, False, shorthand=False) == ["rests on an uncertain item"]  # must-not


def test_shorthand_is_read_by_mentions_per_word() -> None:
    words = AnswerWords(frozenset(), frozenset())
    assert AnswerWords(words.whole, words.unread, count=100, read=15).shorthand
    assert not AnswerWords(words.whole, words.unread, count=100, read=14).shorthand


def test_a_drug_given_in_another_form_is_its_own_doubt() -> None:
    """A drug of the item's class, or the same drug with its route unsaid, is not an inference from another act."""
    from medbench_tui.core.scoring.certainty import ItemFacts, item_doubts
    from medbench_tui.core.scoring.extraction_model import Entity, Span
    from medbench_tui.core.scoring.match import Pairing
    from medbench_tui.core.scoring.reference import Ref

    ref = Ref(kind="treatment", index=0, name="Intravenous furosemide", klass="required", phrases=[])
    entity = Entity(kind="treatment", text="furosemide", evidence=Span(start=0, end=10, text="furosemide"),
                    source="text", section="treatment", status="affirmed")
    short = AnswerWords(frozenset(), frozenset(), 60, 5)
    for via in ("the same drug, its route unsaid", "a drug of its class"):
        assert item_doubts(ItemFacts(Pairing(ref, entity, "matched", via), [], None, short)) == [
            "another form of the drug"]


def test_a_verdict_met_by_a_drug_in_another_form_stands() -> None:
    """The drug the condition asks for is given; which form the item names is a doubt of the item alone."""
    drug = {"a": ["another form of the drug"]}
    assert condition_doubts(["A"], drug, False, given=True, required=True) == []
    assert condition_doubts(["A"], drug, False, given=True) == []  # a harmful drug given in another form
    assert condition_doubts(["A"], {"a": ["inferred"]}, False, given=True, required=True) == [
        "rests on an uncertain item"]  # a return-if sentence as the safety-netting: still in doubt


def test_a_must_include_verdict_of_a_prose_answer_stands_on_the_words_of_an_action_left_out() -> None:
    """The words of a required action in prose that does not give it stand for something else."""
    present = {"a": ["words present", "terse plan"]}
    assert condition_doubts(["A"], present, False, required=True, shorthand=False) == []
    assert condition_doubts(["A"], present, False, required=True) == ["rests on an uncertain item"]
    near = {"a": ["words present", "near words"]}  # in a part where nothing was read: a wording not known
    assert condition_doubts(["A"], near, False, required=True, shorthand=False) == ["rests on an uncertain item"]
