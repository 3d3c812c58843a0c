"""Teams a new case's author names (perinatal psychiatry, interventional radiology, midwifery...): a case may
point an item at them with `target`, and an answer meets the item in any of the team's names."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.support.case_yaml import valid_case_with_item, with_item
from tests.test_scoring_regressions import rows

CHOLECYSTITIS = Path("cases/sur-cholecystitis-001.yaml")


def _given(tmp_path: Path, item: str, name: str, plan: str) -> bool:
    case = valid_case_with_item(tmp_path, CHOLECYSTITIS, "Analgesia", item)
    scored = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    return rows(scored, "treatment").get(name) in {"matched", "acceptable"}


PERINATAL = "Same-day assessment by the perinatal mental health team"


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan: ask the perinatal psychiatry team to see her today.", True),
    ("Plan: urgent referral to the mother and baby unit today.", True),
    ("Plan: perinatal mental health team to assess this afternoon.", True),
    ("Plan: routine referral to perinatal mental health services, seen in 6 weeks.", False),
])
def test_a_perinatal_team_is_met_in_any_of_its_names_and_not_at_a_later_time(
        tmp_path: Path, plan: str, given: bool):
    item = (f"  - item: {PERINATAL}\n    class: required\n    within: same day\n"
            "    target: perinatal psychiatry\n")
    assert _given(tmp_path, item, PERINATAL, plan) is given


EMBOLISATION = "Discussion with interventional radiology"


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan: discuss with the interventional radiologist on call.", True),
    ("Plan: IR team aware.", True),
    ("Plan: discuss with the general surgeons.", False),
])
def test_interventional_radiology_is_a_team(tmp_path: Path, plan: str, given: bool):
    item = f"  - item: {EMBOLISATION}\n    class: acceptable\n    target: interventional radiology\n"
    assert _given(tmp_path, item, EMBOLISATION, plan) is given


@pytest.mark.parametrize("team", ["mother and baby unit", "midwifery", "health visitor", "SALT", "NPIS",
                                  "district nurses", "audiology", "fetal medicine unit", "burns unit"])
def test_a_service_named_as_an_item_target_is_known(tmp_path: Path, team: str):
    item = f"  - item: Referral to the service\n    class: acceptable\n    target: {team}\n"
    load_valid_case(with_item(tmp_path, CHOLECYSTITIS, "Analgesia", item))  # the validator accepts it
