"""The failure classes of held-out round 28 fixed, each held on wording of its own."""

from __future__ import annotations

from medbench_tui.core.simulators.grounded import GroundedSimulator
from tests.test_patient_round8_classes import patient

# -- 1: a place or part said as the setting of a fact is not what the fact is about --------------------------------

CONTACTS = {"id": "contacts", "topic": "unwell contacts",
            "keywords": ["anyone else", "contacts", "school", "classmates", "ill", "unwell", "poorly"],
            "answer": "Nobody at school has been poorly, and my brother is fine."}
TRAVEL = {"id": "travel", "topic": "recent travel", "keywords": ["travel", "abroad", "holiday", "overseas"],
          "answer": "We haven't been abroad since last summer."}
JOB = {"id": "job", "topic": "occupation", "keywords": ["work", "job", "occupation"],
       "answer": "I work in a warehouse, driving a forklift."}
THROAT = {"id": "throat", "topic": "sore throat", "keywords": ["sore throat", "throat"],
          "answer": "My throat has been really sore for three days."}


def place_patient(*facts: dict) -> GroundedSimulator:
    return patient(list(facts))


def test_a_question_of_the_place_itself_is_not_the_contacts_there():
    sim = place_patient(CONTACTS)
    assert "contacts" not in sim.answer("And school, how is that?").facts
    assert "contacts" not in place_patient(CONTACTS).answer("How's school going?").facts


def test_the_people_at_the_place_still_get_the_contacts():
    # negative: asked of the people there (the place as a setting), the contacts fact answers
    assert "contacts" in place_patient(CONTACTS).answer("Has anyone at school been poorly?").facts
    assert "contacts" in place_patient(CONTACTS).answer("Anyone unwell in your class at school?").facts


def test_a_fact_that_is_about_the_place_still_answers():
    # negative: the occupation fact is about work, so "what do you do for work?" gets it
    assert "job" in place_patient(JOB, CONTACTS).answer("What do you do for work?").facts


def test_a_place_said_as_the_setting_of_something_else_is_no_travel_history():
    sim = place_patient(TRAVEL)
    assert "travel" not in sim.answer("Any dental work done abroad?").facts
    assert "travel" not in place_patient(TRAVEL).answer("Have you had any operations done overseas?").facts


def test_travel_asked_still_gets_the_travel_fact():
    # negative: the place is the subject ("been abroad?"), so the travel fact answers
    assert "travel" in place_patient(TRAVEL).answer("Have you been abroad recently?").facts
    assert "travel" in place_patient(TRAVEL).answer("Any travel overseas this year?").facts


def test_a_sore_throat_still_gets_the_throat_fact():
    # negative: the throat's own symptom asked
    assert "throat" in place_patient(THROAT).answer("How's your throat?").facts
    assert "throat" in place_patient(THROAT).answer("Any pain in your throat?").facts
