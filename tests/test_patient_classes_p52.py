"""The failure classes of held-out round 25 fixed (issue 33): "what's that for?" after the medicines is
the fact that says what that medicine is for, not the whole past history; a part after a dash that only says when or
where ("any pain - when you pass urine?") is part of the question before it; "sorry to come back to it" only says
that the doctor asks again (no back of the body); a question that quotes a fact's own words is of that fact. Held on
wording and topics of their own (not the round's cases), with negative tests."""

from __future__ import annotations

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator
from medbench_tui.core.simulators.question import read_message
from tests.test_consultation import fixture_case

MEDS = {"id": "medications", "topic": "regular medicines", "keywords": ["medication", "medicines", "tablets"],
        "answer": "Furosemide 40 milligrams in the morning, ramipril 5 milligrams and omeprazole 20 milligrams."}
HEART = {"id": "heart_failure", "topic": "the weak heart and its treatment", "keywords": ["heart", "heart failure"],
         "answer": "They said my heart pump was weak after a scan in 2021. The cardiologist started the furosemide "
                   "and the ramipril."}
STOMACH = {"id": "reflux", "topic": "acid reflux", "keywords": ["reflux", "heartburn", "indigestion"],
           "answer": "Heartburn for years. I'm on omeprazole for my stomach and it keeps it quiet."}
COUGH = {"id": "cough", "topic": "dry cough", "keywords": ["cough", "tickle"],
         "answer": "A tickly dry cough, I think it's the ramipril."}
HISTORY = {"id": "past_history", "topic": "past medical history", "keywords": ["medical history", "operations"],
           "answer": "The heart, the reflux, and a knee replacement in 2018."}
PAIN = {"id": "pain", "topic": "pain with the swelling (pertinent negative)",
        "keywords": ["pain", "painful", "sore", "tender", "groin", "back"],
        "answer": "No pain at all, not even in my groin."}
WALKING = {"id": "walking", "topic": "walking and getting about",
           "keywords": ["walk", "walking", "stairs", "get about"],
           "answer": "I walk with a stick, and I can only manage the stairs one at a time."}
SWELLING = {"id": "swelling", "topic": "the swelling in the ankles",
            "keywords": ["swelling", "swollen", "ankles", "when", "start"],
            "answer": "It came up a week ago. Puffy right up to the knees by the evening, then down by the morning."}
SLEEP = {"id": "sleep", "topic": "sleeping", "keywords": ["sleep", "night", "evening", "pillows"],
         "answer": "I sleep on three pillows now, and I'm up twice in the night."}


def patient(facts: list[dict]) -> GroundedSimulator:
    return GroundedSimulator(patient_record(fixture_case(additional_answers=facts)))


def test_what_a_medicine_is_for_is_the_fact_that_says_it_was_started_for_a_condition():
    sim = patient([MEDS, HEART, STOMACH, COUGH, HISTORY])
    assert sim.answer("Which tablets do you take?").facts == ["medications"]
    # the fact that says the most of the medicines told, and that they were started: not the whole history, nor
    # the cough put down to the ramipril
    assert sim.answer("what's that for?").facts == ["heart_failure"]


def test_what_it_is_for_is_of_the_medicine_the_doctor_named_by_its_class():
    sim = patient([{**MEDS, "keywords": ["medication", "medicines", "tablets", "blood thinner"],
                    "answer": "Omeprazole 20 milligrams and apixaban 5 milligrams twice a day."}, STOMACH,
                   {"id": "clot", "topic": "the clot and its treatment", "keywords": ["clot", "DVT"],
                    "answer": "I had a clot in my leg in May. The hospital started the apixaban for six months."},
                   HISTORY])
    sim.answer("Which tablets do you take?")
    assert sim.answer("which one is the blood thinner?").facts == ["medications"]
    # omeprazole "for my stomach" says more of a reason, but the doctor asked of the blood thinner: apixaban
    assert sim.answer("what's that for?").facts == ["clot"]


def test_what_it_is_for_never_a_side_effect_blamed_on_it_and_else_the_history():
    # of the medicines told, only the cough names the ramipril: a side effect, no reason for it
    sim = patient([{**MEDS, "answer": "Just ramipril 5 milligrams in the morning."}, COUGH, HISTORY])
    assert sim.answer("What medicines are you on?").facts == ["medications"]
    assert sim.answer("what's that for?").facts == ["past_history"]


def test_a_part_after_a_dash_that_only_says_when_or_where_is_part_of_the_question():
    assert [q.read for q in read_message("Any pain - when you walk, or in your groin?").questions] == [
        "Any pain when you walk, or in your groin?"]
    assert [q.read for q in read_message("Any swelling - in your ankles?").questions] == [
        "Any swelling in your ankles?"]
    # a question of its own after the dash is still one
    assert len(read_message("tell me about the swelling - when did it start?").questions) == 2
    assert len(read_message("the swelling - when you wake up, is it gone?").questions) == 2


def test_pain_when_walking_is_no_question_of_walking():
    assert patient([PAIN, WALKING]).answer("Any pain - when you walk, or in your groin?").facts == ["pain"]
    assert "walking" in patient([PAIN, WALKING]).answer("How far can you walk?").facts


def test_coming_back_to_it_asks_again_and_names_no_back():
    sim = patient([PAIN, WALKING, {"id": "smoking", "topic": "smoking", "keywords": ["smoke", "smoked"],
                                   "answer": "I gave up ten years ago, 20 a day before that.", "delayed": True}])
    sim.answer("Any pain in your back?")
    assert sim.answer("Sorry to come back to it - have you ever smoked?").facts == ["smoking"]
    assert patient([PAIN, WALKING]).answer("Any back pain?").facts == ["pain"]


KNEES = {"id": "knees", "topic": "knee arthritis", "keywords": ["knees", "knee", "arthritis", "evening", "stiff"],
         "answer": "Arthritis in both knees, stiff in the evening."}


def test_a_question_that_quotes_a_facts_words_is_of_that_fact():
    sim = patient([SWELLING, SLEEP, KNEES])
    sim.answer("When did the swelling start?")
    sim.answer("How do you sleep?")
    # "right up to the knees by the evening" is the swelling's words, not the arthritis keyworded knees and evening
    assert sim.answer("Does it get right up to the knees by the evening?").facts == ["swelling"]


def test_a_question_that_shares_words_only_is_not_drawn_to_the_fact():
    sim = patient([SWELLING, SLEEP, KNEES])
    sim.answer("When did the swelling start?")
    assert sim.answer("Are your knees stiff in the evening?").facts == ["knees"]
    assert patient([SWELLING, SLEEP]).answer("How many pillows do you sleep on at night?").facts == ["sleep"]
