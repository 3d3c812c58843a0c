"""The failure classes of held-out round 22 fixed (issue 33), each held on wording and topics of its
own (not the round's cases), with negative tests: a fragment follow-up asks the aspect it names of the thing just
told (the side, a time of day, where, which thing), from the fact that says it."""

from __future__ import annotations

from tests.test_patient_round8_classes import patient

FACTS = [
    {"id": "dvt", "topic": "previous clot", "keywords": ["clot", "DVT", "blood clot", "thrombosis"],
     "answer": "A clot in 2018, right leg. I was on tablets for three months."},
    {"id": "family", "topic": "family history", "keywords": ["family", "mum", "dad", "brother", "runs in the family"],
     "answer": "Dad had a clot after his hip operation. My brother's fine."},
    {"id": "cough", "topic": "cough", "keywords": ["cough", "coughing"],
     "answer": "The cough is worst late in the evening, after I lie down."},
    {"id": "rash", "topic": "the rash", "keywords": ["rash", "spots", "where"],
     "answer": "Spots on my tummy and my back, never on my face."},
    {"id": "ear", "topic": "ear infection", "keywords": ["ear", "earache", "infection"],
     "answer": "Last winter my left ear got infected; the walk-in centre gave me antibiotic drops and it cleared."},
    {"id": "onset", "topic": "onset", "keywords": ["when", "start", "started", "how long"],
     "answer": "It started about three weeks ago."},
]


def test_which_side_of_several_facts_just_told_is_the_one_that_says_a_side():
    sim = patient(FACTS)
    sim.answer("any history of clots, you or the family?")
    assert sim.answer("which side?").facts == ["dvt"]


def test_what_time_after_a_time_of_day_is_that_fact():
    sim = patient(FACTS)
    assert sim.answer("how's the cough?").facts == ["cough"]
    assert sim.answer("what time?").facts == ["cough"]


def test_what_time_after_a_fact_with_no_time_is_not_that_fact():
    sim = patient(FACTS)
    sim.answer("where's the rash?")
    assert "rash" not in sim.answer("what time?").facts


def test_a_fragment_the_fact_just_told_says_is_that_fact():
    sim = patient(FACTS)
    assert sim.answer("where's the rash?").facts == ["rash"]
    assert sim.answer("on your face?").facts == ["rash"]


def test_a_fragment_the_fact_just_told_does_not_say_is_not_that_fact():
    sim = patient(FACTS)
    sim.answer("where's the rash?")
    assert "rash" not in sim.answer("on your feet?").facts


def test_which_thing_it_was_is_the_fact_that_names_it():
    sim = patient(FACTS)
    assert sim.answer("any ear infections?").facts == ["ear"]
    assert sim.answer("which drops were they, do you remember?").facts == ["ear"]


def test_which_thing_the_fact_just_told_does_not_name_is_not_that_fact():
    sim = patient(FACTS)
    sim.answer("any ear infections?")
    assert "ear" not in sim.answer("which tablets were they?").facts
