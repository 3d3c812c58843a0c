"""Nothing leaks out of the bank or the process: links that lead outside the bank are
refused everywhere, and key values never reach the store, a report, an export or stderr.

The end-to-end tests build a bank with a symlinked attachment and point a system at a
gateway that echoes the request's credentials back in its errors.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core import redact as redaction
from medbench_tui.core.cases.bankconfig import BankConfigError, load_bank_config, parse_bank_config
from medbench_tui.core.cases.model import Attachment
from medbench_tui.core.consultation.loop import attachment_view
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.validate import load_valid_case, validate_file, validate_paths
from tests.test_consultation import write_bank

KEY = "az-7f3c9e1b2d4a6f8e0c1b3d5f"
HEADER_KEY = "hdr-5e4d3c2b1a0f9e8d"
SECRET_TEXT = "TOP SECRET: the contents of a file outside the bank"


@pytest.fixture(autouse=True)
def _forget_secrets(monkeypatch):
    """Each test starts with no secret learnt from another one."""
    monkeypatch.setattr(redaction, "_variables", set())
    monkeypatch.setattr(redaction, "_values", set())


@pytest.fixture
def outside(tmp_path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text(SECRET_TEXT + "\n")
    return folder


def _bank(tmp_path: Path) -> tuple[Path, Path]:
    bank = tmp_path / "bank"
    bank.mkdir()
    return bank, write_bank(bank)


def _codes(report) -> list[str]:
    return [d.code for d in report.diagnostics]


# --- links out of the bank ------------------------------------------------------------------


def test_an_attachment_that_is_a_link_outside_the_bank_is_refused(tmp_path, outside):
    bank, case = _bank(tmp_path)
    text = bank / "attachments" / "fx-cough-001" / "fbc.txt"
    text.unlink()
    text.symlink_to(outside / "secret.txt")
    report = validate_file(case)
    [finding] = [d for d in report.errors if d.code == "attachment.outside_bank"]
    assert finding.path == "attachments.2.file" and finding.line is not None
    assert "outside the bank" in finding.message
    with pytest.raises(MedbenchError, match="outside the bank"):
        load_valid_case(case)


def test_an_attachment_in_a_linked_folder_outside_the_bank_is_refused(tmp_path, outside):
    bank, case = _bank(tmp_path)
    folder = bank / "attachments" / "fx-cough-001"
    for file in folder.iterdir():
        (outside / file.name).write_bytes(file.read_bytes())
        file.unlink()
    folder.rmdir()
    folder.symlink_to(outside, target_is_directory=True)
    codes = _codes(validate_file(case))
    assert codes.count("attachment.outside_bank") == 2


def test_a_link_inside_the_bank_is_fine(tmp_path):
    bank, case = _bank(tmp_path)
    folder = bank / "attachments" / "fx-cough-001"
    (folder / "fbc.txt").rename(bank / "shared-fbc.txt")
    (folder / "fbc.txt").symlink_to(bank / "shared-fbc.txt")
    assert validate_file(case).errors == []


def test_the_attachment_reader_never_reads_outside_the_bank(tmp_path, outside):
    """Play, run and the TUI read attachments through one function: it refuses a link."""
    bank = tmp_path / "bank"
    bank.mkdir()
    (bank / "lab.txt").symlink_to(outside / "secret.txt")
    view = attachment_view(Attachment(id="lab", kind="lab_report", title="Lab", file="lab.txt"), bank)
    assert view.text is None and view.outside_file == "lab.txt"
    assert SECRET_TEXT not in view.render() and "outside the case bank" in view.render()


def test_a_case_file_that_is_a_link_outside_the_bank_is_refused(tmp_path, outside):
    bank, case = _bank(tmp_path)
    moved = outside / case.name
    case.rename(moved)
    case.symlink_to(moved)
    [report] = validate_paths([bank])
    assert "file.outside_bank" in _codes(report)
    with pytest.raises(MedbenchError, match="outside the bank"):
        load_valid_case(case)


def test_a_bank_configuration_that_is_a_link_outside_the_bank_is_refused(tmp_path, outside):
    bank, _ = _bank(tmp_path)
    (outside / "medbench.yaml").write_text("systems: {}\n")
    (bank / "medbench.yaml").unlink()
    (bank / "medbench.yaml").symlink_to(outside / "medbench.yaml")
    with pytest.raises(BankConfigError, match="outside the bank"):
        load_bank_config(bank)


def test_validate_play_and_run_refuse_a_linked_attachment(tmp_path, outside, capsys):
    bank, case = _bank(tmp_path)
    text = bank / "attachments" / "fx-cough-001" / "fbc.txt"
    text.unlink()
    text.symlink_to(outside / "secret.txt")
    assert main(["validate", str(case)]) == 1
    assert "attachment.outside_bank" in capsys.readouterr().out
    assert main(["play", str(case)]) != 0
    assert main(["run", "--bank", str(bank), "--system", "checklist"]) != 0
    captured = capsys.readouterr()
    assert captured.err.count("outside the bank") == 2 and SECRET_TEXT not in captured.out + captured.err


# --- keys redacted by value -----------------------------------------------------------------


def test_redact_knows_secrets_by_value_not_by_name(monkeypatch):
    monkeypatch.setenv("GATEWAY_PASS_PHRASE_X", "plain-looking-value-42")
    parse_bank_config("systems:\n  gw:\n    kind: openai-chat\n    base_url: http://127.0.0.1:1/v1\n"
                      "    model: m\n    api_key_env: GATEWAY_PASS_PHRASE_X\n"
                      f"    headers: {{Api-Key: '{HEADER_KEY}', User-Agent: visible-agent-id}}\n")
    text = redaction.redact("echo plain-looking-value-42 and hdr " + HEADER_KEY + " and visible-agent-id")
    assert text == "echo [redacted] and hdr [redacted] and visible-agent-id"


def test_redact_masks_credentials_written_out_in_a_text():
    assert redaction.redact("got Authorization: Bearer abcdefgh123") == "got Authorization: Bearer [redacted]"
    assert redaction.redact('{"api-key": "qwerty-123456"}') == '{"api-key": "[redacted]"}'
    assert redaction.redact("api_key_env: AZURE_OPENAI_KEY") == "api_key_env: AZURE_OPENAI_KEY"
    assert redaction.redact("X-API-KEY=abcd1234efgh") == "X-API-KEY=[redacted]"  # any case
    assert redaction.redact("proxy-AUTHORIZATION: Basic dXNlcjpwYXNz") == "proxy-AUTHORIZATION: Basic [redacted]"
    assert redaction.redact("X-Auth-Token: t0ken-value") == "X-Auth-Token: [redacted]"
    assert redaction.redact("the therapist's rapid keyboard") == "the therapist's rapid keyboard"


def _gateway_bank(tmp_path: Path, base_url: str) -> Path:
    bank, _ = _bank(tmp_path)
    (bank / "medbench.yaml").write_text(
        "systems:\n"
        "  gateway:\n"
        "    kind: openai-chat\n"
        f"    base_url: {base_url}\n"
        "    model: fake-model\n"
        "    api_key_env: AZURE_OPENAI_KEY\n"
        f"    headers: {{api-key: {HEADER_KEY}}}\n"
    )
    return bank


def _leaks(text: str | bytes) -> list[str]:
    data = text.encode() if isinstance(text, str) else text
    return [secret for secret in (KEY, HEADER_KEY) if secret.encode() in data]


def test_an_echoing_gateway_puts_no_key_in_store_reports_exports_or_stderr(tmp_path, echoing_openai,
                                                                          monkeypatch, capsys):
    monkeypatch.setenv("AZURE_OPENAI_KEY", KEY)
    bank = _gateway_bank(tmp_path, echoing_openai.base_url)
    assert main(["run", "--bank", str(bank), "--system", "gateway", "--seed", "1"]) in (0, 1)
    run_output = capsys.readouterr()
    sent = echoing_openai.chat_requests[0].headers
    assert sent["authorization"] == f"Bearer {KEY}" and sent["api-key"] == HEADER_KEY  # the key did go out
    assert "[redacted]" in run_output.out + run_output.err
    assert _leaks(run_output.out + run_output.err) == []

    store = bank / ".medbench" / "runs.sqlite"
    with sqlite3.connect(store) as db:  # the WAL is folded in, so the file holds everything
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        reasons = [row[0] for row in db.execute("SELECT reason FROM runs")]
    assert reasons and all("[redacted]" in r for r in reasons)
    assert _leaks(b"".join(p.read_bytes() for p in store.parent.iterdir() if p.is_file())) == []

    for fmt in ("text", "md", "json", "csv"):
        assert main(["report", "--bank", str(bank), "--format", fmt]) == 0
        captured = capsys.readouterr()
        assert _leaks(captured.out + captured.err) == [], fmt
    for export in ("runs.jsonl", "runs.csv"):
        assert main(["report", "--bank", str(bank), "--export", str(tmp_path / export)]) == 0
        capsys.readouterr()
        assert _leaks((tmp_path / export).read_text()) == [], export
        assert "[redacted]" in (tmp_path / export).read_text()


def test_a_gateway_error_message_is_redacted_on_stderr(tmp_path, echoing_openai, monkeypatch, capsys):
    """``play`` with an LLM patient on the gateway: the error line on stderr has no key."""
    monkeypatch.setenv("AZURE_OPENAI_KEY", KEY)
    bank = _gateway_bank(tmp_path, echoing_openai.base_url)
    with (bank / "medbench.yaml").open("a") as handle:
        handle.write("simulators:\n  gw-patient:\n    kind: llm\n"
                     f"    base_url: {echoing_openai.base_url}\n    model: fake-model\n"
                     "    api_key_env: AZURE_OPENAI_KEY\n    stream: false\n")
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("How long have you had the cough?\n"))
    code = main(["play", str(bank / "fx-cough-001.yaml"), "--simulator", "gw-patient"])
    captured = capsys.readouterr()
    assert code != 0 and "gateway rejected" in captured.err
    assert _leaks(captured.out + captured.err) == [] and "[redacted]" in captured.err


def test_a_reply_that_echoes_the_key_is_redacted_in_the_stored_transcript(tmp_path, echoing_openai,
                                                                        monkeypatch, capsys):
    monkeypatch.setenv("AZURE_OPENAI_KEY", KEY)
    echoing_openai.echo_credentials = "reply"
    bank = _gateway_bank(tmp_path, echoing_openai.base_url)
    main(["run", "--bank", str(bank), "--system", "gateway", "--seed", "1", "--format", "json"])
    out = capsys.readouterr().out
    assert _leaks(out) == []
    assert main(["report", "--bank", str(bank), "--export", str(tmp_path / "all.jsonl")]) == 0
    exported = [json.loads(line) for line in (tmp_path / "all.jsonl").read_text().splitlines()]
    assert exported and "[redacted]" in json.dumps(exported) and _leaks(json.dumps(exported)) == []
