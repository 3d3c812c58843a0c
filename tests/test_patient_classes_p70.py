"""The failure classes of rounds 28-30 fixed (issue 33): a follow-up that keeps its subject from the dialogue state
and takes its aspect from the question. "When did she say that?" after a fact that says when ("last Sunday") is that
fact, not "I couldn't say"; "how long do they go on for?" asks how long each lasts (the fact of how long they last),
not how they start and stop; "what made them stop?" says the keyword "what made it stop" whole (pronouns are one
slot). Held on wording and topics of their own, with negative tests: a fact that says no time is not said to "when",
"how long has this been going on?" is since when, and "what made them start?" is not what made them stop."""

from __future__ import annotations

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator
from tests.test_consultation import fixture_case

SPELLS = [
    {"id": "began", "topic": "when the dizzy spells began", "keywords": ["when", "began", "how long", "first"],
     "answer": "The dizzy spells began about two months ago."},
    {"id": "start_stop", "topic": "how the spells start and stop", "keywords": ["start", "stop", "sudden", "gradual"],
     "answer": "They come on out of the blue and go just as quickly."},
    {"id": "length", "topic": "how long the spells last", "keywords": ["how long", "last", "minutes"],
     "answer": "Five minutes or so, never more than ten."},
    {"id": "ending", "topic": "what ended the spells", "keywords": ["stopped", "ended", "lie down",
                                                                    "what made it stop"],
     "answer": "Lying flat on the sofa settled the worst one. The others went by themselves."},
]
RELATIVE = [
    {"id": "falls", "topic": "falls", "keywords": ["fall", "falls", "fallen", "fell"],
     "answer": "She won't say much, but last Sunday she told me she'd fallen in the garden."},
    {"id": "muddled", "topic": "confusion", "keywords": ["confused", "confusion", "muddled", "memory"],
     "answer": "She gets muddled with her tablets and says she forgets to eat."},
]


def simulator(facts: list[dict[str, object]]) -> GroundedSimulator:
    return GroundedSimulator(patient_record(fixture_case(additional_answers=facts)))


def test_when_was_that_said_of_a_fact_that_says_the_day_is_that_fact():
    patient = simulator(RELATIVE)
    assert "falls" in patient.answer("Has she had any falls?").facts
    reply = patient.answer("when did she say that?")
    assert reply.facts == ["falls"]
    assert "sunday" in reply.text.lower()


def test_when_was_that_said_of_a_fact_that_says_no_time_is_not_that_fact_again():
    patient = simulator(RELATIVE)
    assert "muddled" in patient.answer("Does she get confused?").facts
    reply = patient.answer("when did she say that?")
    assert "muddled" not in reply.facts
    assert "as i said" not in reply.text.lower()


def test_how_long_do_they_go_on_for_is_how_long_each_lasts():
    patient = simulator(SPELLS)
    assert "start_stop" in patient.answer("Do the spells start and stop suddenly?").facts
    assert patient.answer("How long do they go on for?").facts == ["length"]


def test_how_long_has_this_been_going_on_is_since_when_not_how_long_each_lasts():
    patient = simulator(SPELLS)
    patient.answer("Do the spells start and stop suddenly?")
    assert "length" not in patient.answer("How long has this been going on?").facts


def test_what_made_them_stop_says_the_keyword_what_made_it_stop():
    patient = simulator(SPELLS)
    patient.answer("How long do the spells last?")
    assert patient.answer("What made them stop?").facts == ["ending"]
    assert simulator(SPELLS).answer("What made those stop?").facts == ["ending"]


def test_what_made_them_start_is_not_what_made_them_stop():
    patient = simulator(SPELLS)
    patient.answer("How long do the spells last?")
    assert "ending" not in patient.answer("What made them start?").facts
