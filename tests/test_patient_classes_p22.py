"""The confidently wrong reply classes of held-out rounds 9, 14 and 15 fixed, each held on wording of
its own."""

from __future__ import annotations

from medbench_tui.core.simulators.planner import _LATERAL
from tests.test_patient_round8_classes import patient

# -- "left" the verb is no side -------------------------------------------------------------------

ULCER_LOOK = {"id": "ulcer_look", "topic": "what the sore looks like", "keywords": ["look", "looks like", "sore"],
              "answer": "It started as a blister, then it broke and left a shallow wet crater with a pink edge."}
ULCER_SITE = {"id": "ulcer_site", "topic": "where the sore is", "keywords": ["where", "ankle", "shin", "leg"],
              "answer": "It's on the inside of my ankle, just above the bone, nowhere else."}


def test_left_after_a_subject_or_conjunction_is_the_verb_not_a_side():
    for verb in ("the boil burst and left a scar", "it has left me short of breath", "we left home early"):
        assert not _LATERAL.search(verb), verb
    for side in ("my left shin is red", "pain in right hip", "on the left side", "Left eye watering"):
        assert _LATERAL.search(side), side


def test_where_after_a_fact_that_says_left_the_verb_goes_to_where_it_is():
    sim = patient([ULCER_LOOK, ULCER_SITE])
    assert sim.answer("what does the sore look like?").facts == ["ulcer_look"]
    assert sim.answer("where exactly is it - just your hands or elsewhere too?").facts == ["ulcer_site"]


def test_a_bare_where_after_a_fact_that_says_left_the_verb_goes_to_where_it_is():
    sim = patient([ULCER_LOOK, ULCER_SITE])
    sim.answer("what does the sore look like?")
    assert sim.answer("where is it?").facts == ["ulcer_site"]


# -- "any on the knees too?" after the fact of where it is ---------------------------------------

PATCH_SITE = {"id": "patch_site", "topic": "where the patches are",
              "keywords": ["where", "elbows", "shins", "knees", "scalp", "site"],
              "answer": "On both elbows and down the front of my shins, nowhere else."}
PATCH_LOOK = {"id": "patch_look", "topic": "what the patches look like", "keywords": ["look", "patches", "scaly"],
              "answer": "Thick pink patches with silvery scale on top."}


def test_a_yes_no_of_another_part_after_the_fact_of_where_it_is_gets_that_fact_again():
    sim = patient([PATCH_SITE, PATCH_LOOK])
    assert sim.answer("where on your body are they?").facts == ["patch_site"]
    reply = sim.answer("any new patches on your knees or toes?")
    assert reply.facts == ["patch_site"]
    assert reply.kind != "clarification"
