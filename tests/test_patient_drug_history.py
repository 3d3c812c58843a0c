"""The drug history as clinicians take it (scoring.md, "The consultation": the patient answers
what is asked from the record): a drug the medicines answer names is asked by its name alone
("are you on ramipril?", "how many mg of ramipril?") and is never denied; "regular" of the
medicines one takes is no steady heartbeat; and an alternative of a list that another fact
answers is told even when the first fact is already in the reply. Water tablets are a medicine,
and "is this a heart attack, do you think?" asks for a diagnosis the patient cannot give."""

from __future__ import annotations

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator, intent, voice
from medbench_tui.core.simulators.lexicon import sentences
from tests.test_consultation import fixture_case

INTRO = "Doctor, my heart has been racing and fluttering for three weeks."
FACTS = [
    {"id": "rhythm", "topic": "character of the palpitations",
     "keywords": ["describe", "fast", "irregular", "regular", "rhythm", "fluttering"],
     "answer": "Fast and all over the place. Not a steady beat."},
    {"id": "medications", "topic": "current medications",
     "keywords": ["medication", "medicines", "tablets", "taking", "blood thinners", "aspirin"],
     "answer": "Bisoprolol 2.5 mg in the morning. No blood thinners, no aspirin."},
    {"id": "allergies", "topic": "allergies", "keywords": ["allergies", "allergic", "reaction"],
     "answer": "No allergies."},
    {"id": "work", "topic": "occupation", "keywords": ["work", "job"], "answer": "I'm a retired teacher."},
]


def patient() -> GroundedSimulator:
    return GroundedSimulator(patient_record(fixture_case(intro=INTRO, additional_answers=FACTS)))


def test_a_drug_the_medicines_answer_names_is_that_answer():
    for question in ("are you on bisoprolol?", "bisoprolol?", "how many mg of bisoprolol?", "how much bisoprolol?",
                     "do you still take the bisoprolol?", "are you on bisoprolil?"):
        reply = patient().answer(question)
        assert reply.facts == ["medications"], question


def test_a_drug_the_record_does_not_name_gets_the_default():
    reply = patient().answer("are you on warfarin?")
    assert reply.facts == [] and reply.text in voice.DEFAULT_ANSWERS["negative"]


def test_regular_medicines_are_the_usual_ones_not_a_regular_heartbeat():
    for question in ("any regular meds?", "are you on any regular medication?", "what do you take regularly?",
                     "do you take any tablets regularly?"):
        assert patient().answer(question).facts == ["medications"], question
    assert patient().answer("is your heartbeat regular?").facts == ["rhythm"]


def test_an_alternative_another_fact_answers_is_told_after_the_first():
    reply = patient().answer("PMH? any meds or allergies? and what do you do for work?")
    assert reply.facts == ["medications", "allergies", "work"]


def test_an_alternative_the_reply_already_answers_adds_nothing():
    reply = patient().answer("what meds are you on - any tablets or blood thinners?")
    assert reply.facts == ["medications"]


def test_water_tablets_are_a_medicine_not_passing_water():
    facts = [*FACTS, {"id": "urine", "topic": "passing urine", "keywords": ["urine", "wee", "passing water"],
                      "answer": "I'm up twice a night to wee."}]
    sim = GroundedSimulator(patient_record(fixture_case(intro=INTRO, additional_answers=facts)))
    assert sim.answer("any water tablets?").facts == ["medications"]
    assert sim.answer("are you passing more water?").facts == ["urine"]


def test_a_diagnosis_asked_with_a_tag_is_a_diagnosis_question():
    for question in ("is this a heart attack do u think?", "is it my heart, do you think?",
                     "do u think its a chest infection?"):
        assert intent.kind_of(question) == "diagnosis", question
    assert intent.kind_of("how much do you think you drink?") != "diagnosis"


def test_a_dose_in_milligrams_is_a_dose_in_mg():
    facts = [FACTS[0], {"id": "medications", "topic": "current medications", "keywords": ["medication", "tablets"],
                        "answer": "Just amlodipine for my blood pressure."},
             {"id": "sildenafil", "topic": "erectile dysfunction medicine taken recently",
              "keywords": ["sildenafil", "viagra"],
              "answer": "I took one sildenafil last night, the 50 milligram one."}]
    sim = GroundedSimulator(patient_record(fixture_case(intro=INTRO, additional_answers=facts)))
    assert sim.answer("any viagra?").facts == ["sildenafil"]
    assert sim.answer("sorry how many mg was it again?").facts == ["sildenafil"]


def test_a_medicine_just_told_is_what_still_and_how_often_ask_of():
    facts = [*FACTS[:1], {"id": "medications", "topic": "current medications", "keywords": ["medication", "cream"],
                          "answer": "No regular tablets. Just a cream from the chemist."},
             {"id": "urine", "topic": "passing urine", "keywords": ["wee", "how often"],
              "answer": "I'm up three times a night to wee."}]
    sim = GroundedSimulator(patient_record(fixture_case(intro=INTRO, additional_answers=facts)))
    assert sim.answer("what cream is it?").facts == ["medications"]
    assert sim.answer("still using it?").facts == ["medications"]
    reply = sim.answer("how often do u put it on?")
    assert reply.facts == [] and reply.text in voice.DEFAULT_ANSWERS["uncertain"]
    assert not intent.asks_use_of_it("is the pain still on the left?")


def test_beside_the_medicines_a_question_of_something_the_record_never_names_gets_its_default():
    reply = patient().answer("what tablets are you on? do you use a spacer with your inhaler?")
    assert reply.facts == ["medications"]
    assert reply.text.endswith("spacer.") and voice.is_default_for(sentences(reply.text)[-1]), reply.text
    reply = patient().answer("SH - what do you do for work?")
    assert reply.facts == ["work"] and reply.text == "I'm a retired teacher."  # a heading adds no default


def test_a_dose_asked_without_an_apostrophe_is_a_dose_question():
    facts = [FACTS[0], {"id": "medications", "topic": "current medications", "keywords": ["medication", "tablets"],
                        "answer": "Just amlodipine for my blood pressure."}]
    sim = GroundedSimulator(patient_record(fixture_case(intro=INTRO, additional_answers=facts)))
    reply = sim.answer("whats the dose of the amlodipine?")
    assert reply.facts == [] and reply.text in voice.DEFAULT_ANSWERS["uncertain"]
