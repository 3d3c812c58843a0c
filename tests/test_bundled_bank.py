"""The bundled bank is what newcomers play first and what figures are measured on:
its coverage is asserted here so it cannot silently shrink."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from medbench_tui.core.cases.bank import consultation_files, scan_bank
from medbench_tui.core.cases.model import BEHAVIORS, CATEGORIES
from medbench_tui.core.validate import load_valid_case

CASES = Path(__file__).resolve().parent.parent / "cases"


@pytest.fixture(scope="module")
def bank():
    index = scan_bank(CASES)
    return [load_valid_case(path, bank=index) for path in consultation_files(CASES)]


def test_at_least_60_clinical_cases_and_3_per_category(bank):
    assert len([case for case in bank if case.metadata.category != "error_testing"]) >= 60
    per_category = Counter(case.metadata.category for case in bank)
    for category in CATEGORIES:
        wanted = 2 if category == "error_testing" else 3
        assert per_category[category] >= wanted, f"{category}: {per_category[category]} cases"


def test_every_level_group_and_sex_is_covered(bank):
    meta = [case.metadata for case in bank]
    assert {m.complexity for m in meta} >= {"basic", "intermediate", "advanced", "expert"}
    assert {m.urgency for m in meta} >= {"routine", "urgent", "emergency"}
    assert {m.age_group for m in meta} >= {"neonate", "infant", "child", "adolescent", "adult", "older_adult"}
    assert {case.patient.sex for case in bank} >= {"female", "male"}


def test_every_behaviour_and_other_informants(bank):
    behaviours = {b for case in bank for b in case.patient.behavior}
    assert behaviours >= set(BEHAVIORS)
    assert {case.patient.informant for case in bank} - {"self"}


def test_attachments_and_variants(bank):
    with_attachments = [case for case in bank if case.attachments]
    assert len(with_attachments) >= 6
    kinds = {a.kind for case in bank for a in case.attachments}
    assert {"lab_report", "ecg", "image"} <= kinds
    assert any(a.available == "after_turn" for case in bank for a in case.attachments)
    assert all(a.description for case in bank for a in case.attachments if a.kind == "image")
    ids = {case.id for case in bank}
    variants = [case for case in bank if case.parent_id]
    assert len(variants) >= 3 and all(case.parent_id in ids for case in variants)


def test_each_case_is_complete(bank):
    for case in bank:
        assert 10 <= len(case.additional_answers) <= 25, case.id
        assert 5 <= len(case.control_questions) <= 12, case.id
        assert 3 <= len(case.differential) <= 8, case.id  # chest pain with a neurological sign lists 7
        assert all(d.icd10 for d in case.differential), case.id
        # a telephone consultation may have nothing acceptable (sore throat) or nothing to warn off (neutropenic
        # sepsis: come in now): a required test and one of the other classes
        workup = {w.klass for w in case.workup}
        assert "required" in workup and len(workup) >= 2, case.id
        treatment = {t.klass for t in case.treatment}
        # something harmful to avoid or, where the right plan is restraint (uncomplicated renal colic), what it declines
        assert "required" in treatment and treatment & {"contraindicated", "not_indicated"}, case.id
        assert case.critical_conditions and case.num_steps, case.id
        assert case.status == "review", case.id


def test_error_testing_cases_document_their_inconsistency(bank):
    error_cases = [case for case in bank if case.metadata.category == "error_testing"]
    assert len(error_cases) >= 2
    assert all(case.notes and len(case.notes) > 200 for case in error_cases)
