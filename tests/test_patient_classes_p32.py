"""The failure classes of round 21's patient (issue 33) fixed: everyone the question asks about, and
follow-ups about that person. Each is held on wording and topics of its own (not the round's cases), with negative
tests."""

from __future__ import annotations

import copy

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator, intent
from tests.test_consultation import fixture_case


def own(facts: list[dict], **changes) -> GroundedSimulator:
    """A patient whose record holds only these facts (not the fixture's medicines)."""
    return GroundedSimulator(patient_record(fixture_case(additional_answers=copy.deepcopy(facts), **changes)))


# -- 1. everyone else at home who has it ------------------------------------------------------------------------------

HOUSE = [
    {"id": "cough", "topic": "the cough", "keywords": ["cough", "coughing", "how long", "when", "start"],
     "answer": "A dry cough for about a week, worse at night."},
    {"id": "wife", "topic": "wife's symptoms", "keywords": ["wife", "Priya", "anyone else", "household"],
     "answer": "Priya, my wife, has been coughing since Sunday."},
    {"id": "son", "topic": "son's symptoms", "keywords": ["son", "kids", "Arlo", "anyone else", "household"],
     "answer": "Our son Arlo, he's 6, has a cough and a runny nose. He's at school four days a week."},
    {"id": "lodger", "topic": "the lodger", "keywords": ["lodger", "anyone else", "household"],
     "answer": "Our lodger Tom broke his wrist last month, otherwise he's fine."},
    {"id": "fever", "topic": "fever", "keywords": ["fever", "temperature", "hot"],
     "answer": "I've had a fever of 38 on and off."},
    {"id": "pmh", "topic": "past medical history", "keywords": ["medical history", "health problems", "asthma"],
     "answer": "Mild asthma as a teenager, nothing since."},
]


def test_everyone_else_at_home_who_has_it_answers():
    for question in ("Is anyone else at home coughing?", "has anyone else at home got a cough?",
                     "anyone else in the house coughing?"):
        facts = own(HOUSE).answer(question).facts
        assert sorted(facts) == ["son", "wife"], (question, facts)


def test_someone_at_home_with_something_else_or_the_patient_does_not_join():
    facts = own(HOUSE).answer("Is anyone else at home coughing?").facts
    assert "lodger" not in facts and "cough" not in facts
    assert own(HOUSE).answer("Has your wife got a cough?").facts == ["wife"]
    assert own(HOUSE).answer("Is anyone else at home vomiting?").facts == []


def test_scratching_at_the_skin_is_itching_a_scratch_is_not():
    facts = [
        {"id": "rash", "topic": "the rash", "keywords": ["rash", "spots"], "answer": "Red spots on my shins."},
        {"id": "niece", "topic": "niece's symptoms", "keywords": ["niece", "anyone else", "household"],
         "answer": "My niece Leah stays with us; she keeps scratching at her ankles."},
        {"id": "cat", "topic": "the cat", "keywords": ["cat", "pets", "anyone else", "household"],
         "answer": "Our cat gave my nephew a scratch on his arm last week."},
    ]
    assert own(facts).answer("anyone else at home itchy?").facts == ["niece"]
    assert own(facts).answer("is anyone else itchy?").facts == ["niece"]


# -- 3. a question about a person the record names --------------------------------------------------------------------

def test_a_name_leading_a_sentence_is_a_person_when_a_keyword_lists_it():
    assert intent.names_leading("Priya, my wife, has been coughing.") == {"priya"}
    assert intent.names_leading("Bilal says I wheeze at night.") == {"bilal"}
    assert intent.names_leading("Mum says I wheeze at night.") == frozenset()
    assert intent.names_leading("Mornings are the worst. Nights too.") == frozenset()
    sim = own(HOUSE)
    assert {"priya", "arlo"} <= sim.matcher.record_names


def test_what_a_named_person_had_is_never_the_patients_own_fact():
    for question in ("Has Priya ever had asthma?", "Does Priya have any health problems herself?"):
        reply = own(HOUSE).answer(question)
        assert "pmh" not in reply.facts and "cough" not in reply.facts, (question, reply.facts)
    assert own(HOUSE).answer("Have you ever had asthma?").facts == ["pmh"]


