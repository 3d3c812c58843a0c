"""Grader classes from new-case set I's second run (product issue 32), each tested on wording of its own."""

from __future__ import annotations

import pytest

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
