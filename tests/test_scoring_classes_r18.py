"""Failure classes of the labelled answer sets (round 18): each test is in wording of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.home import home_management
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import rows

QUINSY = Path("cases/em-quinsy-001.yaml")
HOME_CLARITHROMYCIN = "Oral macrolide at home with GP review in three days"
HYPONATRAEMIA = Path("cases/im-hyponatraemia-001.yaml")
HOME_SALT = "Salt tablets at home with repeat sodium in a fortnight"


@pytest.mark.parametrize(("name", "home"), [
    ("Oral steroids at home with review next week", True),
    ("Keep at home (ibuprofen, see again in 3 days)", True),
    ("Discharge home as a viral illness", False),
    ("Home oxygen assessment", False),
])
def test_an_item_of_a_treatment_at_home_is_a_home_plan(name: str, home: bool):
    """Only an item that gives a treatment "at home" is read as home management."""
    assert (home_management(name) is not None) is home, name


@pytest.mark.parametrize(("plan", "harmful"), [
    ("Plan:\n- Clarithromycin 500 mg BD for a week\n- Ibuprofen regularly\n- See her in surgery in 3 days.", True),
    ("Clarithromycin 500 mg twice daily. Repeat review with me on Friday, in 4 days.", True),
    ("Admit under ENT today. Clarithromycin 500 mg BD. Review on the ward in 3 days.", False),
    ("Same-day ENT referral for drainage; clarithromycin 500 mg BD, ENT review in 3 days.", False),
    ("Clarithromycin 500 mg BD. Return if worse.", False),
    ("IV clarithromycin 500 mg BD, fluids, review in 3 days.", False),
    ("Aspirate the abscess. Once swallowing, home on clarithromycin 500 mg BD; ENT review in 3 days.", False),
    ("Clarithromycin 500 mg BD and discharge home; clinic review in 3 days.", True),
    ("Refer to ENT. Clarithromycin 500 mg BD. Review in 3 days.", False),
    ("Send to hospital now. Clarithromycin by mouth later; review in 3 days.", False),
])
def test_a_treatment_given_with_no_admission_and_a_later_review_is_home_management(
        tmp_path: Path, plan: str, harmful: bool):
    """The treatment of a home-management item, given in a plan that admits and refers nobody today and reviews
    on a later day, is that item; an admission, a same-day referral, no later review or another route is not."""
    item = f"  - item: {HOME_CLARITHROMYCIN}\n    class: contraindicated\n    aliases: [macrolide at home]\n"
    case = valid_case_with_item(tmp_path, QUINSY, "Smoking cessation advice", item)
    scored = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (HOME_CLARITHROMYCIN in rows(scored, "treatment")) is harmful, plan


@pytest.mark.parametrize(("plan", "harmful"), [
    ("Not for admission. Salt tablets 1 g TDS, repeat sodium in two weeks.", True),
    ("Admit to the medical ward; salt tablets 1 g TDS; recheck sodium in two weeks.", False),
    ("Fluid restriction. Recheck sodium in 2 weeks.", False),
])
def test_a_home_treatment_of_words_is_met_by_all_its_words(tmp_path: Path, plan: str, harmful: bool):
    """A home treatment no drug names ("salt tablets") is met by a clause holding all its words."""
    item = f"  - item: {HOME_SALT}\n    class: contraindicated\n    aliases: [salt tablets at home]\n"
    case = valid_case_with_item(tmp_path, HYPONATRAEMIA, "Stop sertraline", item)
    scored = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (HOME_SALT in rows(scored, "treatment")) is harmful, plan
