"""The failure classes of held-out round 15 fixed, each held on wording of its own."""

from __future__ import annotations

from medbench_tui.core.simulators import intent
from medbench_tui.core.simulators.question import read_message
from tests.test_patient_round8_classes import patient

# -- an aside that the question is asked of everyone ---------------------------------------------

GAMBLING = {"id": "gambling", "topic": "gambling", "keywords": ["gambling", "betting", "bets", "casino"],
            "answer": "I put a lot on the horses most weekends, more than I can afford."}
DRINK = {"id": "coffee", "topic": "caffeine", "keywords": ["coffee", "caffeine", "cups", "energy drinks"],
         "answer": "Six or seven cups of coffee a day."}


def test_an_aside_breaking_into_a_question_leaves_one_question_of_what_its_first_half_names():
    read = read_message("and the betting you mentioned - we ask everybody this - is it every week?")
    assert [q.written for q in read.questions] == ["and the betting you mentioned, is it every week?"]
    sim = patient([GAMBLING, DRINK])
    reply = sim.answer("and betting on things - I ask all my patients - is that something you do?")
    assert reply.facts == ["gambling"]


def test_an_aside_before_a_question_asks_nothing_itself():
    read = read_message("it's a routine question. how many cups of coffee a day?")
    assert [q.written for q in read.questions] == ["how many cups of coffee a day?"]
    assert patient([GAMBLING, DRINK]).answer("I ask everyone this - how many cups of coffee?").facts == ["coffee"]


def test_saying_a_question_is_routine_with_nothing_after_it_stays_as_written():
    assert [q.written for q in read_message("I ask everyone this").questions] == ["I ask everyone this"]


# -- a kind word about someone of the patient's ------------------------------------------------

SON = {"id": "family", "topic": "home and family", "keywords": ["son", "husband", "lives with", "family"],
       "answer": "My son was killed in a car crash last year; I live with my husband."}


def test_being_sorry_about_someone_of_the_patients_is_a_kind_word_not_a_question():
    sim = patient([SON])
    assert sim.answer("I'm so sorry about your son, that must be awful.").facts == []
    assert patient([SON]).answer("sorry for your loss.").facts == []
    assert patient([SON]).answer("who lives with you at home?").facts == ["family"]


# -- the doctor's likely diagnosis put with a tag asking agreement ----------------------------

def test_a_likely_diagnosis_put_for_agreement_is_a_diagnosis_not_a_yes_or_no():
    assert intent.kind_of("so it's most likely shingles after the chemo, would you agree?") == "diagnosis"
    assert intent.kind_of("it's probably a tension headache, don't you think?") == "diagnosis"
    assert intent.kind_of("so it's worse in the evenings, would you agree?") == "yesno"  # how it is, not what


def test_the_patient_does_not_deny_a_likely_diagnosis():
    reply = patient([GAMBLING]).answer("so it's most likely a gambling addiction, would you agree?")
    assert not reply.text.lower().startswith("no")


# -- a question of what is eaten asks of the diet ----------------------------------------------

DIET = {"id": "diet", "topic": "diet", "keywords": ["diet", "eat", "food", "meals", "vegetarian"],
        "answer": "She's vegan, mostly pasta and beans."}
APPETITE = {"id": "appetite", "topic": "appetite and weight", "keywords": ["appetite", "eating", "hungry", "weight"],
            "answer": "She's hardly eating and her clothes are loose."}


def test_a_question_of_what_is_eaten_gets_the_diet_not_the_appetite():
    assert patient([APPETITE, DIET]).answer("what does she eat on a normal day?").facts == ["diet"]
    assert intent.attribute_asked("how is she eating?") == frozenset()  # how much, maybe: no attribute asked


# -- a medicine that only times what is asked --------------------------------------------------

SUGAR = {"id": "sugar", "topic": "blood sugar readings", "keywords": ["sugar", "glucose", "readings", "BM"],
         "answer": "It was 14 when I checked it this morning, before I'd had anything."}
INSULIN = {"id": "insulin", "topic": "insulin and tablets", "keywords": ["insulin", "meds", "medication", "tablets"],
           "answer": "I take 20 units of Lantus at night and metformin twice a day."}


def test_a_medicine_that_only_times_the_question_is_not_asked_of():
    assert read_message("what was her sugar before any meds?").questions[0].asked.split()[:4] == [
        "what", "was", "her", "sugar"]
    reply = patient([SUGAR, INSULIN]).answer("what was your sugar this morning before the medication?")
    assert reply.facts == ["sugar"]
    assert patient([SUGAR, INSULIN]).answer("how much insulin do you take?").facts == ["insulin"]


# -- whether a relative had something is no question of where they live -----------------------

HOUSEHOLD = {"id": "household", "topic": "who she lives with", "keywords": ["lives with", "brother", "home", "flat"],
             "answer": "She lives in a flat with me and her little brother."}
FHX = {"id": "fhx", "topic": "family history", "keywords": ["family history", "runs in the family", "dad"],
       "answer": "Her dad gets migraines."}


def test_whether_a_relative_had_something_is_not_answered_by_who_lives_at_home():
    assert patient([HOUSEHOLD, FHX]).answer("has her brother had anything like this?").facts == []
    assert patient([HOUSEHOLD, FHX]).answer("has her dad ever had anything similar?").facts == ["fhx"]
    assert patient([HOUSEHOLD, FHX]).answer("does her brother live with you?").facts == ["household"]
