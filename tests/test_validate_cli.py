"""`medbench validate` and `medbench schema` at the command line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from medbench_tui.cli import main
from tests.valid_case import VALID

BROKEN = Path(__file__).parent / "data" / "broken"


@pytest.fixture
def bank(tmp_path) -> Path:
    """A bank with one valid case, one with an error and one with a warning."""
    cases = tmp_path / "cases"
    cases.mkdir()
    (tmp_path / "medbench.yaml").write_text("# bank\n")
    (tmp_path / "attachments").mkdir()
    shutil.copy(BROKEN / "attachments" / "urine.png", tmp_path / "attachments" / "urine.png")

    def write(stem: str, text: str, intro: str) -> None:
        text = text.replace("id: ref-unknown-answer", f"id: {stem}").replace("Hello doctor", intro)
        (cases / f"{stem}.yaml").write_text(text, encoding="utf-8")

    write("good", VALID, "Good morning")
    write("bad", VALID.replace("answered_by: [fever]", "answered_by: [fevr]"), "Hi there, sorry to bother you")
    write("meh", VALID.replace("num_steps: 8\n", ""), "Evening doctor, my daughter made me come")
    return tmp_path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["validate", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_text_output_is_compiler_style_with_a_summary(bank, capsys, monkeypatch):
    monkeypatch.chdir(bank)
    code, out, _ = run(capsys, "cases")
    lines = out.splitlines()
    assert code == 1
    assert lines[-1] == "3 files checked: 1 error, 1 warning"
    assert any(line.startswith("cases/bad.yaml:") and ": error ref.unknown_answer: " in line for line in lines)
    assert any(line.startswith("cases/meh.yaml:") and ": warning case.num_steps_missing: " in line for line in lines)
    [error_line] = [line for line in lines if "ref.unknown_answer" in line]
    _, line, column, _ = error_line.split(":", 3)
    assert int(line) > 1 and int(column) > 1


def test_a_bank_folder_means_its_cases_folder(bank, capsys):
    code, out, _ = run(capsys, str(bank))
    assert out.splitlines()[-1].startswith("3 files checked")


def test_json_output_is_exactly_the_contract_shape(bank, capsys):
    code, out, err = run(capsys, "--format", "json", str(bank / "cases"))
    document = json.loads(out)
    assert code == 1 and err == ""
    assert set(document) == {"files", "summary"}
    assert document["summary"] == {"files": 3, "errors": 1, "warnings": 1}
    bad = next(f for f in document["files"] if f["case_id"] == "bad")
    assert set(bad) == {"path", "case_id", "diagnostics"}
    assert bad["path"].endswith("bad.yaml")
    [diagnostic] = bad["diagnostics"]
    assert set(diagnostic) == {"severity", "code", "message", "path", "line", "column"}
    assert diagnostic["path"] == "control_questions.0.answered_by.0"


def test_exit_codes(bank, capsys):
    assert run(capsys, str(bank / "cases" / "good.yaml"))[0] == 0
    assert run(capsys, str(bank / "cases" / "meh.yaml"))[0] == 0
    assert run(capsys, "--strict", str(bank / "cases" / "meh.yaml"))[0] == 1
    assert run(capsys, str(bank / "cases" / "bad.yaml"))[0] == 1


def test_missing_path_is_a_usage_error(bank, capsys):
    code, out, err = run(capsys, str(bank / "cases" / "good.yaml"), str(bank / "nope.yaml"))
    assert code == 2 and "nope.yaml" in err and "no such file" in err


def test_folder_without_cases_is_a_usage_error(tmp_path, capsys):
    code, _, err = run(capsys, str(tmp_path))
    assert code == 2 and "no case files" in err


def test_medbench_yaml_is_not_a_case(bank, capsys):
    shutil.copy(bank / "medbench.yaml", bank / "cases" / "medbench.yaml")
    _, out, _ = run(capsys, str(bank / "cases"))
    assert "medbench.yaml" not in out


def test_files_given_twice_are_checked_once(bank, capsys):
    good = str(bank / "cases" / "good.yaml")
    _, out, _ = run(capsys, good, good, str(bank / "cases"))
    assert out.splitlines()[-1].startswith("3 files checked")


def test_runs_as_a_program():
    done = subprocess.run(
        [sys.executable, "-m", "medbench_tui", "validate", "--format", "json", str(BROKEN / "yaml-empty.yaml")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert json.loads(done.stdout)["files"][0]["diagnostics"][0]["code"] == "yaml.empty"
