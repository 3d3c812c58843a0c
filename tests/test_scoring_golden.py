"""Golden tests: every metric of shared/spec/scoring.md on a purpose-built case, with the
arithmetic written out."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import render_scorecard_text, score
from medbench_tui.core.transcript import FinalResponse, Transcript, Turn
from tests.support.case_yaml import case_yaml

GOLDEN = Path(__file__).parent / "data" / "scoring" / "golden-cap.yaml"


@pytest.fixture(scope="module")
def case() -> Case:
    return Case.model_validate(case_yaml(GOLDEN))


def transcript(final: FinalResponse, facts: list[list[str]] = (), **extra) -> Transcript:
    turns: list[Turn] = []
    for disclosed in facts:
        turns += [Turn(role="doctor", text="A question."), Turn(role="patient", text="An answer.", facts=disclosed)]
    return Transcript(case_id="golden-cap", turns=turns, final=final, **extra)


@pytest.fixture(scope="module")
def card_a(case):
    final = FinalResponse(
        diagnoses=[{"name": "Pneumonia", "icd10": "J18.1"}],
        differential=["Acute bronchitis", "PE", "Asthma"],
        workup=["CXR", "FBC", "CTPA", "Bronchoscopy", "Sputum culture", "Pulse oximetry"],
        treatment=["Doxycycline", "Paracetamol", "Levofloxacin", "Oxygen"],
        advice="Seek urgent care if you get breathless.",
    )
    return score(case, transcript(final, facts=[["onset"], ["travel"], []]))


def test_diagnosis_metrics(card_a):
    m = card_a.metrics
    # "Pneumonia" is an alias of the primary diagnosis: accuracy 100.
    assert m.diagnosis_accuracy == 100
    # J18.1 vs reference J18.9: same 3-character category J18.
    assert m.primary_icd10 == "category"
    assert (m.primary_icd10_exact, m.primary_icd10_category) == (0, 100)
    # nicotine dependence (the one secondary diagnosis) not named: 0 / 1.
    assert m.secondary_icd10_recall == 0.0


def test_differential_metrics(card_a):
    m = card_a.metrics
    # reference differentials found: bronchitis, PE = 2 of 4 -> 50.
    assert m.differential_accuracy == 50.0
    # 3 entries given, 2 name a reference diagnosis (asthma does not): 2 / 3 = 66.7.
    assert m.differential_precision == pytest.approx(66.667, abs=0.01)
    # ranked list [pneumonia, bronchitis, PE, asthma]: primary at rank 1.
    assert (m.differential_recall_at_3, m.differential_recall_at_5, m.primary_mrr) == (100, 100, 100.0)


def test_workup_score(card_a):
    # required weights: CXR 2 + FBC 1 + CRP 1 = 4; found CXR 2 + FBC 1 = 3.
    # unexpected: CTPA (own penalty 1) + bronchoscopy (case unexpected_penalty 0.5) = 1.5.
    # unlisted: sputum culture -> 0.25 x 1. Pulse oximetry is acceptable: neither.
    # (3 - 1.5 - 0.25) / 4 x 100 = 31.25
    assert card_a.metrics.workup_score == 31.25
    statuses = {e.answer: e.status for e in card_a.items.workup if e.answer}
    assert statuses == {
        "CXR": "matched", "FBC": "matched", "CTPA": "unexpected", "Bronchoscopy": "unexpected",
        "Sputum culture": "extra", "Pulse oximetry": "acceptable",
    }
    assert [e.reference for e in card_a.items.workup if e.status == "missing"] == ["C-reactive protein"]


def test_treatment_accuracy(card_a):
    # doxycycline: an antibiotic, the group of required amoxicillin -> different (1)
    # paracetamol: acceptable -> matching (1); levofloxacin: contraindicated -> extra;
    # oxygen: matches nothing -> extra (2 extra); smoking cessation advice: missing (1).
    # accuracy = 1 / (1 + 2 + 1 + 1) x 100 = 20
    assert card_a.metrics.treatment_accuracy == 20.0
    rows = {(e.reference, e.answer): e.status for e in card_a.items.treatment}
    assert rows == {
        ("Amoxicillin", "Doxycycline"): "different",
        ("Paracetamol", "Paracetamol"): "acceptable",
        ("Levofloxacin", "Levofloxacin"): "contraindicated",
        (None, "Oxygen"): "extra",
        ("Smoking cessation advice", None): "missing",
    }


def test_action_f1(card_a):
    # TP = CXR 2 + FBC 1 = 3
    # FN = CRP 1 + amoxicillin 2 (only a different drug of its group) + smoking advice 1 = 4
    # FP = CTPA 1 + bronchoscopy 0.5 + levofloxacin (weight) 2 + unlisted 0.25 x 2 (sputum, oxygen) = 4
    # F1 = 2x3 / (2x3 + 4 + 4) x 100 = 42.857
    assert card_a.metrics.action_f1 == pytest.approx(42.857, abs=0.001)
    assert card_a.breakdown.action_f1 == {"tp": 3.0, "fp": 4.0, "fn": 4.0}


def test_critical_conditions(card_a):
    status = {c.id: c.status for c in card_a.critical_conditions}
    # return precautions: "Seek urgent care" said in the advice -> OK
    # NSAIDs: never mentioned -> OK
    # CTPA given, so the renal-function condition applies, and it is missing -> FAIL
    # levofloxacin is contraindicated and was given -> implicit FAIL
    assert status == {
        "cc-return": "OK", "cc-no-nsaids": "OK", "cc-ctpa-kidneys": "FAIL", "cc-implicit-contraindicated": "FAIL",
    }
    ok = next(c for c in card_a.critical_conditions if c.id == "cc-return")
    assert ok.span is not None and ok.span.field == "advice" and ok.span.text == "Seek urgent care"
    assert card_a.metrics.critical_conditions_passed == 0


def test_history_and_steps(card_a):
    # disclosed: onset (weight 2) and travel (1) of 2 + 1 + 1 = 4 -> 75
    assert card_a.metrics.question_coverage == 75.0
    assert [q.id for q in card_a.control_questions.missed] == ["cq-smoking"]
    # 3 turn pairs; num_steps 8: 3 < 0.75 x 8 = 6 -> outside the soft range
    assert (card_a.steps, card_a.num_steps, card_a.outside_soft_range) == (3, 8, True)
    assert card_a.dots.model_dump() == {"D": 100, "O": 31.25, "T": 20.0, "S": 3, "within_soft_range": False}


def test_right_diagnosis_only_in_the_differential(case):
    final = FinalResponse(diagnoses=["Acute bronchitis"], differential=["Pneumonia", "Pulmonary embolism"])
    card = score(case, transcript(final))
    m = card.metrics
    assert m.diagnosis_accuracy == 0
    # the differential still counts: PE = 1 of 4 reference differentials -> 25
    assert m.differential_accuracy == 25.0
    # both entries name a reference diagnosis (pneumonia is the primary, listed again): 2 / 2
    assert m.differential_precision == 100.0
    # ranked [bronchitis, pneumonia, PE]: the primary at rank 2 -> recall@3 100, MRR 100/2
    assert (m.differential_recall_at_3, m.primary_mrr) == (100, 50.0)
    assert m.primary_icd10 == "missing"
    diagnoses = {(e.reference, e.answer): (e.status, e.note) for e in card.items.diagnoses}
    assert diagnoses[("Community-acquired pneumonia", None)] == ("missing", None)
    assert diagnoses[(None, "Acute bronchitis")][0] == "extra"
    assert "reference differential" in diagnoses[(None, "Acute bronchitis")][1]
    assert {e.answer: e.status for e in card.items.differential if e.answer} == {
        "Pneumonia": "acceptable", "Pulmonary embolism": "matched",
    }


def test_diagnosis_by_icd_category_alone(case):
    """A shared 3-character category alone does not make a diagnosis right (scoring.md,
    revised); it is still reported as ``primary_icd10: category``."""
    card = score(case, transcript(FinalResponse(diagnoses=[{"name": "Chest infection", "icd10": "J18.0"}])))
    assert card.metrics.diagnosis_accuracy == 0
    assert card.metrics.primary_icd10 == "category"


def test_wrong_code_levels(case):
    chapter = score(case, transcript(FinalResponse(diagnoses=[{"name": "Asthma", "icd10": "J45.9"}])))
    wrong = score(case, transcript(FinalResponse(diagnoses=[{"name": "Gastritis", "icd10": "K29.7"}])))
    exact = score(case, transcript(FinalResponse(diagnoses=[{"name": "x", "icd10": "j189"}])))
    assert (chapter.metrics.primary_icd10, wrong.metrics.primary_icd10, exact.metrics.primary_icd10) == (
        "chapter", "wrong", "exact")
    assert chapter.metrics.diagnosis_accuracy == wrong.metrics.diagnosis_accuracy == 0


def test_secondary_recall_and_repetition(case):
    final = FinalResponse(diagnoses=["CAP", "Community-acquired pneumonia", "Tobacco dependence"])
    card = score(case, transcript(final))
    assert card.metrics.secondary_icd10_recall == 100.0
    # the second name of the primary repeats it: neither matched again nor extra
    assert [e.status for e in card.items.diagnoses] == ["matched", "matched"]


def test_recall_at_k_and_mrr_rank(case):
    final = FinalResponse(diagnoses=["Asthma"], differential=["Gastritis", "Flu", "Acute bronchitis", "Pneumonia"])
    m = score(case, transcript(final)).metrics
    # ranked [asthma, gastritis, flu, bronchitis, pneumonia]: rank 5
    assert (m.differential_recall_at_3, m.differential_recall_at_5, m.primary_mrr) == (0, 100, 20.0)


def test_undefined_metrics_are_null(case):
    bare = case.model_copy(update={
        "differential": [], "control_questions": [], "num_steps": None,
        "workup": [w for w in case.workup if w.klass != "required"],
        "treatment": [t for t in case.treatment if t.klass != "required"],
        "critical_conditions": [],
    })
    card = score(bare, Transcript(case_id="golden-cap", final=FinalResponse()))
    m = card.metrics
    assert (m.differential_accuracy, m.workup_score, m.treatment_accuracy, m.question_coverage, m.action_f1) == (
        None, None, None, None, None)
    assert m.differential_precision is None and card.outside_soft_range is None
    assert m.critical_conditions_passed == 100  # only the implicit condition, and it is OK
    data = card.to_json()
    assert data["metrics"]["workup_score"] is None and data["dots"]["within_soft_range"] is None


def test_soft_range_edges(case):
    # num_steps 8: the range is 6 .. 10 inclusive
    def outside(pairs: int) -> bool | None:
        return score(case, transcript(FinalResponse(), facts=[[]] * pairs)).outside_soft_range

    assert (outside(5), outside(6), outside(10), outside(11)) == (True, False, False, True)


def test_unexpected_penalty_defaults(case):
    # bronchoscopy has no penalty: the case's 0.5 applies; without it, the default 1.0.
    final = FinalResponse(workup=["CXR", "FBC", "CRP", "Bronchoscopy"])
    with_case = score(case, transcript(final)).metrics.workup_score
    plain = case.model_copy(update={"scoring": case.scoring.model_copy(update={"unexpected_penalty": None})})
    without = score(plain, transcript(final)).metrics.workup_score
    # (4 - 0.5) / 4 = 87.5 ; (4 - 1.0) / 4 = 75
    assert (with_case, without) == (87.5, 75.0)


def test_workup_score_is_clipped_at_zero(case):
    final = FinalResponse(workup=["CTPA", "Bronchoscopy", "MRI brain", "EEG"])
    # (0 - 1.5 - 0.25 x 2) / 4 < 0 -> 0
    assert score(case, transcript(final)).metrics.workup_score == 0.0


def test_must_not_include_negated_passes_and_given_fails(case):
    passes = score(case, transcript(FinalResponse(text="Plan: paracetamol. Do not take NSAIDs or ibuprofen.")))
    fails = score(case, transcript(FinalResponse(text="Plan: paracetamol and ibuprofen for the fever.")))
    by_id = lambda card: {c.id: c for c in card.critical_conditions}  # noqa: E731
    ok = by_id(passes)["cc-no-nsaids"]
    assert ok.status == "OK" and "advised against" in ok.evidence
    bad = by_id(fails)["cc-no-nsaids"]
    assert bad.status == "FAIL" and bad.span is not None and bad.span.text == "ibuprofen"


def test_applies_if_not_applicable(case):
    card = score(case, transcript(FinalResponse(text="Plan: chest X-ray. No CTPA needed.")))
    cond = next(c for c in card.critical_conditions if c.id == "cc-ctpa-kidneys")
    assert cond.status == "NOT_APPLICABLE"


def test_incomplete_run_is_scored_and_flagged(case):
    t = transcript(FinalResponse(diagnoses=["CAP"]), facts=[["onset"]], status="incomplete", reason="turn_limit")
    card = score(case, t)
    assert card.complete is False and card.incomplete_reason == "turn_limit"
    assert card.metrics.diagnosis_accuracy == 100
    no_final = score(case, Transcript(case_id="golden-cap", status="incomplete", reason="endpoint error"))
    assert no_final.complete is False and no_final.metrics.diagnosis_accuracy == 0
    missing_final = score(case, Transcript(case_id="golden-cap"))
    assert missing_final.complete is False and missing_final.incomplete_reason == "no final response"


def test_json_shape(card_a):
    data = card_a.to_json()
    assert list(data)[:7] == [
        "case_id", "complete", "steps", "outside_soft_range", "metrics", "critical_conditions", "items",
    ]
    assert list(data["metrics"])[:8] == [
        "diagnosis_accuracy", "primary_icd10", "differential_accuracy", "workup_score", "treatment_accuracy",
        "critical_conditions_passed", "question_coverage", "action_f1",
    ]
    assert data["metrics"]["action_f1"] == 42.9 and data["metrics"]["differential_precision"] == 66.7
    assert set(data["items"]) == {"diagnoses", "differential", "workup", "treatment"}
    entry = next(e for e in data["items"]["workup"] if e["answer"] == "CXR")
    assert entry == {"reference": "Chest X-ray", "answer": "CXR", "status": "matched",
                     "evidence": "structured field workup[0]",
                     "reason": "given in a structured field; matched by name; counts for the score",
                     "certainty": "certain"}
    missing = next(e for e in data["items"]["workup"] if e["status"] == "missing")
    assert missing["evidence"] is None and missing["answer"] is None
    assert {"id", "status", "evidence"} <= set(data["critical_conditions"][0])
    from medbench_tui.core.scoring import Scorecard

    again = Scorecard.model_validate(data)
    assert again.to_json() == data
    stored = {k: v for k, v in data.items() if k != "extraction"}  # the run store keeps it apart
    assert "What you missed" in render_scorecard_text(Scorecard.model_validate(stored))
