"""Nothing a case, an endpoint or a stored run holds can drive the terminal: every command's
output shows control characters (escape sequences, OSC 52 clipboard writes, bidirectional
overrides) as visible escapes."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from medbench_tui.cli import main

REPO = Path(__file__).resolve().parent.parent
CASE = (REPO / "cases" / "im-cap-001.yaml").read_text(encoding="utf-8")
OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"
OSC52_IN_YAML = "\\e]52;c;cm0gLXJmIH4=\\a"  # YAML writes control characters as escapes in double quotes
HIDDEN = ("\x1b", "\x07", "\x9b", "\u202e")


def _with_intro(case: str) -> str:
    """The case with an intro that holds an OSC 52 clipboard write."""
    intro = f'intro: "I have had a cough and a temperature for four days{OSC52_IN_YAML}, and chest pain."\n'
    return re.sub(r"intro: \|\n(?:  .*\n)+", lambda _: intro, case, count=1)


def _hostile_bank(tmp_path: Path) -> Path:
    bank = tmp_path / "bank"
    bank.mkdir()
    text = _with_intro(CASE.replace("id: im-cap-001", f'id: "im-cap-001{OSC52_IN_YAML}"'))
    text = re.sub(r"title: .*\n", lambda _: f'title: "Cough{OSC52_IN_YAML}\\e[2J\\u202e and fever"\n', text, count=1)
    (bank / "im-cap-001.yaml").write_text(text, encoding="utf-8")
    return bank


def _clean(text: str) -> None:
    assert not any(char in text for char in HIDDEN), repr(text[:400])


@pytest.mark.parametrize("output", ["text", "json"])
def test_validate_shows_escapes_in_case_ids_and_text(tmp_path, capsys, output):
    bank = _hostile_bank(tmp_path)
    main(["validate", str(bank / "im-cap-001.yaml"), "--format", output])
    captured = capsys.readouterr()
    _clean(captured.out + captured.err)
    assert "\\x1b]52;c;" in captured.out + captured.err or "\\u001b]52;c;" in captured.out + captured.err


def test_play_shows_escapes_in_the_case_and_the_patient(tmp_path, capsys, monkeypatch):
    bank = tmp_path / "bank"
    bank.mkdir()
    text = _with_intro(CASE)
    (bank / "im-cap-001.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("How long have you had it?\n/final\nPneumonia\n"))
    main(["play", str(bank / "im-cap-001.yaml"), "--bank", str(bank)])
    captured = capsys.readouterr()
    _clean(captured.out + captured.err)
    assert "\\x1b]52;c;" in captured.out


def test_an_endpoint_error_is_shown_with_its_escapes_visible(tmp_path, fake_openai, capsys):
    fake_openai.error_message = f"bad request{OSC52}\x9b2J"
    bank = tmp_path / "bank"
    bank.mkdir()
    (bank / "im-cap-001.yaml").write_text(CASE, encoding="utf-8")
    (bank / "medbench.yaml").write_text(
        f"systems:\n  gw:\n    kind: openai-chat\n    base_url: {fake_openai.base_url}\n    model: m\n")
    main(["run", "--bank", str(bank), "--system", "gw"])
    captured = capsys.readouterr()
    _clean(captured.out + captured.err)


def test_visible_keeps_text_and_line_breaks_and_shows_the_rest():
    from medbench_tui.core.untrusted import visible

    assert visible("a\tb\nc") == "a\tb\nc"
    assert visible(f"x{OSC52}y\u202ez") == "x\\x1b]52;c;cm0gLXJmIH4=\\x07y\\u202ez"
