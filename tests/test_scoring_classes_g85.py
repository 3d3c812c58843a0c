"""Grader classes of g85 (product issue 32: treatment accuracy of long plans), in wording of our own on a bundled
case of another topic: what a plan says of a drug without giving it is no EXTRA treatment, and what it gives after
a switch is.

1. A drug judged useless or kept away from is not given: "of little use", "would be too short", a label's verdict
   closing its line after the reason ("Codeine: no severe pain - not needed."), a bracket of drugs after
   "interactions".
2. A statement about a drug, a state or the patient is no item ("ibuprofen still detectable", "she will be
   immobilised in a splint"); the plan "immobilise in a splint" is one.
3. A record of an allergy or a reaction is no treatment.
4. A switch's target word ("switch to") opens no qualifier: the drug switched to is given.
5. A name of a named item's class ("a moderate steroid" beside a topical corticosteroid) is that item again; a
   member of the class ("prednisolone") is a drug of its own.

Each class has negatives: an unlisted drug given beside them stays extra."""

from __future__ import annotations

import pytest

from medbench_tui.core.scoring.text_extractor import _names_again
from tests.test_scoring_classes_g83 import cellulitis_extras as _extras

# --- class 1: a drug judged useless or kept away from ------------------------------------------------------------


@pytest.mark.parametrize("plan", [
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. Codeine is of little use here and I would not rely on it.\n",
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. A 3-day course of doxycycline would be too short.\n",
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. Codeine: the pain is mild - not needed.\n",
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. Written advice on flucloxacillin interactions (warfarin, "
    "methotrexate) and when to seek help.\n",
])
def test_a_drug_judged_useless_or_named_among_interactions_is_not_given(plan: str) -> None:
    assert _extras(plan) == [], plan


@pytest.mark.parametrize("plan", [
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. Codeine 30 mg QDS - needed for the pain at night.\n",
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. Codeine 30 mg QDS; it is of benefit at night.\n",
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. Warfarin 3 mg daily (check interactions).\n",
])
def test_a_drug_given_beside_a_judgement_or_an_interaction_note_stays_extra(plan: str) -> None:
    assert len(_extras(plan)) == 1, plan


# --- class 2: a statement is no item -----------------------------------------------------------------------------


@pytest.mark.parametrize("plan", [
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. Ibuprofen still detectable.\n",
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. Prednisolone may mask a fever.\n",
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. She will be immobilised in a splint.\n",
])
def test_a_statement_about_a_drug_a_state_or_the_patient_is_no_item(plan: str) -> None:
    assert _extras(plan) == [], plan


@pytest.mark.parametrize("plan", [
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. Immobilise the ankle in a splint.\n",
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. She will be given codeine 30 mg QDS.\n",
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. Codeine 30 mg QDS.\n",
])
def test_a_plan_or_a_drug_given_stays_extra(plan: str) -> None:
    assert len(_extras(plan)) == 1, plan


# --- class 3: a record of an allergy -----------------------------------------------------------------------------


@pytest.mark.parametrize("plan", [
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. **Allergy:** trimethoprim and the whole sulfonamide class.\n",
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. Record a severe reaction to trimethoprim.\n",
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. Document codeine intolerance in the notes.\n",
])
def test_a_record_of_an_allergy_or_a_reaction_is_no_treatment(plan: str) -> None:
    assert _extras(plan) == [], plan


@pytest.mark.parametrize("plan", [
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. Ranitidine 150 mg BD, as she reports an allergy to omeprazole.\n",
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. Chlorphenamine 4 mg for the allergic itch.\n",
])
def test_a_drug_added_or_given_for_an_allergy_stays_extra(plan: str) -> None:
    assert len(_extras(plan)) == 1, plan


# --- class 4: a switch's target word is no qualifier -------------------------------------------------------------


def test_the_drug_switched_to_after_a_comma_is_given() -> None:
    plan = "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. IV omeprazole 40 mg, switch to oral ranitidine 150 mg BD.\n"
    assert len(_extras(plan)) == 2


@pytest.mark.parametrize("plan", [
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. IV omeprazole 40 mg to protect the stomach, ranitidine later.\n",
    "1. Oral flucloxacillin 1 g QDS for 7 days.\n2. IV omeprazole 40 mg, switch to oral when eating.\n",
])
def test_a_qualifier_or_a_switch_with_no_drug_gives_no_second_extra(plan: str) -> None:
    assert len(_extras(plan)) == 1, plan


# --- class 5: a name of the item's class is the item said again --------------------------------------------------


@pytest.mark.parametrize("piece", ["a moderate steroid to the face", "steroids to the scalp"])
def test_a_name_of_a_named_items_class_is_that_item_again(piece: str) -> None:
    assert _names_again(piece, frozenset({"topical", "corticosteroid", "cream"}))


@pytest.mark.parametrize(("piece", "named"), [
    ("prednisolone 40 mg each morning", frozenset({"topical", "corticosteroid", "cream"})),  # a member: a drug
    ("a moderate steroid to the face", frozenset({"topical", "terbinafine", "cream"})),  # another class
])
def test_a_member_of_the_class_or_another_class_is_no_repeat(piece: str, named: frozenset[str]) -> None:
    assert not _names_again(piece, named)
