"""Grader classes of g83 (product issue 32: thorough answers' treatment accuracy), in wording of our own on a bundled
case of another topic: what a long plan writes beside its items is no EXTRA treatment of its own.

1. A bracketed aside cut into two list items by a ``;``, a sentence end or a line wrap is still an aside.
2. A piece that is only a dose with its limit or time of day, or "then an infusion", is how the drug before it is
   given.
3. A piece that opens with a switch gives a drug only when a drug follows its target word: "replacing X" names
   what is stopped, "switch to oral" the same drug by another route.
4. A piece offered as another choice ("X or Y") is one item with the piece before it.

Each class has negatives: an unlisted drug written beside them stays extra."""

from __future__ import annotations

import pytest

from tests.test_scoring_regressions import card, extras

CELLULITIS = "im-cellulitis-001"


def cellulitis_extras(plan: str) -> list[str]:
    """The unlisted items of a plan written for the cellulitis case (shared with the later long-plan classes)."""
    return extras(card(CELLULITIS, f"Diagnosis: cellulitis of the left leg.\nPlan:\n{plan}"), "treatment")


# --- class 1: an aside cut into two items ------------------------------------------------------------------------


@pytest.mark.parametrize("plan", [
    "1. Strict fluid balance (hourly urine output; catheter if needed), daily weights\n",
    "1. Mark the erythema (photograph it too; a drain if it points), review at 48 h\n",
    "1. Oral flucloxacillin 1 g QDS (for\n   example clindamycin if she were allergic) for 7 days\n",
    "1. Oral flucloxacillin 1 g QDS (3 g a day. Max 4 g) for 7 days\n",
])
def test_an_aside_cut_by_a_semicolon_a_sentence_end_or_a_line_wrap_gives_no_item(plan: str) -> None:
    assert cellulitis_extras(plan) == [], plan


@pytest.mark.parametrize("plan", [
    "1. Ranitidine 150 mg BD, strict fluid balance (hourly urine output; catheter if needed)\n",
    "1. Oral flucloxacillin 1 g QDS (for\n   example clindamycin if she were allergic)\n2. Ranitidine 150 mg BD\n",
    "1. Elevate the leg (on pillows; at night too)\n2. Ranitidine 150 mg BD\n",
])
def test_an_unlisted_drug_outside_the_aside_stays_extra(plan: str) -> None:
    assert [e for e in cellulitis_extras(plan) if e.startswith("Ranitidine")], plan


# --- class 2: a dose, its limit, its time of day, an infusion ----------------------------------------------------


@pytest.mark.parametrize("plan", [
    "1. Paracetamol 1 g 6-hourly, max 4 doses/day\n",
    "1. Paracetamol 1 g 6-hourly, maximum 4 g a day\n",
    "1. **Paracetamol for the pain**: 1 g on waking, 1 g at midday, 1 g in the evening\n",
    "1. **Paracetamol**: 1 g at bedtime, 1 g at noon\n",
    "1. Oral flucloxacillin 1 g QDS; then an infusion if she is admitted\n",
])
def test_how_the_drug_before_is_dosed_or_timed_is_no_item(plan: str) -> None:
    assert cellulitis_extras(plan) == [], plan


@pytest.mark.parametrize(("plan", "drug"), [
    ("1. Omeprazole 20 mg at night\n", "Omeprazole"),
    ("1. Prednisolone 40 mg in the morning\n", "Prednisolone"),
    ("1. Paracetamol 1 g 6-hourly, max 4 doses/day\n2. Ranitidine 150 mg BD, 300 mg at night\n", "Ranitidine"),
    ("1. Heparin infusion at 18 units/kg/h\n", "Heparin"),
])
def test_an_unlisted_drug_with_its_time_of_day_or_infusion_stays_extra(plan: str, drug: str) -> None:
    assert [e for e in cellulitis_extras(plan) if e.startswith(drug)], plan


# --- class 3: a switch with no drug after its target ------------------------------------------------------------


@pytest.mark.parametrize("plan", [
    "1. Oral flucloxacillin 1 g QDS, replacing her usual ranitidine 150 mg\n",
    "1. Oral flucloxacillin 1 g QDS; replaced her omeprazole 20 mg last week\n",
    "1. IV flucloxacillin 2 g QDS; switch to oral when improving\n",
    "1. IV flucloxacillin 2 g QDS; change to oral once afebrile\n",
    "1. IV flucloxacillin 2 g QDS; convert to oral at 48 h\n",
])
def test_what_a_switch_stops_or_a_switch_of_route_is_no_item(plan: str) -> None:
    assert cellulitis_extras(plan) == [], plan


@pytest.mark.parametrize("plan", [
    "1. Change to oral ranitidine 150 mg BD\n",
    "1. Swap her omeprazole for ranitidine 150 mg BD\n",
    "1. Replace the omeprazole with ranitidine 150 mg BD\n",
])
def test_a_switch_to_an_unlisted_drug_stays_extra(plan: str) -> None:
    assert cellulitis_extras(plan), plan


# --- class 4: another choice -------------------------------------------------------------------------------------


@pytest.mark.parametrize("plan", [
    "1. Ranitidine or famotidine at night\n",
    "1. Ranitidine 150 mg BD or famotidine 20 mg BD\n",
])
def test_two_choices_are_one_extra_item(plan: str) -> None:
    assert len(cellulitis_extras(plan)) == 1, plan


@pytest.mark.parametrize("plan", [
    "1. Ranitidine and famotidine at night\n",
    "1. Ranitidine, famotidine at night\n",
    "1. Ranitidine 150 mg BD, then famotidine 20 mg BD\n",
])
def test_two_drugs_given_together_or_in_turn_stay_two_extra_items(plan: str) -> None:
    assert len(cellulitis_extras(plan)) == 2, plan


def test_a_choice_beside_a_listed_item_is_that_item() -> None:
    assert cellulitis_extras("1. Paracetamol or ranitidine for the pain\n") == []
