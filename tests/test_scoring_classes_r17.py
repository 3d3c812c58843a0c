"""Grader classes from set K's thorough and terse answers (round 17), each tested on wording of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import card, rows

CHOLECYSTITIS = Path("cases/sur-cholecystitis-001.yaml")
DEFER_SCAN = "Defer the ultrasound until the morning"


@pytest.mark.parametrize(("plan", "given"), [
    ("Differential: perforation - no free fluid on ultrasound.\nPlan: admit under general surgery.", True),
    ("Pancreatitis unlikely: no peripancreatic collection on the ultrasound. Admit under the surgeons.", True),
    ("Plan: admit under general surgery, no ultrasound tonight.", False),
    ("Plan: admit under general surgery; hold off on the ultrasound until the morning.", False),
])
def test_a_negated_finding_on_a_test_is_its_result_never_a_refusal_of_it(tmp_path: Path, plan: str, given: bool):
    item = (f"  - item: {DEFER_SCAN}\n    class: contraindicated\n"
            "    aliases: [defer the ultrasound until the morning, withhold the scan]\n")
    deferred = valid_case_with_item(tmp_path, CHOLECYSTITIS, "Analgesia", item)
    scored = score(deferred, Transcript(case_id=deferred.id, final=FinalResponse(text=plan)))
    assert (DEFER_SCAN not in rows(scored, "treatment")) is given


SJS = Path("cases/em-sjs-001.yaml")
OINTMENT_ALONE = "Topical antibiotic ointment alone"


@pytest.mark.parametrize(("plan", "harmful"), [
    ("Plan: stop lamotrigine, admit to the burns unit, IV fluids, clarithromycin for the mycoplasma.", False),
    ("Plan: IV co-amoxiclav and doxycycline, admit to the burns unit.", False),
    ("Plan: stop lamotrigine. Topical metronidazole to the erosions, review in a week.", True),
    ("Plan: stop lamotrigine. Metronidazole gel to the erosions.", True),
])
def test_a_drug_of_the_class_with_its_route_unsaid_is_no_harmful_item_of_a_route(
        tmp_path: Path, plan: str, harmful: bool):
    item = f"  - item: {OINTMENT_ALONE}\n    class: not_indicated\n    aliases: [antibiotic ointment]\n"
    sjs = valid_case_with_item(tmp_path, SJS, "Analgesia", item)
    scored = score(sjs, Transcript(case_id=sjs.id, final=FinalResponse(text=plan)))
    assert (OINTMENT_ALONE in rows(scored, "treatment")) is harmful


@pytest.mark.parametrize(("plan", "given"), [
    # the report: "no duct stones seen", and no stone of the bile duct anywhere
    ("Plan: admit under general surgery. ERCP only if the ultrasound shows duct stones.", False),
    ("Plan: admit under general surgery. ERCP if the scan shows a liver abscess.", False),
    # the report holds the gallstones, and a stone impacted in the gallbladder neck
    ("Plan: admit under general surgery. ERCP if the ultrasound shows gallstones.", True),
    ("Plan: admit under general surgery. ERCP if the ultrasound shows a stone impacted in the neck.", True),
])
def test_a_finding_the_record_holds_no_result_of_does_not_settle_its_condition(plan: str, given: bool):
    assert ("ERCP" in rows(card("sur-cholecystitis-001", plan), "workup")) is given



CAP = Path("cases/im-cap-002.yaml")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan: IV co-amoxiclav and clarithromycin. Sodium chloride 0.9% 1 L over 10 hours.", False),
    ("Plan: IV co-amoxiclav and clarithromycin. Hartmann's 1 litre over 6 h overnight.", False),
    ("Plan: IV co-amoxiclav and clarithromycin. Hartmann's 500 mL over 15 minutes, then reassess.", True),
    ("Plan: IV co-amoxiclav and clarithromycin. Sodium chloride 0.9% 1 L over 1 hour.", True),
])
def test_a_volume_run_over_hours_is_a_maintenance_rate_not_resuscitation(tmp_path: Path, plan: str, given: bool):
    text = CAP.read_text()
    named = "    aliases: [IV fluids, fluid bolus, crystalloid, Hartmann's, 0.9% sodium chloride, Plasma-Lyte]\n"
    assert named in text
    case_file = tmp_path / CAP.name
    case_file.write_text(text.replace(named, "    aliases: [IV fluids, fluid bolus]\n", 1))
    cap = load_valid_case(case_file)
    scored = score(cap, Transcript(case_id=cap.id, final=FinalResponse(text=plan)))
    assert ("Intravenous fluid resuscitation" in rows(scored, "treatment")) is given


BREAST = "Malignant neoplasm of left breast, on adjuvant chemotherapy"


@pytest.mark.parametrize(("answer", "named"), [
    ("Neutropenic sepsis day 10 post cycle 2 for breast Ca. IV pip-taz within the hour.", True),
    ("Febrile neutropenia (Ca breast, adjuvant FEC). IV pip-taz now.", True),
    ("Neutropenic sepsis. Adj Ca 2.41, Mg 0.8. IV pip-taz now.", False),
])
def test_a_cancer_word_beside_its_organ_names_the_cancer(answer: str, named: bool):
    assert (BREAST in rows(card("onc-neutropenic-sepsis-001", answer), "diagnoses")) is named
