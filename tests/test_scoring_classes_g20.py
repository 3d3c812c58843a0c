"""Grader classes of correct plans missed although their words are there, each tested on
wording of its own, with the wrong plans that must still not pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.document import document
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import rows

ANAPHYLAXIS = Path("cases/em-anaphylaxis-001.yaml")
BEFORE = "Hydrocortisone"


def _treatment(tmp_path: Path, item: str, plan: str) -> dict[str, str]:
    """The treatment rows of ``plan`` scored on the anaphylaxis case with one more item (YAML lines)."""
    case = valid_case_with_item(tmp_path, ANAPHYLAXIS, BEFORE, item)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan))), "treatment")


WOUND = "Keep the wound covered and dry"


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- IM adrenaline 0.5 mg.\n- Wound: keep it covered and dry until the nurse sees it.", True),
    ("Plan:\n- IM adrenaline 0.5 mg.\n- The graze on her shin, the wound: keep covered and dry for a week.", True),
    ("Plan:\n- IM adrenaline 0.5 mg.\n- Wound: no need to keep it covered or dry.", False),
    ("Plan:\n- IM adrenaline 0.5 mg.\n- Wound: leave it open to the air.", False),
])
def test_an_item_word_the_answer_says_in_a_label_before_the_rest(tmp_path: Path, plan: str, given: bool):
    """All but one word of a credited item in one clause, the last said elsewhere (a label's object): the item."""
    treatment = _treatment(tmp_path, f"  - item: {WOUND}\n    class: optional\n", plan)
    assert (treatment.get(WOUND) in ("matched", "acceptable")) is given


def test_a_time_the_item_carries_is_still_needed_in_its_clause(tmp_path: Path):
    """The word left out is never the item's time: "same-day" said of another action does not make a review
    next week the item."""
    item = "Same day review of the wound dressing"
    plan = "Plan:\n- IM adrenaline 0.5 mg; same day discharge is not safe.\n- Review of the wound dressing next week."
    assert item not in _treatment(tmp_path, f"  - item: {item}\n    class: required\n", plan)


def test_a_correct_plan_does_not_meet_a_harmful_item_of_most_of_its_words(tmp_path: Path):
    """Only credited items are met by all but one of their words: the harmful item is met by its own words."""
    harmful = "Keep the wound covered and wet"
    plan = "Plan:\n- IM adrenaline 0.5 mg.\n- Wet weather coat.\n- Wound: keep it covered and dry."
    assert harmful not in _treatment(tmp_path, f"  - item: {harmful}\n    class: contraindicated\n", plan)


@pytest.mark.parametrize(("text", "one_clause"), [
    ("Consent incl. possible stoma formation", True),
    ("Fluids approx. 2 L over the day", True),
    ("Sepsis vs. cholangitis", True),
    ("Bloods, urine etc. then home", False),  # not a word of grammar kept whole: "etc." may end a sentence
    ("Seen by the surgeons incl. Theatre booked", False),  # a capital after the stop opens a sentence
])
def test_a_word_of_grammar_shortened_with_a_full_stop_ends_no_clause(text: str, one_clause: bool):
    assert (len(set(document(text).clause)) == 1) is one_clause


def test_an_item_said_across_a_shortened_word_is_named(tmp_path: Path):
    item = "Consent including the risk of a stoma"
    plan = "Plan:\n- IM adrenaline 0.5 mg.\n- Consent incl. stoma risk."
    assert _treatment(tmp_path, f"  - item: {item}\n    class: optional\n", plan).get(item) in ("matched", "acceptable")
