"""Blind practice labels: what a clinician knows before the consultation, never the id or title."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from medbench_tui.core.cases.model import Case
from medbench_tui.core.practice.label import case_practice_label, practice_label, practice_number
from tests.support.case_yaml import case_yaml


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    """The bundled cases, read when a test asks (at import, every worker read them)."""
    return [
        Case.model_validate(case_yaml(p), by_alias=True)
        for p in sorted((Path(__file__).resolve().parent.parent / "cases").glob("*-[0-9][0-9][0-9].yaml"))
    ]


def test_the_number_is_stable_opaque_and_unique_in_the_bank(cases):
    assert practice_number("em-stemi-001") == practice_number("em-stemi-001")
    numbers = [practice_number(case.id) for case in cases]
    assert len(set(numbers)) == len(numbers)
    assert all(10_000 <= n <= 99_999 for n in numbers)
    # neighbours in id order (variants of one case) are not neighbours in number
    assert abs(practice_number("em-stemi-001") - practice_number("em-stemi-002")) > 1


def test_the_label_says_what_a_clinician_knows_before_the_consultation():
    label = practice_label("em-anaphylaxis-001", category="emergency_medicine", age=24, sex="male",
                           urgency="emergency", setting="emergency_department")
    assert re.fullmatch(r"Case \d{5} · emergency medicine · 24 M · emergency · emergency department", label)
    assert practice_label("x-001", category="pediatrics", age="3 months", sex="unspecified",
                          urgency=None, setting=None).endswith("· pediatrics · 3 months")


def test_no_bundled_label_gives_the_id_or_title_away(cases):
    for case in cases:
        label = case_practice_label(case).casefold()
        assert case.id not in label and case.title.casefold() not in label
        for word in re.findall(r"[a-z]{5,}", case.diagnosis.primary.name.casefold()):
            assert word not in label or word in {"acute", "right", "left"}, (case.id, word)
