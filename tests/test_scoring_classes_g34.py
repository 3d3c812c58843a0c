"""Failure classes of brief g34 (issue 32): a restart or continuation of the patient's own drug is no dose given now
("restart levetiracetam 500 mg BD" is no "Second-line IV antiseizure drug now (levetiracetam 60 mg/kg ...)"). Each
test is in wording of its own, on other topics than the sets' cases, with plans that must still pass and wrong plans
that must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.support.case_yaml import with_item
from tests.test_scoring_regressions import rows

COPD = Path("cases/im-copd-exacerbation-001.yaml")
FIRST = "Emergency same-day hospital admission by ambulance"


def _rows(tmp_path: Path, item: str, text: str, kind: str = "treatment") -> dict[str, str]:
    case = load_valid_case(with_item(tmp_path, COPD, FIRST, item))
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), kind)


# --- 1. a restart or continuation of the patient's own drug is no dose now ----------------------------------------

STRESS = "Stress-dose IV steroid now (hydrocortisone 100 mg)"
STRESS_ITEM = (f"  - item: {STRESS}\n    class: required\n    weight: 2\n    within: immediately\n"
               "    route: intravenous\n    aliases: [IV hydrocortisone, hydrocortisone 100 mg IV]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Hydrocortisone 100 mg IV stat", True),
    ("Plan:\n- hydrocortisone 100mg IV now", True),
    ("Plan:\n- Restart her usual hydrocortisone 10 mg / 5 mg", False),
    ("Plan:\n- continue hydrocortisone 20 mg daily", False),
    ("Plan:\n- resume hydrocortisone tablets", False),
    ("Plan:\n- Hydrocortisone 100 mg IM tomorrow", False),
    ("Plan:\n- Do not give hydrocortisone", False),
])
def test_a_restart_of_the_own_drug_is_no_dose_now(tmp_path: Path, plan: str, given: bool):
    """Going back to the patient's own regimen ("restart", "continue") never meets an item that gives the drug now;
    the drug by the item's route and time still does, another route or time or a negation does not."""
    found = _rows(tmp_path, STRESS_ITEM, plan)
    assert (STRESS in found) is given, (plan, found)


RESTART = "Restart regular levothyroxine"
RESTART_ITEM = f"  - item: {RESTART}\n    class: required\n    weight: 1\n    aliases: [restart levothyroxine]\n"


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Restart levothyroxine 100 micrograms once daily", True),
    ("Plan:\n- Stop levothyroxine", False),
])
def test_an_item_that_restarts_is_still_met_by_a_restart(tmp_path: Path, plan: str, given: bool):
    """An item that is itself a restart is met by a restart of its drug."""
    found = _rows(tmp_path, RESTART_ITEM, plan)
    assert (RESTART in found) is given, (plan, found)
