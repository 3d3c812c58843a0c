"""Grader classes of round 16: harmful plans that passed in flawed answers, each tested on wording of its own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.reference import reference_table
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.test_scoring_regressions import CASES, card, case, condition, rows

NSTEMI = CASES / "em-nstemi-001.yaml"
BEFORE_TROPONIN = "Discharge before a repeat troponin"
AS_REFLUX = "Discharge home as reflux"


def _with_harms(tmp_path: Path) -> Case:
    """The NSTEMI case with two harmful discharges that carry a qualifier: one that goes without a check, one
    on a wrong reading."""
    text = NSTEMI.read_text().replace(
        "  - item: Discharge home\n",
        f"  - item: {BEFORE_TROPONIN}\n    class: contraindicated\n"
        f"  - item: {AS_REFLUX}\n    class: contraindicated\n  - item: Discharge home\n", 1)
    return _load(tmp_path, text)


def _load(tmp_path: Path, text: str) -> Case:
    """The case ``text`` read from a bank of its own, its attachments the bundled ones."""
    shutil.copytree(CASES / "attachments" / "em-nstemi-001", tmp_path / "attachments" / "em-nstemi-001")
    path = tmp_path / NSTEMI.name
    path.write_text(text)
    return load_valid_case(path)


def _treatment(case: Case, text: str) -> dict[str, str]:
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), "treatment")


@pytest.mark.parametrize(("plan", "skips", "as_reflux"), [
    # a discharge now goes without the check and discharges on the answer's reading
    ("Likely GORD. Plan: omeprazole 20 mg; she can go home tonight.", True, True),
    ("Plan: aspirin 300 mg. Home with GP follow-up in a week.", True, True),
    # a later discharge that waits for something else still goes without the troponin
    ("Plan: aspirin. Medically fit for discharge once the pain settles.", True, False),
    ("Plan: aspirin. Safe for discharge after a chest X-ray.", True, False),
    # a later discharge that waits for the check is no harm
    ("Plan: aspirin. Discharge only after the repeat troponin is back and flat.", False, False),
    ("Plan: aspirin. Do not discharge until the 3-hour troponin is back.", False, False),
    # a discharge that is the time of another action, or a document, sends no one home
    ("Plan: aspirin, admit under cardiology, angiography before discharge.", False, False),
    ("Plan: admit under cardiology; discharge summary to the GP later.", False, False),
])
def test_a_harmful_discharge_with_a_qualifier_is_a_named_rule(tmp_path: Path, plan: str, skips: bool,
                                                              as_reflux: bool):
    """"Discharge before X" is done by any discharge that does not wait for X, now or later; "Discharge home as
    Y" by a discharge now (a later one, after treatment, is the correct plan's)."""
    treatment = _treatment(_with_harms(tmp_path), plan)
    assert (BEFORE_TROPONIN in treatment) is skips, plan
    assert (AS_REFLUX in treatment) is as_reflux, plan


@pytest.mark.parametrize(("plan", "discharged"), [
    ("Plan: aspirin 300 mg. If stable, discharge home with outpatient angiography.", True),
    ("Plan: aspirin 300 mg. If she remains stable, discharge home with GP follow-up.", True),
    ("Plan: aspirin 300 mg. If not stable, admit; otherwise discharge home.", True),
    ("Plan: aspirin 300 mg. Discharge home only if the repeat troponin is normal.", False),
])
def test_a_condition_of_the_patients_state_now_is_met_by_a_stable_record(plan: str, discharged: bool):
    """"If stable" is the patient's state now: a record that says nothing of instability meets it (a plan on a
    stable patient's stability is the plan), so the harmful discharge under it is done."""
    assert (condition(card("em-nstemi-001", plan), "cc-no-discharge") == "FAIL") is discharged, plan


def test_a_condition_of_stability_is_not_met_by_a_record_of_shock(tmp_path: Path):
    record = NSTEMI.read_text().replace("Comfortable at rest, pain 2/10.", "Hypotensive and clammy.", 1)
    shocked = _load(tmp_path, record)
    scored = score(shocked, Transcript(case_id=shocked.id, final=FinalResponse(
        text="Plan: aspirin 300 mg. If stable, discharge home with outpatient angiography.")))
    assert condition(scored, "cc-no-discharge") == "OK"


@pytest.mark.parametrize(("condition_words", "settled"), [
    ("it is an NSTEMI", True),
    ("it is still an NSTEMI tomorrow", False),
    ("still an NSTEMI next week", False),
])
def test_a_condition_with_a_later_time_is_a_later_event_whatever_the_record_says(condition_words: str,
                                                                                 settled: bool):
    """"Only if the movements are still reduced tomorrow": the record meets the condition today, but the action
    waits for tomorrow."""
    table = reference_table(case("em-nstemi-001"))
    assert table.record.establishes(condition_words) is settled


UTI_NET = "Safety-netting for fever, loin pain, vomiting or vaginal bleeding"


@pytest.mark.parametrize(("advice", "met"), [
    ("Come back if you get a high temperature or start vomiting.", True),
    ("Come back if you feel worse.", True),
    ("Come back if the headache gets worse.", False),
])
def test_a_safety_net_about_another_symptom_is_not_a_safety_netting_item_about_particular_ones(advice: str,
                                                                                                met: bool):
    """A safety-netting item that names symptoms is met by a safety net about one of them, or about no symptom in
    particular; one about another symptom only is advice on another worry."""
    treatment = rows(card("obg-uti-pregnancy-001", f"Plan: nitrofurantoin 50 mg qds for 7 days. {advice}"),
                     "treatment")
    assert (UTI_NET in treatment) is met, advice


@pytest.mark.parametrize(("plan", "met"), [
    ("Plan: aspirin, admit under cardiology. Echo before discharge.", True),
    ("Plan: aspirin, admit under cardiology. Inpatient echo.", True),
    ("Plan: aspirin, admit under cardiology. GP to arrange an outpatient echo.", False),
    ("Plan: aspirin, admit under cardiology. Echo in outpatients in 6 weeks.", False),
])
def test_an_emergencys_work_up_without_a_time_is_done_before_discharge(plan: str, met: bool):
    """A work-up item of an emergency case with no time of its own is this episode's: a test put after discharge
    ("GP to arrange an outpatient echo") is not it."""
    assert ("Transthoracic echocardiogram" in rows(card("em-nstemi-001", plan), "workup")) is met, plan


@pytest.mark.parametrize(("plan", "met"), [
    ("Plan: aspirin, admit under cardiology. FBC and U&E now.", True),
    ("Plan: aspirin, admit under cardiology. Repeat FBC tomorrow.", True),
    ("Plan: aspirin, admit under cardiology. FBC tomorrow morning on the ward round.", False),
    ("Plan: aspirin, home tonight.\nAt the chest pain clinic tomorrow:\n- FBC, U&E\n", False),
])
def test_an_emergencys_required_test_first_done_after_today_is_put_off(plan: str, met: bool):
    """A required work-up item of an emergency case with no time of its own is today's: the test first done
    tomorrow is put off; a repeat tomorrow keeps a test already there."""
    assert ("Full blood count" in rows(card("em-nstemi-001", plan), "workup")) is met, plan
