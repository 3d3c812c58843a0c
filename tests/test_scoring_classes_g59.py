"""Failure classes (issue 32): a diagnosis put on the differential in words the reader did not know.
Each test is in wording of its own, on other topics than the tuning set's cases (pulmonary embolism, pneumothorax,
pneumonia, pericarditis), with negative tests: the same name stated as the diagnosis, or as the working diagnosis,
stays final; a state that is no diagnosis after the cue is not made one."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring.reference import reference_table
from medbench_tui.core.scoring.text_extractor import extract_text
from medbench_tui.core.validate import load_valid_case

PE = Path("cases/em-pe-001.yaml")
PTX = Path("cases/em-pneumothorax-001.yaml")


def _kind(source: Path, text: str, name: str) -> str | None:
    """How the answer names ``name``: diagnosis (final), differential, or not at all (None)."""
    table = reference_table(load_valid_case(source))
    kinds = [e.kind for e in extract_text(text, table)
             if e.kind in ("diagnosis", "differential") and name in e.text.lower()]
    return kinds[0] if kinds else None


# --- 1. weighed and set against a finding: "X was considered but ..." --------------------------------------------

@pytest.mark.parametrize(("source", "text", "name", "kind"), [
    (PE, "Impression: pulmonary embolism. Pneumonia was considered but she is afebrile with a clear chest.",
     "pneumonia", "differential"),
    (PTX, "Assessment: left pneumothorax. Pericarditis was considered but the ECG is normal, so it seems less "
          "likely.", "pericarditis", "differential"),
    (PE, "Assessment: pleurisy. Pulmonary embolism has been considered but the Wells score is 0.",
     "pulmonary embolism", "differential"),
    # negatives: stated as the diagnosis, or considered and then committed to
    (PE, "Impression: pneumonia, right lower lobe.", "pneumonia", "diagnosis"),
    (PE, "Impression: pulmonary embolism is considered the most likely diagnosis.", "pulmonary embolism",
     "diagnosis"),
])
def test_considered_but(source: Path, text: str, name: str, kind: str) -> None:
    assert _kind(source, text, name) == kind


# --- 2. said to be a possibility ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("source", "text", "name", "kind"), [
    (PE, "Assessment: pleuritic chest pain after a long flight.\nPulmonary embolism is a possibility given the "
         "tachycardia. CXR clear.", "pulmonary embolism", "differential"),
    (PTX, "Assessment: left pneumothorax.\nPericarditis is another possibility given the rub.", "pericarditis",
     "differential"),
    # negatives: the working diagnosis said plainly stays final
    (PTX, "Assessment: left pneumothorax.", "pneumothorax", "diagnosis"),
    (PE, "Impression: pulmonary embolism.\nPlan: CTPA today.", "pulmonary embolism", "diagnosis"),
])
def test_a_possibility(source: Path, text: str, name: str, kind: str) -> None:
    assert _kind(source, text, name) == kind


# --- 3. a second reading of the findings: "may also be X" ----------------------------------------------------

@pytest.mark.parametrize(("source", "text", "name", "kind"), [
    (PE, "Impression: pneumonia. The hypoxia and tachycardia may also be a pulmonary embolism.",
     "pulmonary embolism", "differential"),
    (PTX, "Impression: left pneumothorax; the pleuritic pain could also be pericarditis.", "pericarditis",
     "differential"),
    # negatives: the first named stays final; "may also be" before a state names no diagnosis
    (PE, "Impression: pneumonia. The hypoxia and tachycardia may also be a pulmonary embolism.", "pneumonia",
     "diagnosis"),
    (PE, "Impression: pulmonary embolism; may also be dehydrated.", "pulmonary embolism", "diagnosis"),
])
def test_may_also_be(source: Path, text: str, name: str, kind: str) -> None:
    assert _kind(source, text, name) == kind