def test_a_named_persons_own_fact_still_answers():
    assert own(HOUSE).answer("When did Priya start coughing?").facts == ["wife"]
    assert own(HOUSE).answer("How old is Arlo?").facts == ["son"]
    assert own(HOUSE).answer("How old is Priya?").facts == []  # her fact gives no age


# -- 2. a follow-up of a person named by a pronoun --------------------------------------------------------------------

def test_a_pronoun_is_the_last_person_told_of_whom_it_fits():
    sim = own(HOUSE)
    assert sorted(sim.answer("Is anyone else at home coughing?").facts) == ["son", "wife"]
    assert sim.answer("when did she start?").facts == ["wife"]
    assert sim.answer("and how old is he?").facts == ["son"]  # the son, told before her


def test_a_pronoun_of_a_person_never_gets_another_persons_fact_or_the_patients_age():
    sim = own(HOUSE)
    sim.answer("Is anyone else at home coughing?")
    sim.answer("when did she start?")
    reply = sim.answer("how old is she?")  # her fact gives no age
    assert reply.facts == [] and "54" not in reply.text, reply.text
    assert sim.answer("does he have a fever?").facts == []  # the son's fact is silent on it: not the patient's


def test_a_pronoun_after_a_reply_of_something_else_is_left_alone():
    sim = own(HOUSE)
    sim.answer("Is anyone else at home coughing?")
    sim.answer("Any past medical history?")
    assert sim.answer("how old were you when she was born?").facts != ["wife"]


def test_an_age_is_said_in_several_ways_a_clock_time_is_none():
    from medbench_tui.core.simulators.matcher import SAYS_AN_AGE
    for text in ("Our son Arlo, he's 6, has a cough.", "My uncle had a heart attack at sixty-two.",
                 "Her gran got it in her eighties.", "It started when she was 40.", "My dad is 79 and well."):
        assert SAYS_AN_AGE.search(text), text
    for text in ("It came on at 3 o'clock.", "I took it at 8.30 this morning.", "He has a cough."):
        assert not SAYS_AN_AGE.search(text), text


# -- 4. a bare follow-up is of the thing just told ---------------------------------------------------------------------

CHEST = [
    {"id": "onset", "topic": "onset of the cough", "keywords": ["when", "start", "started", "how long", "began"],
     "answer": "The cough started ten days ago, after a cold."},
    {"id": "numb", "topic": "numbness and tingling in the hand", "keywords": ["tingling", "numb", "numbness", "hand"],
     "answer": "Tingling in my left hand and fingers started about two weeks ago."},
    {"id": "phlegm", "topic": "blood in the phlegm", "keywords": ["blood", "phlegm", "sputum", "haemoptysis"],
     "answer": "There have been streaks of blood in the phlegm for about three weeks."},
    {"id": "smoking", "topic": "smoking", "keywords": ["smoke", "smoking", "cigarettes"],
     "answer": "I smoke about ten a day."},
    {"id": "meds", "topic": "regular medicines", "keywords": ["medicines", "meds", "tablets", "medication"],
     "answer": "Amlodipine for five years, atorvastatin for two, and aspirin, which I started in March."},
]


def test_when_it_started_after_a_symptom_told_with_its_start_is_that_symptom():
    sim = own(CHEST)
    assert sim.answer("Tell me about the tingling - where is it?").facts == ["numb"]
    assert sim.answer("when did it start?").facts == ["numb"]


def test_when_it_started_after_something_not_a_symptom_is_still_the_illness():
    sim = own(CHEST)
    assert sim.answer("Do you smoke?").facts == ["smoking"]
    assert sim.answer("when did it start?").facts == ["onset"]


def test_how_long_that_has_gone_on_after_a_symptom_told_with_how_long_is_that_symptom():
    sim = own(CHEST)
    assert sim.answer("Any blood when you cough up phlegm?").facts == ["phlegm"]
    assert sim.answer("how long has that been going on?").facts == ["phlegm"]


def test_which_one_after_a_list_is_that_list_not_after_one_thing():
    sim = own(CHEST)
    assert sim.answer("What tablets are you on?").facts == ["meds"]
    assert sim.answer("which one was most recent?").facts == ["meds"]
    sim = own(CHEST)
    assert sim.answer("Do you smoke?").facts == ["smoking"]
    assert sim.answer("which one was most recent?").facts == []
