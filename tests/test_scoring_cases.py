"""Scoring of the bundled cases: each case's model answer (structured and free text)
gets full marks, the empty final gets none, and the error-testing cases behave as
their notes say."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from medbench_tui.core.cases.bank import consultation_files
from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import Span, render_scorecard_text, score
from medbench_tui.core.scoring.model_answer import model_answer
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_yaml

CASES_DIR = Path(__file__).resolve().parent.parent / "cases"


def _load(path: Path) -> Case | None:
    try:
        return Case.model_validate(case_yaml(path))
    except ValidationError:
        return None  # a case that is broken on purpose: validation's business, not scoring's


CASES = {p.stem: c for p in consultation_files(CASES_DIR) if (c := _load(p))}


def run(case: Case, final: FinalResponse):
    return score(case, Transcript(case_id=case.id, final=final))


def test_there_are_bundled_cases():
    assert len(CASES) >= 5


@pytest.mark.parametrize("case_id", sorted(CASES))
@pytest.mark.parametrize("form", ["structured", "text"])
def test_model_answer_gets_full_marks(case_id, form):
    case = CASES[case_id]
    final = model_answer(case, form)
    card = run(case, final)
    m = card.metrics
    assert m.diagnosis_accuracy == 100, render_scorecard_text(card)
    assert m.primary_icd10 == "exact"
    assert m.workup_score in (100.0, None), render_scorecard_text(card)
    assert m.treatment_accuracy in (100.0, None), render_scorecard_text(card)
    assert m.differential_accuracy in (100.0, None)
    assert m.critical_conditions_passed == 100, render_scorecard_text(card)
    assert m.secondary_icd10_recall in (100.0, None)
    if final.text:
        for entity in card.extraction.entities:
            if isinstance(entity.evidence, Span):
                assert final.text[entity.evidence.start : entity.evidence.end] == entity.evidence.text


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_empty_final_gets_nothing(case_id):
    case = CASES[case_id]
    m = run(case, FinalResponse()).metrics
    assert m.diagnosis_accuracy == 0 and m.primary_icd10 == "missing"
    assert m.workup_score in (0.0, None) and m.treatment_accuracy in (0.0, None)
    assert m.differential_accuracy in (0.0, None) and m.action_f1 in (0.0, None)


def test_every_error_testing_case_is_covered_here():
    error_cases = {cid for cid, c in CASES.items() if c.metadata.category == "error_testing"}
    assert error_cases <= set(ERROR_CASE_CHECKS), f"add a test for {sorted(error_cases - set(ERROR_CASE_CHECKS))}"


def check_wrong_code(case: Case) -> None:
    """err-wrong-code-001 (notes): the primary's code is H01.0 (blepharitis) although the
    name is bacterial conjunctivitis; the right code H10.0 sits in the differential.
    A correct system (conjunctivitis, H10.0, self-care, safety-netting,
    chloramphenicol) gets D = 100, ICD agreement `chapter` (not exact, not category),
    differential recall at most 4/5, and full marks elsewhere; "H01.0" would be exact."""
    right = FinalResponse(text=(
        "Diagnosis: bacterial conjunctivitis (H10.0)\n"
        "Differential: viral conjunctivitis, allergic conjunctivitis, keratitis, anterior uveitis\n"
        "Workup: visual acuity, fluorescein staining\n"
        "Treatment: self-care advice (bathe the eyes, do not share towels); chloramphenicol eye drops\n"
        "Safety-netting advice: seek help if pain or vision changes. Avoid steroid eye drops.\n"
    ))
    card = run(case, right)
    m = card.metrics
    assert m.diagnosis_accuracy == 100
    assert (m.primary_icd10, m.primary_icd10_exact, m.primary_icd10_category) == ("chapter", 0, 0)
    assert m.differential_accuracy == 80.0
    assert (m.workup_score, m.treatment_accuracy, m.critical_conditions_passed) == (100.0, 100.0, 100)
    copied = run(case, FinalResponse(diagnoses=[{"name": "Bacterial conjunctivitis", "icd10": "H01.0"}]))
    assert copied.metrics.primary_icd10 == "exact"


def check_contradiction(case: Case) -> None:
    """err-contradiction-001 (notes): the facts describe appendicitis, the reference says
    renal colic, requires IM diclofenac and discharge, and forbids appendicectomy.
    Scoring follows the reference: the clinically correct answer scores low and fails
    every critical condition; parroting the reference scores full marks."""
    correct = FinalResponse(text=(
        "Diagnosis: acute appendicitis (K35.8)\n"
        "Differential: pyelonephritis, mesenteric adenitis\n"
        "Investigations: urinalysis, FBC, CRP, CT abdomen and pelvis with contrast\n"
        "Management:\n- Laparoscopic appendicectomy\n- IV antibiotics\n- Paracetamol for pain\n"
        "- Urgent surgical referral\nAvoid NSAIDs (anaphylaxis).\n"
    ))
    m = run(case, correct).metrics
    assert (m.diagnosis_accuracy, m.primary_icd10) == (0, "wrong")
    # pyelonephritis and mesenteric adenitis of 4 reference differentials
    assert m.differential_accuracy == 50.0
    # required CT KUB 3 + urinalysis 2 + U&E 1 = 6; found urinalysis 2; contrast CT -1: (2 - 1) / 6
    assert round(m.workup_score, 1) == 16.7
    # paracetamol matching 1; appendicectomy (contraindicated), IV antibiotics extra 2; diclofenac and
    # discharge missing 2: 1 / 5 (the unlisted surgical referral is a disposition: left out, scoring.md)
    assert round(m.treatment_accuracy, 1) == 20.0
    assert m.critical_conditions_passed == 0
    parrot = FinalResponse(
        diagnoses=[{"name": "Renal colic", "icd10": "N23"}],
        workup=["CT KUB", "Urinalysis", "U&E"],
        treatment=["IM diclofenac 75 mg", "Discharge home with urology follow-up"],
    )
    p = run(case, parrot).metrics
    assert (p.diagnosis_accuracy, p.workup_score, p.treatment_accuracy, p.critical_conditions_passed) == (
        100, 100.0, 100.0, 100)


ERROR_CASE_CHECKS = {"err-wrong-code-001": check_wrong_code, "err-contradiction-001": check_contradiction}


@pytest.mark.parametrize("case_id", sorted(ERROR_CASE_CHECKS))
def test_error_testing_case(case_id):
    if case_id not in CASES:
        pytest.skip(f"{case_id} is not in the bundled cases")
    ERROR_CASE_CHECKS[case_id](CASES[case_id])
