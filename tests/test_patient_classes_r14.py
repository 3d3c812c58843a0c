"""The failure classes of held-out rounds 9 to 12 fixed in round 14, each held on wording of its own."""

from __future__ import annotations

from tests.test_patient_round8_classes import patient


def _flatmates() -> list[dict[str, object]]:
    return [
        {"id": "location", "topic": "where he is calling from", "keywords": ["where are you", "at the moment",
                                                                             "calling from"],
         "answer": "I'm sat in the car outside work."},
        {"id": "contacts", "topic": "whether anybody he lives with is ill", "keywords": ["anyone else", "flatmates",
                                                                                       "ill"],
         "answer": "Both my flatmates have had the same cough."},
    ]


def test_a_time_frame_of_now_is_no_subject_a_fact_of_where_the_patient_is_answers():
    assert patient(_flatmates()).answer("is anyone else ill at the moment?").facts == ["contacts"]
    assert patient(_flatmates()).answer("is anyone else ill at present?").facts == ["contacts"]
    assert patient(_flatmates()).answer("where are you at the moment?").facts == ["location"]


def test_a_heard_fact_said_again_to_a_question_of_now_it_does_not_say_is_said_with_doubt():
    sim = patient([
        {"id": "heater", "topic": "the paraffin heater", "keywords": ["heater", "paraffin", "heating"],
         "answer": "We use a paraffin heater in the bedroom most nights."},
    ])
    assert sim.answer("what heating do you have?").facts == ["heater"]
    reply = sim.answer("is the paraffin heater running right now?")
    assert reply.confidence < 0.8
