"""The attachment and matching classes of round 31's second pass (issue 33): a test of the mind titled an examination
is a test asked for by its name, its score asked of or leave asked to do it; a test the doctor orders from now on
never hands over an earlier record of that kind; a paper the carer keeps, asked whether they have it, is asked for
when an attachment is one; and a keyword that is shorthand ("TIA") answers the question that says it. Held on
wording and topics of their own, with negative tests."""

from __future__ import annotations

import pytest

from medbench_tui.core.cases.model import Attachment, patient_record
from medbench_tui.core.simulators import GroundedSimulator, intent
from tests.test_consultation import CASE_DATA, fixture_case

ATTACHMENTS = [
    Attachment.model_validate(a) for a in [
        {"id": "ward_exam", "kind": "document", "title": "Ward examination", "available": "on_request",
         "content": "Left arm drift, power 4/5 left arm.", "request_keywords": ["examination", "examine", "power"]},
        {"id": "cognition", "kind": "document", "title": "Mini-Mental State Examination (stroke ward)",
         "available": "on_request", "content": "MMSE 24/30; lost points on recall and orientation.",
         "request_keywords": ["MMSE", "thinking test", "cognitive screen"]},
        {"id": "mood", "kind": "document", "title": "Mood questionnaire (HADS)", "available": "on_request",
         "content": "HADS anxiety 9, depression 11.", "request_keywords": ["HADS", "mood questionnaire"]},
        {"id": "old_lipids", "kind": "lab_report", "title": "Cholesterol and sugar tests (GP, four months ago)",
         "available": "on_request", "content": "Total cholesterol 6.8, HbA1c 44.",
         "request_keywords": ["bloods", "blood tests", "cholesterol", "cholesterol test"]},
        {"id": "thrombophilia", "kind": "lab_report", "title": "Clotting screen (taken after the consultation)",
         "available": "on_request", "content": "Lupus anticoagulant negative.",
         "request_keywords": ["clotting screen", "thrombophilia screen", "lupus anticoagulant"]},
        {"id": "health_card", "kind": "document", "title": "Hand-held diabetes record, foot check page",
         "available": "on_request", "content": "Foot pulses present 2024.",
         "request_keywords": ["diabetes record", "record book", "diabetes book"]},
    ]
]
TIA = {"id": "tia", "topic": "past funny turns", "keywords": ["TIA", "funny turn"],
       "answer": "I had a funny turn with a weak arm two years ago; they said it was a TIA."}
CHOLESTEROL = {"id": "cholesterol", "topic": "cholesterol", "keywords": ["cholesterol"],
               "answer": "The GP said my cholesterol was a bit high."}
UTI = {"id": "uti", "topic": "bladder trouble", "keywords": ["UTI", "cystitis"],
       "answer": "I get cystitis once or twice a year."}


def asked(message: str, before: str = "") -> list[str]:
    return [a.id for a in intent.attachments_asked(ATTACHMENTS, message, before=before)]


def simulator(*facts: dict) -> GroundedSimulator:
    data = {"additional_answers": [*CASE_DATA["additional_answers"], *facts],
            "attachments": [a.model_dump(mode="json", exclude_none=True) for a in ATTACHMENTS]}
    return GroundedSimulator(patient_record(fixture_case(**data)))


# -- 1: a test of the mind titled an examination is a test asked for by name -------------------------------------

@pytest.mark.parametrize("message", [
    "Can I see the MMSE?", "Could I have a look at his thinking test?",
    "The nurse will do a cognitive screen with him.",
    "Would you mind if I did a quick thinking test with you?", "What did he score on the thinking test?",
])
def test_a_test_of_the_mind_is_handed_over_when_named(message):
    assert asked(message) == ["cognition"]


def test_a_score_asked_of_a_questionnaire_is_its_result():
    assert asked("what did she score on the mood questionnaire?") == ["mood"]


