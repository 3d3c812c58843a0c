"""A team contact's time said in the next comma piece of its clause ("refer to ophthalmology, to be seen in 2
weeks") is the contact's time: a same-day referral item is not met by it, a harmful routine referral is. Found on
set R's endophthalmitis case after its tuning (the safety hole: the comma piece was lost and the bare referral met
the same-day item); tested here on the bundled angle-closure and ectopic cases, with wording of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import rows

AACG = load_valid_case(Path("cases/oph-aacg-001.yaml"))
SAME_DAY = "Same-day emergency ophthalmology referral"


def _treatment(case, text: str) -> dict[str, str]:
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), "treatment")


@pytest.mark.parametrize(("plan", "met"), [
    ("Plan:\n- refer to ophthalmology, to be seen in 2 weeks", False),
    ("Plan:\n- refer to ophthalmology, routine", False),
    ("Plan:\n- refer to ophthalmology, next week", False),
    ("Plan:\n- refer to ophthalmology, within 2 weeks", False),
    # the contact's time today, or its own words timed, still meet it
    ("Plan:\n- refer to ophthalmology, seen today", True),
    ("Plan:\n- refer to ophthalmology today, review in 2 weeks", True),
    # a later piece that is another action keeps its time to itself
    ("Plan:\n- refer to ophthalmology today, start acetazolamide, review in 48 hours", True),
])
def test_a_contacts_time_in_the_next_comma_piece_is_its_own(plan: str, met: bool):
    found = _treatment(AACG, plan)
    assert (found.get(SAME_DAY) == "matched") is met, (plan, found)


ROUTINE = "Routine gynaecology outpatient referral"
ROUTINE_ITEM = (f"  - item: {ROUTINE}\n    class: contraindicated\n    weight: 2\n"
                "    aliases: [routine gynaecology referral]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- refer to gynaecology, to be seen in 2 weeks", True),
    ("Plan:\n- refer to gynaecology, routine", True),
    ("Plan:\n- refer to gynaecology, seen today", False),
])
def test_a_harmful_routine_referral_is_met_by_its_time_after_a_comma(tmp_path: Path, plan: str, given: bool):
    case = valid_case_with_item(tmp_path, Path("cases/obg-ectopic-001.yaml"), "Analgesia", ROUTINE_ITEM)
    found = _treatment(case, plan)
    assert (found.get(ROUTINE) == "contraindicated") is given, (plan, found)
