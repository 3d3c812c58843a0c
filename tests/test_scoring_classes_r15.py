"""Grader classes of harmful plans from set I and J's flawed answers, each tested on wording of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import valid_case_with_item
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


TORSION = Path("tests/data/newcases-e/cases/nce-ovarian-torsion-001.yaml")
DELAY_FOR_FASTING = "Delay detorsion until she has fasted"


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan: NBM, analgesia. Starve her for 6 hours, then laparoscopy.", True),
    ("Plan: morphine. She is to remain fasted for 4 h before the anaesthetic.", True),
    ("Plan: NBM, morphine. No need to starve her for 6 hours: laparoscopy now.", False),
    ("Plan: keep fasted, morphine, emergency laparoscopy now.", False),
])
def test_a_fast_of_stated_hours_before_an_emergency_procedure_is_the_delay(tmp_path: Path, plan: str, given: bool):
    item = f"  - item: {DELAY_FOR_FASTING}\n    class: contraindicated\n"
    delayed = valid_case_with_item(tmp_path, TORSION, "Antiemetic", item)
    scored = score(delayed, Transcript(case_id=delayed.id, final=FinalResponse(text=plan)))
    assert (DELAY_FOR_FASTING in rows(scored, "treatment")) is given
