"""The failure classes of held-out rounds 14, 9 and 12 fixed, each held on wording of its own."""

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


# -- "at home" after something else asked is where, not who lives there -------------------------

HOUSEHOLD = {"id": "household", "topic": "who lives at home", "keywords": ["home", "lives with", "live with"],
             "answer": "I live with my wife and our two teenage boys."}
PEAK_FLOW = {"id": "peak_flow", "topic": "peak flow readings", "keywords": ["peak flow", "readings"],
             "answer": "My peak flow's been about 300, I'm normally 450."}
TRIED = {"id": "tried", "topic": "what his wife tried at home", "keywords": ["tried", "at home", "done for it"],
         "answer": "My wife made me sit up by the open window with a fan on."}


def test_a_reading_taken_at_home_is_not_the_household():
    assert patient([HOUSEHOLD, PEAK_FLOW]).answer("peak flows at home?").facts == ["peak_flow"]
    assert "household" not in patient([HOUSEHOLD]).answer("how are you coping at home?").facts


def test_people_at_home_and_what_was_done_at_home_still_answer():
    assert patient([HOUSEHOLD, PEAK_FLOW]).answer("who's at home with you?").facts == ["household"]
    assert patient([HOUSEHOLD, TRIED]).answer("have you tried anything at home?").facts == ["tried"]


# -- of two facts that fit as well, the one whose topic is asked --------------------------------

WHERE = {"id": "where", "topic": "where the pain is and where it goes", "keywords": ["where", "spread", "jaw", "arm"],
         "answer": "Across the middle of my chest, and it goes into my left arm."}
JAW = {"id": "jaw", "topic": "jaw pain and toothache", "keywords": ["jaw", "teeth", "toothache", "dentist"],
       "answer": "No jaw pain, and my teeth are fine."}


def test_a_fact_whose_topic_is_the_pain_asked_answers_before_one_whose_keywords_list_its_part():
    assert patient([WHERE, JAW]).answer("any jaw pain?").facts == ["jaw"]
    assert patient([JAW, WHERE]).answer("any jaw pain?").facts == ["jaw"]
    assert patient([WHERE, JAW]).answer("where is the pain?").facts[0] == "where"


# -- where or with whom, one or the other --------------------------------------------------------


def test_a_choice_of_where_or_with_whom_is_not_denied():
    from medbench_tui.core.simulators import intent

    assert intent.offers_choice("does she sleep in a cot or in with you?")
    assert intent.offers_choice("do you live alone or with family?")
    assert not intent.offers_choice("do you get chest pain or palpitations?")
    reply = patient([]).answer("do you live on your own or with someone?")
    assert reply.facts == [] and not reply.text.startswith("No")


# -- eating and drinking asked together is food and fluids, not alcohol ---------------------------

INTAKE = {"id": "intake", "topic": "eating and drinking today", "keywords": ["eating", "food", "meal"],
          "answer": "Just a slice of toast at breakfast and a glass of water at lunchtime."}


def test_eating_and_drinking_asked_together_is_not_the_alcohol():
    assert "alcohol" not in patient([]).answer("have you had anything to eat or drink today?").facts
    assert patient([INTAKE]).answer("what have you had to eat and drink today?").facts == ["intake"]
    assert patient([]).answer("how much beer do you drink?").facts == ["alcohol"]
