"""A correct answer in clinicians' usual words scores as correct on every bundled case.

The answers and their hand labels are in ``tests/data/review_answers`` (rules in LABELS.md).
The reference-side facts come first (every label names real items of the case, every clinical
case has a complete answer), then the scoring: diagnosis correct, every critical condition OK
(complete answers), the named items credited, no correct plan read as a harmful one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from medbench_tui.core.cases.model import ERROR_TESTING, Case
from medbench_tui.core.scoring import render_scorecard_text, score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_yaml

ROOT = Path(__file__).resolve().parent.parent
ANSWERS = YAML(typ="safe", pure=True).load((ROOT / "tests" / "data" / "review_answers" / "answers.yaml").read_text())
CASES = {
    path.stem: Case.model_validate(case_yaml(path), by_alias=True)
    for path in sorted((ROOT / "cases").glob("*-[0-9][0-9][0-9].yaml"))
}
CREDITED = {"matched", "acceptable"}


def _items(case: Case) -> dict[str, str]:
    return {t.item: t.klass for t in case.treatment} | {w.item: w.klass for w in case.workup}


def test_every_clinical_case_has_a_complete_correct_answer():
    clinical = {cid for cid, case in CASES.items() if case.metadata.category != ERROR_TESTING}
    complete = {a["case"] for a in ANSWERS if a["critical"] == "ok"}
    assert clinical <= complete, sorted(clinical - complete)


@pytest.mark.parametrize("answer", ANSWERS, ids=[a["id"] for a in ANSWERS])
def test_labels_name_items_of_the_case(answer):
    items = _items(CASES[answer["case"]])
    for name in answer.get("matches", []):
        assert name in items, f"{answer['id']}: no item {name!r} in {answer['case']}"
    for name in answer.get("not_given", []):
        assert items.get(name) in ("contraindicated", "not_indicated"), f"{answer['id']}: {name!r}"


KNOWN_SCORER_MISSES: dict[str, str] = {
    # Open scorer limitations, kept visible: the label is the physician's, not moved toward the code.
    # The bank-7 review answers (2026-12-05), labelled by their authors before any run:
    "N-em-sah-001": "a non-contrast CT head in other words is not credited",
    "N-sur-septic-arthritis-001": "'blood cx x2' is not read as blood cultures ('cx' is also the cervix)",
    "N-im-gout-001": "rest, elevation and ice in other words are not credited",
    "N-onc-melanoma-001": "the weighted 7-point checklist in other words is not credited",
    "N-em-sjs-001": "the body surface area of detachment in other words is not credited",
    "N-em-syncope-001": "trigger-avoidance advice in other words is not credited",
    "N-im-vertigo-001": "the explanation and reassurance about BPPV in other words is not credited",
    "N-im-hyponatraemia-001": "the clinical assessment of volume status in other words is not credited",
}


@pytest.mark.parametrize(
    "answer",
    [pytest.param(a, marks=pytest.mark.xfail(reason=KNOWN_SCORER_MISSES[a["id"]], strict=True))
     if a["id"] in KNOWN_SCORER_MISSES else a for a in ANSWERS],
    ids=[a["id"] for a in ANSWERS],
)
def test_the_answer_scores_as_correct(answer):
    case = CASES[answer["case"]]
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=answer["text"])))
    shown = render_scorecard_text(card)
    assert card.metrics.diagnosis_accuracy == 100, shown
    if answer["critical"] == "ok":
        failed = [c.id for c in card.critical_conditions if c.status == "FAIL"]
        assert not failed, f"{failed}\n{shown}"
    rows = card.items.workup + card.items.treatment
    for name in answer.get("matches", []):
        assert any(r.reference == name and r.status in CREDITED for r in rows), f"{name} not credited\n{shown}"
    for name in answer.get("not_given", []):
        assert not any(r.reference == name and r.answer for r in rows), f"{name} read as given\n{shown}"
