"""Failure classes of terse plans (g24): clinical short forms, and a team named alone. Each test is in wording of
its own, on other topics than the sets' cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import rows

CELLULITIS = Path("cases/im-cellulitis-001.yaml")
COPD = Path("cases/im-copd-exacerbation-001.yaml")
HEART_FAILURE = Path("cases/im-heart-failure-001.yaml")
HYPERKALAEMIA = Path("cases/im-hyperkalaemia-001.yaml")
DKA = Path("cases/ped-dka-001.yaml")
PANCREATITIS = Path("cases/sur-pancreatitis-001.yaml")
AACG = Path("cases/oph-aacg-001.yaml")
PPH = Path("cases/obg-pph-001.yaml")
RENAL_COLIC = Path("cases/em-renal-colic-001.yaml")
NEUTROPENIC = Path("cases/onc-neutropenic-sepsis-001.yaml")
HEART_BLOCK = Path("cases/em-heart-block-001.yaml")


def _rows(tmp_path: Path, source: Path, before: str, item: str, text: str, kind: str = "treatment"
          ) -> dict[str, str]:
    """The rows of ``kind`` of an answer to a copy of ``source`` with one more item (``item``: YAML lines, no
    aliases, so only its words and the vocabulary may meet it) put before the item ``before``."""
    case = valid_case_with_item(tmp_path, source, before, item)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), kind)


def _required(name: str, *fields: str) -> str:
    return "".join([f"  - item: {name}\n    class: required\n", *(f"    {f}\n" for f in fields)])


# --- 1. clinical short forms of drugs, procedures, fluids and tests ---------------------------------------


@pytest.mark.parametrize(("source", "before", "name", "plan"), [
    (CELLULITIS, "Paracetamol for pain", "Oral clindamycin",
     "Cellulitis L shin, pen allergic (rash).\n- Clinda 450 mg PO QDS 7/7\n- Mark edge, r/v 48 h"),
    (COPD, "Oral fluids encouraged", "Nebulised ipratropium",
     "IECOPD.\n- Salb 5 mg + ipratrop 500 mcg nebs, O2 88-92%\n- Pred 30 mg 5/7"),
    (CELLULITIS, "Paracetamol for pain", "Subcutaneous tinzaparin",
     "Cellulitis, immobile.\n- Fluclox 1 g QDS\n- Tinz 4500 units SC OD"),
    (HEART_FAILURE, "Intravenous fluids", "Oral dexamethasone",
     "Fluid overload on a background of myeloma.\n- Dex 20 mg PO OD x4\n- IV furosemide 40 mg BD"),
    (CELLULITIS, "Paracetamol for pain", "Intravenous hydrocortisone",
     "Cellulitis; on long-term pred, adrenal cover:\n- Hydrocort 100 mg IV now"),
])
def test_a_clipped_drug_name_names_the_drug(tmp_path: Path, source: Path, before: str, name: str, plan: str):
    """A drug written as clinicians clip it in a plan ("clinda", "ipratrop", "tinz", "dex", "hydrocort") names
    that drug."""
    assert name in _rows(tmp_path, source, before, _required(name), plan), plan


@pytest.mark.parametrize("plan", [
    "DKA, pH 7.14.\n- FRIII 0.1 u/kg/h\n- Add 5% dex to the fluids once BG < 14",
    "DKA.\n- Insulin infusion; 10% dex if glucose falls below 14",
])
def test_dex_beside_a_strength_of_glucose_is_dextrose(tmp_path: Path, plan: str):
    """"Dex" is dexamethasone, except as a strength of glucose ("5% dex", "10% dex"): no steroid is given."""
    found = _rows(tmp_path, DKA, "Antiemetic (ondansetron)", _required("Intravenous dexamethasone"), plan)
    assert "Intravenous dexamethasone" not in found, plan


@pytest.mark.parametrize("plan", [
    "Hyperkalaemia K 7.2 with peaked T waves.\n- Ca gluconate 10% 30 mL IV\n- Ins/dex IV now",
    "K 7.2.\n- IV calcium gluconate\n- Insulin/dex stat, salb nebs",
])
def test_insulin_with_dex_is_insulin_with_dextrose(tmp_path: Path, plan: str):
    """"Insulin/dex" is insulin with dextrose (the steroid is not given)."""
    found = _rows(tmp_path, HYPERKALAEMIA, "Calcium resonium", _required("Intravenous dexamethasone"), plan)
    assert "Intravenous soluble insulin 10 units with 25 g glucose" in found, plan
    assert "Intravenous dexamethasone" not in found, plan


@pytest.mark.parametrize(("plan", "given"), [
    ("Missed two sessions, fluid overloaded, K 6.9.\n- Urgent HD today\n- O2 94-98%", True),
    ("Overloaded, anuric on missed sessions.\n- Renal aware, for HD tonight", True),
    ("HD stable. IV furosemide 80 mg, daily weights.", False),
    ("Overloaded.\n- IV furosemide\n- HD next week if no better", False),
])
def test_hd_in_capitals_is_haemodialysis(tmp_path: Path, plan: str, given: bool):
    """"HD" in capitals is haemodialysis, its time compared with the item's; "HD stable" is haemodynamically
    stable."""
    found = _rows(tmp_path, HEART_FAILURE, "Intravenous fluids", _required("Haemodialysis", "within: same day"),
                  plan)
    assert ("Haemodialysis" in found) is given, plan


@pytest.mark.parametrize(("plan", "given"), [
    ("Cellulitis with a fluctuant collection.\n- I&D under LA, pack\n- Fluclox", True),
    ("Cellulitis.\n- Fluclox 1 g QDS\n- Mark the edge", False),
])
def test_i_and_d_is_incision_and_drainage(tmp_path: Path, plan: str, given: bool):
    found = _rows(tmp_path, CELLULITIS, "Paracetamol for pain", _required("Incision and drainage"), plan)
    assert ("Incision and drainage" in found) is given, plan


@pytest.mark.parametrize(("plan", "given"), [
    ("Bicarb 50 mmol IV over 30 min", True),
    ("No bicarb; 0.9% NaCl 10 mL/kg", False),
])
def test_bicarb_is_sodium_bicarbonate(plan: str, given: bool):
    """"Bicarb" is sodium bicarbonate, given or declined (the DKA case's harmful item)."""
    case = load_valid_case(DKA)
    found = rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=f"DKA, pH 6.98.\n- {plan}"))),
                 "treatment")
    assert ("Sodium bicarbonate" in found) is given, plan


