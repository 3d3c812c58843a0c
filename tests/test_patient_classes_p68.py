"""The failure class of rounds 28/29 fixed (issue 33): a detail asked of a fact the doctor heard (which side, which
hospital, what year, which brand, who) that the fact clearly does not state is the default, never the fact again "as
I said". Held on wording and topics of their own, with negative tests: a fact that states the asked detail (a side, a
place, a date, a name) is still said, and a question of another aspect is untouched."""

from __future__ import annotations

import pytest

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator
from tests.test_consultation import CASE_DATA, fixture_case

HERNIA = {"id": "hernia", "topic": "previous surgery", "keywords": ["operation", "surgery", "hernia"],
          "answer": "I had a hernia repaired a few years back. It healed fine."}
CATARACT = {"id": "cataract", "topic": "eye operation", "keywords": ["cataract", "eye operation"],
            "answer": "I had my left cataract done at St Mary's hospital in 2019."}
INHALER = {"id": "inhaler", "topic": "medicines", "keywords": ["medicines", "inhaler", "tablets"],
           "answer": "Just a blue inhaler when I need it, maybe twice a week."}
GOUT = {"id": "gout", "topic": "gout", "keywords": ["gout", "big toe"],
        "answer": "I get gout in my big toe now and then. The GP diagnosed it years ago."}


def simulator() -> GroundedSimulator:
    data = {"additional_answers": [*CASE_DATA["additional_answers"], HERNIA, CATARACT, INHALER, GOUT]}
    return GroundedSimulator(patient_record(fixture_case(**data)))


@pytest.mark.parametrize(("heard", "fact", "detail"), [
    ("Any operations in the past?", "hernia", "Which side was the hernia on?"),
    ("Do you use any inhalers?", "inhaler", "Which brand of inhaler is it?"),
])
def test_a_detail_a_heard_fact_does_not_state_is_the_default(heard: str, fact: str, detail: str) -> None:
    patient = simulator()
    assert fact in patient.answer(heard).facts
    reply = patient.answer(detail)
    assert fact not in reply.facts
    assert "as i said" not in reply.text.lower()


# -- negative: a fact that states the detail is still said ------------------------------------------------------

@pytest.mark.parametrize(("heard", "fact", "detail"), [
    ("Have you had a cataract operation?", "cataract", "Which side was the cataract?"),
    ("Have you had a cataract operation?", "cataract", "Which hospital did the cataract operation?"),
    ("Any gout?", "gout", "Who diagnosed the gout?"),
])
def test_a_detail_the_heard_fact_states_is_said(heard: str, fact: str, detail: str) -> None:
    patient = simulator()
    assert fact in patient.answer(heard).facts
    assert fact in patient.answer(detail).facts


def test_which_side_unheard_is_still_answered():
    # the fact not yet heard: its own answer, as before
    assert "cataract" in simulator().answer("Which side was your cataract operation on?").facts


def test_a_side_said_by_reference_is_a_side():
    # "on that side" states the side told before: the fact is said
    rash = {"id": "rash", "topic": "rash", "keywords": ["rash", "spots"],
            "answer": "There's a patch of spots on my ribs on that side."}
    data = {"additional_answers": [*CASE_DATA["additional_answers"], rash]}
    patient = GroundedSimulator(patient_record(fixture_case(**data)))
    assert "rash" in patient.answer("Any rash?").facts
    assert "rash" in patient.answer("Which side of your ribs?").facts
