"""Failure class 1 (issue 32): a short form read by where it stands. Wording of its own, on another
topic than the tuning set's case (a swimmer's ear beside vertigo), with negative tests: "O/E" and "OE" outside a
diagnosis or differential line are no otitis externa."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.document import document
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows

VERTIGO = Path("cases/im-vertigo-001.yaml")

OTITIS = {"name": "Acute otitis externa", "aliases": ["otitis externa", "swimmer's ear"]}


def _norms(text: str) -> list[str]:
    return [t.norm for t in document(text).tokens]


# --- 1. an abbreviation read by the section it stands in ------------------------------------------------------------

@pytest.mark.parametrize(("text", "otitis"), [
    ("Swims daily.\n\nImpression: acute OE, left\n\nPlan: review 1/52", True),
    ("Swims daily.\n\nDDx: labyrinthitis, OE, wax impaction", True),
    ("O/E: EAC oedematous, TM intact\n\nImpression: labyrinthitis", False),  # on examination
    ("OE: canal swollen, tender tragus\n\nImpression: labyrinthitis", False),  # a line of findings
    ("Impression: labyrinthitis\n\nPlan:\n- OE drops tds", False),  # a plan line follows the existing rules
])
def test_oe_is_otitis_externa_only_in_a_diagnosis_or_differential_line(text: str, otitis: bool) -> None:
    norms = _norms(text)
    assert ("externa" in norms) is otitis
    assert "external" in norms or "EAC" not in text  # the canal is read wherever it stands


@pytest.mark.parametrize(("text", "found"), [
    ("Impression: BPPV\n\nDDx: vestibular neuritis, OE (swims daily)", True),
    ("Impression: BPPV\n\nPlan:\n- OE: canals clear, no discharge", False),
])
def test_a_differential_written_short_meets_its_item(tmp_path: Path, text: str, found: bool) -> None:
    case = case_with(tmp_path, VERTIGO, "differential", OTITIS)
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    assert (rows(card, "differential").get(OTITIS["name"]) in ("matched", "acceptable", "found")) is found


def test_scc_and_eac_are_written_out() -> None:
    assert _norms("DDx: SCC EAC") [-6:] == ["squamous", "cell", "carcinoma", "external", "auditory", "canal"]
    assert "squamous" not in _norms("Dx: scc")  # only in capitals


def test_a_section_not_of_an_answer_is_an_error_at_its_line(tmp_path: Path) -> None:
    from medbench_tui.core.vocabulary import check_files

    path = tmp_path / "vocabulary.yaml"
    path.write_text("abbreviations:\n  - short: [OE]\n    means: otitis externa\n"
                    "    sections: [diagnosis, examination]\n")
    problems = [(p.diagnostic.line, p.diagnostic.code) for p in check_files([path])]
    assert problems[:1] == [(4, "schema.enum")], problems
