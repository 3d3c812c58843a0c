"""A negation inside brackets is said of the word before them (a result or a reason) and reaches no further
than the closing bracket: the items listed after it are not negated."""

from __future__ import annotations

from tests.test_scoring_regressions import card, rows


def test_a_negated_result_in_brackets_does_not_negate_the_rest_of_the_list():
    text = "New T2DM. Bloods: ketones (checked, not raised), renal profile, cholesterol, urine albumin:creatinine."
    c = card("im-t2dm-001", text)
    found = rows(c, "workup")
    assert "Urea and electrolytes with eGFR" in found
    assert "Lipid profile" in found


def test_a_negated_reason_in_brackets_does_not_negate_the_next_drug():
    c = card("im-t2dm-001", "Metformin 500 mg (no contraindication), DESMOND, diabetic eye screening.")
    given = rows(c, "treatment")
    assert "Metformin" in given
    assert "Structured diabetes education programme" in given
    assert "Referral to diabetic eye screening" in given


def test_a_negation_before_a_bracket_still_covers_a_closed_list():
    c = card("im-t2dm-001", "Diabetes. No metformin (she refuses), gliclazide or insulin for now.")
    assert "Metformin" not in rows(c, "treatment")
