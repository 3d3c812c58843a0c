"""The play session's parts without the screen: typed diagnoses, the turn count, the autosave."""

from __future__ import annotations

import pytest

from medbench_tui.core.paths import play_swap_file
from medbench_tui.core.practice.session import SessionSwap, TurnCount, parse_diagnosis
from medbench_tui.core.transcript import FinalDiagnosis, FinalResponse


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("Lobar pneumonia", FinalDiagnosis(name="Lobar pneumonia")),
        ("  Lobar   pneumonia (J18.1) ", FinalDiagnosis(name="Lobar pneumonia", icd10="J18.1")),
        ("Pneumonia [j189]", FinalDiagnosis(name="Pneumonia", icd10="J18.9")),
        ("j18.1", FinalDiagnosis(name="Lobar pneumonia, unspecified", icd10="J18.1")),
        ("Z99.99", FinalDiagnosis(name="Z99.99", icd10="Z99.99")),
        ("Lobar pneumonia J18.1", FinalDiagnosis(name="Lobar pneumonia", icd10="J18.1")),
        ("Lobar pneumonia - J18.1", FinalDiagnosis(name="Lobar pneumonia", icd10="J18.1")),
        ("Deficiency of vitamin B12", FinalDiagnosis(name="Deficiency of vitamin B12")),
        ("", None),
    ],
)
def test_a_typed_diagnosis(typed, expected):
    assert parse_diagnosis(typed) == expected


def test_the_turn_count_against_the_soft_range():
    assert TurnCount(3, 4, 8).soft_range == (3, 5)
    assert TurnCount(2, 4, 8).where == "below"
    assert TurnCount(5, 4, 8).where == "within"
    assert TurnCount(6, 4, 8).where == "above"
    assert TurnCount(8, 4, 8).left == 0
    assert TurnCount(3, None, 8).soft_range is None and TurnCount(3, None, 8).where == "within"


def test_the_autosave_round_trips_and_tolerates_damage(tmp_path):
    path = play_swap_file(tmp_path / "runs.sqlite", "Dr Ann O'Neil", "fx-chest-001")
    assert path == tmp_path / "play" / "dr-ann-o-neil--fx-chest-001.json"
    swap = SessionSwap(
        case_id="fx-chest-001", case_path="fx-chest-001.yaml", case_sha256="abc", player="Dr Ann O'Neil",
        simulator="grounded", group_id="g1", questions=["When did it start?"], notes="rusty sputum",
        draft=FinalResponse(workup=["Chest X-ray"]),
    )
    swap.save(path)
    assert SessionSwap.load(path) == swap
    path.write_text("{not json", encoding="utf-8")
    assert SessionSwap.load(path) is None
    assert SessionSwap.load(tmp_path / "missing.json") is None
