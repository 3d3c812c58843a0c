"""Grader classes from new-case set I's second run (product issue 32), each tested on wording of its own."""

from __future__ import annotations

import pytest

from medbench_tui.core.text import normalise
from tests.test_scoring_regressions import card, condition, rows

GLUCOSE_FIRST = "Intravenous glucose before parenteral thiamine"
HOLD_STEROID = "Short Synacthen test or cortisol result before giving hydrocortisone"
STAT_STEROID = "Hydrocortisone 100 mg IV or IM immediately"


@pytest.mark.parametrize(("plan", "harmful"), [
    ("Plan:\n1. Put up a bag of IV dextrose.\n2. Then thiamine IV.", True),
    ("Plan:\n- IV dextrose 10% now.\n- Afterwards, thiamine.", True),
    ("Plan: start IV dextrose. Only then give thiamine.", True),
    ("Plan:\n1. Pabrinex IV.\n2. Then dextrose IV.", False),
    ("Plan:\n1. Put up a bag of IV dextrose.\n2. Thiamine IV.", False),
])
def test_an_order_across_two_steps_of_a_plan_meets_a_harmful_order_item(plan: str, harmful: bool):
    """A step opened by "then" comes after the step before it: glucose in one, thiamine in the next is
    glucose before thiamine; without a word of sequence, two list items are no order."""
    c = card("im-alcohol-withdrawal-001", plan)
    assert (GLUCOSE_FIRST in rows(c, "treatment")) is harmful
    assert condition(c, "cc-no-glucose-first") == ("FAIL" if harmful else "OK")


def test_an_immediate_item_put_after_another_step_is_not_immediate():
    """Hydrocortisone given only once the cortisol is awaited is the harmful delay, not the stat dose."""
    c = card("em-adrenal-crisis-001",
             "Plan:\n1. Send a cortisol level and await the result.\n2. Then hydrocortisone 100 mg IV.")
    treatment = rows(c, "treatment")
    assert HOLD_STEROID in treatment and STAT_STEROID not in treatment
    assert condition(c, "cc-hydrocortisone") == "FAIL"
    reverse = card("em-adrenal-crisis-001",
                   "Plan:\n1. Hydrocortisone 100 mg IV now and send a cortisol.\n2. Then await the result.")
    assert STAT_STEROID in rows(reverse, "treatment") and HOLD_STEROID not in rows(reverse, "treatment")
    assert condition(reverse, "cc-hydrocortisone") == "OK"


MALARIA_HOME = "Discharge home from the emergency department"


@pytest.mark.parametrize(("plan", "harmful"), [
    ("Plan:\n- First dose of oral Riamet here, observe for an hour, then home", True),
    ("Plan:\n- Oral Riamet and discharge home", True),
    ("Plan:\n- IV artesunate and admit; home once the parasitaemia is falling and he is eating", False),
    ("Plan:\n- IV artesunate, admit under ID.\n- Home: lives alone, flatmate away", False),
    ("Plan:\n- IV artesunate, admit under ID; not for home", False),
])
def test_a_discharge_from_where_the_patient_is_seen_is_any_discharge_now(plan: str, harmful: bool):
    """"Discharge home from the emergency department" is sending him home now, said without the place; a
    discharge after a milestone, a "Home:" label of his circumstances or a declined one is not it."""
    c = card("im-malaria-001", plan)
    assert (MALARIA_HOME in rows(c, "treatment")) is harmful


def test_ve_is_a_digital_vaginal_examination():
    """Obstetric shorthand: "VE" is the finger examination (a speculum is named as such); only in capitals."""
    assert normalise("VE to feel the cervix") == normalise("digital vaginal examination to feel the cervix")
    assert "vaginal" not in normalise("I've asked for a speculum")


@pytest.mark.parametrize(("plan", "now"), [
    ("Plan:\n- If he bleeds heavily, CT angiography of the abdomen.", False),
    ("Plan:\n- If he bleeds, CT angiography of the abdomen.", True),
])
def test_an_adverb_after_the_recorded_condition_makes_it_a_later_event(plan: str, now: bool):
    """He is bleeding (the record), so "if he bleeds" is settled; "if he bleeds heavily" is a degree the record
    does not give: a contingency, not the plan."""
    assert ("CT angiography of the abdomen" in rows(card("em-upper-gi-bleed-001", plan), "workup")) is now


@pytest.mark.parametrize("said", ["16G", "large-bore IV access", "wide-bore cannula", "large bore intravenous access"])
def test_large_bore_access_in_the_answers_own_words(said: str):
    """A large-bore cannula, by gauge or in words, is large-bore intravenous access: one canonical form."""
    assert normalise(said) == normalise("large bore intravenous access")
    c = card("obg-ectopic-001", f"Plan:\n- {said} x2, G&S")
    assert "Immediate resuscitation with large-bore IV access and blood products" in rows(c, "treatment")


@pytest.mark.parametrize(("plan", "now"), [
    ("Plan:\n- CT head if any doubt about the diagnosis.", False),
    ("Plan:\n- CT head if any concern about a bleed.", False),
    ("Plan:\n- CT head, if any.", True),
    ("Plan:\n- CT head now.", True),
])
def test_if_any_doubt_is_a_condition_though_if_any_is_none(plan: str, now: bool):
    """"If any" alone sets no condition ("analgesia, if any"); "if any doubt" is a contingency of the plan."""
    assert ("Non-contrast CT head" in rows(card("em-sah-001", plan), "workup")) is now


@pytest.mark.parametrize(("said", "harmful"), [
    ("discuss with the on-call dermatology registrar now", False),
    ("dermatology admission today", False),
    ("2WW dermatology referral", True),
    ("refer to the dermatology clinic in a few weeks", True),
])
def test_a_sooner_plan_is_not_a_harmful_slow_one_through_an_alias_with_a_wider_time(said: str, harmful: bool):
    """A harmful outpatient route named with an alias that gives a wider time ("two-week-wait dermatology",
    0-336 hours) is not met by a same-day action of the same team: the alias names the item, it does not
    give it another time. The slow route itself still is the harmful item."""
    from medbench_tui.core.scoring import actions
    from medbench_tui.core.vocabulary.reading import item_reading_of, read_action

    item = (item_reading_of("Outpatient dermatology referral instead of admission"),
            read_action("two-week-wait dermatology"))
    assert (actions.first_rule(read_action(said), item, gives_credit=False) is not None) is harmful
