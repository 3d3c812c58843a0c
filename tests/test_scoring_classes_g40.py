"""Failure classes (issue 32): safety decisions of a plan misread. Each test is in wording of its own,
on other topics than the tuning set's cases, with plans that must still pass and wrong plans that must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.text import ANSWERS
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import condition, rows

HYPERK = Path("cases/im-hyperkalaemia-001.yaml")


def _card(tmp_path: Path, source: Path, text: str, section: str | None = None, item: dict | None = None):
    case = case_with(tmp_path, source, section, item)
    return score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))


# --- 1. a cause named in the diagnosis line is history, not a treatment --------------------------------------------

FUROSEMIDE = "Intravenous furosemide to lower potassium in a dry patient"


@pytest.mark.parametrize(("text", "given"), [
    ("Imp: hyperK + AKI 2° IV furosemide (x3 doses, dry), D&V.\n- IV calcium gluconate now", False),
    ("Imp: hyperK + AKI 2' IV furosemide and D&V\n- IV calcium gluconate now", False),
    ("Impression: AKI following IV furosemide in a dry man\n- IV calcium gluconate now", False),
    ("Impression: AKI, from IV furosemide\n- IV calcium gluconate now", False),
    ("Impression: hyperkalaemia and AKI - give IV furosemide after the calcium\n- IV calcium gluconate", True),
    ("Imp: hyperK + AKI\n- IV furosemide 40 mg now", True),
])
def test_a_cause_in_the_diagnosis_line_is_no_treatment(tmp_path: Path, text: str, given: bool):
    """A drug the diagnosis line names as its cause ("2°"/"2'" secondary to, "following", "from") was given before:
    it is history and fails no must-not; a drug the line or the plan orders ("give ... after the calcium") is given."""
    card = _card(tmp_path, HYPERK, text)
    assert (rows(card, "treatment").get(FUROSEMIDE) == "contraindicated") is given, (text, rows(card, "treatment"))
    assert (condition(card, "cc-implicit-contraindicated") == "FAIL") is given


@pytest.mark.parametrize(("text", "words"), [
    ("AKI 2° NSAIDs", ["acute", "kidney", "injury", "secondary", "to", "nsaid"]),
    ("2° prevention with a statin", ["secondary", "prevention", "with", "a", "statin"]),
    ("a 12' fall", ["a", "12", "fall"]),
])
def test_the_sign_of_a_cause_is_secondary_to(text: str, words: list[str]):
    """"2°" and "2'" standing alone are "secondary to"; "2° prevention" stays secondary prevention, and a number with
    a foot's sign ("12'") is no cause."""
    assert [t.norm for t in ANSWERS.tokenize(text)] == words


# --- 2. a partial or temporary hold is no stop of the drug ----------------------------------------------------------

STOP = "Stop ramipril and spironolactone"


@pytest.mark.parametrize(("plan", "stopped"), [
    ("Plan:\n- IV calcium gluconate\n- Hold the ramipril this morning", False),
    ("Plan:\n- IV calcium gluconate\n- Hold ramipril and spironolactone, but keep spironolactone 25 mg at night",
     False),
    ("Plan:\n- IV calcium gluconate\n- Hold the ramipril, but continue the ramipril 2.5 mg at night", False),
    ("Plan:\n- IV calcium gluconate\n- Stop ramipril and spironolactone, cross them off the chart", True),
    ("Plan:\n- IV calcium gluconate\n- Hold ramipril and spironolactone from today", True),
    ("Plan:\n- IV calcium gluconate\n- Stop ramipril and spironolactone; restart ramipril once K < 5", True),
    ("Plan:\n- IV calcium gluconate\n- Stop ramipril and spironolactone, no further spironolactone", True),
])
def test_a_hold_of_one_dose_or_of_one_form_is_no_stop(tmp_path: Path, plan: str, stopped: bool):
    """A hold of one dose ("this morning", "tonight") or one form while the same drug goes on ("but keep ...") is
    no stop; a stop with the chart crossed off, a restart left for later or the drug refused again is one."""
    card = _card(tmp_path, HYPERK, plan)
    assert (STOP in rows(card, "treatment")) is stopped, (plan, rows(card, "treatment"))
    assert (condition(card, "cc-stop-drugs") == "OK") is stopped
