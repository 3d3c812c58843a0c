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
