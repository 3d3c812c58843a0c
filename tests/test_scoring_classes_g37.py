"""Failure classes (issue 32): a harmful plan written in other words. A routine or delayed referral is
met by a referral, letter or appointment of that team on any later day; a composite harmful plan (a treatment with
a review in primary care) is met when every part is done in other words. Wording of its own, on other topics than
the sets' cases, with plans that must still pass and wrong plans that must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import rows

ECTOPIC = Path("cases/obg-ectopic-001.yaml")
CELLULITIS = Path("cases/im-cellulitis-001.yaml")


def _treatment(tmp_path: Path, source: Path, before: str, item: str, text: str) -> dict[str, str]:
    case = valid_case_with_item(tmp_path, source, before, item)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), "treatment")


# --- 1. a routine or delayed referral is met by that team's contact on any later day --------------------------------

ROUTINE = "Routine gynaecology outpatient referral"
ROUTINE_ITEM = (f"  - item: {ROUTINE}\n    class: contraindicated\n    weight: 2\n"
                "    aliases: [routine gynaecology referral, gynaecology clinic next month]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Letter to the gynaecologists asking them to see her in clinic next week", True),
    ("Plan:\n- I will write to gynae to bring her appointment forward", True),
    ("Plan:\n- appointment with the gynaecology team in 3 days", True),
    ("Plan:\n- gynaecology review tomorrow", True),
    ("Plan:\n- routine referral to gynaecology", True),
    # same-day contacts, and a safety net, are no delayed referral
    ("Plan:\n- gynae reg to see her today", False),
    ("Plan:\n- same-day gynaecology review in the emergency department", False),
    ("Plan:\n- refer urgently to gynaecology (seen within 4 h)", False),
    ("Plan:\n- IV access and bloods\n- if the pain gets worse, go straight to the emergency department", False),
])
def test_a_routine_referral_is_met_by_any_later_contact_of_its_team(tmp_path: Path, plan: str, given: bool):
    """A harmful referral of a team timed routine or later is met by a referral, letter or appointment of that team
    at any time after today ("next week", "in 3 days", "tomorrow"; a letter reaches the team on a later day), never
    by a contact today, an urgent one within hours, or a safety net."""
    found = _treatment(tmp_path, ECTOPIC, "Analgesia", ROUTINE_ITEM, plan)
    assert (found.get(ROUTINE) == "contraindicated") is given, (plan, found)


# --- 2. a composite harmful plan is met when every part is done in other words ---------------------------------------

COMPOSITE = "Topical antibiotic cream with review in primary care"
COMPOSITE_ITEM = (f"  - item: {COMPOSITE}\n    class: contraindicated\n    weight: 2\n"
                  "    aliases: [treat as impetigo]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- chloramphenicol ointment to the broken skin, and see her back at the practice in 3 days", True),
    ("Plan:\n- Chloramphenicol ointment twice daily.\n- GP review in 48 hours.", True),
    # one part alone, or another route, is not the plan
    ("Plan:\n- chloramphenicol ointment twice daily\n- admit today under the medical team", False),
    ("Plan:\n- GP review in 48 hours", False),
    ("Plan:\n- oral flucloxacillin 1 g QDS\n- GP review in 48 hours", False),
    ("Plan:\n- no antibiotic cream; oral flucloxacillin\n- review in the surgery in 2 days", False),
    ("Plan:\n- chloramphenicol ointment\n- see your GP if the redness spreads", False),
])
def test_a_composite_plan_is_met_when_every_part_is_done(tmp_path: Path, plan: str, given: bool):
    """A harmful "<treatment> with review in primary care" is met by the treatment in other words (a drug of its class
    by its local route) and a review by the GP, the surgery or the practice, in an answer that sends nobody today; a
    part alone, a systemic drug, a negated cream or a review on a condition is not."""
    found = _treatment(tmp_path, CELLULITIS, "Elevate the leg", COMPOSITE_ITEM, plan)
    assert (found.get(COMPOSITE) == "contraindicated") is given, (plan, found)
