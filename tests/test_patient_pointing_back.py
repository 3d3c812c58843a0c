"""The grounded patient follows a question that points back at what was just said
(scoring.md, "The consultation": a follow-up is about the fact the previous reply gave),
however long it is, and answers it with that fact, never with a "No." of its own."""

from __future__ import annotations

from tests.test_patient_weak_matches import patient

HEADACHE = [
    {"id": "headache", "topic": "headache", "keywords": ["headache", "head"],
     "answer": "A dull throbbing behind my eyes; it comes and goes, worse in the evenings."},
]


def test_a_long_question_that_points_back_and_asks_only_how_is_a_follow_up():
    sim = patient(HEADACHE)
    sim.answer("Any headaches?")
    reply = sim.answer("Would you say that is with you constantly, or is it more on and off through the day?")
    assert reply.facts == ["headache"]


EPISODE = [
    {"id": "earlier_bout", "topic": "an earlier bout like this", "keywords": ["before", "previous", "happened before"],
     "answer": "Last spring I had a bout just like it; it went on for a week and cleared up by itself."},
]


def test_how_long_that_one_lasted_is_about_the_episode_just_told():
    sim = patient(EPISODE)
    assert sim.answer("Has this ever happened before?").facts == ["earlier_bout"]
    assert sim.answer("How long did that one go on for?").facts == ["earlier_bout"]  # not the onset of this one


CONFUSION = [
    {"id": "confusion", "topic": "the confusion", "keywords": ["confusion", "confused", "muddled"],
     "answer": "This only started this morning; she thought it was Sunday."},
    {"id": "medicines", "topic": "her medicines", "keywords": ["medicines", "tablets", "anything new"],
     "answer": "Just her inhalers, nothing new."},
]


def test_how_what_was_just_told_stands_is_of_it_not_of_another_fact_with_the_word():
    sim = patient(CONFUSION)
    assert sim.answer("the confusion - is that new?").facts == ["confusion"]
    assert sim.answer("any new medicines?").facts == ["medicines"]  # asked outright, it is the medicines
