"""Failure classes (issue 32): the patient told to attend today ("Attend PD unit TODAY", "come to the
unit today") read as no same-day attendance, so that a plan with an antibiotic and a later review was read as
harmful home management. Tests in wording of their own, on another topic than the tuning set's cases (cellulitis),
with negative tests: an attendance on a later day, or only on a condition the record does not establish, still
leaves a home plan that meets the harmful item."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import actions
from tests.support.item_decision import item_decision as _decision

CELLULITIS = Path("cases/im-cellulitis-001.yaml")

# --- 1. "attend ... today" / "come to ... today": a same-day attendance, so no home management -----------------------

HOME = {"item": "Oral antibiotics at home with review in 48 hours", "class": "contraindicated"}


@pytest.mark.parametrize(("text", "decision"), [
    ("Plan:\n- Attend the ambulatory care unit TODAY - bring your tablets\n- Swab and bloods before abx\n"
     "- Review in clinic at 48 h\n", "not_found"),
    ("Plan:\n- Come to the hospital today for assessment\n- flucloxacillin 1 g qds orally after the first dose\n"
     "- Review in 2 days\n", "not_found"),
    # negatives: the attendance is on a later day, or only on a condition: the home plan is given
    ("Plan:\n- flucloxacillin 1 g qds orally at home\n- Attend the GP surgery in 2 days for review\n", "found"),
    ("Plan:\n- flucloxacillin 1 g qds orally\n- Attend ED only if the redness spreads past the line\n"
     "- Review in 48 h\n", "found"),
])
def test_attend_today_is_no_home_plan(tmp_path: Path, text: str, decision: str) -> None:
    assert _decision(tmp_path, CELLULITIS, "treatment", HOME, text) == decision


@pytest.mark.parametrize(("text", "acts"), [
    ("Attend the fracture clinic today", True),
    ("come in to the unit this afternoon", True),
    ("come to the assessment unit now", True),
    # negative: the word alone is no action of a team
    ("attended school last week", False),
])
def test_attendance_is_an_action(text: str, acts: bool) -> None:
    assert actions.read_action(text).acts is acts
