"""Grader classes of sets Y, Z and X (g74, product issue 32), each in wording of its own on other topics than the
sets' cases, with negative tests: a specialty named by its adjective with a contact word ("Vascular review") is a
referral to it, bare "vascular" (an examination) is not; "afebrile"/"apyrexial" report the temperature taken, "if
febrile" does not; background diagnoses written short (DKD, IHD, CCF) are those diagnoses; a transport or retrieval
service named with its qualifier ("paediatric retrieval service") is the transport team, hospital transport home is
not."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.text import tokenize
from tests.support.item_decision import item_decision as _decision

DIABETIC_FOOT = Path("cases/im-t2dm-001.yaml")
CELLULITIS = Path("cases/im-cellulitis-001.yaml")
DKA = Path("cases/ped-dka-001.yaml")


def norms(text: str) -> list[str]:
    return [t.norm for t in tokenize(text)]


# --- 1. a specialty named by its adjective with a contact word ('Vascular review', 'refer to vascular') -----------

VASCULAR = {"item": "Urgent vascular surgery referral", "class": "required", "target": "vascular surgery"}


@pytest.mark.parametrize(("text", "decision"), [
    ("Plan:\n- vascular review of the ischaemic toe\n- metformin as before\n", "found"),
    ("Plan:\n- refer to vascular re the rest pain\n", "found"),
    ("Plan:\n- d/w vascular: duplex first\n", "found"),
    # negatives: the limb's vessels examined is no referral; a vascular access line is no team
    ("Plan:\n- vascular assessment of both feet\n- metformin as before\n", "not_found"),
    ("Plan:\n- peripheral vascular examination\n", "not_found"),
    ("Plan:\n- cardiology review\n", "not_found"),
])
def test_a_specialty_adjective_with_a_contact_word_is_its_referral(tmp_path: Path, text: str, decision: str) -> None:
    assert _decision(tmp_path, DIABETIC_FOOT, "treatment", VASCULAR, text) == decision


# --- 2. the temperature reported taken by the word of a normal reading --------------------------------------------

TEMPERATURE = {"item": "Temperature", "class": "acceptable"}


@pytest.mark.parametrize(("text", "decision"), [
    ("O/E apyrexial, erythema to mid-shin.\nPlan: oral flucloxacillin.", "found"),
    ("Examination: she is afebrile; the margin is marked.\nPlan: oral flucloxacillin.", "found"),
    # negatives: a condition on a fever is no reading; a febrile illness named is no temperature taken
    ("Plan: oral flucloxacillin; return if febrile.", "not_found"),
    ("Imp: cellulitis. DDx: febrile neutropenia unlikely.\nPlan: oral flucloxacillin.", "not_found"),
])
def test_afebrile_reports_the_temperature_taken(tmp_path: Path, text: str, decision: str) -> None:
    assert _decision(tmp_path, CELLULITIS, "workup", TEMPERATURE, text) == decision


# --- 3. background diagnoses written short -------------------------------------------------------------------------

@pytest.mark.parametrize(("short", "long"), [
    ("Bg DKD", "Bg diabetic kidney disease"),
    ("PMH: IHD", "PMH: ischaemic heart disease"),
    ("known CCF", "known congestive heart failure"),
    ("OSA on CPAP", "obstructive sleep apnoea on CPAP"),
    ("HFrEF", "heart failure with reduced ejection fraction"),
])
def test_background_diagnoses_written_short(short: str, long: str) -> None:
    assert norms(short) == norms(long)


@pytest.mark.parametrize("text", ["PVD on the OCT", "pad the wound"])
def test_ambiguous_short_forms_are_not_expanded(text: str) -> None:
    """PVD is a posterior vitreous detachment too, 'pad' a word: neither is written out."""
    assert "disease" not in norms(text)


# --- 4. the transport or retrieval service by any of its names ------------------------------------------------------

TRANSPORT = {"item": "Paediatric transport team", "class": "acceptable"}


@pytest.mark.parametrize(("text", "decision"), [
    ("Plan:\n- call the paediatric transport service for transfer to PICU\n", "found"),
    ("Plan:\n- discuss with the retrieval service now\n", "found"),
    # negatives: a ride home and an admission are no transport team
    ("Plan:\n- arrange hospital transport home tomorrow\n", "not_found"),
    ("Plan:\n- admit to HDU\n", "not_found"),
])
def test_a_transport_or_retrieval_service_is_the_team(tmp_path: Path, text: str, decision: str) -> None:
    assert _decision(tmp_path, DKA, "treatment", TRANSPORT, text) == decision


# --- 5. a clipped specialty name with a contact word ('Admit neuro', 'neuro review') ---------------------------------

NEURO = {"item": "Admission under neurology", "class": "required", "target": "neurology"}
TIA = Path("cases/im-tia-001.yaml")


@pytest.mark.parametrize(("text", "decision"), [
    ("Plan:\n- Admit neuro; aspirin 300 mg now\n", "found"),
    ("Plan:\n- aspirin 300 mg\n- admit under neuro for the weakness\n", "found"),
    # negatives: neurological observations and examination are no team
    ("Plan:\n- neuro obs hourly\n- aspirin 300 mg\n", "not_found"),
    ("Plan:\n- repeat neuro exam in 1 hour\n", "not_found"),
])
def test_a_clipped_specialty_with_a_contact_word_is_the_team(tmp_path: Path, text: str, decision: str) -> None:
    assert _decision(tmp_path, TIA, "treatment", NEURO, text) == decision
