"""Failure classes (harmful plans in flawed answers): an agent that does not reverse the item's drug
does not meet the item of reversing it (``reverses`` of drugs.yaml). Wording of our own on other topics (a head
injury on dabigatran or warfarin, an opioid overdose), with negative tests: the right agent, or no agent named,
still meets it."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows

HEAD = Path("cases/em-head-injury-001.yaml")

DABIGATRAN_REVERSAL = {"item": "Reversal of dabigatran (idarucizumab)", "class": "acceptable",
                       "aliases": ["idarucizumab", "Praxbind", "reverse the anticoagulation", "anticoagulant reversal"]}
WARFARIN_REVERSAL = {"item": "Reversal of warfarin", "class": "acceptable",
                     "aliases": ["reverse the warfarin", "reverse the anticoagulation", "warfarin reversal"]}
OPIOID_REVERSAL = {"item": "Reversal of the morphine overdose", "class": "acceptable",
                   "aliases": ["reverse the opioid", "reverse the sedation"]}


def _given(case: Case, text: str) -> dict[str, str]:
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), "treatment")


# --- 3. an agent that does not reverse the item's drug ---------------------------------------------------------

@pytest.mark.parametrize(("item", "text", "met"), [
    (DABIGATRAN_REVERSAL, "Plan:\n- CT head now.\n- Vitamin K 10 mg IV to reverse the anticoagulation.", False),
    (DABIGATRAN_REVERSAL, "Plan:\n- CT head now.\n- Reverse the anticoagulation with andexanet alfa.", False),
    (DABIGATRAN_REVERSAL, "Plan:\n- CT head now.\n- Idarucizumab 5 g IV to reverse the anticoagulation.", True),
    (DABIGATRAN_REVERSAL, "Plan:\n- CT head now.\n- Reverse the anticoagulation.", True),
    (WARFARIN_REVERSAL, "Plan:\n- CT head now.\n- Reverse the warfarin with vitamin K 5 mg IV and Beriplex.", True),
    (WARFARIN_REVERSAL, "Plan:\n- CT head now.\n- Idarucizumab to reverse the anticoagulation.", False),
    (OPIOID_REVERSAL, "Plan:\n- Flumazenil 200 micrograms IV to reverse the sedation.", False),
    (OPIOID_REVERSAL, "Plan:\n- Naloxone 400 micrograms IV to reverse the sedation.", True),
])
def test_an_agent_that_does_not_reverse_the_drug(tmp_path: Path, item: dict, text: str, met: bool) -> None:
    case = case_with(tmp_path, HEAD, "treatment", item)
    assert (item["item"] in _given(case, text)) is met


# --- 1. a harmful delay written as a wait for a result ---------------------------------------------------------

ECTOPIC = Path("cases/obg-ectopic-001.yaml")
DELAY_SURGERY = {"item": "Delay surgery until the ultrasound is reported", "class": "contraindicated",
                 "aliases": ["laparoscopy after ultrasound"]}


@pytest.mark.parametrize(("text", "met"), [
    ("Plan:\n1. Transvaginal ultrasound now.\n2. Gynae registrar to decide on laparoscopy once the ultrasound has "
     "been reviewed.", True),
    ("Plan:\n- Book laparoscopy when the ultrasound is back.", True),
    # negatives: the operation now and the scan after it, or a wait for another result
    ("Plan:\n1. Laparoscopy now, then ultrasound.", False),
    ("Plan:\n1. Laparoscopy now.\n2. Repeat ultrasound once the hCG result is back.", False),
])
def test_a_delay_written_as_a_wait_for_a_result(tmp_path: Path, text: str, met: bool) -> None:
    case = case_with(tmp_path, ECTOPIC, "treatment", DELAY_SURGERY)
    assert (DELAY_SURGERY["item"] in _given(case, text)) is met


# --- 2. a harmful restart of the unit left in a transfusion ----------------------------------------------------

PPH = Path("cases/obg-pph-001.yaml")
RESTART_UNIT = {"item": "Resume the platelet transfusion after the reaction", "class": "contraindicated",
                "aliases": ["restart the transfusion", "resume the transfusion"]}


@pytest.mark.parametrize(("text", "met"), [
    ("Plan:\n- Stop the platelets.\n- Resume the rest of the unit slowly once the urticaria has settled.", True),
    ("Plan:\n- Stop the platelets.\n- Restart the remaining unit at half the rate when she is settled.", True),
    # negatives: a restart declined, or a restart of something else
    ("Plan:\n- Stop the platelets.\n- Do not restart the remaining unit; send it back to the lab.", False),
    ("Plan:\n- Stop the platelets.\n- Restart her ferrous sulfate once settled.", False),
])
def test_a_restart_of_the_unit_left(tmp_path: Path, text: str, met: bool) -> None:
    case = case_with(tmp_path, PPH, "treatment", RESTART_UNIT)
    assert (RESTART_UNIT["item"] in _given(case, text)) is met
