"""The failure classes of held-out rounds 9, 10 and 11 fixed in round 12, each held on wording of
its own."""

from __future__ import annotations

from medbench_tui.core.simulators import intent, voice
from tests.test_patient_round8_classes import patient


def test_what_happened_with_a_drug_only_one_fact_names_is_that_fact_said_plainly():
    sim = patient([
        {"id": "allergy", "topic": "drug allergies", "keywords": ["allergy", "allergic", "reaction"],
         "answer": "Ibuprofen. It set my asthma off and I was wheezy for a day."},
        {"id": "meds", "topic": "medicines", "keywords": ["medication", "tablets", "inhaler"],
         "answer": "Just my brown inhaler twice a day."},
    ])
    reply = sim.answer("what happened after the ibuprofen?")
    assert reply.facts == ["allergy"]
    assert reply.confidence == 1.0 and not voice.is_negative(reply.text)


def test_a_mouth_that_dribbles_is_no_waterworks():
    sim = patient([
        {"id": "mouth", "topic": "mouth and drinking", "keywords": ["mouth", "drinking", "dribble"],
         "answer": "Soup dribbles out of the corner of my mouth since my face dropped."},
    ])
    assert sim.answer("does it sting when you pee?").facts == []


def test_anybody_you_know_who_is_ill_asks_of_the_contacts_not_of_your_own_symptom():
    sim = patient([
        {"id": "contacts", "topic": "unwell contacts", "keywords": ["contacts", "anyone else"],
         "answer": "My sister had a nasty cough last week."},
    ])
    assert sim.answer("anybody you know been coughing?").facts == ["contacts"]


def test_asked_to_agree_to_a_plan_or_a_diagnosis_the_patient_agrees():
    sim = patient([
        {"id": "noise", "topic": "chest noises", "keywords": ["rattle", "crackle"],
         "answer": "My chest sounds crackly when I breathe in, and it sounds all right in the day."},
    ])
    reply = sim.answer("I think it's a chest infection. I'll give you tablets for a week. does that sound alright?")
    assert reply.facts == [] and reply.text in voice.AGREE
    reply = sim.answer("so a chest infection, okay?")
    assert reply.facts == [] and not voice.is_negative(reply.text)


def test_a_question_of_how_something_is_that_ends_in_ok_is_no_agreement():
    assert intent.asks_agreement("so a sprain, alright?")
    assert not intent.asks_agreement("is he feeding ok?")
    assert not intent.asks_agreement("OK.")


def test_how_high_after_a_reading_is_that_reading():
    sim = patient([
        {"id": "sugar", "topic": "blood sugar", "keywords": ["sugar", "glucose", "BM"],
         "answer": "My sugar was 19 on the meter this morning."},
    ])
    assert sim.answer("have you checked your sugar?").facts == ["sugar"]
    assert sim.answer("how high did it go?").facts == ["sugar"]


def test_the_nights_before_tonight_are_the_nights_not_tonight():
    sim = patient([
        {"id": "sleep", "topic": "previous nights and sleep", "keywords": ["previous nights", "last night", "sleep",
                                                                            "before"],
         "answer": "The nights before this one she slept soundly."},
        {"id": "start", "topic": "when it started", "keywords": ["start", "began"],
         "answer": "It all started tonight after her tea."},
    ])
    assert sim.answer("how was she on previous nights, before tonight?").facts == ["sleep"]


def test_what_the_out_of_hours_doctor_gave_is_the_medicine_they_gave():
    sim = patient([
        {"id": "abx", "topic": "the antibiotic course", "keywords": ["antibiotic", "course", "out of hours"],
         "answer": "Amoxicillin three times a day, since Tuesday."},
    ])
    assert sim.answer("which antibiotic did they give him at OOH?").facts == ["abx"]
    assert sim.answer("and what did the doctor give you?").facts
