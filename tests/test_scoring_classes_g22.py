"""Failure classes of labelled set L (g22): each test is in wording of its own, on other topics than set L's."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import card, rows

DEPRESSION = Path("cases/psy-mdd-001.yaml")
SEPTIC_KNEE = Path("cases/sur-septic-arthritis-001.yaml")
TIREDNESS = Path("cases/im-tiredness-001.yaml")


def _workup(tmp_path: Path, source: Path, before: str, name: str, text: str) -> dict[str, str]:
    """The work-up rows of an answer to a copy of ``source`` with one more required work-up item ``name`` (no
    aliases: only its words and the vocabulary may meet it)."""
    item = f"  - item: {name}\n    class: required\n"
    case = valid_case_with_item(tmp_path, source, before, item)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), "workup")


@pytest.mark.parametrize(("plan", "done"), [
    ("Moderate depression.\n- MSE: low mood, no psychotic features, some insight\n- Sertraline 50 mg", True),
    ("Moderate depression. MSE done, no thoughts of self-harm. Sertraline 50 mg.", True),
    ("Moderate depression. Sertraline 50 mg; mse.", False),
])
def test_mse_in_capitals_is_the_mental_state_examination(tmp_path: Path, plan: str, done: bool):
    """"MSE" written in capitals is the mental state examination; the lower-case letters are no shorthand."""
    found = _workup(tmp_path, DEPRESSION, "Suicide risk assessment", "Mental state examination", plan)
    assert ("Mental state examination" in found) is done, plan


@pytest.mark.parametrize("plan", [
    "Septic arthritis of the knee. Aspirate, IV flucloxacillin. NV obs of the leg hourly.",
    "Septic arthritis. Washout today; NV checks of the foot 2-hourly.",
])
def test_nv_obs_are_neurovascular_observations(tmp_path: Path, plan: str):
    """"NV obs" and "NV checks" are neurovascular observations of a limb (in an answer NV is no nausea)."""
    found = _workup(tmp_path, SEPTIC_KNEE, "Blood cultures", "Neurovascular observations", plan)
    assert "Neurovascular observations" in found, plan


@pytest.mark.parametrize(("results", "done"), [
    ("| Hb | 128 |\n| Ca | 2.38 |", True),
    ("Bloods: Hb 128, Ca 2.38, TSH 1.2.", True),
    ("Bloods: Hb 128. CA 125 30, normal.", False),
    ("Bloods: Hb 128. CA125 normal.", False),
    ("No Ca on history; Hb 128.", False),
])
def test_a_ca_with_a_value_reports_the_calcium_done(tmp_path: Path, results: str, done: bool):
    """A "Ca" with its value reports the calcium done (as "K 3.2" the potassium); a tumour marker named "CA" and a
    number ("CA 125") is no calcium, nor a "Ca" with no value."""
    found = _workup(tmp_path, TIREDNESS, "Full blood count", "Adjusted calcium",
                    f"Tiredness, likely post-viral.\n{results}\nReview in 4 weeks.")
    assert ("Adjusted calcium" in found) is done, results


INTUSSUSCEPTION = Path("cases/ped-intussusception-001.yaml")
DELAYED = "Watchful waiting with delayed review before reduction"


@pytest.mark.parametrize(("plan", "delayed"), [
    ("Intussusception likely.\n- Paracetamol now\n- Surgical review in 6 hours if still vomiting\n- Recheck in 3 hours",
     True),
    ("Intussusception likely. Oral ibuprofen now; paediatric surgeons to see him tomorrow.", True),
    ("Intussusception likely. Surgeons to see now, air enema reduction today; observations every 2 hours after.",
     False),
    ("Intussusception likely. Air enema reduction now; review the abdomen in 6 hours after reduction.", False),
    ("Intussusception likely. Fluid bolus and surgical review now; hourly observations.", False),
    ("Intussusception likely. Paracetamol now. If the ultrasound is normal, review in 6 hours.", False),
])
def test_a_recheck_set_for_later_is_the_harmful_delay(tmp_path: Path, plan: str, delayed: bool):
    """A harmful item that puts the emergency action off for a later look is met by an answer that sets a recheck
    or a review hours or a day from now and does nothing today but give drugs; never by a plan that acts now and
    also monitors (at a frequency or after the act), nor by a recheck on a condition."""
    item = (f"  - item: {DELAYED}\n    class: contraindicated\n    weight: 2\n"
            "    aliases: [wait and see]\n")
    case = valid_case_with_item(tmp_path, INTUSSUSCEPTION,
                                     "Intravenous fluid resuscitation 10 mL/kg crystalloid bolus", item)
    scored = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (DELAYED in rows(scored, "treatment")) is delayed, plan


DISSECTION = "em-aortic-dissection-001"
IV_OPIOID = "Intravenous opioid analgesia"


@pytest.mark.parametrize(("plan", "given"), [
    ("Type A aortic dissection. Oramorph 10 mg for the pain; IV labetalol; cardiothoracic surgeons now.", False),
    ("Type A aortic dissection. Zomorph 30 mg; IV labetalol; cardiothoracic surgeons now.", False),
    ("Type A aortic dissection. MST 10 mg stat; IV labetalol; cardiothoracic surgeons now.", False),
    ("Type A aortic dissection. IV morphine 5 mg titrated; IV labetalol; cardiothoracic surgeons now.", True),
])
def test_a_brand_made_for_one_route_names_that_route(plan: str, given: bool):
    """A brand that exists for one route names it ("Oramorph" is oral morphine, "MST" oral modified-release
    morphine): it never meets an item that gives the drug by another route (an IV opioid)."""
    assert (IV_OPIOID in rows(card(DISSECTION, plan), "treatment")) is given, plan


@pytest.mark.parametrize(("plan", "given"), [
    ("Type A aortic dissection. Paravertebral block for pain relief; IV labetalol; cardiothoracic surgeons now.",
     False),
    ("Type A aortic dissection. Pain relief: IV morphine 5 mg; IV labetalol; cardiothoracic surgeons now.", True),
])
def test_what_an_action_is_for_is_no_treatment_of_its_own(tmp_path: Path, plan: str, given: bool):
    """"<a block> for pain relief" says what the block (another item's action) is for: the class of treatment
    after "for" is its purpose, not an analgesic given (an IV opioid item stays unmet); analgesia named as a heading
    of its own still leads to the drug."""
    item = "  - item: Regional nerve block\n    class: not_indicated\n    aliases: [paravertebral block]\n"
    case = valid_case_with_item(tmp_path, Path(f"cases/{DISSECTION}.yaml"), IV_OPIOID, item)
    scored = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (IV_OPIOID in rows(scored, "treatment")) is given, plan



DKA = Path("cases/ped-dka-001.yaml")
HOME_ONCE = "Discharge home once the ketones are cleared in ED"


@pytest.mark.parametrize(("plan", "sent"), [
    ("DKA. IV fluids, fixed-rate insulin. Home once ketones have cleared.", True),
    ("DKA. IV fluids, fixed-rate insulin; discharge once the ketosis clears.", True),
    ("DKA. IV fluids, fixed-rate insulin. Admit to the paediatric ward; home only after the ketones have cleared and "
     "she is eating.", False),
    ("DKA. IV fluids, fixed-rate insulin. Switch to subcutaneous insulin once ketones have cleared.", False),
])
def test_a_discharge_once_the_emergency_treatment_has_worked_is_that_harmful_discharge(
        tmp_path: Path, plan: str, sent: bool):
    """A harmful item that sends home once the emergency treatment's own milestone is reached ("once the ketones
    are cleared") is met by an answer that sends home once that milestone is reached, in its own words; never by a
    plan that admits and sends home only later, nor by another action timed by the milestone."""
    item = f"  - item: {HOME_ONCE}\n    class: contraindicated\n    weight: 2\n"
    case = valid_case_with_item(
        tmp_path, DKA, "IV 0.9% sodium chloride 10 mL/kg over 60 minutes, then deficit replacement over 48 hours plus "
        "maintenance", item)
    scored = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (HOME_ONCE in rows(scored, "treatment")) is sent, plan
