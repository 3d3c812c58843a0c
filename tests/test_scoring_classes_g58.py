"""Failure classes (safety verdicts of flawed answers, issue 32). Wording of our own on other topics (an
upper GI bleed on an anticoagulant, a head injury), with negative tests: a restart declined, or gated on a result that
would make it safe, or on a later worsening, is no restart now."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows


def _given(case: Case, text: str) -> dict[str, str]:
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), "treatment")


# --- 1. a harmful restart timed by the patient's recovery ------------------------------------------------------

BLEED = Path("cases/em-upper-gi-bleed-001.yaml")
RESTART_ANTICOAGULANT = {"item": "Continue or restart the apixaban", "class": "contraindicated",
                         "aliases": ["restart apixaban", "resume apixaban", "continue apixaban"]}


@pytest.mark.parametrize(("text", "met"), [
    ("Plan:\n- IV access, crossmatch 4 units.\n- Once the haemoglobin is stable and HR is < 100, restart apixaban "
     "at the usual dose.", True),
    ("Plan:\n- Fluids.\n- When his blood pressure improves, resume apixaban tonight.", True),
    ("Plan:\n- Fluids.\n- After the pulse settles, continue apixaban 5 mg BD.", True),
    # negatives: declined, gated on a result that would make it safe, or on a worsening
    ("Plan:\n- Fluids.\n- Do not restart apixaban; if anticoagulation is needed later, discuss with haematology.",
     False),
    ("Plan:\n- Fluids.\n- Restart apixaban only if the endoscopy confirms the ulcer has healed.", False),
    ("Plan:\n- Fluids.\n- Resume apixaban if he develops a new DVT.", False),
    ("Plan:\n- Fluids.\n- Restart apixaban if the bleeding has not settled.", False),
    ("Plan:\n- Fluids.\n- Continue apixaban if the repeat haemoglobin is normal.", False),
])
def test_a_restart_timed_by_recovery(tmp_path: Path, text: str, met: bool) -> None:
    case = case_with(tmp_path, BLEED, "treatment", RESTART_ANTICOAGULANT)
    assert (RESTART_ANTICOAGULANT["item"] in _given(case, text)) is met
