"""Grader classes of g78: the examination-findings reader takes no generic word of the record as a finding.

Wording of our own, on a leg examination (not the tuning set's topics)."""

from __future__ import annotations

import pytest

from medbench_tui.core.cases.model import Attachment, TreatmentItem
from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.test_scoring_regressions import case, rows

EXAM = "Examination of the leg and foot with Eron classification"
RECORD = (
    "Left leg: erythema over the shin, mildly warm, tenderness positive over the calf, pitting oedema to the ankle,\n"
    "crepitus palpable; unable to bear weight.\n"
)


def _scored(text: str) -> dict[str, str]:
    c = case("im-cellulitis-001")
    c = c.model_copy(update={
        "attachments": [Attachment(id="exam", kind="document", title="Examination", content=RECORD)],
        "treatment": [*c.treatment,
                      TreatmentItem.model_validate({"item": "Ankle support bandage", "class": "optional"})],
    })
    return rows(score(c, Transcript(case_id=c.id, final=FinalResponse(text=text))), "workup")


@pytest.mark.parametrize("text", [
    "Plan: the rash is mildly itchy, so an emollient.",            # an adverb of the record is no finding
    "Plan: blood cultures if positive for fever; unable to attend tomorrow, so review on Friday.",  # generic words
    "Plan: ankle support bandage and elevation.",                  # a body site that is a treatment item's word
])
def test_a_generic_word_of_the_record_does_not_report_the_examination(text):
    assert EXAM not in _scored(text)


@pytest.mark.parametrize("text", [
    "O/E pitting oedema to the knee, tender calf. Plan: flucloxacillin.",
    "Crepitus over the shin; erythema as described.",
])
def test_a_finding_of_the_record_still_reports_the_examination(text):
    assert EXAM in _scored(text)
