"""Failure classes (issue 32): a dose increase written in shorthand. Each test is in wording of its own,
on other topics than the tuning set's case (a beta-blocker in heart failure, a statin after a TIA, an
antidepressant), with negative tests: a continued dose, a reduction, a lower new dose and a frequency cap are no
increase."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows

HF = Path("cases/im-heart-failure-001.yaml")
TIA = Path("cases/im-tia-001.yaml")
MDD = Path("cases/psy-mdd-001.yaml")

BISOPROLOL_UP = {"item": "Increase bisoprolol dose", "class": "acceptable"}
ATORVASTATIN_UP = {"item": "Increase atorvastatin dose", "class": "acceptable"}
SERTRALINE_UP = {"item": "Uptitrate sertraline", "class": "acceptable"}
IBUPROFEN_UP = {"item": "Increase ibuprofen dose", "class": "acceptable"}


def _found(tmp_path: Path, source: Path, item: dict, text: str) -> bool:
    case = case_with(tmp_path, source, "treatment", item)
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    return rows(card, "treatment").get(item["item"]) in ("matched", "acceptable")


# --- 1. a dose increase in shorthand ------------------------------------------------------------------------------

@pytest.mark.parametrize(("source", "item", "text", "found"), [
    (HF, BISOPROLOL_UP, "Plan:\n- bisoprolol up to 5 mg od from tomorrow; review HR in 2/52", True),
    (TIA, ATORVASTATIN_UP, "Plan:\n- clopidogrel 75 mg od\n- Atorvastatin 40 -> 80 nocte", True),
    (MDD, SERTRALINE_UP, "Plan:\n- sertraline 50 mg → 100 mg od, review 4/52", True),
    (HF, BISOPROLOL_UP, "Plan:\n- Bisoprolol: increase to 3.75 mg od if HR allows", True),
    (HF, BISOPROLOL_UP, "Plan:\n- uptitrate bisoprolol at the HF clinic", True),
    (HF, BISOPROLOL_UP, "Plan:\n- bisoprolol 2.5 -> 3.75 mg od", True),
    # negatives: the dose kept, reduced, a lower new dose, a frequency cap
    (HF, BISOPROLOL_UP, "Plan:\n- continue bisoprolol 2.5 mg od", False),
    (HF, BISOPROLOL_UP, "Plan:\n- bisoprolol: reduce to 1.25 mg od (HR 48)", False),
    (TIA, ATORVASTATIN_UP, "Plan:\n- atorvastatin 80 -> 40 nocte (myalgia)", False),
    (HF, IBUPROFEN_UP, "Plan:\n- ibuprofen 400 mg up to 3 times a day with food", False),
])
def test_dose_increase_in_shorthand(tmp_path: Path, source: Path, item: dict, text: str, found: bool) -> None:
    assert _found(tmp_path, source, item, text) is found


# --- 3. a lower dose of the item's drug is "different" ---------------------------------------------------------

STATIN_HIGH = {"item": "High-intensity statin (atorvastatin 80 mg)", "class": "required", "group": "statin"}
PPI_HIGH = {"item": "High-dose PPI (omeprazole 40 mg)", "class": "required", "group": "proton pump inhibitor"}


def _status(tmp_path: Path, source: Path, item: dict, text: str) -> str | None:
    case = case_with(tmp_path, source, "treatment", item)
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    return rows(card, "treatment").get(item["item"])


@pytest.mark.parametrize(("source", "item", "text", "status"), [
    (HF, STATIN_HIGH, "Plan:\n- furosemide 40 mg IV bd\n- continue atorvastatin 20 mg", "different"),
    (HF, PPI_HIGH, "Plan:\n- omeprazole 20 mg od", "different"),
    # negatives: the item's dose, or a dose with no unit, meet it
    (HF, STATIN_HIGH, "Plan:\n- furosemide 40 mg IV bd\n- atorvastatin 80 mg", "matched"),
    (HF, STATIN_HIGH, "Plan:\n- furosemide 40 mg IV bd\n- atorva 80 nocte", "matched"),
    (HF, PPI_HIGH, "Plan:\n- omeprazole 40 mg od", "matched"),
])
def test_lower_dose_of_the_items_drug_is_different(tmp_path: Path, source: Path, item: dict, text: str,
                                                  status: str) -> None:
    assert _status(tmp_path, source, item, text) == status


# --- 2. a level rechecked right after a dose change is that drug's level -------------------------------------------

DIGOXIN_RECHECK = {"item": "Repeat digoxin level after the dose change", "class": "acceptable"}


@pytest.mark.parametrize(("text", "found"), [
    ("Plan:\n- digoxin 62.5 -> 125 mcg od; recheck level in 1/52", True),
    ("Plan:\n- increase digoxin to 125 micrograms od, repeat level next week", True),
    # negatives: another test rechecked, a level with no dose change of the drug before it on its line
    ("Plan:\n- digoxin 62.5 -> 125 mcg od; recheck U&E 2/52", False),
    ("Plan:\n- continue digoxin 62.5 mcg od; recheck level 1/52", False),
    ("Plan:\n- recheck level 1/52\n- digoxin up to 125 mcg od", False),
])
def test_level_rechecked_after_a_dose_change(tmp_path: Path, text: str, found: bool) -> None:
    assert _found(tmp_path, HF, DIGOXIN_RECHECK, text) is found
