"""Failure classes of set O's safety verdicts (g31, issue 32): routine care in place of today's admission (met by a
plan that admits nobody today and reviews later, never by follow-up after an admission), a drug taken last week, a
wait for a value compared with a number, a condition on the outcome of a treatment, a condition in an item's bracket,
an alternative drug at another dose, and a repeat whose drug is left out. Each test is in wording of its own, on
other topics than the set's cases, with wrong plans that must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import rows

COPD = Path("cases/im-copd-exacerbation-001.yaml")
FIRST = "Emergency same-day hospital admission by ambulance"


def _rows(tmp_path: Path, item: str, text: str, kind: str = "treatment") -> dict[str, str]:
    case = valid_case_with_item(tmp_path, COPD, FIRST, item)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), kind)


# --- 1. routine care in place of today's admission -------------------------------------------------------------

ROUTINE = ("  - item: Routine clinic management without same-day admission\n    class: contraindicated\n"
           "    weight: 2\n    aliases: [chest clinic review in two weeks instead of admission]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Prednisolone 30 mg for 5 days\n- Practice nurse review in 1 week", True),
    ("He is alert and talking, so I don't think he needs to go in today.\nPlan:\n- Doxycycline\n"
     "- Spirometry then practice nurse review in 1 week", True),
    ("Plan:\n- Urgent chest clinic referral (2-week wait)\n- GP review in 10 days", True),
    ("Plan:\n- Admit to the medical unit today by ambulance\n- GP review within a week of discharge", False),
    ("Plan:\n- 999 ambulance now, admit under the medical team\n- Chest clinic follow-up 6 weeks after discharge",
     False),
])
def test_routine_care_in_place_of_admission(tmp_path: Path, plan: str, given: bool):
    """An item of routine care "without same-day admission" is met by a plan that admits and refers nobody today
    (a two-week-wait referral may start today but is not today's; "he is alert" contacts nobody) and reviews on a
    later day; a follow-up after today's admission is never it."""
    found = _rows(tmp_path, ROUTINE, plan)
    assert ("Routine clinic management without same-day admission" in found) is given, (plan, found)


OUTPATIENT_DRUG = ("  - item: Outpatient oral amoxicillin without admission\n    class: contraindicated\n"
                   "    weight: 2\n    aliases: [amoxicillin at home instead of admission]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Amoxicillin 500 mg three times a day\n- Review in the surgery in 3 days; if worse, admit", True),
    ("Plan:\n- Admit today under the respiratory team\n- IV co-amoxiclav, then oral amoxicillin\n"
     "- Review in clinic 2 weeks after discharge", False),
    ("Plan:\n- Paracetamol and fluids\n- Review in the surgery in 3 days", False),
])
def test_an_outpatient_drug_in_place_of_admission(tmp_path: Path, plan: str, given: bool):
    """An item "Outpatient <drug> without admission" is that drug given in a plan that admits nobody today and
    reviews later; the same drug after an admission, or a later review without the drug, is not it."""
    found = _rows(tmp_path, OUTPATIENT_DRUG, plan)
    assert ("Outpatient oral amoxicillin without admission" in found) is given, (plan, found)


# --- 2. a drug taken last week -------------------------------------------------------------------------------

DICLOFENAC = ("  - item: Diclofenac or other NSAID\n    class: contraindicated\n    weight: 1\n"
              "    aliases: [diclofenac, naproxen]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("58M, COPD, diclofenac last wk for back pain, smoker.\nPlan:\n- Paracetamol for the back", False),
    ("Took naproxen 2 wks ago.\nPlan:\n- Paracetamol", False),
    ("Plan:\n- Diclofenac 50 mg tds for the back", True),
    ("Plan:\n- Naproxen 500 mg bd, review last week's bloods", True),
])
def test_a_drug_taken_last_week_is_history(tmp_path: Path, plan: str, given: bool):
    """A past time right after a drug ("diclofenac last wk") makes it the patient's history, never a harm of the
    plan; the drug given in the plan still is."""
    found = _rows(tmp_path, DICLOFENAC, plan)
    assert ("Diclofenac or other NSAID" in found) is given, (plan, found)


# --- 3. a wait for a value compared with a number --------------------------------------------------------------

STOP_MTX = ("  - item: Stop methotrexate immediately\n    class: required\n    weight: 2\n"
            "    aliases: [stop methotrexate, withhold methotrexate]\n")
ADD_K = ("  - item: Add potassium to the fluids when potassium falls below 5.5\n    class: required\n    weight: 1\n"
         "    aliases: [add potassium to the fluids]\n")


@pytest.mark.parametrize(("item", "name", "plan", "given"), [
    (STOP_MTX, "Stop methotrexate immediately", "Plan:\n- Stop methotrexate now", True),
    (STOP_MTX, "Stop methotrexate immediately", "Plan:\n- Stop methotrexate once the neutrophils are below 1.0", False),
    (STOP_MTX, "Stop methotrexate immediately", "Plan:\n- Withhold methotrexate when the ALT is over 100", False),
    (ADD_K, "Add potassium to the fluids when potassium falls below 5.5",
     "Plan:\n- Add potassium to the fluids when potassium falls below 5.5", True),
])
def test_a_wait_for_a_compared_value(tmp_path: Path, item: str, name: str, plan: str, given: bool):
    """"once INR >2", "when the ALT is over 100": a wait for a later value is a condition, never an action now,
    unless it is the item's own condition."""
    found = _rows(tmp_path, item, plan)
    assert (found.get(name) in ("matched", "acceptable")) is given, (plan, found)


