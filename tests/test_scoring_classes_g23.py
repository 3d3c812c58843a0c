"""Failure classes of terse answers (g23): each test is in wording of its own, on other topics than the sets'."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import rows

UTI_PREGNANCY = Path("cases/obg-uti-pregnancy-001.yaml")


def _treatment(tmp_path: Path, name: str, text: str) -> dict[str, str]:
    """The treatment rows of an answer to a copy of the pregnancy UTI case with one more required treatment
    item ``name`` (no aliases: only its words and the vocabulary may meet it)."""
    item = f"  - item: {name}\n    class: required\n"
    case = valid_case_with_item(tmp_path, UTI_PREGNANCY, "Paracetamol for pain", item)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), "treatment")


@pytest.mark.parametrize(("plan", "met"), [
    ("Pyelonephritis at 30/40.\n- IV cefuroxime\n- On-call obstetrician aware", True),
    ("Pyelo 30/40. IV cefuroxime. Obstetrician informed, CTG.", True),
    ("Pyelonephritis at 30/40.\n- IV cefuroxime\n- Microbiology aware", False),
    ("Pyelonephritis at 30/40.\n- IV cefuroxime\n- Paracetamol", False),
])
def test_a_senior_of_a_team_told_is_that_team_involved(tmp_path: Path, plan: str, met: bool):
    """"Senior obstetric involvement" is about the obstetric team (the grade word is the team's, as
    "registrar" is), so a terse "obstetrician aware" meets it; another team told, or none, does not."""
    found = _treatment(tmp_path, "Senior obstetric involvement", plan)
    assert ("Senior obstetric involvement" in found) is met, plan
