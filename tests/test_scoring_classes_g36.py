"""Failure classes of brief g36 (issue 32, safety decisions): a drug named where the answer rules it out. Each test
is in wording of its own, on other topics than the sets' cases, with plans that must still pass and wrong plans that
must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.support.case_yaml import with_item
from tests.test_scoring_regressions import condition, rows

GOUT = Path("cases/im-gout-001.yaml")
BEFORE = "Aspirin for pain relief"
HARMFUL = "Colchicine while liver function is impaired"
CHOICE = "Prednisolone"
ITEMS = (
    f"  - item: {HARMFUL}\n    class: contraindicated\n    weight: 2\n"
    "    aliases: [start colchicine, colchicine now]\n"
    f"  - item: {CHOICE}\n    class: acceptable\n"
)


def _card(tmp_path: Path, plan: str):
    case = load_valid_case(with_item(tmp_path, GOUT, BEFORE, ITEMS))
    return score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))


def _given(tmp_path: Path, plan: str, item: str) -> bool:
    return item in rows(_card(tmp_path, plan), "treatment")


# --- 1. a ruling-out said inside the words a mention spans ------------------------------------------------------


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- naproxen 500 mg bd.\n- colchicine is contraindicated while her liver function is impaired.", False),
    ("Plan:\n- naproxen 500 mg bd.\n- colchicine contraindicated while liver function is impaired.", False),
    ("Plan:\n- naproxen 500 mg bd.\n- colchicine should be avoided while liver function is impaired.", False),
    # negative tests: the drug is given, or the cue governs another drug
    ("Plan:\n- naproxen 500 mg bd.\n- start colchicine while liver function is impaired.", True),
    ("Plan:\n- naproxen 500 mg bd.\n- start colchicine, not prednisolone, while liver function is impaired.", True),
])
def test_a_ruling_out_inside_the_mention_negates_it(tmp_path: Path, plan: str, given: bool):
    """A negation cue that starts after the mention's first word, before any comma, clause word or new action, is
    said of that word: the harmful item is ruled out, and the safety check passes."""
    card = _card(tmp_path, plan)
    assert (HARMFUL in rows(card, "treatment")) is given, plan
    assert (condition(card, "cc-implicit-contraindicated") == "FAIL") is given


# --- 2. a judgement that makes a drug no recommendation -----------------------------------------------------------


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- naproxen 500 mg bd.\n- Prednisolone is too slow to be first choice here.", False),
    ("Plan:\n- naproxen 500 mg bd.\n- Prednisolone would only be second line.", False),
    ("Plan:\n- naproxen 500 mg bd.\n- Prednisolone could be reconsidered once the stomach has settled.", False),
    ("Plan:\n- naproxen 500 mg bd.\n- Prednisolone is not first line.", False),
    # negative tests: the drug chosen now, another drug judged
    ("Plan:\n- Prednisolone 30 mg for 5 days.", True),
    ("Plan:\n- Prednisolone 30 mg for 5 days; naproxen would only be second line.", True),
    ("Plan:\n- Prednisolone 30 mg for 5 days, as naproxen is too slow here.", True),
])
def test_a_judgement_of_no_first_choice_is_no_recommendation(tmp_path: Path, plan: str, given: bool):
    """"Too slow", "would only be second line", "could be reconsidered once ..." (a future reconsideration) after a
    drug say it is not chosen now (``negation_after``)."""
    assert _given(tmp_path, plan, CHOICE) is given, plan


WITHHOLDING = "Withholding allopurinol during the acute attack"


EXPLAIN = "Explain why a foot X-ray is not needed"


@pytest.mark.parametrize(("item", "plan", "met"), [
    (WITHHOLDING, "Plan:\n- naproxen 500 mg bd.\n- allopurinol is not required during the acute attack.", True),
    (WITHHOLDING, "Plan:\n- naproxen 500 mg bd.\n- start allopurinol during the acute attack.", False),
    (EXPLAIN, "Plan:\n- naproxen 500 mg bd.\n- Explain why a foot X-ray is not needed.", True),
])
def test_a_verdict_inside_an_item_that_states_it_is_its_action(tmp_path: Path, item: str, plan: str, met: bool):
    """An item whose own name withholds or judges its action is stated by the verdict inside its mention."""
    case = load_valid_case(with_item(tmp_path, GOUT, BEFORE, f"  - item: {item}\n    class: optional\n"))
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (item in rows(card, "treatment")) is met, plan

