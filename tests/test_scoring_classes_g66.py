"""Grader classes of set X (g66, product issue 32): a harmful item that observes before the emergency action
("Observation on the ward before neurosurgical referral") is met by an answer that makes that action wait on a
condition the record does not settle, or sets it later; never by one that does it now beside the observation.
Tested on wording of our own on other topics (subarachnoid haemorrhage, the febrile infant)."""

from __future__ import annotations

import pytest

from medbench_tui.core.cases.model import TreatmentItem
from medbench_tui.core.scoring import delay, score
from medbench_tui.core.scoring.reference import reference_table
from medbench_tui.core.scoring.text_extractor import extract_text
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.test_scoring_regressions import card, case, rows

WAIT = "Observation on the medical ward before neurosurgical referral"
DRUG_WAIT = "Observe on the ward pending intravenous antibiotics"


def _with_harmful(case_id: str, name: str):
    c = case(case_id)
    harmful = TreatmentItem.model_validate({"item": name, "class": "contraindicated", "weight": 2,
                                            "aliases": ["watch and wait"]})
    return c.model_copy(update={"treatment": [*c.treatment, harmful]})


def _card(case_id: str, name: str, text: str):
    c = _with_harmful(case_id, name)
    return score(c, Transcript(case_id=c.id, final=FinalResponse(text=text)))


@pytest.mark.parametrize(("name", "wait"), [
    (WAIT, True),
    ("Observe pending cardiology review", True),
    ("Watch on the ward until the surgeons review", False),  # no word of a recheck before the wait word
    ("Observation with serial examination before imaging", False),  # imaging reaches no team and gives no drug
    ("Admission to the neonatal unit pending transfer", False),  # no observation
])
def test_an_item_that_observes_before_an_action_is_a_wait_item(name: str, wait: bool):
    assert (delay.wait_item(name) is not None) is wait


@pytest.mark.parametrize("text", [
    "Plan:\n- Admit to the medical ward for neuro obs\n- Refer to the neurosurgeons if the repeat CT shows blood",
    "Plan:\n- Neuro obs on the ward overnight\n- Neurosurgical review tomorrow",
    "Plan:\n- Hourly neuro obs\n- Discuss with neurosurgery if the lumbar puncture comes back bloody",
])
def test_an_action_made_to_wait_or_set_later_meets_the_wait_item(text: str):
    assert rows(_card("em-sah-001", WAIT, text), "treatment").get(WAIT) == "contraindicated"


@pytest.mark.parametrize("text", [
    "Plan:\n- Neuro obs on the ward while the neurosurgeons come now\n- Nimodipine 60 mg 4-hourly",
    "Plan:\n- Refer to the neurosurgical centre now; hourly neuro obs meanwhile",
    "Plan:\n- Immediate referral to neurosurgery\n- Re-discuss with neurosurgery if GCS drops",
    "Plan:\n- Neuro obs\n- Nimodipine 60 mg 4-hourly",  # no referral at all: a miss, not the wait
])
def test_an_action_done_now_or_never_named_is_no_wait(text: str):
    assert WAIT not in rows(_card("em-sah-001", WAIT, text), "treatment")


def test_a_drug_held_back_behind_an_observation_is_the_wait_and_a_drug_now_is_not():
    waiting = "Plan:\n- Observe on the ward\n- IV cefotaxime if the blood culture grows anything"
    assert rows(_card("ped-febrile-infant-001", DRUG_WAIT, waiting), "treatment").get(DRUG_WAIT) \
        == "contraindicated"
    now = "Plan:\n- IV cefotaxime 50 mg/kg now\n- Observe on the ward, obs hourly"
    assert DRUG_WAIT not in rows(_card("ped-febrile-infant-001", DRUG_WAIT, now), "treatment")


# Another team's plan forecast (set W): "cardiology will almost certainly start nadolol" names what another team
# will do, not this answer's recommendation: mentioned, not given (the labels read it "negated"). Tested on heart
# failure: the heart failure team, the cardiologists.
DOAC = "Oral anticoagulation with a direct oral anticoagulant (apixaban 5 mg twice daily)"
BASE = "Impression: acute heart failure with new AF.\nPlan:\n- IV furosemide 40 mg\n"


def _entities(text: str):
    return extract_text(text, reference_table(case("im-heart-failure-001")))


def _hf(text: str) -> dict[str, str]:
    return rows(card("im-heart-failure-001", BASE + text), "treatment") | rows(
        card("im-heart-failure-001", BASE + text), "workup")


@pytest.mark.parametrize("line", [
    "- Anticoagulation: cardiology will almost certainly start apixaban; I have not started it",
    "- The heart failure team will probably start apixaban after the echo",
    "- Apixaban: the cardiologists are likely to start it once renal function is known",
])
def test_a_drug_another_team_is_forecast_to_start_is_not_given(line: str):
    assert DOAC not in _hf(line)


@pytest.mark.parametrize("line", [
    "- Start apixaban 5 mg BD today",
    "- I will probably start apixaban 5 mg BD today",  # the answer's own hedged plan, no other team
    "- Cardiology advised apixaban 5 mg BD: started today",
])
def test_a_drug_the_answer_starts_is_given(line: str):
    assert _hf(line).get(DOAC) == "matched"


def test_a_team_named_last_or_a_diagnosis_after_a_forecast_reads_as_before():
    """A team's name that ends the text forecasts nothing, and a condition after a forecast stays the answer's
    ("the cardiologists will probably confirm heart failure" keeps the diagnosis)."""
    assert {e.text: e.status for e in _entities("Plan: apixaban 5 mg BD; discuss with cardiology")}.get(
        "apixaban 5 mg BD") == "affirmed"
    said = _entities("Impression: the cardiologists will probably confirm acute heart failure.")
    assert any(e.kind == "diagnosis" and e.status == "affirmed" for e in said)
