"""Grader classes of g80 (issue 32, set AA): under a differential heading a test's or analyte's short name that
is the first part of a condition's name ("B12 def", "STEC-HUS") is the condition, never the test.

Wording of our own, on tiredness in primary care (not the tuning set's topics)."""

from __future__ import annotations

import pytest

from tests.test_scoring_regressions import card, rows

B12 = "Vitamin B12 and folate"
VITAMIN_D = "Vitamin D"
TFT = "Thyroid function tests"


def _workup(text: str) -> dict[str, str]:
    return rows(card("im-tiredness-001", text), "workup")


@pytest.mark.parametrize(("text", "item"), [
    ("Imp: tired all the time.\nDdx: hypothyroidism, B12 def, depression.\nPlan: FBC, ferritin, TFTs.", B12),
    ("Imp: fatigue.\nDifferential: B12 deficiency; coeliac disease.\nPlan: FBC and TFTs.", B12),
    ("Imp: fatigue.\nDifferential diagnosis:\n- vitamin D deficient\n- OSA\nPlan: FBC.", VITAMIN_D),
    ("Imp: fatigue.\nDdx: TSH-secreting adenoma (unlikely), depression.\nPlan: FBC, ferritin.", TFT),
])
def test_a_condition_named_by_a_tests_short_name_under_a_differential_heading_is_no_test(text, item):
    assert item not in _workup(text)


@pytest.mark.parametrize(("text", "item"), [
    ("Imp: fatigue.\nDdx: pernicious anaemia.\nInvestigations: B12 level, folate, FBC.", B12),   # the test itself
    ("Imp: fatigue.\nDdx: B12 def.\nPlan: check B12 and folate, FBC.", B12),  # the test named in the plan as well
    ("Imp: fatigue.\nDdx: hypothyroidism, depression.\nPlan: TFTs, FBC.", TFT),
])
def test_the_test_itself_is_still_found(text, item):
    assert item in _workup(text)


def test_def_outside_a_diagnosis_stays_as_written():
    # 'def' is read as 'deficiency' only in a diagnosis or differential; a plan's 'def' names no condition
    assert B12 in _workup("Imp: fatigue.\nPlan: B12 def to be excluded - send B12 and folate.")
