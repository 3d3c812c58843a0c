"""How far a result could move if every uncertain decision went the other way: per run
(scorecard ranges), per system and per paired comparison (the report)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from medbench_tui.cli import main
from medbench_tui.core.runs.store import range_rows, split_ranges
from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case

CLINIC = Path(__file__).resolve().parent / "tui" / "fixtures" / "clinic"
DOUBTED = ("Streptococcal tonsillitis. The throat is red and sore; swab the tonsils later. "
           "Phenoxymethylpenicillin for 10 days.")


def test_a_doubted_left_out_test_opens_the_workup_range_and_nothing_else():
    case = load_valid_case(CLINIC / "fx-throat-002.yaml")
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=DOUBTED)))
    assert card.metrics.workup_score == 0
    assert card.ranges["workup_score"] == [0.0, 100.0]  # 'Throat swab' may be given after all
    assert card.ranges["treatment_accuracy"] == [100.0, 100.0]
    assert card.ranges["diagnosis_accuracy"] == [100.0, 100.0]


def test_ranges_are_stored_beside_the_metrics_and_read_back_apart():
    rows = range_rows({"workup_score": [0.0, 100.0]})
    metrics, ranges = split_ranges({"workup_score": 0.0, **rows})
    assert metrics == {"workup_score": 0.0} and ranges == {"workup_score": [0.0, 100.0]}


def test_the_report_gives_each_system_its_range_and_says_whether_a_difference_could_reverse(tmp_path, monkeypatch,
                                                                                             capsys):
    bank = tmp_path / "bank"
    shutil.copytree(CLINIC, bank)
    replay = bank / "replays" / "fx-throat-002.yaml"
    text = replay.read_text(encoding="utf-8")
    replay.write_text(text[: text.index("final:")] + f'final:\n  text: "{DOUBTED}"\n', encoding="utf-8")
    monkeypatch.chdir(bank)
    assert main(["run", "--system", "checklist", "--system", "replay:replays"]) == 0
    capsys.readouterr()
    assert main(["report", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    replayed = doc["headline"]["replay:replays"]
    low, high = replayed["ranges"]["workup_score"]
    assert low < high and replayed["uncertain_runs"] == 1
    (comparison,) = doc["comparisons"]
    assert set(comparison["difference_ranges"]) >= {"workup_score", "diagnosis_accuracy"}
    assert main(["report"]) == 0
    out = capsys.readouterr().out
    assert "How far the grader's doubt could move the results" in out
    assert "could reverse" in out or "holds" in out
