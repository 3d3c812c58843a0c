"""A test named with its specimen is one list item: it neither takes the next item of the list into a urine
result nor becomes another test of the same specimen (grading.md)."""

from __future__ import annotations

from tests.test_scoring_regressions import card, extras, rows


def test_a_urine_test_keeps_to_itself_and_the_next_blood_test_counts():
    for plan in ("Investigations: urine ketone test, FBC, U&E.", "Investigations: urinalysis, FBC and U&E."):
        got = rows(card("em-renal-colic-001", plan), "workup")
        assert "Full blood count" in got, plan
        assert "Urea, creatinine and electrolytes" in got, plan


def test_a_urine_test_of_its_own_analyte_is_not_the_urinalysis():
    c = card("em-renal-colic-001", "Investigations: urine ketone test, FBC.")
    assert "Urinalysis" not in rows(c, "workup")
    assert "urine ketone test" in extras(c, "workup")


def test_an_analyte_in_a_urine_result_is_still_no_blood_test():
    c = card("em-renal-colic-001", "Urine dip showed blood 2+, FBC normal.")
    assert "Urinalysis" in rows(c, "workup")


def test_a_urine_sample_sent_for_culture_is_still_the_culture():
    c = card("em-renal-colic-001", "Plan: urine sent for culture.")
    assert "Urine culture" in rows(c, "workup")
