"""Messages that say the right thing: YAML keys that are not words are named as written at
their line, two `.nan:` keys are duplicates, and a report on a read-only bank reads the
bank's own run store."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from medbench_tui.cli import main
from medbench_tui.core.validate import validate_text

CASE = (Path(__file__).resolve().parent.parent / "cases" / "im-cap-001.yaml").read_text(encoding="utf-8")


def test_keys_that_yaml_reads_as_values_are_named_as_written_at_their_line():
    text = CASE.replace("schema_version: 1\n", "schema_version: 1\ntrue: 1\n~: 2\n.nan: 3\n.nan: 4\n1: 5\n")
    first = text.splitlines().index("true: 1") + 1
    report = validate_text(text, Path("im-cap-001.yaml"))
    found = {(d.line, d.code, d.message.split("`")[1]) for d in report.diagnostics if d.severity == "error"}
    assert (first, "schema.unknown_key", "true") in found
    assert (first + 1, "schema.unknown_key", "~") in found
    assert (first + 2, "schema.unknown_key", ".nan") in found
    assert (first + 3, "yaml.duplicate_key", ".nan") in found
    assert (first + 4, "schema.unknown_key", "1") in found


def test_report_on_a_read_only_bank_reads_the_banks_own_store(tmp_path, capsys, monkeypatch):
    bank = tmp_path / "bank"
    bank.mkdir()
    shutil.copy(Path(__file__).resolve().parent.parent / "cases" / "im-cap-001.yaml", bank)
    assert main(["run", "--bank", str(bank), "--system", "checklist", "--format", "json"]) == 0
    group = json.loads(capsys.readouterr().out)["group_id"]
    real_access = os.access

    def read_only(path, mode, *args, **kwargs):  # as for a bank copied read-only (root writes anyway)
        if mode & os.W_OK and Path(path).resolve().is_relative_to(bank.resolve()):
            return False
        return real_access(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", read_only)
    assert main(["report", "--bank", str(bank), group]) == 0, capsys.readouterr().err
    assert group in capsys.readouterr().out
