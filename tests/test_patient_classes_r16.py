"""The failure classes of held-out rounds 9 to 13 fixed in brief p16 (product issue 33), each held on wording
of its own (not the rounds')."""

from __future__ import annotations

from medbench_tui.core.simulators import intent
from tests.test_patient_round8_classes import patient

INHALER = {"id": "inhaler", "topic": "reliever inhaler", "keywords": ["inhaler", "salbutamol", "blue inhaler"],
           "answer": "I use the blue inhaler, about four puffs on a bad day."}


# -- how much of a medicine just told, its name left out ------------------------------------------

def test_how_many_a_day_after_a_medicine_was_told_is_of_that_medicine():
    sim = patient([INHALER])
    assert sim.answer("do you use an inhaler at all?").facts == ["inhaler"]
    reply = sim.answer("how many do you use?")
    assert reply.facts == ["inhaler"] and not reply.text.startswith("I'm not sure")


def test_the_ellipsis_is_read_only_when_the_verb_ends_the_question():
    assert intent.asks_use_of_it("how much do you need a day?")
    assert intent.asks_use_of_it("how often does she take them?")
    assert not intent.asks_use_of_it("how many cigarettes do you smoke?")
    assert not intent.asks_use_of_it("how many do you take of the paracetamol and the codeine each day?")


def test_after_a_fact_of_no_medicine_how_many_is_no_medicine_follow_up():
    sim = patient([INHALER])
    assert sim.answer("do you smoke?").facts == ["smoking"]
    assert "inhaler" not in sim.answer("how many do you take?").facts
