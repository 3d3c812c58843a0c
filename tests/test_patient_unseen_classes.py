"""Failure classes the patient showed on new cases, each held on wording of its own: chat
shorthand of times and tablets, a symptom asked of a part of the body the record never names,
"bump" as no injury, and the patient's own wording (a fact's topic, the doctor's words echoed)
never naming the diagnosis or a differential."""

from __future__ import annotations

from medbench_tui.core.simulators import LeakGuard, voice
from medbench_tui.core.simulators.question import read_question
from tests.test_consultation import fixture_case
from tests.test_patient_round8_classes import patient


def test_chat_shorthand_of_times_and_tablets_is_written_out():
    read = read_question("any steroid tabs in the last few wks?").read
    assert "tablets" in read and "weeks" in read
    assert read_question("had this b4?").read == "had this before?"
    assert read_question("how many times this yr?").read == "how many times this year?"


def test_a_previous_episode_asked_in_shorthand_is_found():
    sim = patient([
        {"id": "previous", "topic": "previous episodes", "keywords": ["before", "previous", "happened before"],
         "answer": "I had the same thing two years ago."},
    ])
    assert sim.answer("ever had this b4?").facts == ["previous"]


def test_a_symptom_of_a_part_the_record_never_names_is_not_the_records_symptom():
    sim = patient([
        {"id": "skin", "topic": "sensitive skin over the sore area", "keywords": ["sensitive", "numb", "tingling"],
         "answer": "The skin over my ribs is numb and tingles when my shirt touches it."},
    ])
    reply = sim.answer("any tingling or numbness in your legs?")
    assert reply.facts == [] and (voice.is_default_answer(reply.text) or reply.kind == "clarification")
    assert sim.answer("any tingling?").facts == ["skin"]


def test_a_lump_on_the_skin_is_no_injury():
    sim = patient([
        {"id": "spots", "topic": "spots on the skin", "keywords": ["spots", "bumps", "lumps"],
         "answer": "There are a few small red bumps on my arm."},
    ])
    assert "spots" not in sim.answer("any falls or knocks recently?").facts


def test_the_echo_of_a_default_never_names_a_differential():
    case = fixture_case()
    sim = patient([])
    guard = LeakGuard.from_case(case)
    asked = "how's the phlegm? any history of pulmonary embolism?"
    reply = sim.answer(asked, guard)
    assert reply.facts == ["sputum"] and "embolism" not in reply.text.lower()
    assert "embolism" in patient([]).answer(asked).text.lower()  # the guard is what keeps the name back


def test_asking_which_fact_is_meant_never_names_a_differential():
    sim = patient([
        {"id": "clots", "topic": "a pulmonary embolism in the family", "keywords": ["family", "clot"],
         "answer": "My brother had a clot in the lung."},
        {"id": "kin", "topic": "who is at home", "keywords": ["family", "home"],
         "answer": "I live with my wife and two boys."},
    ])
    guard = LeakGuard.from_case(fixture_case())
    reply = sim.answer("tell me about your family?", guard)
    assert "embolism" not in reply.text.lower()
