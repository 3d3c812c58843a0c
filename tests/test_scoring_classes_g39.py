"""Failure classes (issue 32): the safety decisions of a flawed plan. Each test is in wording of its own,
on other topics than the tuning set's cases, with plans that must still pass and wrong plans that must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows

COPD = Path("cases/im-copd-exacerbation-001.yaml")
HYPERKALAEMIA = Path("cases/im-hyperkalaemia-001.yaml")


def _scored(tmp_path: Path, source: Path, section: str, item: dict, text: str) -> dict[str, str]:
    case = case_with(tmp_path, source, section, item)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), section)


# --- 1. a drug dosed on a symptom is prescribed -----------------------------------------------------------------------

NSAID = "Naproxen"
NSAID_ITEM = {"item": NSAID, "class": "contraindicated", "aliases": ["naproxen"]}


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Naproxen 250 mg up to twice a day if her hips ache", True),
    ("Plan:\n- naproxen if in pain", True),
    ("Plan:\n- naproxen whenever her knees hurt", True),
    ("Plan:\n- naproxen if not improving", False),
    ("Plan:\n- naproxen only if she has another attack", False),
    ("Plan:\n- naproxen if the X-ray shows a fracture", False),
    ("Plan:\n- naproxen if she becomes sore after the physiotherapy", False),
    ("Plan:\n- no naproxen, even if in pain", False),
])
def test_a_drug_dosed_on_a_symptom_is_given(tmp_path: Path, plan: str, given: bool):
    """A drug dosed on a symptom ("if her hips ache", "if in pain") is an as-needed prescription: the drug is given,
    so a harmful one fails its must-not. A condition on the course of illness, a later event or a test's finding is
    still a condition, and a negated drug is not given."""
    found = _scored(tmp_path, COPD, "treatment", NSAID_ITEM, plan)
    assert (NSAID in found) is given, (plan, found)


# --- 2. a condition said in words on a result the record gives --------------------------------------------------------

DIURETIC = "Furosemide"
DIURETIC_ITEM = {"item": DIURETIC, "class": "acceptable", "aliases": ["furosemide"]}


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- If the potassium comes back high, furosemide 40 mg IV", True),
    ("Plan:\n- If the potassium comes back raised, furosemide 40 mg IV", True),
    ("Plan:\n- If the potassium comes back low, furosemide 40 mg IV", False),
    ("Plan:\n- If the sodium comes back low, furosemide 40 mg IV", False),
    ("Plan:\n- If the bicarbonate comes back low, furosemide 40 mg IV", False),
    ("Plan:\n- If the repeat potassium comes back high, furosemide 40 mg IV", False),
])
def test_a_result_said_in_words_is_decided_by_the_record(tmp_path: Path, plan: str, given: bool):
    """A condition on a result said in words ("if the potassium comes back high") is decided by the record's value
    against the result's reference range (potassium 7.4 is high; sodium 133 is not low); a result with no range
    (bicarbonate) or a later value (the repeat) stays a condition."""
    found = _scored(tmp_path, HYPERKALAEMIA, "treatment", DIURETIC_ITEM, plan)
    assert any("furosemide" in name.lower() for name in found) is given, (plan, found)  # the case's own item too


# --- 3. a time after a list's colon times the list --------------------------------------------------------------------

GAS = "Arterial blood gas"
GAS_ITEM = {"item": GAS, "class": "required", "within": "same day", "aliases": ["ABG", "blood gas"]}


@pytest.mark.parametrize(("plan", "met"), [
    ("Plan:\n1. ABG, sputum and CXR: today", True),
    ("Plan:\n1. ABG, sputum and CXR: now, results this afternoon", True),
    ("Plan:\n1. ABG, sputum and CXR: at the clinic next week, results a few days later", False),
    ("Plan:\n1. ABG, sputum and CXR: booked for tomorrow morning", False),
])
def test_a_time_after_a_lists_colon_times_the_list(tmp_path: Path, plan: str, met: bool):
    """The time after the colon that closes a list ("ABG, sputum and CXR: next week") is every entry's: a same-day
    item is not met by next week's test, and is met by today's."""
    found = _scored(tmp_path, COPD, "workup", GAS_ITEM, plan)
    assert (found.get(GAS) == "matched") is met, (plan, found)
