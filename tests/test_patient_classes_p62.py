"""The failure classes of round 28 fixed (issue 33): how long something has gone on, asked of a fact
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
FAINT = {"id": "faint", "topic": "the faint at the bus stop", "keywords": ["faint", "blackout", "passed out"],
         "answer": "I passed out at the bus stop on Tuesday and came round on the pavement. It went on for about a "
                   "minute, my wife said."}
GLASSES = {"id": "glasses", "topic": "eyesight", "keywords": ["glasses", "eyesight", "vision"],
           "answer": "I've worn glasses since I was twelve, for reading."}


def simulator() -> GroundedSimulator:
    # without the fixture's fact of when the illness began, which a "how long" of anything may draw
    others = [a for a in CASE_DATA["additional_answers"] if a["id"] != "onset"]
    data = {"additional_answers": [*others, JOB, DOG, FAINT, GLASSES]}
    return GroundedSimulator(patient_record(fixture_case(**data)))


# -- A: how long, of a heard fact that says no time ----------------------------------------------------------------

def test_how_long_of_a_heard_job_that_says_no_time_is_the_default():
    patient = simulator()
    assert "job" in patient.answer("What do you do for a living?").facts
    reply = patient.answer("How long have you been a bus driver?")
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


# -- B: hot flushes are no fever -------------------------------------------------------------------------------------

FEVER = {"id": "systemic", "topic": "fevers and weight", "keywords": ["fever", "fevers", "temperature", "weight"],
         "answer": "My weight is the same and I have not had any fevers."}
FLUSHES = {"id": "flushes", "topic": "hot flushes", "keywords": ["hot flushes", "menopause"],
           "answer": "I get hot flushes most nights, they wake me up."}


def flush_patient(*facts: dict) -> GroundedSimulator:
    return GroundedSimulator(patient_record(fixture_case(additional_answers=[*CASE_DATA["additional_answers"],
                                                                            *facts])))


def test_hot_flashes_are_not_the_fever_fact():
    assert "systemic" not in flush_patient(FEVER).answer("Have you been getting hot flashes?").facts


def test_a_fact_of_hot_flushes_answers_them():
    # negative: the record that says them still answers, in other words too
    assert "flushes" in flush_patient(FEVER, FLUSHES).answer("Any flushes at night?").facts


def test_feeling_hot_is_still_a_fever():
    # negative: "hot" alone is still the fever
    assert "systemic" in flush_patient(FEVER).answer("Have you been feeling hot?").facts


# -- C: why the doctor asks, said before the question, asks nothing ---------------------------------------------------

JOB_AND_ALCOHOL = [
    {"id": "job", "topic": "occupation", "keywords": ["work", "job", "occupation", "working"],
     "answer": "I work in a warehouse, lifting boxes all day."},
]


def aside_patient() -> GroundedSimulator:
    return GroundedSimulator(patient_record(fixture_case(additional_answers=[*CASE_DATA["additional_answers"],
                                                                            *JOB_AND_ALCOHOL])))


def test_a_reason_for_asking_before_the_question_draws_no_fact():
    reply = aside_patient().answer("I know this is personal, but it helps us work out what's going on with your "
                                   "liver. How much alcohol do you drink?")
    assert reply.facts == ["alcohol"]  # the fixture's own fact of drinking


def test_working_in_the_reason_is_no_occupation():
    reply = aside_patient().answer("Sorry to ask, it really matters for working out the cause. Do you drink at all?")
    assert reply.facts == ["alcohol"]  # the fixture's own fact of drinking


def test_a_question_of_work_is_still_answered():
    # negative: a question of the work itself still gets it
    assert "job" in aside_patient().answer("I know it's awkward, but what work do you do?").facts


def test_a_length_said_in_the_next_sentence_by_a_pronoun_is_still_said():
    # negative: "It went on for about a minute" goes on of the sentence that names the faint, so the fact tells how long
    patient = simulator()
    assert "faint" in patient.answer("Tell me about the blackout.").facts
    assert "faint" in patient.answer("Sorry, going back - how long were you passed out for?").facts
