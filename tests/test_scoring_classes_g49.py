"""Failure classes (issue 32): a sample's tests reported in the sample's own context, and the
shorthand of a sampled fluid. Each test is in wording of its own, on other topics than the tuning set's case (a
CSF sample after an LP, a pleural tap, a joint aspirate), with negative tests: a blood culture or a serum glucose is
no test of the fluid, nor is a test on another line about blood, nor a drug dosed beside the procedure."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.document import document
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows

SAH = Path("cases/em-sah-001.yaml")
CAP = Path("cases/im-cap-001.yaml")
JOINT = Path("cases/sur-septic-arthritis-001.yaml")

CSF_CELLS = {"item": "CSF white cell count", "class": "acceptable", "aliases": ["CSF cell count", "CSF WCC"]}
CSF_CULTURE = {"item": "CSF culture", "class": "acceptable", "aliases": ["CSF microscopy and culture"]}
CSF_GLUCOSE = {"item": "CSF glucose", "class": "acceptable", "aliases": ["cerebrospinal fluid glucose"]}
CSF_GRAM = {"item": "CSF Gram stain", "class": "acceptable", "aliases": ["Gram stain of the CSF"]}
PLEURAL_LDH = {"item": "Pleural fluid LDH and protein", "class": "acceptable", "aliases": ["pleural LDH"]}
PLEURAL_CULTURE = {"item": "Pleural fluid culture in blood culture bottles", "class": "acceptable",
                   "aliases": ["pleural fluid culture", "pleural fluid in blood culture bottles"]}
PLEURAL_ALBUMIN = {"item": "Pleural fluid protein and albumin", "class": "acceptable", "aliases": ["pleural albumin"]}
SYNOVIAL_COUNT = {"item": "Synovial fluid neutrophil count", "class": "acceptable",
                  "aliases": ["synovial white cell count"]}


def _found(tmp_path: Path, source: Path, item: dict, text: str) -> bool:
    case = case_with(tmp_path, source, "workup", item)
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    return rows(card, "workup").get(item["item"]) in ("matched", "acceptable")


# --- 1. a sample's tests reported in the sample's own context ------------------------------------------------------

@pytest.mark.parametrize(("item", "text", "found"), [
    # the procedure names the fluid once; its tests follow in the sentence, line or list entry
    (CSF_CELLS, "## Investigations\n- Lumbar puncture done at 12 h: opening pressure 18 cm; white cell count 4,\n"
                "  red cells 2100 falling across tubes; glucose 3.4, Gram stain negative\n## Plan\n- Nimodipine",
     True),
    (CSF_GRAM, "## Investigations\n- Lumbar puncture done at 12 h: opening pressure 18 cm; white cell count 4,\n"
               "  red cells 2100 falling across tubes; glucose 3.4, Gram stain negative\n## Plan\n- Nimodipine", True),
    (CSF_GLUCOSE, "Plan:\n1. Lumbar puncture at 12 hours. Send the sample for xanthochromia, glucose and culture.\n"
                  "2. Nimodipine 60 mg 4-hourly", True),
    (CSF_CULTURE, "Plan:\n1. Lumbar puncture at 12 hours. Send the sample for xanthochromia, glucose and culture.\n"
                  "2. Nimodipine 60 mg 4-hourly", True),
    # its adjective names it in a table row or a result line
    (CSF_GLUCOSE, "| Meningitis | headache | CSF clear, glucose 3.6, cells 3 |\n\nPlan: nimodipine", True),
    # negatives: blood cultures, a serum glucose, a test on another line about blood
    (CSF_CULTURE, "Plan:\n- Lumbar puncture at 12 hours for xanthochromia\n- Blood cultures x2", False),
    (CSF_GLUCOSE, "Plan:\n- Lumbar puncture at 12 hours for xanthochromia; serum glucose 5.1", False),
    (CSF_GRAM, "Plan:\n- Lumbar puncture at 12 hours for xanthochromia\n- Bloods: FBC, glucose, Gram stain of any "
               "wound discharge", False),
    (CSF_CULTURE, "Plan:\n- Blood cultures, then lumbar puncture for xanthochromia", False),
])
def test_a_samples_tests_are_read_in_the_samples_own_context(tmp_path: Path, item: dict, text: str, found: bool):
    """The fluid named once, by the procedure that drew it or by its adjective, governs the tests reported with it
    in that sentence, line or list entry; a blood or serum word nearer the test makes it another sample's."""
    assert _found(tmp_path, SAH, item, text) is found


