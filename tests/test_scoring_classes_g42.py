"""Grader class (issue 32): a line that only wraps the sentence of the line before is no heading,
whatever its words, so the plan lines after it stay plan lines; tested on wording of its own, with the short terse
lines and real headings that must still start their sections."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.sections import parse
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import rows

ANAPHYLAXIS = Path("cases/em-anaphylaxis-001.yaml")

WRAPPED_PLAN = (
    "## Plan\n"
    "1. **Resuscitation bay now**: I have bleeped the anaesthetic registrar, who is on the way for an airway\n"
    "   assessment).\n"
    "2. Expected course once settled: **observation for at least 6 hours** on the ward, then home.\n"
    "3. Avoid NSAIDs, which can worsen the reaction, until the allergy clinic has seen her.\n"
)


def _kind_at(text: str, words: str) -> str:
    """The kind of the section the first occurrence of ``words`` stands in."""
    at = text.index(words)
    return next(s.kind for s in parse(text).sections if s.start <= at < s.end)


@pytest.mark.parametrize("words", ["observation for at least 6 hours", "Avoid NSAIDs"])
def test_a_wrapped_line_of_a_list_item_is_no_heading(words: str):
    """'   assessment).' goes on with the item above it: the next items are still the plan's."""
    assert _kind_at(WRAPPED_PLAN, words) == "treatment"


def test_a_wrapped_line_of_prose_is_no_differential_heading():
    text = ("## Results\n"
            "Bloods: CRP 3, eosinophils raised at 1.2, haemoglobin 131 and a normal white cell\n"
            "differential; the tryptase is pending.\n"
            "## Plan\n- Observe for 6 hours.\n")
    assert _kind_at(text, "the tryptase is pending") != "differential"


def test_a_short_terse_line_still_starts_its_heading():
    """A terse note in lower case with no stops: after a short list item, 'ddx ...' is the differential."""
    text = "- IM adrenaline 0.5 mg; high-flow O2\nddx angioedema, asthma\n"
    assert [s.kind for s in parse(text).sections if (s.heading or "").startswith("ddx")] == ["differential"]


@pytest.mark.parametrize("text", [
    "Her observations settled after the second dose and she is talking in full sentences now.\nPlan\n- Obs 6 h\n",
    "Her observations settled after the second dose and she is talking in full sentences now\nPlan\n- Obs 6 h\n",
    "Her observations settled after the second dose and she is talking in full sentences now.\nplan: obs 6 h\n",
])
def test_a_heading_after_a_finished_or_capitalised_line_still_counts(text: str):
    assert _kind_at(text, "bs 6 h") == "treatment"


def test_plan_items_after_a_wrapped_line_are_scored():
    """Scored end to end: the observation after the wrapped line is given, and a harmful immediate discharge said
    after one is still given (the wrapped line hides nothing)."""
    case = load_valid_case(ANAPHYLAXIS)
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=WRAPPED_PLAN)))
    assert rows(card, "treatment").get("Observation for at least 6-12 hours") in ("matched", "acceptable")
    harmful = WRAPPED_PLAN.replace("2. Expected course once settled: **observation for at least 6 hours** on the ward,"
                                   " then home.", "2. Discharge home now without observation.")
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=harmful)))
    assert "Immediate discharge without observation" in rows(card, "treatment")


ADVICE = "Advice to avoid NSAIDs"
ADVICE_ITEM = f"  - item: {ADVICE}\n    class: acceptable\n    aliases: [avoid NSAIDs, no NSAIDs, no ibuprofen]\n"


@pytest.mark.parametrize(("advice", "given"), [
    ("3. **No ibuprofen or other NSAIDs** (they can worsen the reaction); paracetamol is fine for pain.", True),
    ("3. Avoid NSAIDs, which can worsen the reaction, until the allergy clinic has seen her.", True),
    ("3. NSAIDs for pain if needed.", False),
])
def test_advice_said_as_a_plan_line_after_a_wrapped_line(tmp_path: Path, advice: str, given: bool):
    """The advice item is met by a plan line after a wrapped line; a plan that gives the drug is no advice."""
    case = valid_case_with_item(tmp_path, ANAPHYLAXIS, "Hydrocortisone", ADVICE_ITEM)
    plan = WRAPPED_PLAN.replace(
        "3. Avoid NSAIDs, which can worsen the reaction, until the allergy clinic has seen her.", advice)
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (rows(card, "treatment").get(ADVICE) in ("matched", "acceptable")) is given
