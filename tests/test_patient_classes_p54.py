"""The failure classes of held-out round 25 fixed (issue 33): follow-ups about the thing just told.
"How long did it take to settle for her?" after a relative's illness told with how long it went on is that fact;
"how old is he?" after a person whose age no fact gives is not known, never that fact again; "is it worse at night?"
after the pain is the fact of the pain at night; "any kidney problems?" is the fact whose topic is the kidneys before
the past history that only lists them. Held on wording and topics of their own, with negative tests."""

from __future__ import annotations

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator
from medbench_tui.core.simulators.voice import is_negative
from tests.test_consultation import fixture_case

FAMILY = {"id": "family_history", "topic": "family history", "keywords": ["family", "mother", "father", "brother"],
          "answer": "My father had a bad bout of sciatica for about three months in his sixties. My brother is fine."}
FAMILY_NO_TIME = {**FAMILY, "answer": "My father had a bad bout of sciatica in his sixties. My brother is fine."}
PAINKILLERS = {"id": "pain_relief", "topic": "painkillers tried", "keywords": ["painkillers", "tried", "helped"],
               "answer": "Paracetamol takes the edge off, and it settles a bit if I lie down."}
CONTACTS = {"id": "contacts", "topic": "illness in others", "keywords": ["anyone else", "unwell", "others", "uncle"],
            "answer": "My wife is fine. My uncle was in hospital last month with a chest infection."}
UNCLE_AGED = {**CONTACTS, "answer": "My wife is fine. My uncle, he's 81, was in hospital last month with a chest "
                                    "infection."}
PAIN = {"id": "pain", "topic": "where the pain is and what it is like", "keywords": ["pain", "where", "sharp"],
        "answer": "It's a sharp pain low in my back, on the right."}
NIGHT_PAIN = {"id": "night_pain", "topic": "pain at night", "keywords": ["night", "sleep", "wakes"],
              "answer": "It wakes me most nights, I can't get comfortable."}
NOCTURIA = {"id": "waterworks", "topic": "passing water", "keywords": ["urine", "waterworks", "night"],
            "answer": "I'm up once a night to pass water, that's been the same for years."}
KIDNEY = {"id": "kidneys", "topic": "kidney disease", "keywords": ["kidney", "kidneys", "renal"],
          "answer": "My kidneys are at stage three, the hospital checks them every six months."}
HISTORY = {"id": "past_history", "topic": "past medical history", "keywords": ["medical history", "operations"],
           "answer": "High blood pressure, the kidneys, and a hernia repair in 2012."}
HISTORY_ONLY = {**HISTORY, "answer": "High blood pressure and a hernia repair in 2012. My kidneys are fine."}


def patient(facts: list[dict], **changes) -> GroundedSimulator:
    return GroundedSimulator(patient_record(fixture_case(additional_answers=facts, **changes)))


def test_how_long_for_the_relative_just_told_is_that_fact_when_it_says_how_long():
    sim = patient([FAMILY, PAINKILLERS])
    assert sim.answer("Anyone in the family had back trouble?").facts == ["family_history"]
    # "settle" and "take" are words of the painkillers, but "him" is the father just told of
    assert sim.answer("how long did it take to settle for him?").facts == ["family_history"]


def test_how_long_for_the_relative_is_not_known_when_the_fact_says_no_duration():
    sim = patient([FAMILY_NO_TIME, PAINKILLERS])
    sim.answer("Anyone in the family had back trouble?")
    reply = sim.answer("how long did it take to settle for him?")
    assert "pain_relief" not in reply.facts


def test_how_old_is_the_person_just_told_of_is_not_known_when_no_age_is_given():
    sim = patient([CONTACTS], sex="female")
    assert sim.answer("Is anyone else unwell?").facts == ["contacts"]
    reply = sim.answer("how old is he?")
    assert reply.facts == [] and not is_negative(reply.text)
    assert "54" not in reply.text  # never the patient's own age


def test_how_old_is_the_person_just_told_of_is_that_fact_when_it_gives_the_age():
    sim = patient([UNCLE_AGED], sex="female")
    sim.answer("Is anyone else unwell?")
    assert sim.answer("how old is he?").facts == ["contacts"]


def test_worse_at_a_time_of_day_after_the_pain_is_the_fact_of_the_pain_then():
    sim = patient([PAIN, NIGHT_PAIN, NOCTURIA])
    assert sim.answer("Where exactly is the pain?").facts == ["pain"]
    assert sim.answer("Is it worse at night?").facts == ["night_pain"]


def test_worse_at_a_time_of_day_is_never_a_fact_of_something_else_of_that_time():
    sim = patient([PAIN, NOCTURIA])
    sim.answer("Where exactly is the pain?")
    assert "waterworks" not in sim.answer("Is it worse at night?").facts


def test_an_organs_problems_is_the_fact_of_that_organ_before_the_past_history():
    assert patient([KIDNEY, HISTORY]).answer("Any kidney problems?").facts[0] == "kidneys"
    # with no fact of the kidneys the past history answers, as before
    assert patient([HISTORY_ONLY]).answer("Any kidney problems?").facts == ["past_history"]


def test_other_health_problems_is_the_past_history_not_a_topic_of_general_health():
    general = {"id": "systemic", "topic": "fever and general health (pertinent negative)",
               "keywords": ["fever", "temperature", "unwell"], "answer": "No fever, I feel fine in myself."}
    assert patient([general, HISTORY]).answer("do you have any other health problems at all?").facts == [
        "past_history"]
