"""Failure classes (issue 32): one reading reported is no monitoring that goes on ("SpO2 86%" is no
"Continuous cardiac and oxygen saturation monitoring"). Each test is in wording of its own, on other topics than the
sets' cases, with plans that must still pass and wrong plans that must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_yaml, load_data, valid_case_with_item
from tests.test_scoring_regressions import rows

COPD = Path("cases/im-copd-exacerbation-001.yaml")


def _workup(tmp_path: Path, item: dict, text: str) -> dict[str, str]:
    data = case_yaml(COPD)
    data["workup"].append(item)
    case = load_data(tmp_path, COPD, data)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), "workup")


# --- 1. one reading reported is no monitoring that goes on ---------------------------------------------------------

URINE = "Hourly urine output monitoring via catheter"
URINE_ITEM = {"item": URINE, "class": "required", "weight": 1,
              "aliases": ["urine output", "UO monitoring", "fluid balance chart"]}
CARDIAC = "Continuous cardiac monitoring and pulse oximetry"
CARDIAC_ITEM = {"item": CARDIAC, "class": "required", "weight": 1,
                "aliases": ["pulse oximetry", "cardiac monitor", "telemetry"]}
ONE_OFF = "Capillary blood glucose"


@pytest.mark.parametrize(("item", "name", "plan", "given"), [
    (URINE_ITEM, URINE, "Catheterised: UO 15 mL/h over the last 2 h.\nPlan:\n- IV fluids", False),
    (URINE_ITEM, URINE, "Plan:\n- catheter, hourly UO", True),
    (URINE_ITEM, URINE, "Plan:\n- urine output 20 mL/h so far, measure it hourly", True),
    (URINE_ITEM, URINE, "Plan:\n- strict fluid balance chart", True),
    (URINE_ITEM, URINE, "Plan:\n- no need to monitor urine output", False),
    (CARDIAC_ITEM, CARDIAC, "Obs: HR 118, sats 89% on air, RR 26.\nPlan:\n- oxygen", False),
    (CARDIAC_ITEM, CARDIAC, "Plan:\n- on a cardiac monitor, continuous SpO2 monitoring", True),
    (CARDIAC_ITEM, CARDIAC, "Plan:\n- sats 89% - continuous oximetry on the ward", True),
    (CARDIAC_ITEM, CARDIAC, "Plan:\n- telemetry", True),
])
def test_one_reading_is_no_ongoing_monitoring(tmp_path: Path, item: dict, name: str, plan: str, given: bool):
    """An item of monitoring that goes on (its name says continuous, monitoring, hourly) is not met by a value its
    measure reports ("UO 15 mL/h", "sats 89%"): monitoring words, a frequency or the item's own words are needed; a
    negation still fails."""
    found = _workup(tmp_path, item, plan)
    assert (name in found) is given, (plan, found)


@pytest.mark.parametrize(("plan", "given"), [
    ("Obs: CBG 3.1 on arrival.\nPlan:\n- glucose", True),
])
def test_a_one_off_test_is_still_reported_by_its_value(tmp_path: Path, plan: str, given: bool):
    """A test that is no monitoring ("Capillary blood glucose") is still done when the answer reports its value."""
    found = _workup(tmp_path, {"item": "Urinalysis", "class": "acceptable"}, plan)
    assert (ONE_OFF in found) is given, (plan, found)


# --- 2. a maintenance regimen is no loading dose given now ---------------------------------------------------------

FIRST = "Emergency same-day hospital admission by ambulance"
LOADING = "Second-line IV bronchodilator now (aminophylline 5 mg/kg up to 500 mg)"
LOADING_ITEM = (f"  - item: {LOADING}\n    class: required\n    weight: 2\n    within: immediately\n"
                "    route: intravenous\n"
                "    aliases: [IV aminophylline, aminophylline 5 mg/kg, aminophylline loading dose]\n")
SALBUTAMOL = "Salbutamol via spacer or nebuliser"


def _treatment(tmp_path: Path, text: str) -> dict[str, str]:
    case = valid_case_with_item(tmp_path, COPD, FIRST, LOADING_ITEM)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), "treatment")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- aminophylline 225 mg BD", False),
    ("Plan:\n- Aminophylline 225 mg twice daily", False),
    ("Plan:\n- aminophylline 5 mg/kg IV over 20 min now", True),
    ("Plan:\n- aminophylline 350 mg IV stat", True),
    ("Plan:\n- aminophylline 5 mg/kg IM now", False),
    ("Plan:\n- aminophylline 5 mg/kg IV tomorrow", False),
    ("Plan:\n- no aminophylline", False),
])
def test_a_maintenance_regimen_is_no_loading_dose(tmp_path: Path, plan: str, given: bool):
    """An item that gives a loading dose now (a weight-based dose or "loading" in its name, timed within the hour) is
    not met by its drug at a regular frequency with no route and no time of now ("225 mg BD"); the drug by the item's
    route and time still is, another route or time or a negation is not."""
    found = _treatment(tmp_path, plan)
    assert (LOADING in found) is given, (plan, found)


def test_a_regular_frequency_still_meets_an_item_of_no_loading(tmp_path: Path):
    """An item that is no loading dose ("Salbutamol via spacer or nebuliser") is still met at a regular frequency."""
    found = _treatment(tmp_path, "Plan:\n- salbutamol 2.5 mg nebs QDS")
    assert SALBUTAMOL in found, found
