"""The failure classes of round 28 fixed for brief p62 (issue 33): how long something has gone on, asked of a fact
the doctor heard whose answer says no time of it ("how long have you been a teacher?" of the job), is the default,
never the fact again "as I said". Held on wording and topics of their own, with negative tests: a fact that says how
long (a length, a "since", a number, a start) is still said, and the fact asked again is still said."""

from __future__ import annotations

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator
from tests.test_consultation import CASE_DATA, fixture_case

JOB = {"id": "job", "topic": "occupation", "keywords": ["work", "job", "occupation"],
       "answer": "I drive a bus for the council. No fumes to speak of."}
DOG = {"id": "dog", "topic": "pets", "keywords": ["pets", "animals", "dog"],
       "answer": "We've got a spaniel. No cats."}
GLASSES = {"id": "glasses", "topic": "eyesight", "keywords": ["glasses", "eyesight", "vision"],
           "answer": "I've worn glasses since I was twelve, for reading."}


def simulator() -> GroundedSimulator:
    data = {"additional_answers": [*CASE_DATA["additional_answers"], JOB, DOG, GLASSES]}
    return GroundedSimulator(patient_record(fixture_case(**data)))


# -- A: how long, of a heard fact that says no time ----------------------------------------------------------------

def test_how_long_of_a_heard_job_that_says_no_time_is_the_default():
    patient = simulator()
    assert "job" in patient.answer("What do you do for a living?").facts
    reply = patient.answer("How long have you been driving buses?")
    assert "job" not in reply.facts
    assert "as i said" not in reply.text.lower()


def test_how_long_of_a_heard_pet_is_the_default():
    patient = simulator()
    assert "dog" in patient.answer("Do you have any pets?").facts
    assert "dog" not in patient.answer("How long have you had the spaniel?").facts


def test_a_heard_fact_that_says_since_when_is_still_said():
    # negative: the fact tells how long ("since I was twelve"), so it is the answer
    patient = simulator()
    assert "glasses" in patient.answer("Do you wear glasses?").facts
    assert "glasses" in patient.answer("How long have you worn glasses?").facts


def test_the_heard_fact_asked_again_is_still_said():
    # negative: asked again, the fact is said again
    patient = simulator()
    patient.answer("What do you do for a living?")
    assert "job" in patient.answer("Sorry, remind me what your job is?").facts


def test_how_long_of_a_fact_not_yet_heard_still_answers():
    # negative: a fact the doctor has not heard is told the first time, whatever it says of time
    patient = simulator()
    assert "job" in patient.answer("How long have you been in your job?").facts
