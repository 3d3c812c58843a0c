"""The failure classes of round 24 fixed (an open question with no fact: a fragment asking how
something is in general, a choice of two things done with one thing, the patient's own idea asked as "have you
wondered what ..."), each held on wording of its own on other clinical topics."""

from __future__ import annotations

from medbench_tui.core.simulators import intent
from tests.test_patient_round8_classes import patient

NO = ("No.", "No, not that I've noticed.", "No, I don't think so.", "No, nothing like that.")

SLEEP = {"id": "sleep", "topic": "sleep", "keywords": ["sleep", "sleeping", "insomnia"],
         "answer": "I've been waking at four most mornings since the diagnosis."}
CAR = {"id": "car", "topic": "getting about", "keywords": ["car", "driving", "drive"],
       "answer": "I still drive the car to the shops."}


def unsure(text: str) -> bool:
    return not text.startswith("No") and any(w in text.lower() for w in ("not sure", "don't know", "couldn't say",
                                                                             "no idea", "don't really know"))


# -- a fragment asking how something is in general is open ---------------------------------------

def test_a_fragment_asking_how_something_is_in_general_is_open():
    assert intent.kind_of("And his appetite generally, with everything going on?") == "open"
    assert intent.kind_of("energy levels overall?") == "open"
    reply = patient([]).answer("And his appetite generally, with everything going on?")
    assert reply.text not in NO and unsure(reply.text)


def test_a_yes_no_question_or_a_fragment_without_in_general_stays_yes_no():
    assert intent.kind_of("any weight loss generally?") == "yesno"  # an auxiliary starts it
    assert intent.kind_of("night sweats?") == "yesno"
    assert patient([]).answer("Any night sweats?").text.startswith("No")


def test_a_fragment_in_general_still_gets_its_fact():
    reply = patient([SLEEP]).answer("And your sleep generally?")
    assert reply.facts == ["sleep"]


# -- a choice of two things done with one thing is open ------------------------------------------

def test_two_things_done_with_one_thing_are_a_choice():
    assert intent.offers_choice("Do you drive the car yourself or borrow it?")
    assert intent.offers_choice("does he swallow the tablets or spit them out?")
    reply = patient([]).answer("Do you keep the inhaler at home or carry it?")
    assert reply.text not in NO and unsure(reply.text)


def test_a_list_of_things_done_is_no_choice():
    assert not intent.offers_choice("Do you smoke or drink?")
    assert not intent.offers_choice("Do you take the tablets or anything else?")
    assert patient([]).answer("Do you swim or cycle?").text.startswith("No")


def test_the_choice_still_gets_its_fact():
    assert patient([CAR]).answer("Do you drive the car or sell it?").facts == ["car"]


# -- "have you wondered what ..." asks the patient's own idea -----------------------------------

def test_wondering_what_it_is_asks_the_patients_idea():
    for asked in ("Have you wondered what's behind these headaches?", "You've wondered what it could be, I expect?",
                  "Have you ever wondered what this might be?"):
        reply = patient([]).answer(asked)
        assert reply.text not in NO and reply.facts == [], asked


def test_the_doctor_wondering_is_no_idea_asked():
    assert intent.asks_ideas("Have you wondered yourself what's causing the cough?")
    assert not intent.asks_ideas("I wondered what time you usually eat?")


# -- a second part whose own words only a keyword says gets its worded default ----------------------

TETANUS = {"id": "jabs", "topic": "vaccinations", "keywords": ["vaccines", "jabs", "tetanus", "shingles jab"],
           "answer": "I had a tetanus jab after the dog bite in the spring."}


def test_a_second_part_only_keyworded_gets_its_worded_default():
    reply = patient([TETANUS]).answer("Had your tetanus jab? and the shingles vaccine?")
    assert reply.facts == ["jabs"]
    assert "shingles" in reply.text.lower() and reply.text.rstrip().endswith(".")
    assert "no shingles" in reply.text.lower()


def test_a_second_part_the_answer_says_gets_no_default():
    reply = patient([TETANUS]).answer("Had any jabs lately? and was that for the dog bite?")
    assert reply.facts == ["jabs"] and "No" not in reply.text


def test_examples_after_a_dash_are_no_second_part():
    knock = {"id": "knock", "topic": "injury to the wrist", "keywords": ["injury", "fall", "knock", "punch", "trauma"],
             "answer": "I didn't fall or bang it at all."}
    reply = patient([knock]).answer("any injury to the wrist - a fall, a punch?")
    assert reply.facts == ["knock"] and "no fall" not in reply.text.lower()


# -- a list of what is not there answers only what it names -----------------------------------------

NEURO = {"id": "neuro", "topic": "neurological symptoms", "keywords": ["numbness", "tingling", "weakness", "speech",
                                                                       "vision", "balance", "bladder"],
         "answer": "No numbness or tingling. No weakness in my arms or legs. My speech is fine. No blurred vision."}
HAEM = {"id": "haem", "topic": "bleeding", "keywords": ["haematemesis", "vomiting blood"], "answer": "No blood."}


def test_a_list_of_denials_does_not_answer_a_keyword_it_never_says():
    reply = patient([NEURO]).answer("Any trouble with your balance?")
    assert reply.facts == [] and reply.text.startswith("No")
    reply = patient([NEURO]).answer("any bladder problems at all?")
    assert reply.facts == []


def test_a_list_of_denials_still_answers_what_it_names():
    assert patient([NEURO]).answer("any tingling in your hands?").facts == ["neuro"]
    assert patient([NEURO]).answer("Any weakness?").facts == ["neuro"]


def test_a_single_denial_still_answers_its_jargon_keyword():
    assert patient([HAEM]).answer("any haematemesis?").facts == ["haem"]
