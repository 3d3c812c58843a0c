"""The failure classes of held-out rounds 9 to 14 fixed for brief p19, each held on wording of its own."""

from __future__ import annotations

from tests.test_patient_round8_classes import patient

# -- the whole past history holds a long-term illness a fact of its own tells -------------------

OTHER_HISTORY = {"id": "history", "topic": "other past medical history", "keywords": ["medical history", "conditions"],
                 "answer": "I had my appendix out as a teenager, and I've got an underactive bladder."}
EPILEPSY = {"id": "epilepsy", "topic": "epilepsy and how well it is controlled", "keywords": ["fits", "seizures"],
            "answer": "I've had epilepsy since I was twenty. No fits for three years on the lamotrigine."}


def test_the_whole_history_asked_tells_the_long_term_illness_too():
    assert patient([OTHER_HISTORY, EPILEPSY]).answer("any medical history I should know about?").facts == [
        "history", "epilepsy"]
    assert "epilepsy" in patient([OTHER_HISTORY, EPILEPSY]).answer("what else do you see your GP for?").facts


def test_one_organ_asked_or_the_illness_heard_is_not_the_long_term_illness():
    assert "epilepsy" not in patient([OTHER_HISTORY, EPILEPSY]).answer("any kidney problems?").facts
    assert "epilepsy" not in patient([OTHER_HISTORY, EPILEPSY]).answer("any medical problems in the family?").facts
    sim = patient([OTHER_HISTORY, EPILEPSY])
    assert sim.answer("do you have any seizures?").facts == ["epilepsy"]
    assert sim.answer("any other medical history?").facts == ["history"]


# -- "poorly" is unwell, and "anyone else at home" asks what the people there have ------------------

FLAT = {"id": "flat", "topic": "who lives at home", "keywords": ["home", "live with", "lives with", "family at home"],
        "answer": "I share a flat with my girlfriend and her brother."}
BUG = {"id": "bug", "topic": "others with the same bug", "keywords": ["anyone else", "unwell", "bug", "same thing"],
       "answer": "My girlfriend had the same runs last week, she's better now."}


def test_poorly_is_unwell():
    assert patient([FLAT, BUG]).answer("has anyone you know been poorly?").facts == ["bug"]


def test_anyone_at_home_unwell_is_the_illness_not_the_household():
    assert patient([FLAT, BUG]).answer("anybody else at home been poorly lately?").facts == ["bug"]
    assert patient([FLAT, BUG]).answer("who's at home with you?").facts == ["flat"]


