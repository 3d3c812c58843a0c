"""The follow-up failure classes of round 23 fixed, each held on wording and topics of its own."""

from __future__ import annotations

from tests.test_patient_round8_classes import patient

# -- "which one was the most recent?" after a fact that tells several ------------------------------

ADMISSIONS = [
    {"id": "admissions", "topic": "hospital admissions for the chest",
     "keywords": ["admitted", "admissions", "hospital", "ward"],
     "answer": "I've been admitted with my chest three times, the last time in January on the respiratory ward."},
    {"id": "knee_scan", "topic": "knee imaging", "keywords": ["knee", "scan", "MRI"],
     "answer": "I had an MRI of my right knee in June. It showed a torn cartilage."},
    {"id": "inhalers", "topic": "inhalers", "keywords": ["inhaler", "inhalers", "puffer"],
     "answer": "A brown one twice a day and the blue one when I need it."},
]


def test_which_one_after_a_fact_that_counts_several_is_of_that_fact():
    sim = patient(ADMISSIONS)
    assert sim.answer("Have you ever been admitted to hospital with your breathing?").facts == ["admissions"]
    assert sim.answer("which one was the worst?").facts == ["admissions"]


def test_which_one_after_a_fact_that_lists_several_is_of_that_fact():
    sim = patient(ADMISSIONS)
    assert sim.answer("What inhalers do you use?").facts == ["inhalers"]
    assert sim.answer("and which one do you use the most?").facts == ["inhalers"]


def test_which_one_after_a_fact_of_one_thing_is_not_made_a_list():
    sim = patient(ADMISSIONS)
    assert sim.answer("Have you had any scans of the knee?").facts == ["knee_scan"]
    assert sim.answer("which one was the most recent?").facts != ["admissions"]


def test_which_one_with_a_subject_another_fact_matches_leaves_the_count():
    sim = patient(ADMISSIONS)
    assert sim.answer("Have you ever been admitted to hospital with your breathing?").facts == ["admissions"]
    assert sim.answer("which one of your knees had the MRI?").facts == ["knee_scan"]
