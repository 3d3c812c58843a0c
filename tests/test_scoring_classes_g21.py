"""Failure classes of labelled set L (g21): each test is in wording of its own, on other topics than set L's."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.support.case_yaml import with_item
from tests.test_scoring_regressions import rows

DELIRIUM = Path("cases/psy-delirium-001.yaml")
ACCOMPANIED = "Not left unaccompanied while confused"


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- She must never be left unaccompanied on the ward\n- Trial without oxybutynin", True),
    ("Plan:\n- Never leave her unaccompanied; daughter to stay overnight", True),
    ("Plan:\n- She is not to be left unaccompanied", True),
    ("Plan:\n- She may walk unaccompanied once she is orientated", False),
])
def test_a_prohibition_item_is_met_by_never(tmp_path: Path, plan: str, given: bool):
    """An item that forbids something ("not left ...", "do not leave ...") is met when the answer forbids it
    with "never" instead of "not"."""
    item = (f"  - item: {ACCOMPANIED}\n    class: required\n"
            "    aliases: [do not leave her unaccompanied, not to be left unaccompanied]\n")
    case = load_valid_case(with_item(tmp_path, DELIRIUM, "Encourage oral fluids and nutrition", item))
    scored = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (ACCOMPANIED in rows(scored, "treatment")) is given, plan
