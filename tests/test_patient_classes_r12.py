"""The failure classes of held-out rounds 9, 10 and 11 fixed in round 12, each held on wording of
its own."""

from __future__ import annotations

from medbench_tui.core.simulators import voice
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
