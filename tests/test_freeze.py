"""Frozen banks: the manifest, --check catching every added, removed or edited file, and
runs and reports saying which frozen bank they ran against."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core.cases.manifest import MANIFEST_NAME, build_manifest, check_bank, own_sha256

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def bank(tmp_path):
    folder = tmp_path / "bank"
    shutil.copytree(REPO / "cases", folder, ignore=shutil.ignore_patterns(".medbench", "bank-manifest.json"))
    report = folder / "attachments" / "im-cap-001" / "lab-report.txt"  # a file of the attachments folder
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text("CRP 120 mg/L; WCC 14.2\n", encoding="utf-8")
    return folder


def test_freeze_writes_every_case_and_attachment_with_its_hash(bank, capsys):
    assert main(["freeze", "--bank", str(bank), "--label", "paper v1", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    manifest = json.loads((bank / MANIFEST_NAME).read_text())
    assert document["label"] == manifest["label"] == "paper v1"
    assert document["cases"] == len(list(bank.glob("*.yaml"))) - 1  # medbench.yaml is not a case
    assert document["attachments"] == len([p for p in (bank / "attachments").rglob("*") if p.is_file()]) > 0
    entry = next(f for f in manifest["files"] if f["path"] == "im-cap-001.yaml")
    assert entry["kind"] == "case" and entry["size"] == (bank / "im-cap-001.yaml").stat().st_size
    assert len(entry["sha256"]) == 64
    assert manifest["case_schema_version"] == 1 and manifest["who_data"]["version"] == "2.1.1"
    assert manifest["manifest_sha256"] == own_sha256(manifest)
    assert main(["freeze", "--check", "--bank", str(bank)]) == 0
    assert "matches its manifest" in capsys.readouterr().out


def test_check_lists_every_change_and_exits_1(bank, capsys):
    assert main(["freeze", "--bank", str(bank)]) == 0
    case = bank / "im-cap-001.yaml"
    case.write_text(case.read_text().replace("intro:", "intro:  ", 1))
    (bank / "sur-sbo-001.yaml").unlink()
    shutil.copy(bank / "em-pe-001.yaml", bank / "em-pe-009.yaml")
    attachment = next(p for p in (bank / "attachments").rglob("*") if p.is_file())
    attachment.write_bytes(attachment.read_bytes() + b"\n")
    capsys.readouterr()
    assert main(["freeze", "--check", "--bank", str(bank)]) == 1
    out = capsys.readouterr().out
    assert "changed  im-cap-001.yaml" in out and "removed  sur-sbo-001.yaml" in out
    assert "added    em-pe-009.yaml" in out
    assert f"changed  {attachment.relative_to(bank).as_posix()}" in out
    assert main(["freeze", "--check", "--bank", str(bank), "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["matches"] is False and document["changed"] == sorted(
        ["im-cap-001.yaml", attachment.relative_to(bank).as_posix()])


def test_a_hand_edited_manifest_is_caught(bank):
    manifest = build_manifest(bank, "x")
    manifest["files"][0]["sha256"] = "0" * 64  # someone "fixes" a hash by hand
    (bank / MANIFEST_NAME).write_text(json.dumps(manifest))
    result = check_bank(bank)
    assert result.manifest_edited and not result.matches


def test_check_without_a_manifest_says_what_to_do(bank, capsys):
    assert main(["freeze", "--check", "--bank", str(bank)]) == 1
    assert "medbench freeze" in capsys.readouterr().err
    assert main(["freeze", "--check", "--label", "x", "--bank", str(bank)]) == 2


def test_runs_record_the_manifest_and_reports_say_whether_cases_still_match(bank, tmp_path, capsys):
    store = str(tmp_path / "runs.sqlite")
    for case in bank.glob("*.yaml"):
        if case.name not in ("im-cap-001.yaml", "em-pe-001.yaml", "medbench.yaml"):
            case.unlink()
    assert main(["run", "--bank", str(bank), "--system", "checklist", "--store", str(store)]) == 0  # not frozen yet
    capsys.readouterr()
    assert main(["report", "--bank", str(bank), "--store", store, "--format", "md"]) == 0
    assert "Bank: not frozen when run" in capsys.readouterr().out
    assert main(["freeze", "--bank", str(bank), "--label", "paper v1"]) == 0
    capsys.readouterr()
    assert main(["run", "--bank", str(bank), "--system", "checklist", "--store", store, "--format", "json"]) == 0
    group = json.loads(capsys.readouterr().out)["group_id"]
    assert main(["report", group, "--bank", str(bank), "--store", store, "--format", "json"]) == 0
    status = json.loads(capsys.readouterr().out)["bank_manifest"]
    assert status["label"] == "paper v1" and status["matched_when_run"] and status["still_matches"] is True
    case = bank / "im-cap-001.yaml"
    case.write_text(case.read_text() + "\n# edited after the run\n")
    assert main(["report", group, "--bank", str(bank), "--store", store, "--format", "md"]) == 0
    text = capsys.readouterr().out
    assert "frozen as 'paper v1'" in text and "NO LONGER match it: changed im-cap-001.yaml" in text


def test_an_attachment_outside_the_attachments_folder_is_frozen_too(bank):
    (bank / "images").mkdir()
    (bank / "images" / "ecg.png").write_bytes(b"\x89PNG fake")
    case = bank / "em-pe-001.yaml"
    case.write_text(case.read_text() + '\n# a later attachment\n#   file: "not/this.png"\n', encoding="utf-8")
    text = case.read_text().replace("attachments:\n", 'attachments:\n  - id: ecg2\n    kind: ecg\n'
                                    '    title: ECG\n    file: "images/ecg.png"  # the tracing\n', 1)
    case.write_text(text, encoding="utf-8")
    paths = {f["path"]: f["kind"] for f in build_manifest(bank, "x")["files"]}
    assert paths["images/ecg.png"] == "attachment" and "not/this.png" not in paths


def test_a_bank_that_is_not_there_is_a_usage_error(tmp_path, capsys):
    from medbench_tui.cli import main

    for extra in ([], ["--check"]):
        assert main(["freeze", "--bank", str(tmp_path / "missing"), *extra]) == 2
        assert "no such folder" in capsys.readouterr().err
