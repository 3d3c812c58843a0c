"""Grader classes of g84 (product issue 32), in wording of its own on other topics than the sets' cases: a drug named
in the story with no verb or dose of its own that the plan stops is what the patient took ("Naproxen x5d." then
"STOP naproxen"); an ejection fraction or a TAPSE with its value reports the echocardiogram done ("EF 30%"); an
admission under a team is an admission to hospital ("Admit under ID")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.item_decision import item_decision as _decision

TIREDNESS = Path("cases/im-tiredness-001.yaml")

NSAID = {"item": "NSAIDs", "class": "contraindicated", "aliases": ["naproxen", "diclofenac"]}


@pytest.mark.parametrize("text", [
    "Acute gout of the R 1st MTP. PMH CKD3. Naproxen x5d.\n\n- Colchicine 500 mcg BD\n- STOP naproxen",
    "Acute gout, on naproxen for 5 days from the chemist.\n\nPlan:\n- Colchicine 500 mcg BD\n- Stop naproxen",
    "Renal colic. Diclofenac since Monday.\n\n- IV fluids\n- Hold diclofenac (AKI)",
])
def test_a_drug_of_the_story_the_plan_stops_is_what_the_patient_took(tmp_path: Path, text: str) -> None:
    assert _decision(tmp_path, TIREDNESS, "treatment", NSAID, text) != "found", text


@pytest.mark.parametrize("text", [
    "Knee OA.\n\nPlan:\n- Naproxen 500 mg BD x5d\n- Stop naproxen if indigestion",
    "Knee OA. Naproxen 500 mg BD.\nStop naproxen after 5 days.",
    "Knee OA.\n- Naproxen x5d\n- Stop naproxen after 5 days",
    "Knee OA.\n- Give naproxen 500 mg BD.\n- Stop naproxen after 5 days",
    "Knee OA. Naproxen x5d. Stop naproxen if indigestion.",
    "Knee OA. Naproxen for 5 days, then stop.",
])
def test_a_drug_given_or_stopped_only_on_a_condition_is_still_given(tmp_path: Path, text: str) -> None:
    """Negative: a list entry, a dose, a verb of giving or a stop on a condition leaves the drug given."""
    assert _decision(tmp_path, TIREDNESS, "treatment", NSAID, text) == "found", text


ECHO = {"item": "Transthoracic echocardiogram", "class": "required", "aliases": ["echo", "TTE"]}


@pytest.mark.parametrize("text", [
    "Dx: new HFrEF (EF 30%, dilated LV), likely alcohol-related.\n\nPlan:\n- Furosemide 40 mg IV",
    "Pre-anthracycline baseline: LV ejection fraction 58%.\n\nPlan:\n- Proceed with cycle 1",
    "Massive PE. TAPSE 12 mm, RV dilated.\n\nPlan:\n- Thrombolysis",
])
def test_an_ejection_fraction_or_tapse_with_its_value_reports_the_echocardiogram(tmp_path: Path, text: str) -> None:
    assert _decision(tmp_path, TIREDNESS, "workup", ECHO, text) == "found", text


@pytest.mark.parametrize("text", [
    "Plan:\n- Furosemide 40 mg IV\n- EF to be checked",
    "Plan:\n- Furosemide\n- If EF < 35%, refer for ICD",
    "HFpEF.\n\nPlan:\n- Furosemide 40 mg IV",
])
def test_an_ejection_fraction_without_a_value_reports_nothing(tmp_path: Path, text: str) -> None:
    """Negative: the label without a value, or as a condition's threshold, is no result."""
    assert _decision(tmp_path, TIREDNESS, "workup", ECHO, text) != "found", text


ADMISSION = {"item": "Hospital admission", "class": "required", "within": "same day"}


@pytest.mark.parametrize("line", ["Admit under ID", "Admit under the medical team", "Admit under cardiology",
                                  "Admit under the renal team for monitoring"])
def test_an_admission_under_a_team_is_a_hospital_admission(tmp_path: Path, line: str) -> None:
    assert _decision(tmp_path, TIREDNESS, "treatment", ADMISSION, _plan(line)) == "found", line


@pytest.mark.parametrize("line", ["Refer to ID", "Discuss with the medical team", "Cardiology review today",
                                  "Do not admit under the medical team", "Admit"])
def test_a_contact_or_a_declined_admission_is_no_hospital_admission(tmp_path: Path, line: str) -> None:
    """Negative: a referral, review or discussion, a declined admission and a bare "admit" (no team) stay unread."""
    assert _decision(tmp_path, TIREDNESS, "treatment", ADMISSION, _plan(line)) != "found", line


SURGICAL_ADMISSION = {"item": "Admission under general surgery", "class": "required"}


@pytest.mark.parametrize("line", ["Admit under the medical team", "Admit under medicine", "Admit under ID"])
def test_an_admission_under_one_team_is_no_other_teams_admission(tmp_path: Path, line: str) -> None:
    """Negative: an item that names its team is met by that team's admission only."""
    assert _decision(tmp_path, TIREDNESS, "treatment", SURGICAL_ADMISSION, _plan(line)) != "found", line


def _plan(*lines: str) -> str:
    return "Plan:\n" + "".join(f"- {line}\n" for line in lines)
