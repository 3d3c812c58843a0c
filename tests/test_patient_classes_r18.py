"""The failure classes of held-out rounds 14, 9 and 12 fixed for brief p18, each held on wording of its own."""

from __future__ import annotations

from tests.test_patient_round8_classes import patient

# -- what something is for ---------------------------------------------------------------------

HISTORY = {"id": "history", "topic": "other medical problems", "keywords": ["medical history", "conditions"],
           "answer": "I had a stent put in five years ago and I carry a GTN spray in my coat."}


def test_a_question_of_what_a_thing_only_one_fact_names_is_for_gets_that_fact():
    sim = patient([HISTORY])
    assert sim.answer("what's the GTN spray for?").facts == ["history"]
    assert patient([HISTORY]).answer("and what is the stent for?").facts == ["history"]


def test_what_for_of_a_thing_no_fact_names_gets_no_fact():
    assert patient([HISTORY]).answer("what's the walking stick for?").facts == []
    assert patient([HISTORY]).answer("what are you here for?").facts == []
