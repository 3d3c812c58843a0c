"""The failure classes of round 23 fixed (issue 33), each held on wording and topics of its own: a
fact said in other words is no "No." (a fall, "more frequent"), one question answered by two facts (the family, the
creams tried), a chat spelling of "are", and one deflection a reply with no broken echo of the doctor's words."""

from __future__ import annotations

from medbench_tui.core.simulators import voice
from tests.test_patient_round8_classes import patient

# -- 1. a fact that says it in other words ---------------------------------------------------------------------------

FALL = [
    {"id": "fall", "topic": "the fall in the kitchen", "keywords": ["fall", "fell", "kitchen", "tripped"],
     "answer": "I tripped on the mat in the kitchen on Tuesday."},
    {"id": "fall_injury", "topic": "injury from the fall", "keywords": ["injury", "hurt", "bruise", "head"],
     "answer": "Bruised my left hip. I didn't bang my head."},
    {"id": "headaches", "topic": "the headaches and how they have changed",
     "keywords": ["headache", "when", "started", "getting worse", "more often", "frequency"],
     "answer": "They started in the spring. I get them more often now, most days."},
]


def test_hurt_when_they_went_down_is_the_injury_of_the_fall_not_self_harm():
    sim = patient(FALL)
    assert sim.answer("Did you hurt yourself when you went down?").facts == ["fall_injury"]
    assert sim.answer("did she hurt herself when she went down?").facts == ["fall_injury"]


def test_hurting_yourself_with_no_fall_is_still_self_harm_not_the_injury():
    sim = patient(FALL)
    assert "fall_injury" not in sim.answer("Have you ever had thoughts to hurt yourself?").facts


def test_more_frequent_is_how_often_said_by_more_often():
    sim = patient(FALL)
    assert sim.answer("When did the headaches start?").facts == ["headaches"]
    reply = sim.answer("are they getting more frequent?")
    assert reply.facts == ["headaches"] and reply.text != "No."


# -- 2. one question answered by two facts ---------------------------------------------------------------------------

FAMILY = [
    {"id": "family_aunt", "topic": "cancer in the family", "keywords": ["family", "aunt", "cancer", "died"],
     "answer": "My mum's sister had bowel cancer at 50."},
    {"id": "family_mother", "topic": "mother's bowel polyps", "keywords": ["mum", "mother", "polyps", "bowel",
                                                                           "colonoscopy"],
     "answer": "Mum had polyps taken off her bowel on a camera test."},
    {"id": "family_dad", "topic": "father's health", "keywords": ["dad", "father", "diabetes"],
     "answer": "Dad has diabetes, that's all."},
]

OINTMENTS = [
    {"id": "emollient", "topic": "first ointment tried", "keywords": ["ointment", "ointments", "tried", "chemist"],
     "answer": "I got an emollient ointment from the chemist first. It soothed it a bit."},
    {"id": "antifungal", "topic": "second ointment", "keywords": ["ointment", "ointments", "antifungal",
                                                                  "clotrimazole"],
     "answer": "Then my sister gave me some clotrimazole, I put it on for a fortnight."},
    {"id": "regular", "topic": "regular medicines", "keywords": ["medication", "tablets", "regular"],
     "answer": "Just the thyroid tablet. And the ointments I mentioned."},
]


def test_a_family_question_gets_every_family_fact_that_owns_a_word_of_it():
    facts = patient(FAMILY).answer("Any bowel problems in the family?").facts
    assert set(facts) == {"family_aunt", "family_mother"}


def test_a_family_fact_that_says_nothing_asked_does_not_join():
    assert "family_dad" not in patient(FAMILY).answer("Any bowel problems in the family?").facts


def test_which_ointments_were_used_is_every_ointment_fact():
    for question in ("What ointments have you tried?", "which ointments have you put on it?",
                     "what ointments have you been using?"):
        facts = patient(OINTMENTS).answer(question).facts
        assert set(facts) == {"emollient", "antifungal"}, question


def test_the_regular_medicines_that_only_mention_the_ointments_do_not_join():
    assert "regular" not in patient(OINTMENTS).answer("What ointments have you tried so far?").facts


def test_a_plural_what_question_with_no_use_of_a_medicine_is_not_every_fact():
    # "what tablets are you on?" asks of the tablets taken, not each ointment tried
    assert not {"emollient", "antifungal"} & set(patient(OINTMENTS).answer("What tablets are you on?").facts)


# -- 3. a chat spelling of "are" -------------------------------------------------------------------------------------

SWIM = [
    {"id": "swimming", "topic": "amount of swimming", "keywords": ["swimming", "exercise", "how much", "lengths"],
     "answer": "I swim forty lengths three mornings a week."},
    {"id": "cough", "topic": "cough", "keywords": ["cough", "coughing"], "answer": "A dry cough for a month."},
]


def test_r_for_are_and_a_misspelt_activity_still_find_the_fact():
    assert patient(SWIM).answer("how much swiming r u doing a week?").facts == ["swimming"]


def test_r_for_are_does_not_make_an_unknown_activity_a_fact():
    assert patient(SWIM).answer("how much cycling r u doing?").facts == []


# -- 4. one deflection a reply, and no broken echo -------------------------------------------------------------------

HIDDEN = [
    {"id": "gambling", "topic": "gambling debts (withheld at first)", "keywords": ["money", "debts", "gambling",
                                                                                  "worries"],
     "answer": "I owe about eight thousand on cards from betting.", "delayed": True},
    {"id": "gambling_help", "topic": "help sought for gambling (withheld at first)",
     "keywords": ["help", "gamblers anonymous", "worries", "money"],
     "answer": "I went to one meeting and didn't go back.", "delayed": True},
]


def test_a_deflection_is_said_once_however_many_parts_deflect():
    reply = patient(HIDDEN, behavior=["delayed_disclosure"]).answer(
        "Any money worries - debts, or anything you've sought help for?")
    assert reply.text.count("come back to that") <= 1
    assert sum(reply.text.count(d) for d in voice.DEFLECTIONS) <= 1


def test_a_worded_default_never_ends_on_a_reflexive():
    assert voice.what_is_asked("anything you buy yourself?") == ""
    assert voice.what_is_asked("anything you make for yourself?") == ""
    assert voice.what_is_asked("any night sweats?") == "night sweats"  # a thing named is still worded
