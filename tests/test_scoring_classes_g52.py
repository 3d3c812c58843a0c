"""Failure classes (issue 32): terse notes that name a service by its everyday name or leave a drug
out in drug-chart words. Each test is in wording of its own, on other topics than the tuning set's cases, with
plans that must still pass and wrong plans that must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows

BLEED = Path("cases/em-upper-gi-bleed-001.yaml")
LAB = "Inform the hospital transfusion laboratory immediately"
WARFARIN = "Withhold warfarin"
DALTEPARIN = "Hold dalteparin"


def _rows(tmp_path: Path, text: str, item: dict) -> dict[str, str]:
    case = case_with(tmp_path, BLEED, "treatment", item)
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    return rows(card, "treatment")


# --- 1. a service called by its everyday name is that service ------------------------------------------------------

LAB_ITEM = {"item": LAB, "class": "required", "weight": 2, "within": "immediately"}


@pytest.mark.parametrize(("line", "met"), [
    ("Blood bank rang now - 4 units O neg + XM", True),
    ("Telephoned the transfusion lab now re: massive haemorrhage", True),
    ("Transfusion lab aware now", True),
    ("Inform blood bank tomorrow", False),  # not immediate
    ("Blood bank sample sent", False),  # a test sent, no contact
    ("Haem reg phoned now", False),  # the haematologists are not the laboratory
])
def test_a_service_by_its_everyday_name(tmp_path: Path, line: str, met: bool):
    """"Blood bank" and "transfusion lab" are the hospital transfusion laboratory (teams.yaml), and a contact word
    ("rang", "telephoned", "aware") with "now" is its contact now; tomorrow is not immediate, a sample sent to it
    contacts no one, and another team told is not it."""
    got = _rows(tmp_path, f"Imp: upper GI bleed.\nPlan:\n- {line}\n", LAB_ITEM)
    assert (LAB in got) is met, (line, got)


# --- 3. an order to omit a drug is its withholding -----------------------------------------------------------------

@pytest.mark.parametrize(("line", "held"), [
    ("Omit warfarin (due tonight)", True),
    ("Skip warfarin this evening", True),
    ("Don't give warfarin", True),
    ("Omit nothing, continue all regular meds", False),
    ("Restart warfarin", False),
    ("Continue warfarin", False),
])
def test_omit_or_skip_is_a_withholding(tmp_path: Path, line: str, held: bool):
    """"Omit" and "skip" before a drug withhold it as "hold" does (concepts.yaml withhold_cues); "omit nothing" holds
    no drug, a restart or a continuation none either."""
    got = _rows(tmp_path, f"Imp: upper GI bleed.\nPlan:\n- IV fluids\n- {line}\n",
                {"item": WARFARIN, "class": "required", "weight": 1})
    assert (WARFARIN in got) is held, (line, got)


@pytest.mark.parametrize(("item", "line", "held"), [
    (DALTEPARIN, "Hold dalteparin tonight", True),
    (DALTEPARIN, "Omit dalteparin this evening", True),
    (DALTEPARIN, "Give dalteparin tonight", False),
    ("Stop dalteparin", "Hold dalteparin tonight", False),  # one dose held is no stop
    ("Stop dalteparin", "Stop dalteparin", True),
])
def test_a_hold_of_one_dose_meets_an_item_that_holds(tmp_path: Path, item: str, line: str, held: bool):
    """An item that itself holds ("Hold X", "Omit X") is met by a hold of one dose ("tonight"); an item that stops
    is not (as g40's "Hold the ramipril this morning" is no "Stop ramipril")."""
    got = _rows(tmp_path, f"Imp: upper GI bleed.\nPlan:\n- IV fluids\n- {line}\n",
                {"item": item, "class": "acceptable"})
    assert (item in got) is held, (line, got)
