"""The failure classes of round 31 fixed (issue 33): a question of the patient's own history said with "yourself" is
never answered by the family history; an age at a time past is the age a fact says with "turned", "a year old" or
"months old", and, when the fact just told says none, the fact that tells the same of the same person with their
age; "when did they first appear?" asks when they began, not how often new ones appear; and "where do you get them?"
after a fact that says no where is the fact of where. Held on wording and topics of their own, with negative tests."""

from __future__ import annotations

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator
from tests.test_consultation import CASE_DATA, fixture_case

FAMILY = {"id": "family", "topic": "family history", "keywords": ["family", "mum", "dad", "runs in the family", "gout",
                                                                  "asthma"],
          "answer": "Mum has asthma. Dad is well. Nobody with gout or heart trouble that I know of."}
CLOTS = {"id": "clots", "topic": "clot risks (travel, operations, family clots)", "keywords": ["clot", "DVT", "travel"],
         "answer": "No long journeys or operations. I've never had a clot and nobody in my family has either."}
RASH = {"id": "rash", "topic": "the spots", "keywords": ["spots", "rash"],
        "answer": "Little itchy spots, mostly at night."}
SPOT_START = {"id": "spot_start", "topic": "when the spots started", "keywords": ["when", "start", "first"],
              "answer": "The first ones came when I was about fifteen, at school."}
SPOT_NEW = {"id": "spot_new", "topic": "how often new spots appear", "keywords": ["how often", "new ones"],
            "answer": "A new one comes up every week or so."}
SPOT_WHERE = {"id": "spot_where", "topic": "where the spots are", "keywords": ["where", "sites", "arms", "legs"],
              "answer": "On the backs of my arms and the fronts of my legs."}
MOVE = {"id": "move", "topic": "moving house", "keywords": ["moved", "move", "house"],
        "answer": "We moved here from Leeds just after my son turned four."}
UNCLE = {"id": "uncle_contact", "topic": "contact with whooping cough", "keywords": ["whooping cough", "contact"],
         "answer": "Nobody has it now. Only my uncle, long before I was born."}
UNCLE_AGE = {"id": "uncle_history", "topic": "the uncle's illness", "keywords": ["uncle"],
             "answer": "My uncle had whooping cough in his teens and was in hospital for a week."}
AUNT_AGE = {"id": "aunt", "topic": "the aunt's illness", "keywords": ["aunt"],
            "answer": "My aunt had a stroke at seventy."}


def patient(*facts: dict, **changes: object) -> GroundedSimulator:
    data = {"additional_answers": [*CASE_DATA["additional_answers"], *facts], **changes}
    return GroundedSimulator(patient_record(fixture_case(**data)))


# -- A: "yourself" is the patient's own history, not the family's -------------------------------------------------

def test_gout_yourself_is_not_the_family_history():
    for asked in ("Have you ever had gout yourself?", "Have you had asthma yourself?"):
        reply = patient(FAMILY).answer(asked)
        assert "family" not in reply.facts, asked


def test_yourself_after_the_family_history_was_heard_is_not_said_again():
    sim = patient(FAMILY)
    assert "family" in sim.answer("Any family history of note?").facts
    reply = sim.answer("Have you had gout yourself?")
    assert "family" not in reply.facts and "as i said" not in reply.text.lower()


def test_the_family_is_still_answered_by_the_family_history():
    # negative: asked of the family, the family history answers
    assert "family" in patient(FAMILY).answer("Does anyone in your family have asthma?").facts


def test_a_fact_of_the_patients_own_that_names_the_family_too_still_answers():
    # negative: the clot risks are the patient's own, though their topic names family clots
    assert "clots" in patient(CLOTS).answer("Have you ever had a clot yourself?").facts


def test_yourself_said_to_a_mother_is_of_her():
    # negative: with a parent speaking, "yourself" is the speaker, who is of the patient's family
    sim = patient(FAMILY, informant="parent")
    assert "family" in sim.answer("Have you had asthma yourself?").facts


# -- B: how old someone was then -----------------------------------------------------------------------------------

def test_an_age_said_with_turned_answers_how_old_was_he():
    sim = patient(MOVE)
    assert "move" in sim.answer("When did you move house?").facts
    assert "move" in sim.answer("how old was he when you moved?").facts


def test_the_age_in_the_fact_of_the_same_person_and_thing():
    sim = patient(UNCLE, UNCLE_AGE, AUNT_AGE)
    assert sim.answer("Any contact with whooping cough?").facts == ["uncle_contact"]
    assert sim.answer("how old was he then?").facts == ["uncle_history"]


def test_the_age_of_another_person_is_not_the_answer():
    # negative: the aunt's age is of someone else and of something else
    sim = patient(UNCLE, AUNT_AGE)
    sim.answer("Any contact with whooping cough?")
    assert "aunt" not in sim.answer("how old was he then?").facts


# -- C: when they first appeared -----------------------------------------------------------------------------------

def test_when_did_they_first_appear_is_when_they_started():
    sim = patient(RASH, SPOT_START, SPOT_NEW)
    assert sim.answer("When did the first spots appear?").facts == ["spot_start"]


def test_how_often_new_ones_appear_is_still_how_often():
    # negative: how often is asked, not when they began
    assert patient(RASH, SPOT_START, SPOT_NEW).answer("How often do new spots appear?").facts == ["spot_new"]


# -- D: where, after a fact that says no where --------------------------------------------------------------------

def test_where_do_you_get_them_after_when_they_began_is_where():
    sim = patient(RASH, SPOT_START, SPOT_WHERE)
    assert sim.answer("When did the spots first come up?").facts == ["spot_start"]
    assert sim.answer("Where exactly do you get them?").facts == ["spot_where"]


def test_where_after_a_fact_that_says_where_stays():
    # negative: the fact just told says where, so it is the answer
    sim = patient(SPOT_WHERE, SPOT_START)
    assert sim.answer("Where are the spots?").facts == ["spot_where"]
    assert sim.answer("which side?").facts in (["spot_where"], [])


def test_where_it_came_from_after_a_pet_is_not_the_place_of_the_complaint():
    # negative: the kitten told is no thing the place of the spots is of
    kitten = {"id": "kitten", "topic": "pets", "keywords": ["pets", "kitten", "animals"],
              "answer": "We got a kitten from a farm last month."}
    sim = patient(RASH, SPOT_WHERE, kitten)
    assert sim.answer("Do you have any pets?").facts == ["kitten"]
    assert "spot_where" not in sim.answer("where did you get that from?").facts
