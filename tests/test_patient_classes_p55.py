"""The failure classes of round 26 fixed, each held on wording of its own (other topics)."""

from __future__ import annotations

from medbench_tui.core.simulators import intent
from tests.test_patient_round8_classes import patient

# -- a name set off by commas after a relative's word is a person the record names ------------------------

HOUSEHOLD = {"id": "household", "topic": "job and who is at home", "keywords": ["work", "job", "live with", "Priya"],
             "answer": "I drive a bus. I live with my wife, Priya, and our two boys."}
COUGH = {"id": "cough", "topic": "the cough", "keywords": ["cough", "coughing"],
         "answer": "A dry cough for three weeks, worse at night."}


def test_a_name_between_commas_after_a_relative_is_a_name_the_record_gives():
    assert "priya" in intent.names_given("I live with my wife, Priya, and our two boys.")
    assert "priya" in intent.names_given("My wife Priya does the cooking.")
    # a capital word after the comma that is not set off as a name is no name: "my son, Calpol helped"
    assert intent.names_given("I gave my son, Calpol and water.") == frozenset()


def test_a_question_of_the_named_person_is_not_the_fact_that_only_names_them():
    sim = patient([HOUSEHOLD, COUGH])
    assert "household" not in sim.answer("Is Priya coughing as well?").facts
    assert "cough" not in sim.answer("Is Priya coughing as well?").facts  # her cough is not the patient's


def test_the_household_and_the_patients_own_symptom_are_still_answered():
    sim = patient([HOUSEHOLD, COUGH])
    assert sim.answer("who do you live with?").facts == ["household"]
    assert "cough" in sim.answer("have you been coughing?").facts


# -- treatment at the dentist is one unit of the history, not the occupation -------------------------------

JOB = {"id": "job", "topic": "occupation", "keywords": ["work", "job", "occupation"],
       "answer": "I work in a warehouse, lifting boxes all day."}
TEETH = {"id": "teeth", "topic": "recent dental treatment", "keywords": ["dentist", "dental work", "tooth"],
         "answer": "I had a wisdom tooth taken out at the dentist three weeks ago."}


def test_dental_work_is_not_the_job():
    assert patient([JOB, COUGH]).answer("any dental work in the last few months?").facts == []
    assert patient([JOB, COUGH]).answer("been to the dentist recently?").facts == []


def test_dental_work_is_the_dental_fact_and_work_is_still_the_job():
    sim = patient([JOB, TEETH])
    assert sim.answer("any dental work in the last few months?").facts == ["teeth"]
    assert sim.answer("what do you do for work?").facts == ["job"]
    assert "teeth" not in sim.answer("does your job involve heavy lifting?").facts


# -- of alternatives, only the one that names home says what is asked of the people there ----------------

TRIP = {"id": "trip", "topic": "recent travel", "keywords": ["travel", "abroad", "holiday"],
        "answer": "We were in Morocco for a week last month."}
OTHERS = {"id": "others", "topic": "ill contacts", "keywords": ["anyone else", "contacts", "household contacts"],
          "answer": "Nobody else has been ill."}


def test_travel_or_anyone_at_home_unwell_gives_both_facts():
    facts = patient([TRIP, OTHERS, HOUSEHOLD]).answer("any trips abroad lately, or anyone else at home poorly?").facts
    assert "trip" in facts and "others" in facts
    assert "household" not in facts


def test_one_alternative_alone_is_still_its_own_fact():
    sim = patient([TRIP, OTHERS, HOUSEHOLD])
    assert sim.answer("been abroad lately?").facts == ["trip"]
    assert "trip" not in sim.answer("anyone else at home been poorly?").facts
