"""Physician-corrected metrics (issue 36, item 3): a physician's decision replaces the grader's, per run
(core/review/physician.py) and per system beside the grader's in the report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from medbench_tui.cli import main
from medbench_tui.core.cases.model import Case
from medbench_tui.core.paths import default_run_store
from medbench_tui.core.review.adjudication import AdjudicationBook, Record
from medbench_tui.core.review.physician import latest_records, physician_corrected
from medbench_tui.core.runs.store import RunStore
from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case

CLINIC = Path(__file__).resolve().parent / "tui" / "fixtures" / "clinic"
THROAT = "Streptococcal tonsillitis. Swab the tonsils later."
CHEST = "Chest pain, probably musculoskeletal. Go home."


def _card(name: str, text: str) -> tuple[Case, dict[str, Any]]:
    case = load_valid_case(CLINIC / name)
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    return case, card.model_dump(mode="json")


def _record(section: str, reference: str, evaluator: str, physician: str, rater: str = "dr-a",
            at: str = "2026-01-01T00:00:00Z") -> Record:
    return Record(1, "x", section, reference, evaluator, physician, rater, at=at)


def test_a_corrected_missed_required_item_raises_workup_and_treatment():
    case, card = _card("fx-throat-002.yaml", THROAT)
    records = [_record("workup", "Throat swab", "not_found", "found"),
               _record("treatment", "Phenoxymethylpenicillin", "not_found", "found")]
    found = physician_corrected(case, card, records)
    assert found.corrected == 2
    assert found.metrics == {"diagnosis_accuracy": 100.0, "workup_score": 100.0, "treatment_accuracy": 100.0,
                             "critical_conditions_passed": 100.0}


def test_a_fail_verdict_corrected_to_ok_passes_the_critical_conditions_and_one_of_two_treatments_gives_half():
    case, card = _card("fx-chest-001.yaml", CHEST)
    records = [_record("critical", "cc-antibiotic", "FAIL", "OK"),
               _record("treatment", "Amoxicillin", "not_found", "found"),
               _record("diagnoses", "Lobar pneumonia", "not_found", "found")]
    found = physician_corrected(case, card, records)
    assert found.corrected == 3
    assert found.metrics["critical_conditions_passed"] == 100.0
    assert found.metrics["treatment_accuracy"] == 50.0
    assert found.metrics["diagnosis_accuracy"] == 100.0


def test_agreeing_records_and_relabels_on_one_side_change_nothing():
    case, card = _card("fx-chest-001.yaml", CHEST)
    records = [_record("critical", "cc-antibiotic", "FAIL", "FAIL"),
               _record("treatment", "Amoxicillin", "not_found", "negated"),
               _record("workup", "Chest X-ray", "not_found", "not_found")]
    found = physician_corrected(case, card, records)
    metrics = card["metrics"]
    assert found.corrected == 0
    assert found.metrics == {n: float(metrics[n]) for n in found.metrics}


def test_the_latest_record_of_a_decision_wins():
    early = _record("workup", "Throat swab", "not_found", "found", rater="dr-b", at="2026-01-01T00:00:00Z")
    late = _record("workup", "Throat swab", "not_found", "not_found", rater="dr-a", at="2026-02-01T00:00:00Z")
    assert list(latest_records([late, early]).values()) == [late]


def test_the_report_gives_each_system_its_physician_corrected_means(tmp_path, monkeypatch, capsys):
    bank = tmp_path / "bank"
    shutil.copytree(CLINIC, bank)
    replay = bank / "replays" / "fx-throat-002.yaml"
    text = replay.read_text(encoding="utf-8")
    replay.write_text(text[: text.index("final:")] + f'final:\n  text: "{THROAT}"\n', encoding="utf-8")
    monkeypatch.chdir(bank)
    assert main(["run", "--system", "replay:replays"]) == 0
    capsys.readouterr()
    assert main(["report", "--format", "json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert "physician_corrected" not in plain
    with RunStore(default_run_store(bank)) as store:
        group = store.latest_group()
        assert group is not None
        (run,) = [r for r in store.runs(group.id) if r.case_id == "fx-throat-002"]
        assert run.id is not None
        AdjudicationBook(store).save([Record(run.id, run.case_id, "workup", "Throat swab", "not_found", "found",
                                             "dr-a")])
    assert main(["report", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    found = doc["physician_corrected"]["replay:replays"]
    assert found["reviewed_runs"] == 1 and found["decisions_corrected"] == 1
    grader, fixed = found["grader"]["workup_score"], found["physician_corrected"]["workup_score"]
    assert fixed - grader == 100.0 / found["runs"]  # one case's workup 0 -> 100, the other's unchanged
    assert main(["report", "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert "## Physician-corrected metrics: replay:replays" in out and "1 decision corrected" in out
    for fmt in ("text", "html"):
        assert main(["report", "--format", fmt]) == 0
        assert "Physician-corrected metrics: replay:replays" in capsys.readouterr().out
