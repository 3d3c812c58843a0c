"""Simulated-patient failure classes of brief p72 (issue 33), each held on wording and topics of its own (not the
rounds' cases): a symptom of a part is not every symptom of that part."""

from __future__ import annotations

from tests.test_patient_round8_classes import patient

# -- 1. a symptom of a part is not every symptom of that part --------------------------------------------------------

THROAT = [
    {"id": "throat_pain", "topic": "sore throat (pertinent negative)", "keywords": ["sore throat", "throat", "tonsils"],
     "answer": "My throat hasn't been sore at all."},
    {"id": "reflux", "topic": "heartburn", "keywords": ["heartburn", "acid", "indigestion"],
     "answer": "I get heartburn after big meals, most evenings."},
]


def test_a_voice_question_is_not_answered_by_the_sore_throat():
    """'hoarse'/'voice' are a symptom of the throat, not the throat: a sore-throat fact does not answer them."""
    sim = patient(THROAT)
    for question in ("Has your voice gone croaky?", "Any hoarseness?", "Is your voice different at all?"):
        assert "throat_pain" not in sim.answer(question).facts, question


def test_the_throat_itself_still_gets_the_sore_throat_fact():
    sim = patient(THROAT)
    assert sim.answer("Any sore throat?").facts == ["throat_pain"]
    assert patient(THROAT).answer("How's your throat been?").facts == ["throat_pain"]


def test_a_fact_of_the_voice_answers_a_voice_question_in_other_words():
    facts = [*THROAT, {"id": "voice", "topic": "voice change", "keywords": ["voice", "hoarse"],
                       "answer": "My voice has been rough and croaky for about a month, since the cold."}]
    assert patient(facts).answer("Any hoarseness?").facts == ["voice"]
    assert patient(facts).answer("Has your voice changed?").facts == ["voice"]
    assert "voice" not in patient(facts).answer("Any sore throat?").facts


def test_swallowing_is_a_symptom_of_its_own_beside_a_look_at_the_throat():
    """A question of what the throat looks like is not the swallowing, nor the swallowing a sore throat's denial."""
    facts = [{"id": "swallow", "topic": "swallowing", "keywords": ["swallow", "swallowing", "food sticking"],
              "answer": "Bread sticks halfway down when I swallow."},
             {"id": "look", "topic": "what the throat looks like", "keywords": ["look", "white patches", "tonsils"],
              "answer": "I looked in the mirror and saw white patches on my tonsils."}]
    assert patient(facts).answer("Any difficulty swallowing?").facts == ["swallow"]
    assert "swallow" not in patient(facts).answer("Did you look at your throat - any white patches?").facts
    assert "swallow" not in patient(THROAT + facts).answer("Has your voice gone hoarse?").facts
