"""Grader classes of set X (g66, product issue 32): a harmful item that observes before the emergency action
("Observation on the ward before neurosurgical referral") is met by an answer that makes that action wait on a
condition the record does not settle, or sets it later; never by one that does it now beside the observation.
Tested on wording of our own on other topics (subarachnoid haemorrhage, the febrile infant)."""

from __future__ import annotations

import pytest

from medbench_tui.core.cases.model import TreatmentItem
from medbench_tui.core.scoring import delay, score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.test_scoring_regressions import case, rows

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

