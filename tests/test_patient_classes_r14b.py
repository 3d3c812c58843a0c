"""The failure classes of held-out round 13 fixed for round 14 (brief p13), each held on wording of its own."""

from __future__ import annotations

from medbench_tui.core.simulators import voice
from tests.test_patient_round8_classes import patient

SIGHT = {"id": "sight", "topic": "eyesight", "keywords": ["vision", "eyesight", "blurred", "double vision"],
         "answer": "My eyesight is fine, no blurring or double vision."}


# -- a repeat is a repeat of what is asked ------------------------------------------------------

def test_a_follow_up_whose_own_words_find_another_heard_fact_does_not_say_it_again():
    sim = patient([SIGHT])
    assert sim.answer("when did it all start?").facts == ["onset"]
    assert sim.answer("any problems with your vision?").facts == ["sight"]
    reply = sim.answer("how long since you last saw the physio?")
    assert reply.facts == [] and "As I said" not in reply.text


def test_a_follow_up_on_the_fact_just_told_still_gets_it_again():
    sim = patient([SIGHT])
    assert sim.answer("any problems with your vision?").facts == ["sight"]
    assert sim.answer("is that blurred vision in both eyes?").facts == ["sight"]
    assert not voice.is_negative(sim.answer("how long has it been like that?").text)

