"""`medbench systems`: each system and simulator, whether it can run here and why not."""

from __future__ import annotations

import json

from medbench_tui.cli import main


def bank(tmp_path, fake_url: str) -> str:
    (tmp_path / "medbench.yaml").write_text(
        "systems:\n"
        f"  near: {{kind: openai-chat, base_url: '{fake_url}', model: m}}\n"
        "  far: {kind: openai-chat, base_url: 'http://127.0.0.1:9/v1', model: m, timeout: 2}\n"
        f"  keyed: {{kind: openai-chat, base_url: '{fake_url}', model: m, api_key_env: MEDBENCH_CLI_KEY}}\n"
        f"simulators:\n  pat: {{kind: llm, base_url: '{fake_url}', model: m}}\n"
    )
    return str(tmp_path)


def rows(document: dict, table: str) -> dict:
    return {row["name"]: row for row in document[table]}


def test_json_lists_builtins_and_configured_with_reasons(tmp_path, fake_openai, capsys, monkeypatch):
    monkeypatch.delenv("MEDBENCH_CLI_KEY", raising=False)
    assert main(["systems", "--bank", bank(tmp_path, fake_openai.base_url), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    systems = rows(document, "systems")
    assert systems["checklist"]["can_run"] and systems["human"]["can_run"]
    assert systems["near"]["can_run"] and systems["near"]["model"] == "m"
    assert not systems["far"]["can_run"] and "check base_url, the network" in systems["far"]["why"]
    assert not systems["keyed"]["can_run"] and "MEDBENCH_CLI_KEY is not set" in systems["keyed"]["why"]
    assert rows(document, "simulators")["pat"]["can_run"] and rows(document, "simulators")["grounded"]["can_run"]
    assert any(r.path.endswith("/models") for r in fake_openai.requests)


def test_offline_contacts_nothing_and_text_output(tmp_path, fake_openai, capsys, monkeypatch):
    monkeypatch.setenv("MEDBENCH_CLI_KEY", "sk-cli-secret-1")
    assert main(["systems", "--bank", bank(tmp_path, fake_openai.base_url), "--offline"]) == 0
    out = capsys.readouterr().out
    assert fake_openai.requests == []
    assert "ok  keyed" in out and "not checked (--offline)" in out and "sk-cli-secret-1" not in out
