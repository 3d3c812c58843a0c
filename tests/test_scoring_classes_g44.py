"""Failure classes (issue 32): tests reported done by their results, counselling given under its own
label. Each test is in wording of its own, on other topics than the tuning set's cases, with negative tests: a
procedure only conditional or not done, advice declined or a heading with nothing under it, a history line."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows

CAP = Path("cases/im-cap-001.yaml")
AF = Path("cases/im-af-001.yaml")

PLEURAL_TAP = {"item": "Diagnostic pleural aspiration with fluid pH, Gram stain and culture", "class": "required",
               "weight": 2, "aliases": ["pleural aspiration", "pleural tap", "thoracentesis"]}


def _card(tmp_path: Path, source: Path, text: str, section: str | None = None, item: dict | None = None):
    case = case_with(tmp_path, source, section, item)
    return score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))


# --- 1. a procedure reported done by its result, under its own word in another form --------------------------------

@pytest.mark.parametrize(("text", "done"), [
    ("Imp: CAP with parapneumonic effusion.\n- Aspirated 40 mL under US: straw-coloured, pH 7.36, GS no orgs, "
     "cx pending\n- CXR done", True),
    ("## Results\n- Aspirate (40 mL): clear, pH 7.38, protein 32; Gram stain negative; culture pending.\n"
     "## Plan\n- Amoxicillin", True),
    ("## Plan\n1. **Diagnostic aspiration** already done at the bedside.\n2. Amoxicillin 500 mg tds", True),
    ("## Plan\n- Amoxicillin 500 mg tds\n- Aspirate if the effusion enlarges: send pH and culture", False),
    ("## Plan\n- Amoxicillin 500 mg tds\n- Effusion small, not aspirated.", False),
    ("## Plan\n- Amoxicillin 500 mg tds\n- pleural aspiration if the effusion recurs", False),
])
def test_a_procedure_reported_by_its_result_is_done(tmp_path: Path, text: str, done: bool):
    """A line opened by another form of the item's procedure noun ("Aspirated ...:", "Aspirate (40 mL):") with its
    result after the colon, or the procedure said "already done", reports it done; a condition ("if the effusion
    enlarges") or a negation ("not aspirated") does not."""
    card = _card(tmp_path, CAP, text, "workup", PLEURAL_TAP)
    assert (rows(card, "workup").get(PLEURAL_TAP["item"]) in ("matched", "acceptable")) is done


# --- 2. a test reported by a finding on it or by its values ---------------------------------------------------------

BONE = {"item": "Bone profile and magnesium", "class": "acceptable",
        "aliases": ["bone profile", "serum calcium", "serum magnesium"]}
URINE = {"item": "Urinalysis for blood and myoglobin", "class": "acceptable", "aliases": ["urinalysis", "urine dip"]}


@pytest.mark.parametrize(("text", "done"), [
    ("## Results\n- Na 131, K 4.2, adj Ca 2.05, phosphate 0.7\n## Plan\n- Amoxicillin", True),
    ("## Results\n- corrected calcium 2.05\n## Plan\n- Amoxicillin", True),
    ("## Plan\n- Amoxicillin\n- calcium gluconate 10 mL IV", False),
])
def test_a_bone_profile_is_reported_by_its_calcium_or_phosphate(tmp_path: Path, text: str, done: bool):
    card = _card(tmp_path, CAP, text, "workup", BONE)
    assert (BONE["item"] in rows(card, "workup")) is done


@pytest.mark.parametrize(("text", "done"), [
    ("Imp: CAP, rhabdo (CK 12000, myoglobinuria) after a long lie.\n- Amoxicillin", True),
    ("## Background\nShe had myoglobinuria two years ago after a marathon.\n## Plan\n- Amoxicillin", False),
])
def test_myoglobinuria_reports_the_urine_test(tmp_path: Path, text: str, done: bool):
    """A finding only a urine test gives reports it; one the history dates to before this illness does not."""
    card = _card(tmp_path, CAP, text, "workup", URINE)
    assert (URINE["item"] in rows(card, "workup")) is done


# --- 3. counselling given under its own topic label or heading ------------------------------------------------------

ALCOHOL = "Alcohol reduction advice"


@pytest.mark.parametrize(("text", "given"), [
    ("Plan\n- Bisoprolol 2.5 mg od\n- Alcohol: under 14 u/wk, 2 dry days, AUDIT-C next visit", True),
    ("## Plan\n- Bisoprolol 2.5 mg once daily\n\n## Alcohol\n- Keep to under 14 units a week with two dry days.\n"
     "- Binges are a common AF trigger.\n", True),
    ("## History\nAlcohol: 30 units a week\n## Plan\n- Bisoprolol 2.5 mg once daily", False),
    ("Plan\n- Bisoprolol 2.5 mg od\n- Alcohol: not discussed today", False),
    ("Plan\n- Bisoprolol 2.5 mg od\n- Alcohol: none needed, teetotal", False),
    ("## Plan\n- Bisoprolol 2.5 mg once daily\n## Alcohol\n\n## Follow-up\n- Review in 4 weeks", False),
])
def test_advice_under_its_topic_label_is_given(tmp_path: Path, text: str, given: bool):
    """A plan line labelled by the advice's topic with advice after it, or a heading of the topic with lines under
    it, gives the advice item; a label in the history, a decline after the label ("not discussed", "none needed")
    or a heading with nothing under it gives nothing."""
    card = _card(tmp_path, AF, text)
    assert (ALCOHOL in rows(card, "treatment")) is given
