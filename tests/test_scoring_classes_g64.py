"""Failure classes (issue 32, set V): wording of its own on other topics than the tuning set's cases,
with negative tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import card, rows


def _given(tmp_path: Path, case: str, kind: str, item: dict, text: str) -> str | None:
    built = case_with(tmp_path, Path(f"cases/{case}.yaml"), kind, item)
    card = score(built, Transcript(case_id=built.id, final=FinalResponse(text=text)))
    return rows(card, kind).get(item["item"])


# --- 1. an identity check reported by what it compared --------------------------------------------------------

ID_CHECK = {"item": "Bedside identity check of the patient against the blood product", "class": "required",
            "aliases": ["identity check", "check the wristband against the unit"]}


@pytest.mark.parametrize(("text", "done"), [
    ("Sickle crisis, Hb 58, 2 u being transfused. Fever 38.9 and back pain 20 min into unit 1.\n"
     "Bag label K. OSEI DOB 3/4/99, wristband K. OSEI DOB 3/4/89.\nPlan:\n- stop unit\n- blood bank informed", True),
    ("Sickle crisis, fever during transfusion. ID mismatch on the unit.\nPlan:\n- stop unit\n- blood bank informed",
     True),
    ("Sickle crisis, fever during transfusion.\nPlan:\n- stop unit\n- blood bank informed", False),
    ("Sickle crisis, fever during transfusion. Wristband not checked.\nPlan:\n- stop unit\n- blood bank informed",
     False),
    ("Sickle crisis, fever during transfusion.\nPlan:\n- stop unit\n- blood bank informed\n- FBC, LDH, bilirubin",
     False),
])
def test_an_identity_check_is_reported_by_what_it_compared(tmp_path: Path, text: str, done: bool):
    """The wristband and the unit's label read against each other, or their mismatch found, report the bedside
    identity check; a plan that never names them does not."""
    assert (_given(tmp_path, "im-sickle-crisis-001", "workup", ID_CHECK, text) in ("matched", "acceptable")) is done


# --- 2. a routine pathway under a condition, the plan's only escalation ---------------------------------------

ROUTINE = "Routine non-urgent referral"


@pytest.mark.parametrize(("text", "harmful"), [
    ("Imp: posterior vitreous detachment, R eye.\nPlan:\n- reassure, floaters usually settle\n"
     "- routine referral to the eye clinic if the floaters are still not settling in 2 weeks", True),
    ("Imp: PVD R eye.\nPlan:\n- GP review in 3 weeks; routine referral if no better", True),
    ("Imp: retinal detachment R.\nPlan:\n- same-day referral to the on-call ophthalmologist today\n"
     "- if not seen today, go to the emergency department", False),
    ("Imp: retinal detachment R.\nPlan:\n- eye casualty today for vitreoretinal surgery\n"
     "- routine referral back to the optician if the floaters are still not settling after the repair", False),
    ("Imp: PVD R eye.\nPlan:\n- optician to recheck in 2 weeks\n- return if new floaters or a curtain", False),
])
def test_a_routine_pathway_on_a_condition_is_the_plan_when_nothing_is_today(text: str, harmful: bool):
    """A harmful routine pathway named under a condition ("routine referral if no better") in an answer that sends
    nobody anywhere today is the plan's pathway; with a same-day contact ("eye casualty today"), or no routine
    pathway named, it is not."""
    c = card("oph-retinal-detachment-001", text)
    assert (rows(c, "treatment").get(ROUTINE) in ("matched", "contraindicated")) is harmful


# --- 3. a label declined later on its line by a pronoun -------------------------------------------------------

COPD_ADMIT = "Plan:\n1. Admit by ambulance today, controlled O2 88-92%\n"


@pytest.mark.parametrize(("line", "given"), [
    ("2. Mucolytic: benefit small in an exacerbation; I would not give one routinely.", False),
    ("2. Mucolytic: benefit small in an exacerbation; I would not start them routinely.", False),
    ("2. Mucolytic: little evidence here, so I would not use it at present.", False),
    ("2. Mucolytic: carbocisteine 750 mg TDS, review in a month.", True),
    ("2. Mucolytic: carbocisteine 750 mg TDS; do not give it with meals.", True),
])
def test_a_label_declined_by_a_pronoun_after_its_reason(line: str, given: bool):
    """A label whose line declines it later by a pronoun after a reason ("evidence weak; I would not give them
    routinely") is not given; a pronoun followed by a manner ("do not give it with meals") declines nothing."""
    c = card("im-copd-exacerbation-001", COPD_ADMIT + line)
    assert (rows(c, "treatment").get("Mucolytic") == "not_indicated") is given


# --- 4. a test listed by another of its names -----------------------------------------------------------------

LIPASE = {"item": "Serum lipase", "class": "required", "aliases": ["lipase level"]}


@pytest.mark.parametrize(("text", "done"), [
    ("Imp: renal colic, L.\nInvestigations: lipase, FBC, CRP, urine dip\nPlan: diclofenac 75 mg IM", True),
    ("Imp: renal colic, L.\nInvestigations: amylase, FBC, CRP, urine dip\nPlan: diclofenac 75 mg IM", False),
    ("Imp: renal colic, L.\nInvestigations: FBC, CRP, urine dip\nPlan: diclofenac 75 mg IM", False),
])
def test_a_test_listed_by_another_of_its_names_is_that_item(tmp_path: Path, text: str, done: bool):
    """A test entry listed by another of its names in tests.yaml ("lipase" of "serum lipase") meets the one work-up
    item that names that test; another test ("amylase") does not."""
    assert (_given(tmp_path, "em-renal-colic-001", "workup", LIPASE, text) in ("matched", "acceptable")) is done
