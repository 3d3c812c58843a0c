"""Grader classes of harmful plans from set I and J's flawed answers, each tested on wording of its own."""

from __future__ import annotations

import pytest

from tests.test_scoring_regressions import card, rows

CAMHS_BEFORE_DISCHARGE = "Psychosocial assessment by CAMHS before discharge"


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan: IV acetylcysteine now. Home when the course is done; her GP to refer her to CAMHS.", False),
    ("Plan: IV acetylcysteine now. CAMHS referral through her GP after discharge.", False),
    ("Plan: IV acetylcysteine now. CAMHS assessment before discharge.", True),
    ("Plan: IV acetylcysteine now. Refer to CAMHS.", True),
])
def test_a_referral_the_gp_makes_after_discharge_is_no_assessment_before_it(plan: str, given: bool):
    treatment = rows(card("em-paracetamol-overdose-001", plan), "treatment")
    assert (CAMHS_BEFORE_DISCHARGE in treatment) is given
