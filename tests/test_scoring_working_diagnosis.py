"""Under a diagnosis heading, a condition that opens a bracket (hedges aside) is the working diagnosis the
bracket states, even when the cue before the bracket puts another mention on the differential."""

from __future__ import annotations

from tests.test_scoring_regressions import card, rows

PE = "Pulmonary embolism without acute cor pulmonale"


def test_a_hedged_condition_opening_a_bracket_is_the_working_diagnosis():
    for said in ("probable pulmonary embolism, Wells high", "likely pulmonary embolism", "?PE"):
        c = card("em-pe-001", f"Assessment: Pulmonary embolism must be ruled out ({said}). Plan: CTPA.")
        assert PE in rows(c, "diagnoses"), said


def test_a_bracket_without_a_hedge_or_after_a_final_stays_a_differential():
    c = card("em-pe-001", "Assessment: Pulmonary embolism must be ruled out (pleurisy). Plan: CTPA.")
    assert PE not in rows(c, "diagnoses")
    c = card("em-pe-001", "Impression: Pleuritic chest pain from pneumonia (possible pulmonary embolism). Plan: CTPA.")
    assert PE not in rows(c, "diagnoses")
    assert PE in rows(c, "differential")
