"""The failure classes of held-out rounds 9 and 10 fixed in round 11, each held on wording of its
own: a time-of-life phrase ("as a child", "in my twenties") says when, not what, so its noun is
no topic of children or family; a low-scoring fact whose story affirms what is asked is said with
doubt, never denied."""

from __future__ import annotations

from medbench_tui.core.simulators import voice
from medbench_tui.core.simulators.lexicon import LIFE_STAGE, units
from tests.test_patient_round8_classes import patient


def test_a_time_of_life_phrase_is_one_unit_of_the_time_not_of_children():
    said = units("I had glandular fever as a teenager and mumps when I was a child")
    assert [u.text for u in said if LIFE_STAGE in u.terms] == ["as a teenager", "when i was a child"]
    assert not any({"child", "teenag"} & u.terms for u in said)


def test_a_question_of_the_children_is_not_the_allergy_had_as_a_child():
    sim = patient([
        {"id": "allergy", "topic": "drug allergies", "keywords": ["allergy", "allergic", "reaction"],
         "answer": "Amoxicillin. I came up in hives as a child."},
        {"id": "family", "topic": "family at home", "keywords": ["home", "family", "children"],
         "answer": "I live with my wife and our two children."},
    ])
    assert "allergy" not in sim.answer("how are the children doing?").facts
    assert sim.answer("are you allergic to any medicines?").facts == ["allergy"]


def test_a_story_that_tells_what_is_asked_is_never_denied():
    sim = patient([
        {"id": "breath", "topic": "chest pain and breathing", "keywords": ["chest pain", "breathless", "faint"],
         "answer": "No chest pain. I get puffed out walking up hills these days."},
        {"id": "heart", "topic": "heart racing", "keywords": ["palpitations", "racing"],
         "answer": "My heart races when I walk up hills, and when I'm lying in bed."},
        {"id": "skin", "topic": "skin", "keywords": ["itch", "eczema"], "answer": "Itchy skin. No rash."},
    ])
    reply = sim.answer("any bother getting out of the bath or walking up hills?")
    assert reply.facts and not voice.is_negative(reply.text)
    assert sim.answer("any rash on your arms?").facts == []