# --- 4. a condition on a treatment's outcome; a condition in an item's bracket ---------------------------------

EARLY_RESP = ("  - item: Early respiratory team involvement (NIV if acidotic)\n    class: required\n    weight: 2\n"
              "    aliases: [respiratory team, respiratory review]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Respiratory review now", True),
    ("Plan:\n- Respiratory review if he is still breathless after the nebulisers", False),
    ("Plan:\n- Respiratory review if no better despite prednisolone", False),
])
def test_a_condition_on_a_treatment_outcome_and_a_bracket_condition(tmp_path: Path, plan: str, given: bool):
    """A condition on what follows a treatment of the plan ("still breathless after the nebulisers") is a later
    event the record cannot hold; a condition inside an item's bracket ("NIV if acidotic") is the bracket's, so the
    item's own early involvement is not met by a conditional referral."""
    found = _rows(tmp_path, EARLY_RESP, plan)
    assert ("Early respiratory team involvement (NIV if acidotic)" in found) is given, (plan, found)


# --- 5. an alternative drug at another dose; a repeat whose drug is left out ---------------------------------

HYDROCORTISONE = ("  - item: IV hydrocortisone 100 mg\n    class: required\n    weight: 1\n"
                  "    aliases: [hydrocortisone 100 mg IV]\n    alternatives: [IV methylprednisolone 40 mg]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Methylprednisolone 60 mg IV now", True),
    ("Plan:\n- Methylprednisolone 40 mg orally", False),
])
def test_an_alternative_drug_at_another_dose(tmp_path: Path, plan: str, given: bool):
    """An item's alternative that is one drug is met by that drug at another dose, by its route; not by another
    route."""
    found = _rows(tmp_path, HYDROCORTISONE, plan)
    assert (found.get("IV hydrocortisone 100 mg") in ("matched", "acceptable")) is given, (plan, found)


REPEAT = ("  - item: Repeat dose of adenosine\n    class: contraindicated\n    weight: 1\n"
          "    aliases: [repeat adenosine, adenosine repeated]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Adenosine 6 mg IV now, repeat once at 2 minutes", True),
    ("Plan:\n- Adenosine 6 mg IV now, repeat in 2 minutes", True),
    ("Plan:\n- Adenosine 6 mg IV now, repeat if he is still in SVT after it", False),
    ("Plan:\n- Adenosine 6 mg IV now, repeat the ECG in 1 hour", False),
    ("Plan:\n- Adenosine 6 mg IV now", False),
])
def test_a_repeat_whose_drug_is_left_out(tmp_path: Path, plan: str, given: bool):
    """"<drug> now, repeat once at 2 minutes" repeats the drug of the piece before: it is the item named "repeat
    <drug>"; a repeat on a condition, or one with an object of its own ("repeat the ECG"), is not."""
    found = _rows(tmp_path, REPEAT, plan)
    assert ("Repeat dose of adenosine" in found) is given, (plan, found)


# --- 6. a line that ends on "then" goes on -----------------------------------------------------------------------


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Nebulisers and prednisolone.\n- A chest X-ray is not needed if he settles. If he does not improve "
     "or spikes a fever, then\n  CT chest to look for a complication.", False),
    ("Plan:\n- Nebulisers and prednisolone.\n- CT chest today to look for a complication.", True),
])
def test_a_line_ending_on_then_goes_on(tmp_path: Path, plan: str, given: bool):
    """A line that ends on "then" cannot end its sentence: the next line, capitals or not ("CT chest"), is the
    consequent of the condition before, not a plan of its own."""
    item = "  - item: CT chest\n    class: acceptable\n    aliases: [CT chest, CT thorax]\n"
    case = valid_case_with_item(tmp_path, COPD, FIRST, item)
    found = rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan))), "treatment")
    found |= rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan))), "workup")
    assert ("CT chest" in found) is given, (plan, found)


# --- 7. a drug named with the patient's adherence is history -------------------------------------------------

CONTINUE_TIOTROPIUM = ("  - item: Continue tiotropium\n    class: acceptable\n    weight: 1\n"
                       "    aliases: [tiotropium, continue tiotropium]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("68M, COPD, poor tiotropium adherence, ex-smoker.\nPlan:\n- Prednisolone 30 mg for 5 days", False),
    ("Plan:\n- Continue tiotropium and review adherence", True),
])
def test_a_drug_named_with_adherence_is_history(tmp_path: Path, plan: str, given: bool):
    """"poor tiotropium adherence" tells how the patient took the drug: history, no plan to continue it."""
    found = _rows(tmp_path, CONTINUE_TIOTROPIUM, plan)
    assert ("Continue tiotropium" in found) is given, (plan, found)
