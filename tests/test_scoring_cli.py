"""`medbench score CASE TRANSCRIPT`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from medbench_tui.cli import main

DATA = Path(__file__).parent / "data" / "scoring"
CASE = DATA / "golden-cap.yaml"
TRANSCRIPT = """\
case_id: golden-cap
system: human
turns:
  - {role: doctor, text: "When did it start?"}
  - {role: patient, text: "Three days ago.", facts: [onset]}
final:
  text: |
    Diagnosis: community-acquired pneumonia (J18.9)
    Differential: acute bronchitis
    Plan: CXR, FBC, CRP; amoxicillin; smoking cessation advice. Avoid NSAIDs.
    Seek urgent care if breathless.
"""


@pytest.fixture
def transcript_file(tmp_path) -> Path:
    path = tmp_path / "run.yaml"
    path.write_text(TRANSCRIPT)
    return path


def test_text_scorecard(transcript_file, capsys):
    assert main(["score", str(CASE), str(transcript_file)]) == 0
    out = capsys.readouterr().out
    assert "Scorecard - case golden-cap" in out and "Diagnosis accuracy" in out
    assert "What you missed" in out and "recent travel" in out


def test_json_scorecard(transcript_file, capsys):
    assert main(["score", str(CASE), str(transcript_file), "--format", "json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["case_id"] == "golden-cap" and data["complete"] is True and data["steps"] == 1
    assert data["metrics"]["diagnosis_accuracy"] == 100 and data["metrics"]["primary_icd10"] == "exact"
    # required 4 of 4; treatment 2 of 2 required
    assert data["metrics"]["workup_score"] == 100.0 and data["metrics"]["treatment_accuracy"] == 100.0
    assert data["metrics"]["critical_conditions_passed"] == 100


def test_json_transcript(tmp_path, capsys):
    from ruamel.yaml import YAML

    path = tmp_path / "run.json"
    path.write_text(json.dumps(YAML(typ="safe", pure=True).load(TRANSCRIPT)))
    assert main(["score", str(CASE), str(path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["metrics"]["diagnosis_accuracy"] == 100


@pytest.mark.parametrize(
    ("content", "suffix", "message"),
    [
        ("case_id: golden-cap\nturns: [{role: nurse, text: hi}]\n", ".yaml", "turns.0.role"),
        ('{"case_id": "golden-cap", ', ".json", "not valid JSON"),
        ("case_id: [golden-cap\n", ".yaml", "not valid YAML"),
        ("- just\n- a list\n", ".yaml", "not a valid transcript"),
        ("", ".yaml", "not a valid transcript"),
        ("case_id: other-case\n", ".yaml", "not of 'golden-cap'"),
    ],
)
def test_bad_transcripts_are_named_with_the_problem(tmp_path, capsys, content, suffix, message):
    path = tmp_path / f"bad{suffix}"
    path.write_text(content)
    assert main(["score", str(CASE), str(path)]) == 1
    err = capsys.readouterr().err
    assert str(path) in err and message in err and "Traceback" not in err


def test_invalid_case_is_refused_with_its_diagnostics(tmp_path, transcript_file, capsys):
    broken = tmp_path / "golden-cap.yaml"
    broken.write_text(CASE.read_text().replace("icd10: J18.9", "icd10: J18.99"))
    assert main(["score", str(broken), str(transcript_file)]) == 1
    err = capsys.readouterr().err
    assert "not a valid case" in err and "J18.99" in err


def test_missing_files_are_usage_errors(transcript_file, capsys):
    assert main(["score", str(CASE), "/nonexistent/run.yaml"]) == 2
    assert main(["score", "/nonexistent/case.yaml", str(transcript_file)]) == 2
    assert "no such" in capsys.readouterr().err


def test_llm_extractor_from_the_bank_config(tmp_path, transcript_file, fake_openai, capsys):
    bank = tmp_path / "bank"
    (bank / "cases").mkdir(parents=True)
    shutil.copy(CASE, bank / "cases" / CASE.name)
    (bank / "medbench.yaml").write_text(
        f"evaluator:\n  extractor: llm\n  llm:\n    base_url: {fake_openai.base_url}\n    model: fake-model\n"
    )
    fake_openai.add_reply(json.dumps({
        "diagnoses": [{"name": "CAP", "icd10": "J18.9", "quote": "community-acquired pneumonia"}],
        "differential": [], "workup": [], "treatment": [], "advised_against": [],
    }))
    code = main(
        ["score", str(bank / "cases" / CASE.name), str(transcript_file), "--extractor", "llm", "--format", "json"]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["extraction"]["extractor"] == "llm" and data["metrics"]["diagnosis_accuracy"] == 100


def test_llm_extractor_without_an_endpoint_is_a_usage_error(transcript_file, capsys):
    assert main(["score", str(CASE), str(transcript_file), "--extractor", "llm"]) == 2
    assert "evaluator" in capsys.readouterr().err
