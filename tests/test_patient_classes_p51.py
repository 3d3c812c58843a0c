"""The failure classes of held-out round 25 fixed (issue 33): what a question asks of (its head) must be
what the fact is about, not a word it only shares with it: whose (one of the patient's people, "either of your
daughters"), what is done with a thing ("checked", "procedures"), a part of the body said as where something else is
("her eyes aren't yellow" is no eyesight). Held on wording and topics of their own (not the round's cases), with
negative tests: a fact about the head still answers."""

from __future__ import annotations

from tests.test_patient_round8_classes import patient

HOME = {"id": "home", "topic": "who lives at home", "keywords": ["live", "home", "husband", "daughters"],
        "answer": "I live with my husband. Two daughters, both at university."}
VAPING = {"id": "vaping", "topic": "vaping", "keywords": ["vape", "vaping", "e-cigarettes"],
          "answer": "I vape most days, menthol ones."}
FAMILY = {"id": "family_history", "topic": "family history", "keywords": ["family", "father", "dad", "smoked"],
          "answer": "Dad smoked 20 a day and had a heart attack at 60."}
KIDNEYS = {"id": "kidneys", "topic": "kidney function and previous tests",
           "keywords": ["kidney", "creatinine", "checked"],
           "answer": "The GP did a kidney blood test last year and said it was fine."}
HISTORY = {"id": "past_history", "topic": "past medical and surgical history",
           "keywords": ["medical history", "operations", "surgery", "thyroid"],
           "answer": "An underactive thyroid, on levothyroxine. I had my gallbladder out in 2015."}
JOB = {"id": "occupation", "topic": "occupation", "keywords": ["work", "job"],
       "answer": "I work in a call centre, mostly sitting down."}
SKIN = {"id": "skin_colour", "topic": "skin and eye colour (pertinent negative)",
        "keywords": ["yellow", "jaundice", "pale"],
        "answer": "No, his skin and his eyes aren't yellow."}
BLURRED = {"id": "vision", "topic": "visual symptoms", "keywords": ["blurred", "double vision"],
           "answer": "Things have been blurred in the left eye since Monday."}


def test_a_person_beside_what_is_asked_of_them_is_whose_not_what():
    # "do either of your daughters ...": what the daughters do is asked, not who lives at home
    assert patient([HOME, VAPING]).answer("Do either of your daughters smoke?").facts == []
    assert patient([HOME, VAPING]).answer("Does either of your daughters vape?").facts == []
    assert patient([HOME, VAPING]).answer("Do any of your daughters drink?").facts == []


def test_a_fact_about_the_person_and_the_head_still_answers():
    assert patient([HOME, VAPING, FAMILY]).answer("Does your dad smoke?").facts == ["family_history"]
    assert patient([HOME, VAPING]).answer("Do you vape?").facts == ["vaping"]
    assert "home" in patient([HOME, VAPING]).answer("Who lives with you at home?").facts


def test_a_word_of_what_is_done_with_a_thing_is_not_the_thing():
    # the kidney fact is keyworded "checked": it says nothing of the thyroid asked of
    assert patient([KIDNEYS, HISTORY]).answer("Have you had your iron levels checked lately?").facts == []
    assert patient([KIDNEYS, JOB]).answer("Have you had your eyes checked recently?").facts == []
    # "procedures" of her operation: not when the question asks of another kind of procedure
    assert patient([HISTORY, JOB]).answer("Any recent dental work or procedures?").facts == []


def test_the_thing_checked_or_a_procedure_asked_alone_still_finds_its_fact():
    assert patient([KIDNEYS, HISTORY]).answer("Have your kidneys been checked?").facts == ["kidneys"]
    assert patient([KIDNEYS, HISTORY]).answer("Have you had your kidney function checked?").facts == ["kidneys"]
    assert patient([HISTORY, JOB]).answer("Any operations?").facts == ["past_history"]
    assert patient([HISTORY, JOB]).answer("Any recent procedures?").facts == ["past_history"]
    assert patient([HISTORY, JOB]).answer("What do you do for work?").facts == ["occupation"]


def test_a_part_said_as_where_something_else_is_is_not_its_working():
    # "his eyes aren't yellow" names the eyes as where a colour is, not his sight
    reply = patient([SKIN]).answer("Any problems with his eyesight?")
    assert reply.facts == []
    assert "yellow" not in reply.text
    assert patient([SKIN]).answer("How's his vision been?").facts == []


def test_a_fact_that_says_the_working_still_answers():
    assert patient([SKIN, BLURRED]).answer("Any problems with your vision?").facts == ["vision"]
    assert patient([SKIN, BLURRED]).answer("How's your eyesight?").facts == ["vision"]
    # the part itself asked of: every fact that names it may answer
    assert "skin_colour" in patient([SKIN]).answer("Any problems with his eyes?").facts
