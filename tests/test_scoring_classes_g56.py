"""Failure classes (issue 32): an examination reported by its findings, negative ones included.
Wording of its own, on other topics than the tuning set's cases (vertigo with an ear examined, an anaphylaxis airway,
a head injury's eye movements, an atrial fibrillation's foot pulses), with negative tests: an examination not done,
left to another team, or impossible, is not reported by the structure's name alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows


def _done(tmp_path: Path, case: str, item: dict, text: str) -> bool:
    built = case_with(tmp_path, Path(f"cases/{case}.yaml"), "workup", item)
    card = score(built, Transcript(case_id=built.id, final=FinalResponse(text=text)))
    return rows(card, "workup").get(item["item"]) in ("matched", "acceptable")


EARS = {"item": "Otoscopy", "class": "acceptable", "aliases": ["otoscopic examination", "look in the ears"]}


@pytest.mark.parametrize(("text", "done"), [
    ("Rotatory vertigo 2 days. O/E L TM bulging and red, R TM normal.\nPlan:\n- prochlorperazine 5 mg", True),
    ("Vertigo since yesterday. Ear canals clear, both tympanic membranes intact.\nPlan:\n- prochlorperazine 5 mg",
     True),
    ("Vertigo. L EAC oedematous with debris in the canal.\nPlan:\n- prochlorperazine 5 mg", True),
    ("Vertigo. No otoscope available today.\nPlan:\n- prochlorperazine 5 mg", False),
    ("Vertigo.\nPlan:\n- prochlorperazine 5 mg\n- swab the ear canal if discharge", False),
    ("Vertigo.\nPlan:\n- prochlorperazine 5 mg", False),
])
def test_an_ear_examination_is_reported_by_the_canal_and_drum_seen(tmp_path: Path, text: str, done: bool):
    """The drum or the canal's signs seen ("TM bulging", "EAC oedematous") report otoscopy done; no otoscope, or the
    canal named as a swab's site, reports nothing."""
    assert _done(tmp_path, "im-vertigo-001", EARS, text) is done


AIRWAY = {"item": "Assessment of the airway", "class": "acceptable", "aliases": ["airway assessment", "stridor"]}


@pytest.mark.parametrize(("text", "done"), [
    ("Urticaria and lip swelling after peanuts. No stridor, speaking in full sentences.\nPlan:\n"
     "- adrenaline 0.5 mg IM", True),
    ("Lip swelling after peanuts, soft inspiratory stridor.\nPlan:\n- adrenaline 0.5 mg IM", True),
    ("Lip swelling after peanuts.\nPlan:\n- adrenaline 0.5 mg IM\n- airway assessment not done", False),
    ("Lip swelling after peanuts.\nPlan:\n- adrenaline 0.5 mg IM", False),
    ("Lip swelling after peanuts.\nPlan:\n- adrenaline 0.5 mg IM\n- ENT to assess the airway in clinic next week",
     False),
    ("Lip swelling after peanuts.\nPlan:\n- adrenaline 0.5 mg IM\n- call 999 if stridor develops", False),
])
def test_an_airway_assessment_is_reported_by_its_signs_found_or_denied(tmp_path: Path, text: str, done: bool):
    """"No stridor" denies the sign (a bare negation of a finding), the airway assessed; an assessment said not done
    is none."""
    assert _done(tmp_path, "em-anaphylaxis-001", AIRWAY, text) is done


EYES = {"item": "Eye movement examination", "class": "acceptable", "aliases": ["eye movements"]}


@pytest.mark.parametrize(("text", "done"), [
    ("Fall onto the face. R periorbital swelling, EOM restricted on upgaze.\nPlan:\n- CT head", True),
    ("Fall onto the face. Ophthalmoplegia of the right eye.\nPlan:\n- CT head", True),
    ("Fall onto the face. Double vision on looking up.\nPlan:\n- CT head", False),
    ("Fall onto the face.\nPlan:\n- CT head\n- fundoscopy not done", False),
])
def test_eye_movements_are_reported_by_their_restriction(tmp_path: Path, text: str, done: bool):
    """Restricted eye movements found report the motility examination; double vision is what the patient tells."""
    assert _done(tmp_path, "em-head-injury-001", EYES, text) is done


FEET = {"item": "Foot examination with pulses", "class": "acceptable",
        "aliases": ["foot examination", "foot pulses", "pedal pulses"]}


@pytest.mark.parametrize(("text", "done"), [
    ("AF 118. Cold left foot with absent foot pulses, likely embolic.\nPlan:\n- heparin", True),
    ("AF 118. Absent pedal pulses on the left.\nPlan:\n- heparin", True),
    ("AF 118.\nPlan:\n- heparin\n- no foot pulses check today", False),
    ("AF 118.\nPlan:\n- heparin", False),
])
def test_absent_foot_pulses_report_the_foot_examination(tmp_path: Path, text: str, done: bool):
    """"Absent foot pulses" is a finding (the pulses looked for, not found), not the item negated."""
    assert _done(tmp_path, "im-af-001", FEET, text) is done
