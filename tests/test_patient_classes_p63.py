"""The failure classes of round 29 fixed (issue 33), held on wording and topics of their own:
"round" as a preposition of place heads a list as "around" does ("any swelling round her ankles or knees?"); putting
something up the nose asked with any verb ("has she pushed anything up her nose?") is the fact of a foreign
body; and "time of the month" is a period. Negative tests: a list without the place stays apart, a pain "up" a part is
no foreign body, and "times a month" (how often) is no period."""

from __future__ import annotations

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator
from medbench_tui.core.simulators.matcher import alternatives
from tests.test_consultation import CASE_DATA, fixture_case

ANKLES = {"id": "ankle_swelling", "topic": "swelling of the legs (pertinent negative)",
          "keywords": ["swelling", "swollen", "ankles", "legs", "puffy"],
          "answer": "No swelling around my ankles or knees that I've noticed."}
EAR_OBJECT = {"id": "objects", "topic": "small objects and anything put up the nose",
              "keywords": ["foreign body", "small toys", "stones", "peas"],
              "answer": "She plays with her brother's marbles and the dried peas from the kitchen, "
                        "but I've never seen her put one up her nose."}
EAR_PAIN = {"id": "ear_pain", "topic": "pain in the ear",
            "keywords": ["pain", "hurt", "sore", "earache"],
            "answer": "She keeps pulling at her left ear and says it hurts."}
HEADACHE_CYCLE = {"id": "cycle", "topic": "link with the menstrual cycle",
                  "keywords": ["periods", "menstrual", "cycle"],
                  "answer": "The headaches nearly always come on the day before my period starts."}
HEADACHE_HOW_OFTEN = {"id": "how_often", "topic": "how often the headaches come",
                      "keywords": ["how often", "frequency", "attacks"],
                      "answer": "About two or three a month, each lasting most of a day."}


def simulator(*facts: dict) -> GroundedSimulator:
    data = {"additional_answers": [*CASE_DATA["additional_answers"], *facts]}
    return GroundedSimulator(patient_record(fixture_case(**data)))


# -- "round" as a preposition of place ------------------------------------------------------------------------

def test_round_before_a_possessive_heads_the_list_as_around_does():
    assert alternatives("Any swelling round her ankles or knees?") == (
        "Any swelling round her ankles", "Any swelling round knees?")
    assert alternatives("Any swelling round her ankles or knees?")[1].endswith("round knees?")


def test_swelling_round_a_part_gets_the_fact_not_a_bare_no():
    reply = simulator(ANKLES).answer("Any swelling round your ankles or knees?")
    assert "ankle_swelling" in reply.facts
    assert reply.text.strip() != "No."


def test_a_round_lump_is_no_place():
    # negative: "round" as a shape, with no possessive after it, heads nothing
    assert alternatives("any round lumps or bumps?") == ("any round lumps", "any bumps?")


# -- putting something up the nose ---------------------------------------------------------------

def test_pushing_something_up_the_nose_is_the_foreign_body_fact():
    assert "objects" in simulator(EAR_OBJECT, EAR_PAIN).answer(
        "Has she pushed anything up her nose?").facts
    assert "objects" in simulator(EAR_OBJECT, EAR_PAIN).answer("Has she ever shoved anything up her nose?").facts


def test_pain_in_the_ear_is_no_foreign_body():
    # negative: a part of the body named is not the insertion of an object
    reply = simulator(EAR_OBJECT, EAR_PAIN).answer("Is her ear sore?")
    assert reply.facts == ["ear_pain"]


# -- "time of the month" -------------------------------------------------------------------------------------

def test_time_of_the_month_is_the_period():
    reply = simulator(HEADACHE_CYCLE, HEADACHE_HOW_OFTEN).answer(
        "Is it worse at any particular time of the month?")
    assert reply.facts == ["cycle"]


def test_times_a_month_is_how_often_not_the_period():
    # negative: a count in a month is how often
    reply = simulator(HEADACHE_CYCLE, HEADACHE_HOW_OFTEN).answer("How many headaches do you get a month?")
    assert "cycle" not in reply.facts
