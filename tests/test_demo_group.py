"""The bundled demo group: replays of three systems of different quality over every clinical
case of the bundled bank, configured in its medbench.yaml, so that the README's comparison
works offline, with no key, on first use, and shows systems that differ."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core.cases.bank import load_bank
from medbench_tui.core.cases.bankconfig import load_bank_config
from medbench_tui.core.systems import resolve_system
from medbench_tui.core.systems.replay import ReplaySystem

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "cases"
DEMO = ("demo-strong", "demo-middling", "demo-weak")


def _clinical_cases() -> list[str]:
    from medbench_tui.core.cases.bank import consultation_files

    return sorted(p.stem for p in consultation_files(CASES) if not p.name.startswith("err-"))


def test_every_clinical_case_has_a_transcript_of_each_demo_system(tmp_path, monkeypatch):
    bank = load_bank(CASES)
    monkeypatch.chdir(tmp_path)  # configured replay paths are the bank's, wherever the command runs
    cases = _clinical_cases()
    assert len(cases) == 69
    for name in DEMO:
        system = resolve_system(name, bank=bank)
        folder = CASES / "demo" / name.removeprefix("demo-")
        assert isinstance(system, ReplaySystem) and system.path.resolve() == folder.resolve()
        assert sorted(p.stem for p in folder.glob("*.yaml")) == cases
        for case_id in cases:  # what the system plays (the README's run below asks it whether it can)
            recorded = system.recording(case_id)
            assert recorded is not None and recorded.case_id == case_id, (name, case_id)
            assert recorded.final is not None and recorded.final.text
            assert any(turn.role == "doctor" for turn in recorded.turns)


def _readme_block(heading: str) -> list[str]:
    """The commands of the first shell block after ``heading`` in the README."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text[text.index(heading):], flags=re.S)
    assert block is not None
    return [line.split("  #")[0].strip() for line in block[1].splitlines() if line.strip()]


def test_the_readme_comparison_works_offline_with_no_key_and_shows_systems_that_differ(tmp_path, monkeypatch,
                                                                                      capsys):
    bank = tmp_path / "medbench-clone" / "cases"
    shutil.copytree(CASES, bank, ignore=shutil.ignore_patterns(".medbench"))
    monkeypatch.chdir(bank)  # the folder is a bank: the commands use it
    for variable in [v for v in os.environ if v.endswith("_API_KEY")]:
        monkeypatch.delenv(variable)
    commands = _readme_block("Comparing three systems over the bundled bank")
    assert commands[0] == "medbench run --system demo-strong --system demo-middling --system demo-weak"
    for command in commands:
        words = command.split()
        out = None
        if ">" in words:
            out = words[words.index(">") + 1]
            words = words[: words.index(">")]
        assert words[0] == "medbench"
        code = main(words[1:])
        captured = capsys.readouterr()
        assert code == 0, (command, captured.err)
        if out is not None:
            Path(out).write_text(captured.out, encoding="utf-8")
        if "--format" in words and "md" in words:
            report = captured.out
    assert "Left out when planned" not in report
    row = next(line for line in report.splitlines() if line.startswith("| Diagnosis Accuracy |"))
    strong, middling, weak = (float(cell.split()[0]) for cell in row.strip("|").split("|")[1:4])
    assert strong > middling > weak
    row = next(line for line in report.splitlines() if line.startswith("| Critical Conditions Passed |"))
    strong, middling, weak = (float(cell.split()[0]) for cell in row.strip("|").split("|")[1:4])
    assert strong > middling > weak
    page = (bank / "report.html").read_text(encoding="utf-8")
    assert page.count("<svg") >= 4 and "demo-middling − demo-strong" in page


@pytest.mark.parametrize("name", DEMO)
def test_the_demo_systems_are_described_for_compare(name):
    assert load_bank_config(CASES).systems[name].description
