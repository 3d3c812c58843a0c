"""The failure classes of round 27 fixed (issue 33): attachment requests as new authors write them
("did the echo report come through?", "is the spirometry on the system?", "could you pull up the dietitian's
letter?", "I'll recheck his obs"), questions about a past test that are history ("did the GP do bloods when you had
the flu?", "have you had scans of your back?"), and a follow-up after a hand-over that must not go back to the fact
before it. Held on wording and topics of their own, with negative tests."""

from __future__ import annotations

from medbench_tui.core.cases.model import Attachment, patient_record
from medbench_tui.core.simulators import GroundedSimulator, intent
from tests.test_consultation import fixture_case

ATTACHMENTS = [
    Attachment.model_validate(a) for a in [
        {"id": "spiro", "kind": "document", "title": "Spirometry (respiratory nurse, last month)",
         "available": "on_request", "content": "FEV1/FVC 0.62.", "request_keywords": ["spirometry", "lung function"]},
        {"id": "letter", "kind": "document", "title": "Dietitian letter (2021)", "available": "on_request",
         "content": "Advised a low-salt diet."},
        {"id": "labs", "kind": "lab_report", "title": "Blood tests (this week)", "available": "on_request",
         "content": "Hb 121 g/L."},
        {"id": "mri", "kind": "document", "title": "MRI lumbar spine report", "available": "on_request",
         "content": "L5/S1 disc bulge.", "request_keywords": ["MRI", "scan"]},
    ]
]


def asked(message: str) -> list[str]:
    return [a.id for a in intent.attachments_asked(ATTACHMENTS, message)]


def test_whether_a_result_came_through_asks_for_it_whatever_its_kind():
    assert asked("Did the respiratory nurse's spirometry result come through?") == ["spiro"]
    assert asked("has the lung function come through yet?") == ["spiro"]


def test_whether_a_result_is_on_the_system_asks_for_it():
    assert asked("Are this week's blood tests on the system?") == ["labs"]
    assert asked("Is the spirometry in the notes?") == ["spiro"]


def test_a_symptom_that_came_back_or_the_patient_on_the_system_asks_for_nothing():
    assert asked("Did the wheeze come back?") == []
    assert asked("Are you on the system with the practice?") == []
    assert asked("Did the echo come through?") == []  # a document the case does not have


def test_pull_up_or_bring_up_asks_for_the_document_it_names():
    assert asked("could you pull up that dietitian letter from 2021?") == ["letter"]
    assert asked("can you bring up the spirometry?") == ["spiro"]
    assert asked("could you pull up the physio notes?") == []  # not in the case


def test_a_test_in_a_past_illness_is_history_not_todays_report():
    assert asked("Did the GP do any blood tests when you had the flu last winter?") == []
    assert asked("Did the GP do any blood tests?") == ["labs"]  # asked of now: the report


def test_scans_of_the_back_is_history_but_the_scan_back_is_a_request():
    assert asked("Have you had any scans of your back?") == []
    assert asked("Have you had a scan before?") == []
    assert asked("Is the MRI back?") == ["mri"]


def test_a_verb_of_again_shows_an_attachment_given_before_again():
    assert intent.announces_only("I'm going to examine him now and recheck his obs.") is False
    assert intent.announces_only("I'm going to examine him now.") is True


def test_a_follow_up_after_a_hand_over_is_not_of_the_fact_before_it():
    physio = {"id": "physio", "topic": "physiotherapy", "keywords": ["physio", "exercises"],
              "answer": "I did eight weeks of physio in the spring; it helped a little."}
    sim = GroundedSimulator(patient_record(fixture_case(additional_answers=[physio])))
    assert sim.answer("Have you had any physio?").facts == ["physio"]
    sim.answer("Could I see the chest x-ray?")
    assert "physio" not in sim.answer("What did they say?").facts
