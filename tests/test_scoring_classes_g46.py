"""Failure classes (issue 32): an examination reported by its findings. Wording of its own, on another
topic than the tuning set's cases (an embolic check of the legs in atrial fibrillation), with negative tests: the
pulses named as a later check, a "PT" alone (a prothrombin time)."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows

AF = Path("cases/im-af-001.yaml")

PULSES = {"item": "Examination of the peripheral pulses", "class": "acceptable",
          "aliases": ["peripheral pulses", "pulse examination"]}


def _card(tmp_path: Path, text: str):
    case = case_with(tmp_path, AF, "workup", PULSES)
    return score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))


@pytest.mark.parametrize(("text", "done"), [
    ("Irregularly irregular 120. L leg cool, no pop/DP/PT on L, normal on R.\nPlan:\n- bisoprolol 2.5 mg", True),
    ("AF with fast rate. DP/PT palpable both feet.\nPlan:\n- bisoprolol 2.5 mg", True),
    ("AF 118. Weak posterior tibial pulse on the left.\nPlan:\n- bisoprolol 2.5 mg", True),
    ("AF 118.\nPlan:\n- bisoprolol 2.5 mg\n- PT and APTT before anticoagulation", False),
    ("AF 118.\nPlan:\n- bisoprolol 2.5 mg", False),
    ("AF 118.\nPlan:\n- bisoprolol 2.5 mg\n- check the pulses at the next visit", False),
])
def test_an_examination_of_the_pulses_is_reported_by_the_pulses_found(tmp_path: Path, text: str, done: bool):
    """The pulses of the foot found, absent ("no pop/DP/PT on L": a bare negation denies the pulse) or present,
    report the pulse examination done; "PT" alone is a prothrombin time, no pulse."""
    card = _card(tmp_path, text)
    assert (rows(card, "workup").get(PULSES["item"]) in ("matched", "acceptable")) is done


FBC = {"item": "Full blood count", "class": "acceptable", "aliases": ["FBC"]}


@pytest.mark.parametrize(("text", "done"), [
    ("AF 118.\nPlan:\n- bisoprolol 2.5 mg\n- urine ACR, FBC, U&E, TFTs", True),
    ("AF 118.\nPlan:\n- bisoprolol 2.5 mg\n- urine ACR", False),
])
def test_a_urine_ratio_ends_its_own_list_entry(tmp_path: Path, text: str, done: bool):
    """A urine ratio by its short name ("urine ACR") is a test of its own: the blood test listed after it is no
    analyte of the urine."""
    case = case_with(tmp_path, AF, "workup", FBC)
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    assert (rows(card, "workup").get(FBC["item"]) in ("matched", "acceptable")) is done
