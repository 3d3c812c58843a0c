"""Failure classes of labelled set L (g21): each test is in wording of its own, on other topics than set L's."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import card, rows

DELIRIUM = Path("cases/psy-delirium-001.yaml")
ACCOMPANIED = "Not left unaccompanied while confused"


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- She must never be left unaccompanied on the ward\n- Trial without oxybutynin", True),
    ("Plan:\n- Never leave her unaccompanied; daughter to stay overnight", True),
    ("Plan:\n- She is not to be left unaccompanied", True),
    ("Plan:\n- She may walk unaccompanied once she is orientated", False),
])
def test_a_prohibition_item_is_met_by_never(tmp_path: Path, plan: str, given: bool):
    """An item that forbids something ("not left ...", "do not leave ...") is met when the answer forbids it
    with "never" instead of "not"."""
    item = (f"  - item: {ACCOMPANIED}\n    class: required\n"
            "    aliases: [do not leave her unaccompanied, not to be left unaccompanied]\n")
    case = valid_case_with_item(tmp_path, DELIRIUM, "Encourage oral fluids and nutrition", item)
    scored = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (ACCOMPANIED in rows(scored, "treatment")) is given, plan


GOUT = Path("cases/im-gout-001.yaml")
URATE_CHECK = "Serum urate once the flare has settled"
HOME_WAIT = "Home with a wound check in one week"
HYPONATRAEMIA = Path("cases/im-hyponatraemia-001.yaml")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Naproxen 500 mg BD with omeprazole\n- Bloods in 1 month", True),
    ("Naproxen 500 mg twice daily. Bloods in one month.", True),
    ("Naproxen 500 mg twice daily. Bloods in a month.", True),
    ("Naproxen 500 mg twice daily. Bloods in 3 months.", False),
])
def test_one_unit_of_time_is_met_written_with_a_one_or_1(tmp_path: Path, plan: str, given: bool):
    """An item's "in a month" is the answer's "in 1 month" and "in one month"; another number of months is not."""
    item = f"  - item: {URATE_CHECK}\n    class: acceptable\n    aliases: [bloods in a month]\n"
    case = valid_case_with_item(tmp_path, GOUT, "Aspirin for pain relief", item)
    scored = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (URATE_CHECK in rows(scored, "treatment")) is given, plan


@pytest.mark.parametrize(("plan", "harmful"), [
    ("Fluid restriction. Home with a wound check in a week.", True),
    ("Fluid restriction. Home, wound check in 1 week.", True),
    ("Fluid restriction. Home with a wound check in 2 weeks.", False),
])
def test_a_harmful_item_of_one_unit_is_met_in_other_words_for_one(tmp_path: Path, plan: str, harmful: bool):
    """The other way round: a harmful item written "in one week" is met by "in a week" and "in 1 week"."""
    item = f"  - item: {HOME_WAIT}\n    class: contraindicated\n    aliases: [wound check in one week]\n"
    case = valid_case_with_item(tmp_path, HYPONATRAEMIA, "Tolvaptan", item)
    scored = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (HOME_WAIT in rows(scored, "treatment")) is harmful, plan


def test_a_follow_up_alias_of_one_week_meets_1_week_by_its_name():
    """A case whose alias says "review in one week" meets "review in 1 week" by that alias, before any reading of
    the interval (which still meets other intervals: tests/test_scoring_regressions.py)."""
    treatment = card("psy-mdd-001", "Plan: review in 1 week").items.treatment
    row = next(e for e in treatment if e.reference == "Follow-up review within 1-2 weeks")
    assert row.status == "matched" and row.note is None


@pytest.mark.parametrize(("plan", "penalised"), [
    ("CT head now. A skull X-ray is not a useful test here: it would not change management.", False),
    ("CT head now. Skull X-ray is not an appropriate investigation in this child.", False),
    ("CT head now. A skull X-ray is not the first line test after head injury.", False),
    ("CT head now and a skull X-ray, which is a useful test here.", True),
])
def test_a_negated_verdict_with_an_article_declines_the_test(plan: str, penalised: bool):
    """A verdict that names what the action is ("not a useful test", "not an appropriate investigation") declines it
    as "not useful" does."""
    assert ("Skull X-ray" in rows(card("em-head-injury-001", plan), "workup")) is penalised, plan


@pytest.mark.parametrize("text", [
    "Impression: right lower lobe pneumonia. Pulmonary embolism is the main alternative.",
    "Impression: right lower lobe pneumonia; pulmonary embolism is another possibility.",
    "Impression: right lower lobe pneumonia. Pulmonary embolism is an alternative to keep in mind.",
])
def test_a_diagnosis_called_the_alternative_is_a_differential(text: str):
    """A diagnosis the answer calls the (main) alternative or another possibility is weighed, not held: it is on
    the differential, however plainly its clause is put."""
    scored = card("im-cap-001", text)
    assert rows(scored, "differential").get("Pulmonary embolism") == "matched", text
    assert "Pulmonary embolism" not in [e.answer for e in scored.items.diagnoses if e.status == "extra"]


HALOPERIDOL = "Short-term low-dose haloperidol if distressed or at risk"


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Nitrofurantoin for the UTI\n- Stop oxybutynin\n- Older adult psychiatry to assess; haloperidol is their "
     "call.", False),
    ("Plan:\n- Nitrofurantoin for the UTI\n- Stop oxybutynin\n- Any haloperidol is for the team to decide.", False),
    ("Plan:\n- Nitrofurantoin for the UTI\n- Stop oxybutynin\n- Haloperidol 0.5 mg if severely distressed.", True),
])
def test_a_drug_left_to_another_teams_decision_is_not_given(plan: str, given: bool):
    """A drug the answer leaves to another team's judgement ("is their call", "is for the team to decide") is neither
    given nor declined by the answer: it meets no item."""
    assert (HALOPERIDOL in rows(card("psy-delirium-001", plan), "treatment")) is given, plan


HEAD_UP = "Head of the bed at 30 degrees"


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Nurse with the head of the bed at 30 degrees\n- Simple analgesia", True),
    ("Plan:\n- Nurse him with the head of the bed above 30 degrees\n- Simple analgesia", False),
    ("Plan:\n- Keep the bed head below 30 degrees at all times\n- Simple analgesia", False),
])
def test_a_name_that_places_a_thing_is_not_met_by_another_place(tmp_path: Path, plan: str, given: bool):
    """An item that places something at a level is not met by the answer placing it above or below that level,
    though the other words match."""
    item = f"  - item: {HEAD_UP}\n    class: required\n    aliases: [head up at 30 degrees]\n"
    case = valid_case_with_item(tmp_path, Path("cases/em-head-injury-001.yaml"), "Simple analgesia", item)
    scored = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (HEAD_UP in rows(scored, "treatment")) is given, plan
