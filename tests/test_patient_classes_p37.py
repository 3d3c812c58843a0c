"""The failure classes of held-out round 22 fixed (a relative asked about; a lay synonym of a
phrase the record says in other words), each held on wording of its own."""

from __future__ import annotations

from tests.test_patient_round8_classes import patient

# -- a question about a relative the record names -------------------------------------------------

SLEEP = {"id": "sleep", "topic": "sleep", "keywords": ["sleep", "sleeping", "tired"],
         "answer": "I'm up three or four times a night. My wife has noticed I'm snappy."}
FAMILY = {"id": "family", "topic": "family history",
          "keywords": ["family", "mum", "brother", "uncle", "runs in the family"],
          "answer": "My mum had gout in her big toe. My uncle on my dad's side has kidney disease. My brother's fine."}
HOUSE = {"id": "house", "topic": "the house", "keywords": ["house", "home", "damp", "stairs"],
         "answer": "It's a terraced house with the bathroom upstairs, no damp that I've seen."}
HOUSEHOLD = {"id": "household", "topic": "who lives at home", "keywords": ["live with", "home", "wife", "kids"],
             "answer": "I live with my wife and our two kids."}


def test_a_relative_only_witnessing_the_patients_fact_does_not_answer_of_that_relative():
    sim = patient([SLEEP, FAMILY])
    assert sim.answer("Is your wife well herself?").facts == []  # "My wife has noticed": of the patient


def test_the_patients_own_fact_naming_the_relative_still_answers_of_the_patient():
    sim = patient([SLEEP, FAMILY])
    assert sim.answer("How are you sleeping?").facts == ["sleep"]


def test_words_that_say_which_relative_are_not_what_is_asked_of_them():
    sim = patient([SLEEP, FAMILY])
    reply = sim.answer("Does your uncle with kidney disease get any headaches?")
    assert reply.facts == [] and reply.kind != "clarification"  # the default: nothing said of his headaches


def test_a_relatives_fact_that_says_what_is_asked_still_answers():
    sim = patient([SLEEP, FAMILY])
    assert sim.answer("Has your uncle on your dad's side got kidney disease?").facts == ["family"]
    assert sim.answer("Has your mum had gout?").facts == ["family"]


def test_how_old_a_relative_was_needs_an_age_the_record_does_not_give():
    sim = patient([SLEEP, FAMILY])
    assert "family" not in sim.answer("how old was your mum when her gout started?").facts


def test_people_at_home_are_answered_by_who_lives_there_never_by_the_house():
    assert "house" not in patient([SLEEP, HOUSE]).answer("Any children at home?").facts
    assert patient([SLEEP, HOUSE, HOUSEHOLD]).answer("Any kids at home?").facts == ["household"]


def test_what_is_at_home_is_still_the_house():
    assert patient([SLEEP, HOUSE]).answer("Any damp at home?").facts == ["house"]


# -- a lay synonym of a phrase the record says in other words ----------------------------------

EYES = {"id": "eyes", "topic": "tiredness and look", "keywords": ["tired", "washed out", "rings under eyes"],
        "answer": "He looks washed out and has dark rings under his eyes."}
WHEEZE = {"id": "wheeze", "topic": "wheeze", "keywords": ["wheeze", "chest tight"],
          "answer": "Whistly when he breathes out, worse at night."}


def test_a_lay_synonym_of_the_records_phrase_finds_the_fact_not_a_denial():
    sim = patient([EYES, WHEEZE])
    reply = sim.answer("Has he had shadows under his eyes?")
    assert reply.facts == ["eyes"]


def test_a_phrase_the_answer_does_not_say_is_not_matched_through_a_keyword_alone():
    sim = patient([EYES, WHEEZE])
    assert "wheeze" not in sim.answer("Any chest pain?").facts  # "chest tight" of a wheeze is no chest pain


def test_another_thing_under_the_eyes_is_not_the_dark_rings():
    sim = patient([EYES, WHEEZE])
    assert "eyes" not in sim.answer("Any puffiness or swelling of his eyelids?").facts
