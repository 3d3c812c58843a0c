"""The failure classes of round 26 fixed (issue 33): a statement from the doctor that tells the patient
a result or a plan asks for nothing ("your thyroid tests are low, so the endocrine team will see you"), 'Right.' before
such a statement is no choice of what the patient asked back, what a culture grew asks for its report, and a telehealth
examination by the camera ("angle the camera at your knee and press where it hurts"). Held on wording and topics of
their own, with negative tests: a statement followed by a question still gets the question's fact."""

from __future__ import annotations

from medbench_tui.core.cases.model import Attachment, patient_record
from medbench_tui.core.simulators import GroundedSimulator, intent
from tests.test_consultation import CASE_DATA, fixture_case

ATTACHMENTS = [
    Attachment.model_validate(a) for a in [
        {"id": "tfts", "kind": "lab_report", "title": "Thyroid function tests", "available": "on_request",
         "content": "TSH 9.8, free T4 8."},
        {"id": "mcs", "kind": "lab_report", "title": "Wound swab microscopy and culture", "available": "on_request",
         "content": "Staph aureus, flucloxacillin sensitive.", "request_keywords": ["swab", "culture"]},
        {"id": "video", "kind": "document", "title": "Findings on the video call", "available": "on_request",
         "content": "Knee swollen, tender medially.", "request_keywords": ["examination", "examine"]},
    ]
]
THIRST = {"id": "thirst", "topic": "thirst", "keywords": ["thirst", "thirsty", "drinking"],
          "answer": "I'm thirsty all the time, drinking about four litres a day."}


def asked(message: str, *, remote: bool = False) -> list[str]:
    return [a.id for a in intent.attachments_asked(ATTACHMENTS, message, remote=remote)]


# -- a statement that tells the patient something asks for nothing ----------------------------------------

def test_a_result_told_asks_for_no_attachment():
    assert asked("Your thyroid tests are low, which fits with an underactive thyroid.") == []
    assert asked("So your swab culture shows a staph infection, and the antibiotics should change.") == []
    assert asked("The endocrine team will see you next month.") == []
    assert intent.doctor_tells("Your thyroid function tests came back low.")


def test_a_question_of_the_result_still_asks_for_it():
    assert asked("Your thyroid tests - are they back?") == ["tfts"]
    assert asked("Can I see your thyroid function tests?") == ["tfts"]
    assert not intent.doctor_tells("Your thyroid tests are back?")
    # the doctor's own request after what they tell still asks
    assert asked("your thyroid is underactive so I'd like to see the thyroid function tests again") == ["tfts"]


def test_a_statement_gets_an_acknowledgement_and_no_fact():
    sim = GroundedSimulator(patient_record(fixture_case(
        additional_answers=[*CASE_DATA["additional_answers"], THIRST])))
    reply = sim.answer("OK. Your sugar levels are high, so the diabetes nurse will see you and we'll start tablets.")
    assert reply.facts == []
    assert not reply.text.lower().startswith("no")


def test_a_statement_followed_by_a_question_gets_the_questions_fact():
    sim = GroundedSimulator(patient_record(fixture_case(
        additional_answers=[*CASE_DATA["additional_answers"], THIRST])))
    reply = sim.answer("Your sugar levels are high. Have you been very thirsty?")
    assert reply.facts == ["thirst"]


# -- 'Right.' before a statement is no choice -------------------------------------------------------------

def test_right_before_a_statement_is_no_choice_of_what_was_asked_back():
    sim = GroundedSimulator(patient_record(fixture_case(
        additional_answers=[*CASE_DATA["additional_answers"], THIRST])))
    sim.state.pending = ["thirst"]
    assert sim.answer("Right. Your sugar levels are high, so the diabetes team should see you.").facts == []
    sim.state.pending = ["thirst"]
    assert sim.answer("Right.").facts == ["thirst"]  # alone it still says yes to what was asked back


# -- what a culture grew ------------------------------------------------------------------------------

def test_what_a_culture_grew_asks_for_its_report():
    assert asked("And the wound swab, did anything grow?") == ["mcs"]
    assert asked("what grew on the culture?") == ["mcs"]


def test_growth_of_a_lump_or_news_of_an_absent_culture_asks_for_nothing():
    assert asked("Has the lump grown?") == []
    without_culture = [a for a in ATTACHMENTS if a.id != "mcs"]
    assert intent.attachments_asked(without_culture, "And the urine culture, did anything grow?") == []


# -- a telehealth examination by the camera -------------------------------------------------------------

def test_angling_the_camera_and_pressing_is_the_examination():
    assert asked("Could you angle the camera at your knee and press where it hurts?", remote=True) == ["video"]
    assert asked("Can you tilt the camera down so I can see your ankle?", remote=True) == ["video"]


def test_pressing_in_a_history_question_is_no_examination():
    assert asked("Does it hurt when you press on it?", remote=True) == []


def test_a_test_arranged_now_through_another_still_asks_for_it():
    # the doctor orders the test through the nurse: a request, not news; a later time is news
    assert asked("The nurse will check your thyroid function tests now.") == ["tfts"]
    assert asked("The HCA is going to send a wound swab for culture.") == ["mcs"]
    assert not intent.doctor_tells("The nurse will take some bloods now.")
    assert asked("The nurse will repeat your thyroid function tests next month.") == []
    assert intent.doctor_tells("The practice nurse will check your thyroid tests in six weeks.")