def test_a_mind_test_is_not_examination_findings_but_the_ward_examination_still_is():
    cognition, ward = (next(a for a in ATTACHMENTS if a.id == i) for i in ("cognition", "ward_exam"))
    assert not intent.holds_findings(cognition) and intent.holds_findings(ward)
    observed = Attachment.model_validate({"id": "o", "kind": "document", "available": "on_request",
                                          "title": "GP observations and mental state examination", "content": "."})
    assert intent.holds_findings(observed)  # negative: its observations are findings still


def test_examining_the_body_does_not_hand_over_the_mind_test():
    # negative: "examine" is of the ward examination, not the MMSE
    assert asked("I'd like to examine your arms") == ["ward_exam"]


def test_leave_to_ask_about_drinking_asks_for_nothing():
    # negative: leave to ask is a question of the history, not a test
    assert asked("Would you mind if I asked about your drinking?") == []
    assert intent.kind_of("Would you mind if I asked about your drinking?") != "request"


# -- 2: a test ordered from now on is never the earlier record --------------------------------------------------

def test_a_test_ordered_by_name_is_the_new_one_not_the_earlier_bloods():
    assert asked("I'll send you for a thrombophilia screen blood test.") == ["thrombophilia"]
    assert asked("I'll send you for a clotting screen blood test. Can I see the result when it's back?") == [
        "thrombophilia"]


@pytest.mark.parametrize("message", ["we'll get some bloods done", "I'm going to request a cholesterol test.",
                                     "Let's do some blood tests."])
def test_bloods_ordered_do_not_hand_over_the_bloods_of_months_ago(message):
    assert "old_lipids" not in asked(message)


def test_the_earlier_bloods_are_still_handed_over_when_asked_for():
    # negative: asked to see, not ordered
    assert asked("Can I see your blood tests from the GP?") == ["old_lipids"]
    assert asked("I'll have another look at the cholesterol test again") == ["old_lipids"]


def test_a_record_of_earlier_and_of_today_is_of_now():
    # negative: repeated today, the record is the new test's too
    both = Attachment.model_validate({"id": "b", "kind": "lab_report", "available": "on_request", "content": ".",
                                      "title": "Blood tests (two weeks ago) and repeat in clinic today",
                                      "request_keywords": ["bloods"]})
    assert not intent.earlier_record(both)
    assert [a.id for a in intent.attachments_asked([both], "we'll send some bloods now")] == ["b"]


# -- 3: a paper the patient or carer keeps ----------------------------------------------------------------------

def test_do_you_have_his_record_book_hands_it_over():
    assert asked("Do you have his diabetes record book with you?") == ["health_card"]
    reply = simulator().answer("Have you got her diabetes book?")
    assert [a.id for a in reply.attachments] == [] and reply.kind == "hand_over"  # the consultation releases it
    assert "Hand-held diabetes record" in reply.text


def test_a_possession_of_no_paper_is_history():
    # negative: no paper asked whether they have it, and a paper no attachment is
    assert asked("Do you have any allergies?") == []
    assert asked("Do you have a bus pass card?") == []


# -- 5: a keyword that is shorthand answers the question that says it ------------------------------------------

@pytest.mark.parametrize(("fact", "question"), [(TIA, "Have you ever had a TIA?"), (UTI, "Ever had a UTI?"),
                                                (TIA, "ever had a TIA before?")])
def test_a_shorthand_keyword_answers_the_shorthand_asked(fact, question):
    assert simulator(fact).answer(question).facts == [fact["id"]]


def test_the_words_of_what_shorthand_means_do_not_answer_alone():
    # negative: "stroke" is no "mini stroke", and the doctor's own words name no fact
    assert "tia" not in simulator(TIA, CHOLESTEROL).answer("Anyone in the family had a stroke?").facts
    assert simulator(TIA, CHOLESTEROL).answer("any trouble with your waterworks?").facts != ["tia"]