@pytest.mark.parametrize(("item", "text", "found"), [
    (PLEURAL_LDH, "## Results\n- Thoracentesis at the bedside: straw-coloured, protein 41, LDH 380, pH 7.31\n"
                  "## Plan\n- Co-amoxiclav", True),
    (PLEURAL_CULTURE, "## Plan\n- Pleural tap under ultrasound: 10 mL into each blood culture bottle\n"
                      "- Co-amoxiclav", True),
    (PLEURAL_CULTURE, "## Plan\n- Pleural tap under ultrasound for pH\n- Blood cultures x 2\n- Co-amoxiclav", False),
    # an albumin given beside the procedure is a drug, not a test of the fluid
    (PLEURAL_ALBUMIN, "## Plan\n- Thoracentesis to dryness with 8 g albumin per litre drained\n- Co-amoxiclav",
     False),
])
def test_a_pleural_samples_tests(tmp_path: Path, item: dict, text: str, found: bool):
    assert _found(tmp_path, CAP, item, text) is found


@pytest.mark.parametrize(("text", "found"), [
    ("Plan:\n- Knee aspirated in ED: turbid, white cell count 78,000, no crystals\n- IV flucloxacillin", True),
    ("Plan:\n- Knee aspirated in ED: turbid\n- FBC: white cell count 14\n- IV flucloxacillin", False),
])
def test_a_joint_aspirates_count(tmp_path: Path, text: str, found: bool):
    assert _found(tmp_path, JOINT, SYNOVIAL_COUNT, text) is found


# --- 2. the shorthand of a sampled fluid ---------------------------------------------------------------------------

def test_a_sampled_fluids_shorthand_is_written_out():
    """"asc" is ascitic before the fluid or its count, PMN with a value a neutrophil count, "BC bottles" blood culture
    bottles, "Dx tap" a diagnostic tap; "asc aorta" and "BC" alone are left as written."""
    norms = [t.norm for t in document("Dx tap: asc PMN 410; asc fluid into BC bottles").tokens]
    assert norms[:2] == ["diagnostic", "tap"]
    assert norms[2:6] == ["ascitic", "neutrophil", "count", "410"]
    assert norms[6:] == ["ascitic", "fluid", "into", "blood", "culture", "bottle"]
    assert [t.norm for t in document("dilated asc aorta, BC 22").tokens][:3] == ["dilated", "asc", "aorta"]
    assert "culture" not in [t.norm for t in document("dilated asc aorta, BC 22").tokens]


DX_TAP = {"item": "Diagnostic pleural aspiration", "class": "required", "weight": 2,
          "aliases": ["diagnostic tap", "pleural tap", "diagnostic pleural tap"]}


@pytest.mark.parametrize(("text", "found"), [
    ("Imp: parapneumonic effusion.\nPlan:\n- Dx tap done, pH 7.35\n- Co-amoxiclav", True),
    ("Imp: parapneumonic effusion.\nPlan:\n- Dx: CAP\n- Co-amoxiclav", False),
])
def test_a_diagnostic_tap_written_short_is_the_cases_procedure(tmp_path: Path, text: str, found: bool):
    """"Dx tap" is the case's diagnostic tap, whichever fluid the case's item taps; "Dx" alone is a diagnosis."""
    assert _found(tmp_path, CAP, DX_TAP, text) is found
