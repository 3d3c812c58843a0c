"""The failure classes of round 21's patient (issue 33) fixed for brief p32: everyone the question asks about, and
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
