"""Failure classes: a terse diagnosis line in shorthand ("Dx: ... GTCS") is the final diagnosis, and
terse results report a test done (a drug's short name with a level word and a value, "urine prot neg", a blood
result two list pieces after a urine result). Wording of our own on other topics (alcohol withdrawal seizures,
vancomycin and digoxin levels, a urine result beside blood results), with negative tests: a queried or ruled-out
diagnosis is not final, a level to be checked or not needed is not done, a dose is no level."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with, case_yaml, load_data
from tests.test_scoring_regressions import rows

SEIZURE = Path("cases/ped-febrile-seizure-001.yaml")
NSTEMI = Path("cases/em-nstemi-001.yaml")

VANC_LEVEL = {"item": "Serum vancomycin level", "class": "acceptable", "aliases": ["vancomycin trough level"]}
DIGOXIN_LEVEL = {"item": "Plasma digoxin concentration", "class": "acceptable", "aliases": ["digoxin level"]}
URINE_PROTEIN = {"item": "Urine protein testing", "class": "acceptable",
                 "aliases": ["urinalysis", "proteinuria", "urine PCR"]}


def _withdrawal_case(tmp_path: Path) -> Case:
    data = case_yaml(SEIZURE)
    data["diagnosis"]["primary"] = {
        "name": "Alcohol withdrawal with a generalised tonic-clonic seizure", "icd10": "F10.3",
        "aliases": ["alcohol withdrawal seizure", "withdrawal tonic-clonic seizure"]}
    return load_data(tmp_path, SEIZURE, data)


def _accuracy(case: Case, text: str) -> int:
    return score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))).metrics.diagnosis_accuracy


# --- 1. a terse diagnosis line in shorthand ----------------------------------------------------------------------

@pytest.mark.parametrize(("text", "final"), [
    ("48M, EtOH 10 u/d, stopped Fri. Witnessed GTCS this AM.\nDx: withdrawal GTCS.\n- Chlordiazepoxide regimen\n"
     "- Pabrinex IV", True),
    ("Imp: withdrawal GTC seizure\n- Chlordiazepoxide, Pabrinex", True),
    # negatives: queried or to be ruled out is no final diagnosis
    ("Dx: vasovagal syncope; not a withdrawal GTCS\n- Reassure", False),
    ("Plan: r/o withdrawal GTCS - EEG\n- Chlordiazepoxide regimen", False),
])
def test_terse_diagnosis_line_in_shorthand(tmp_path: Path, text: str, final: bool) -> None:
    assert (_accuracy(_withdrawal_case(tmp_path), text) == 100) is final


# --- 2. terse results report a test done -------------------------------------------------------------------------

def _found(tmp_path: Path, source: Path, item: dict, text: str) -> bool:
    case = case_with(tmp_path, source, "workup", item)
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    return rows(card, "workup").get(item["item"]) in ("matched", "acceptable")


@pytest.mark.parametrize(("item", "text", "found"), [
    # a drug's short name (drugs.yaml) and a level word before the value
    (VANC_LEVEL, "Chest pain settled. Vanc trough 18 today.\nDx: NSTEMI\n- Aspirin 300 mg", True),
    (DIGOXIN_LEVEL, "On digoxin; digoxin conc 2.4 on admission.\nDx: NSTEMI\n- Aspirin 300 mg", True),
    (VANC_LEVEL, "Vanco peak 32.\nDx: NSTEMI\n- Aspirin 300 mg", True),
    # negatives: a dose is no level; a level to be checked or not needed is not done
    (VANC_LEVEL, "Dx: NSTEMI\n- Aspirin 300 mg\n- Vanc 1 g bd", False),
    (VANC_LEVEL, "Dx: NSTEMI\n- Aspirin 300 mg\n- no vanc level needed", False),
    (DIGOXIN_LEVEL, "Dx: NSTEMI\n- Aspirin 300 mg\n- LFTs not done; digoxin conc to be checked", False),
    # protein written short in a urine result
    (URINE_PROTEIN, "Obs stable, urine prot neg.\nDx: NSTEMI\n- Aspirin 300 mg", True),
    (URINE_PROTEIN, "Dx: NSTEMI\n- Aspirin 300 mg\n- no urine prot testing needed", False),
])
def test_terse_results_report_the_test(tmp_path: Path, item: dict, text: str, found: bool) -> None:
    assert _found(tmp_path, NSTEMI, item, text) is found


@pytest.mark.parametrize(("text", "found"), [
    # a urine result complete in its own piece: a blood result two pieces on is the blood's
    ("Urine prot neg, ACR 2, Hb/plt nl.\nDx: NSTEMI\n- Aspirin 300 mg", True),
    ("urine ketones 1, PCR 30, plt nl.\nDx: NSTEMI\n- Aspirin 300 mg", True),
    # negative: an analyte in a urine result (a urine test listing it) is the urine's
    ("Urine dip: blood 2+, Hb 3+.\nDx: NSTEMI\n- Aspirin 300 mg", False),
])
def test_blood_result_after_a_complete_urine_result(tmp_path: Path, text: str, found: bool) -> None:
    fbc = {"item": "Full blood count", "class": "acceptable", "aliases": ["FBC", "platelets", "haemoglobin"]}
    data = case_yaml(NSTEMI)
    present = [w for w in data["workup"] if w["item"] == "Full blood count"]
    if present:
        present[0]["aliases"] = fbc["aliases"]
        case = load_data(tmp_path, NSTEMI, data)
    else:
        case = case_with(tmp_path, NSTEMI, "workup", fbc)
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    assert (rows(card, "workup").get("Full blood count") in ("matched", "acceptable")) is found