@pytest.mark.parametrize(("plan", "done"), [
    ("Gallstone pancreatitis.\n- IV Hartmann's 1 L stat\n- Catheter + strict FB", True),
    ("Gallstone pancreatitis.\n- IV fluids\n- FB chart, hourly obs", True),
    ("Gallstone pancreatitis.\n- IV fluids\n- Fishbone FB sensation in throat settled", False),
])
def test_fb_with_the_words_of_fluids_is_fluid_balance(plan: str, done: bool):
    """"FB" is a fluid balance where its words say so ("strict FB", "FB chart"); a foreign body otherwise."""
    case = load_valid_case(PANCREATITIS)
    found = rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan))), "treatment")
    assert ("Fluid balance and urine output monitoring" in found) is done, plan


def _differential(tmp_path: Path, source: Path, name: str, code: str, text: str) -> dict[str, str]:
    """The differential rows of an answer to a copy of ``source`` with one more differential ``name``."""
    original = source.read_text()
    case_file = tmp_path / source.name
    entry = f"differential:\n  - name: {name}\n    icd10: {code}\n"
    case_file.write_text(original.replace("differential:\n", entry, 1))
    case = load_valid_case(case_file)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), "differential")


@pytest.mark.parametrize(("text", "named"), [
    ("Impression: acute angle closure R eye.\nDDx: epidemic KC, anterior uveitis.", True),
    ("Impression: acute angle closure R eye.\nDDx: KC, anterior uveitis.", False),
])
def test_kc_with_the_word_that_says_which_is_keratoconjunctivitis(tmp_path: Path, text: str, named: bool):
    """"Epidemic KC" is epidemic keratoconjunctivitis; "KC" alone may be keratoconus and names neither."""
    found = _differential(tmp_path, AACG, "Epidemic keratoconjunctivitis", "B30.0", text)
    assert ("Epidemic keratoconjunctivitis" in found) is named, text


def test_fluor_is_fluorescein(tmp_path: Path):
    item = "  - item: Fluorescein staining of the cornea\n    class: required\n    aliases: [fluorescein]\n"
    found = _rows(tmp_path, AACG, "Visual acuity", item,
                  "Red painful R eye, IOP 54.\nVA 6/24, fluor stain: no uptake.\n- Same-day eye casualty", "workup")
    assert "Fluorescein staining of the cornea" in found


@pytest.mark.parametrize(("plan", "met"), [
    ("PPH 1.2 L.\n- Obs reg + anaes now\n- Syntocinon 5 u IV", True),
    ("PPH 1.2 L.\n- 15-min obs, repeat Hb\n- Syntocinon 5 u IV", False),
    ("PPH 1.2 L, settled.\n- Obs reg review next week", False),
])
def test_obs_with_a_grade_is_the_obstetric_team(tmp_path: Path, plan: str, met: bool):
    """"Obs reg" is the obstetric registrar (its time still compared); "obs" alone is the observations."""
    item = _required("Urgent senior obstetric review", "within: immediately", "target: obstetrics")
    found = _rows(tmp_path, PPH, "Uterine massage or bimanual uterine compression", item, plan)
    assert ("Urgent senior obstetric review" in found) is met, plan


