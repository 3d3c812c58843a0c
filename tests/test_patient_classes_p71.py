"""Rounds 28-30's follow-ups whose aspect the fact just told says (issue 33): a yes/no follow-up that points back and
asks a quality the last fact says as written ("were they regular before that?") stays on that fact; a follow-up whose
only word the record says is said as written by the last fact ("which came first?" after "the rash first") stays on
it, not on the onset that shares the word only as a concept. Held on wording and topics of their own, with negative
tests: after a new topic the follow-up takes the new subject, and a fact that does not say the quality is not given
as if it did."""

from __future__ import annotations

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator
from tests.test_consultation import CASE_DATA, fixture_case

BOWELS = {"id": "bowels", "topic": "bowel habit", "keywords": ["bowels", "stools", "diarrhoea", "constipation"],
          "answer": "I was regular as clockwork until the spring. Now it's loose three or four times a day."}
HEADACHES = {"id": "headaches", "topic": "headaches", "keywords": ["headache", "headaches"],
             "answer": "The headaches come most afternoons, behind my eyes."}
ORDER = {"id": "order", "topic": "rash and joint pains", "keywords": ["rash", "joints", "joint pains", "knees"],
         "answer": "The rash first, on my shins. My knees ached a week later."}
APPETITE = {"id": "appetite", "topic": "appetite", "keywords": ["appetite", "eating", "hungry"],
            "answer": "My appetite's gone, I'm barely eating."}


def simulator() -> GroundedSimulator:
    data = {"additional_answers": [*CASE_DATA["additional_answers"], BOWELS, HEADACHES, ORDER, APPETITE]}
    return GroundedSimulator(patient_record(fixture_case(**data)))


def test_a_yes_no_quality_the_last_fact_says_stays_on_it():
    patient = simulator()
    assert "bowels" in patient.answer("How are your bowels?").facts
    assert "bowels" in patient.answer("were they regular before that?").facts


def test_a_quality_the_last_fact_does_not_say_is_not_given_as_if_it_did():
    patient = simulator()
    assert "headaches" in patient.answer("Any headaches?").facts
    reply = patient.answer("were they regular before that?")
    assert "headaches" not in reply.facts
    assert "bowels" not in reply.facts


def test_after_a_new_topic_the_quality_is_asked_of_the_new_subject():
    patient = simulator()
    assert "bowels" in patient.answer("How are your bowels?").facts
    assert "appetite" in patient.answer("And your appetite?").facts
    assert "bowels" not in patient.answer("was it regular before that?").facts


def test_which_came_first_stays_on_the_fact_that_says_first():
    patient = simulator()
    assert "order" in patient.answer("Any rash or joint pains?").facts
    reply = patient.answer("which came first?")
    assert "order" in reply.facts
    assert "onset" not in reply.facts


def test_which_came_first_after_a_fact_that_says_no_first_leaves_it():
    patient = simulator()
    assert "appetite" in patient.answer("How's your appetite?").facts
    assert "appetite" not in patient.answer("which came first?").facts


def test_when_it_first_started_is_still_the_onset():
    patient = simulator()
    assert "order" in patient.answer("Any rash or joint pains?").facts
    assert "onset" in patient.answer("When did this all first start?").facts


def test_a_quality_word_inside_a_subject_of_its_own_leaves_the_last_fact():
    knees = {"id": "knees", "topic": "knee pain", "keywords": ["knees", "knee"],
             "answer": "My knees are sore on the stairs."}
    data = {"additional_answers": [*CASE_DATA["additional_answers"], knees]}
    patient = GroundedSimulator(patient_record(fixture_case(**data)))
    assert "knees" in patient.answer("How are your knees?").facts
    assert "knees" not in patient.answer("Has he had a sore throat, or anything like that?").facts
