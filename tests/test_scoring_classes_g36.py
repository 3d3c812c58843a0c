"""Failure classes (issue 32, safety decisions): a drug named where the answer rules it out. Each test
is in wording of its own, on other topics than the sets' cases, with plans that must still pass and wrong plans that
must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_yaml, load_data, valid_case_with_item
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
    case = valid_case_with_item(tmp_path, GOUT, BEFORE, ITEMS)
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
    case = valid_case_with_item(tmp_path, GOUT, BEFORE, f"  - item: {item}\n    class: optional\n")
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (item in rows(card, "treatment")) is met, plan


# --- 3. an elliptical condition on a result the record lacks ----------------------------------------------------

COPD = Path("cases/im-copd-exacerbation-001.yaml")
ECHO = "Echocardiogram if heart failure suspected"
SAME = {"item": "Echocardiogram if BNP raised", "class": "acceptable", "weight": 1, "aliases": ["echo"]}
BNP = {"item": "BNP", "class": "acceptable", "weight": 1, "aliases": ["NT-proBNP"]}
OWN = {"item": ECHO, "class": "acceptable", "weight": 1, "aliases": ["echo"]}
PLAIN = {"item": "Echocardiogram", "class": "acceptable", "weight": 1, "aliases": ["echo"]}


def _copd_workup(tmp_path: Path, echo: dict, plan: str, record: str = "") -> dict[str, str]:
    data = case_yaml(COPD)
    data["workup"] += [BNP, echo]
    if record:
        data["intro"] = f"{data['intro']}{record}\n"
    case = load_data(tmp_path, COPD, data)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan))), "workup")


@pytest.mark.parametrize(("echo", "plan", "record", "given"), [
    # the result word alone speaks of the test before it; the record has no BNP: a later event
    (OWN, "Plan:\n- nebulisers, oxygen to 88-92%\n- BNP; echo if raised", "", False),
    (PLAIN, "Plan:\n- nebulisers, oxygen to 88-92%\n- BNP, then an echocardiogram if positive", "", False),
    # the record gives the result: the condition is settled
    (PLAIN, "Plan:\n- nebulisers, oxygen to 88-92%\n- BNP; echo if raised", "BNP 2300 ng/L this morning.", True),
    # negative tests: the same contingency as the item's own is its plan; an echo with no condition is given
    (OWN, "Plan:\n- nebulisers, oxygen to 88-92%\n- echo if heart failure suspected", "", True),
    (SAME, "Plan:\n- nebulisers, oxygen to 88-92%\n- BNP; echo if raised", "", True),
    (PLAIN, "Plan:\n- nebulisers, oxygen to 88-92%\n- BNP and an echocardiogram today", "", True),
])
def test_an_elliptical_condition_speaks_of_the_test_before_it(
        tmp_path: Path, echo: dict, plan: str, record: str, given: bool):
    """"BNP; echo if raised": the condition is the BNP's result; a record without it makes the echo a later event
    (labelling rule 4), a record with it settles it (rule 5)."""
    found = _copd_workup(tmp_path, echo, plan, record)
    assert (echo["item"] in found) is given, (plan, found)