# --- 2. a team named alone in a terse plan ----------------------------------------------------------------


@pytest.mark.parametrize(("plan", "met"), [
    ("Obstructed infected kidney, Cr 240.\n- Uro + renal today re nephrostomy", True),
    ("Obstructed kidney.\n- ITU and renal now", True),
    ("AKI on CKD 4.\n- Renal for advice on dialysis", True),
    ("Renal colic, 4 mm stone. Diclofenac PR, CT KUB.", False),
    ("Renal colic.\n- Renal USS today\n- Diclofenac PR", False),
    ("Renal colic.\n- Renal: U&E, urine dip\n- Diclofenac PR", False),
    ("Renal colic.\n- Renal - daily U&E\n- Diclofenac PR", False),
])
def test_a_team_joined_to_another_or_heading_its_line_is_involved(tmp_path: Path, plan: str, met: bool):
    """A team named alone is its involvement when it is joined to another team ("Uro + renal today") or opens a
    plan line before what it is for ("Renal for ..."); never as an adjective of a thing ("renal colic", "renal
    USS") or a systems plan's label ("Renal: U&E")."""
    found = _rows(tmp_path, RENAL_COLIC, "Paracetamol", _required("Renal team referral"), plan)
    assert ("Renal team referral" in found) is met, plan


@pytest.mark.parametrize(("plan", "met"), [
    ("Obstructed kidney, K 6.8.\n- Uro + renal now", True),
    ("Obstructed kidney, K 6.8.\n- Renal OPD 2/52", False),
    ("Obstructed kidney, K 6.8.\n- Uro + renal next week", False),
])
def test_a_team_named_alone_keeps_the_time_of_its_line(tmp_path: Path, plan: str, met: bool):
    """The time of a coordinated line is each team's ("Uro + renal now"); a later time does not meet a same-day
    item."""
    item = _required("Same-day renal referral", "within: same day", "target: nephrology")
    found = _rows(tmp_path, RENAL_COLIC, "Paracetamol", item, plan)
    assert ("Same-day renal referral" in found) is met, plan


@pytest.mark.parametrize(("plan", "met"), [
    ("Neutropenic sepsis on day 10 of FEC.\n- Tazocin within 1 h\n- Haem + micro today", True),
    ("Neutropenic sepsis.\n- Tazocin within 1 h\n- Onc/micro r/v", True),
    ("Neutropenic sepsis.\n- Tazocin within 1 h\n- Urine micro and culture", False),
])
def test_short_team_names_are_teams(tmp_path: Path, plan: str, met: bool):
    """"Micro", "haem" and "onc" name their teams, with a referral word, a time or another team; a urine's
    "micro" is its microscopy."""
    item = _required("Discussion with microbiology")
    found = _rows(tmp_path, NEUTROPENIC, "Intravenous crystalloid fluids on arrival", item, plan)
    assert ("Discussion with microbiology" in found) is met, plan


@pytest.mark.parametrize(("plan", "met"), [
    ("CHB, HR 34.\n- Cardio + ITU now\n- Pads on", False),
    ("CHB, HR 34.\n- Admit under cardio\n- Pads on", True),
])
def test_a_team_named_alone_is_a_contact_not_an_admission(tmp_path: Path, plan: str, met: bool):
    """A team named alone is contacted (as "Cardiology today" is), never admitted under."""
    found = _rows(tmp_path, HEART_BLOCK, "Stop bisoprolol", _required("Admission under cardiology"), plan)
    assert ("Admission under cardiology" in found) is met, plan


@pytest.mark.parametrize(("plan", "given"), [
    ("CHB, HR 34.\n- Cardio reg aware, CCU bed\n- Pads on", False),
    ("CHB, HR 34, settled.\n- Discharge with routine cardiology referral", True),
])
def test_a_contact_of_a_team_is_no_outpatient_plan_unless_it_says_so(tmp_path: Path, plan: str, given: bool):
    """A harmful outpatient plan of a team is met in other words only by a plan that sends the patient home (or
    gives a time); a terse contact of the team ("cardio reg aware") is not it."""
    item = ("  - item: Outpatient cardiology referral instead of admission\n    class: contraindicated\n"
            "    weight: 3\n")
    found = _rows(tmp_path, HEART_BLOCK, "Stop bisoprolol", item, plan)
    assert ("Outpatient cardiology referral instead of admission" in found) is given, plan
