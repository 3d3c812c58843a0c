"""The failure classes of round 24 fixed (a name the vocabulary adds through one generic word of a
case's name of several; the one who speaks for the patient asked of their own history; "which X is it?" of the
medicine just told without its name), each held on wording of its own on other clinical topics."""

from __future__ import annotations

from medbench_tui.core.simulators import LeakGuard
from medbench_tui.core.simulators.lexicon import sentences
from tests.test_consultation import fixture_case
from tests.test_patient_round8_classes import patient


def guard_of(name: str, *aliases: str) -> LeakGuard:
    return LeakGuard.from_case(fixture_case(diagnosis={"primary": {"name": name, "icd10": "E23.2",
                                                                    "aliases": list(aliases)}}))


# -- one generic word of a case's name of several names no condition ---------------------------------

def test_one_word_of_an_alias_of_several_pulls_in_no_condition():
    guard = guard_of("Diabetes insipidus", "cranial diabetes insipidus", "pituitary diabetes insipidus")
    assert guard.check("No sugar diabetes in the family.") is None
    assert guard.check("But no diabetes clinic letters.") is None
    assert guard.check("Could it be cranial diabetes insipidus?") is not None  # the alias itself is kept back
    bipolar = guard_of("Bipolar affective disorder, current episode manic", "manic depression", "bipolar disorder")
    assert bipolar.check("I've never been clinically depressed.") is None
    assert bipolar.check("Is it manic depression?") is not None


def test_a_condition_the_diagnosis_names_is_still_kept_back():
    # the diagnosis's own name says the condition ("appendicitis" of "Acute appendicitis")
    assert guard_of("Acute appendicitis", "acute appendix").check("Is it a grumbling appendix?") is not None
    # an alias of one word that is the condition
    assert guard_of("Severe depressive episode", "depression").check("I'm clinically depressed, I think.") is not None
    # a part of several words ("pulmonary embolism" of "Bilateral pulmonary embolism")
    assert guard_of("Bilateral pulmonary embolism", "bilateral PE").check("Is it a clot in my lung?") is not None


def test_a_worded_default_that_shares_one_generic_word_is_said():
    guard = guard_of("Diabetes insipidus", "cranial diabetes insipidus")
    reply = patient([]).answer("how's the phlegm? and any diabetes in the family?", guard)
    assert reply.facts == ["sputum"] and "diabetes" in reply.text.lower()
    assert not any(guard.check(s) for s in sentences(reply.text))


def test_a_worded_default_that_names_the_diagnosis_is_still_kept_back():
    guard = LeakGuard.from_case(fixture_case())  # community-acquired pneumonia
    reply = patient([]).answer("how's the phlegm? and any chest infection before?", guard)
    assert reply.facts == ["sputum"] and "chest infection" not in reply.text.lower()


# -- the one who speaks for the patient asked of their own history ----------------------------------

FAMILY_MIGRAINE = {"id": "fhx", "topic": "family history of headaches and migraine",
                   "keywords": ["family", "mum", "mother", "brother", "runs in the family", "your headaches"],
                   "answer": "I got my migraines from about fifteen and his brother, who's nine, started at seven. "
                             "Nobody else in the family gets them."}
OWN_HEADACHE = {"id": "headache", "topic": "his headaches", "keywords": ["headache", "head", "started"],
                "answer": "His headaches started in September, mostly after school."}


def test_the_parent_asked_of_her_own_history_is_told_by_her_first_person_fact():
    sim = patient([FAMILY_MIGRAINE, OWN_HEADACHE], informant="parent", sex="male", age=12)
    reply = sim.answer("Could I ask how old you were when your migraines began, and his little brother?")
    assert reply.facts == ["fhx"] and reply.kind != "clarification"


def test_the_patient_asked_by_she_or_he_is_no_parents_history():
    sim = patient([FAMILY_MIGRAINE, OWN_HEADACHE], informant="parent", sex="male", age=12)
    assert "fhx" not in sim.answer("how old was he when his migraines began?").facts
    assert "fhx" not in sim.answer("and when did his headaches start?").facts


# -- "which X is it?" of a medicine told without its name ----------------------------------------------

RASH = {"id": "rash", "topic": "the rash and what was tried on it", "keywords": ["rash", "itch", "cream", "spots"],
        "answer": "It's itchy and red on both shins. The cream the chemist gave me didn't touch it."}
MEDICINES = {"id": "meds", "topic": "regular medicines", "keywords": ["medication", "medicines", "tablets", "take"],
             "answer": "Amlodipine 5 and metformin. And the hydrocortisone cream from the chemist, which hasn't "
                       "helped."}
CALF = {"id": "calf", "topic": "the calf pain", "keywords": ["calf", "leg", "pain"],
        "answer": "My left calf has been aching for three days."}


def test_which_medicine_of_a_kind_is_the_medicines_fact_that_names_it():
    sim = patient([RASH, MEDICINES])
    assert sim.answer("tell me about the rash - has anything helped?").facts == ["rash"]
    assert sim.answer("which cream is it?").facts == ["meds"]


def test_which_side_stays_with_the_side_and_a_named_medicine_stays():
    sim = patient([RASH, MEDICINES, CALF])
    assert sim.answer("any pain in your calf?").facts == ["calf"]
    assert sim.answer("which side is it?").facts == ["calf"]
    named = patient([RASH, MEDICINES])
    assert named.answer("what medicines do you take?").facts == ["meds"]
    assert named.answer("which cream is it?").facts in (["meds"], [])  # already its name: never the rash
    assert "rash" not in named.answer("which cream is it?").facts
