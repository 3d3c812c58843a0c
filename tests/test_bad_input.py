"""Bad input gets one clear line (exit 1 or 2), fast: never "internal error", never a hang,
never a finding dropped because another one tripped the checker."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core.cases.yamlio import parse_case_text
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.runs.store import RunStore
from medbench_tui.core.transcript import load_transcript
from medbench_tui.core.validate import validate_file, validate_text
from tests.support.cli_run import run_medbench
from tests.test_consultation import write_bank

REPO = Path(__file__).resolve().parent.parent
CASE = (REPO / "cases" / "im-cap-001.yaml").read_text(encoding="utf-8")
# 342 bytes that would expand to 9**9 (387 million) strings.
ALIAS_BOMB = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]\n" for prev, name in zip("abcdefgh", "bcdefghi", strict=True)
)


def _one_clear_line(capsys, code: int) -> str:
    err = capsys.readouterr().err
    assert code in (1, 2), err
    assert "internal error" not in err and "Traceback" not in err, err
    assert err.startswith("medbench: error: "), err
    return err


# --- 8: alias bombs -------------------------------------------------------------------------------


def test_an_alias_bomb_is_reported_at_once_not_expanded():
    started = time.perf_counter()
    parsed = parse_case_text(ALIAS_BOMB)
    assert time.perf_counter() - started < 5  # generous: it used to take 20 s and 0.8 GB
    assert parsed.data is None and [d.code for d in parsed.diagnostics] == ["yaml.alias_expansion"]
    assert "write the values out" in parsed.diagnostics[0].message and parsed.diagnostics[0].line


def test_an_alias_bomb_in_a_transcript_or_the_bank_configuration_is_refused(tmp_path, capsys):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(ALIAS_BOMB)
    with pytest.raises(MedbenchError, match=r"bomb.yaml:\d+:\d+: the aliases"):
        load_transcript(bomb)
    bank = tmp_path / "bank"
    write_bank(bank)
    (bank / "medbench.yaml").write_text("evaluator:\n  extractor: rules\n  extra:\n" +
                                        "".join(f"    {line}\n" for line in ALIAS_BOMB.splitlines()))
    _one_clear_line(capsys, main(["run", "--bank", str(bank), "--system", "checklist"]))


def test_ordinary_anchors_and_aliases_still_work():
    text = CASE.replace("schema_version: 1", "schema_version: &one 1\nextensions: {copy: *one}", 1)
    assert validate_text(text).errors == []


# --- 9: huge numbers and long names are ordinary errors ---------------------------------------


def test_a_huge_hex_number_id_is_a_type_error_and_other_findings_stay():
    text = CASE.replace("id: im-cap-001", "id: 0x" + "f" * 3600, 1).replace("weight: 2", "weight: -2", 1)
    codes = [d.code for d in validate_text(text).errors]
    assert "internal.error" not in codes
    assert "schema.type" in codes and "value.not_positive" in codes


def test_an_attachment_name_over_255_characters_is_an_attachment_error(tmp_path):
    case = write_bank(tmp_path)
    text = case.read_text().replace("attachments/fx-cough-001/fbc.txt", "attachments/" + "x" * 300 + ".txt")
    case.write_text(text.replace("max_turns: 5", "max_turns: 0"))
    report = validate_file(case)
    codes = [d.code for d in report.errors]
    assert "internal.error" not in codes and "value.not_positive" in codes
    [long_name] = [d for d in report.errors if d.code == "attachment.missing_file"]
    assert "file name too long" in long_name.message and long_name.line is not None


# --- 10: an unclosed bracket at the end is reported where it opens --------------------------------


@pytest.mark.parametrize("text, where", [
    ("id: x\ntitle: t\nlist: [a, b\n", (3, 7)),
    ("id: x\ntitle: t\nmap: {a: 1\n", (3, 6)),
    ("id: x\nouter: [1, [2, 3]\n", (2, 8)),
    ("id: x\nlist: [\n", (2, 7)),
])
def test_an_unclosed_bracket_at_the_end_is_reported_where_it_opens(text, where):
    [finding] = parse_case_text(text).diagnostics
    assert finding.code == "yaml.syntax" and (finding.line, finding.column) == where
    assert finding.line <= text.count("\n")


# --- 11: one clear line and exit 1 or 2 --------------------------------------------------------------


def test_score_on_a_deeply_nested_transcript(tmp_path, capsys):
    case = write_bank(tmp_path)
    deep = tmp_path / "deep.json"
    deep.write_text('{"case_id": "fx-cough-001", "system": "s", "turns": ' + "[" * 3000 + "]" * 3000 + "}")
    err = _one_clear_line(capsys, main(["score", str(case), str(deep)]))
    assert "nested too deeply" in err


@pytest.mark.parametrize("value, message", [
    ('!!int ""', "tag !!int"), ("!!float ''", "tag !!float"), ("!!bool 5", "tag !!bool"), ("9" * 5000, "too long"),
], ids=["empty int", "empty float", "bool 5", "5000 digits"])
def test_a_value_yaml_cannot_construct_is_one_clear_line_with_its_line(tmp_path, capsys, value, message):
    """Transcripts and medbench.yaml are read with ruamel.yaml, whose constructor raises
    ValueError or IndexError on these: the line and the way out, never an internal error."""
    case = write_bank(tmp_path)
    transcript = tmp_path / "t.yaml"
    transcript.write_text(f"case_id: fx-cough-001\nsystem: s\nturns: []\nsteps: {value}\n")
    err = _one_clear_line(capsys, main(["score", str(case), str(transcript)]))
    assert message in err and "t.yaml:4" in err, err
    (tmp_path / "medbench.yaml").write_text(f"systems:\n  a:\n    kind: {value}\n")
    err = _one_clear_line(capsys, main(["systems", "--bank", str(tmp_path), "--offline"]))
    assert message in err and "medbench.yaml:3" in err, err


@pytest.mark.parametrize("word, message", [("a\x00b", "NUL character"), ("\ud800", "lone surrogate")])
def test_an_argument_no_file_name_can_hold_is_a_usage_error(tmp_path, capsys, word, message):
    assert main(["adjudication", "export", word]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_score_on_a_transcript_with_a_number_too_long_to_read(tmp_path, capsys, suffix):
    case = write_bank(tmp_path)
    transcript = tmp_path / f"t{suffix}"
    transcript.write_text('{"case_id": "fx-cough-001", "system": "s",\n "turns": [], "steps": ' + "9" * 5000 + "}")
    err = _one_clear_line(capsys, main(["score", str(case), str(transcript)]))
    assert "number too long" in err and f"t{suffix}:2" in err, err


@pytest.mark.parametrize("content, message", [
    (b"\xff\xfe not text\n", "not UTF-8"),
    (("systems:\n  a:\n" + "    - [" * 3000 + "\n").encode(), "medbench.yaml"),
    (b"systems:\n  a:\n    kind: x\n<<: {id: other}\n", "id: unknown key"),  # a merged key has no line
])
def test_run_with_a_broken_bank_configuration(tmp_path, capsys, content, message):
    write_bank(tmp_path)
    (tmp_path / "medbench.yaml").write_bytes(content)
    err = _one_clear_line(capsys, main(["run", "--bank", str(tmp_path), "--system", "checklist"]))
    assert message in err


def _store_with_a_run(tmp_path: Path, capsys) -> Path:
    write_bank(tmp_path)
    assert main(["run", "--bank", str(tmp_path), "--system", "checklist", "--seed", "3"]) in (0, 1)
    capsys.readouterr()
    return tmp_path / ".medbench" / "runs.sqlite"


@pytest.mark.parametrize("damage, in_report", [
    ("UPDATE run_groups SET config = 'not json'", True),
    ("UPDATE runs SET system_config = '{broken'", False),  # a report reads no run's configuration
    ("UPDATE runs SET steps = 'many'", True),
    ("UPDATE metrics SET value = 'abc'", True),
    ("UPDATE runs SET scorecard = '[1'", False),  # only the export reads it
])
def test_report_on_damaged_rows(tmp_path, capsys, damage, in_report):
    store = _store_with_a_run(tmp_path, capsys)
    with sqlite3.connect(store) as db:
        db.execute(damage)
    for extra in ([], ["--export", str(tmp_path / "all.jsonl")])[0 if in_report else 1:]:
        err = _one_clear_line(capsys, main(["report", "--bank", str(tmp_path), *extra]))
        assert "is damaged" in err and "restore it from a backup" in err


def test_report_on_damaged_pages(tmp_path, capsys):
    store = _store_with_a_run(tmp_path, capsys)
    with sqlite3.connect(store) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(store.read_bytes())
    for index in range(4096, len(data), 7):
        data[index] = 0xAB
    store.write_bytes(bytes(data))
    _one_clear_line(capsys, main(["report", "--bank", str(tmp_path)]))
    with pytest.raises(MedbenchError):
        RunStore(store).groups()


def test_report_export_to_a_folder_or_an_unwritable_path(tmp_path, capsys):
    _store_with_a_run(tmp_path, capsys)
    (tmp_path / "folder.jsonl").mkdir()
    (tmp_path / "a-file").write_text("x")
    for target, message in ((tmp_path / "folder.jsonl", "that is a folder"),
                            (tmp_path / "a-file" / "runs.csv", "cannot write in")):
        err = _one_clear_line(capsys, main(["report", "--bank", str(tmp_path), "--export", str(target)]))
        assert message in err


def test_play_transcript_to_a_folder_or_an_unwritable_path_is_refused_before_the_consultation(tmp_path):
    case = write_bank(tmp_path)
    (tmp_path / "a-file").write_text("x")
    for target in (tmp_path, tmp_path / "a-file" / "t.yaml"):
        done = run_medbench("play", str(case), "--transcript", str(target),
                            stdin="Do you smoke?\n/final\nPneumonia\n/end\n", cwd=REPO)
        assert done.returncode == 2 and "internal error" not in done.stderr
        assert done.stderr.startswith("medbench: error: --transcript")
        assert "Patient:" not in done.stdout  # refused before any work that would be lost


def test_play_with_binary_stdin(tmp_path):
    """In a process of its own: how stdin hands over bytes that are not UTF-8 is the process's."""
    case = write_bank(tmp_path)
    done = subprocess.run([sys.executable, "-m", "medbench_tui", "play", str(case)],
                          input=b"\xff\xfe\x00\x01binary\n", capture_output=True, timeout=120, cwd=REPO)
    assert done.returncode == 2 and b"internal error" not in done.stderr
    assert b"not UTF-8 text" in done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_validate_refuses_a_named_pipe_at_once(tmp_path):
    pipe = tmp_path / "case.yaml"
    os.mkfifo(pipe)
    done = subprocess.run([sys.executable, "-m", "medbench_tui", "validate", str(pipe)],
                          capture_output=True, text=True, timeout=60, cwd=REPO)
    assert done.returncode == 1 and "not a regular file" in done.stdout
    with pytest.raises(MedbenchError, match="not a regular file"):
        load_transcript(pipe)


# --- 12: --bank, blank text, boolean versions, transcript errors ---------------------------------------


def test_the_top_level_bank_option_reaches_systems_and_play(tmp_path, capsys):
    write_bank(tmp_path)
    (tmp_path / "medbench.yaml").write_text(
        "systems:\n  only-here:\n    kind: checklist\n    description: a system of this bank\n")
    assert main(["--bank", str(tmp_path), "systems", "--offline"]) == 0
    assert "only-here" in capsys.readouterr().out
    script = "Do you smoke?\n/final\nPneumonia\n/end\n"
    done = run_medbench("--bank", str(tmp_path), "play", "fx-cough-001", stdin=script, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert "About a pack a day" in done.stdout


@pytest.mark.parametrize("change, code, path", [
    (("title: ", "title: ''\nx-: "), "schema.value", "title"),
    (("intro: |", "intro: ' '\nx-: |"), "schema.value", "intro"),
    (("schema_version: 1", "schema_version: true"), "schema.enum", "schema_version"),
])
def test_blank_title_or_intro_and_a_boolean_schema_version_are_errors(change, code, path):
    report = validate_text(CASE.replace(*change, 1))
    assert any(d.code == code and d.path == path for d in report.errors), report.errors


def test_a_bad_replay_transcript_is_refused_with_a_readable_reason(tmp_path, capsys):
    """Found when the group is planned: the case is one the replay cannot play, and why is said."""
    bank = tmp_path / "bank"
    write_bank(bank)
    replay = tmp_path / "recorded.yaml"
    replay.write_text("case_id: fx-cough-001\nsystem: other\nturns:\n  - role: doctor\n    text: hi\n"
                      "  - role: nurse\n    text: hello\n")
    assert main(["run", "--bank", str(bank), "--system", f"replay:{replay}", "--format", "json"]) == 2
    reason = capsys.readouterr().err
    assert "internal error" not in reason and "ValidationError" not in reason and "Traceback" not in reason
    assert "cannot read its transcript" in reason
    assert re.search(r"recorded.yaml:6:\d+: turns\.1\.role: ", reason), reason


def test_transcript_errors_have_line_numbers(tmp_path):
    for name, text in (("t.yaml", "case_id: x\nsystem: s\nturns:\n  - role: doctor\n    text: 5\n"),
                       ("t.json", '{"case_id": "x",\n "system": "s",\n "turns": [{"role": "doctor",\n  "text": 5}]}')):
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(MedbenchError, match=rf"{name}:(5|4):\d+: turns\.0\.text: "):
            load_transcript(path)


def test_a_transcript_value_yaml_reads_as_an_impossible_date_is_a_clear_error(tmp_path):
    """"text: 2001-02-30" is a date YAML cannot build: one clear line, not an internal error
    (found by benchmarks/fuzz_faults.py)."""
    from medbench_tui.core.errors import MedbenchError
    from medbench_tui.core.transcript import load_transcript

    path = tmp_path / "t.yaml"
    path.write_text("case_id: x\nturns:\n  - role: doctor\n    text: 2001-02-30\n", encoding="utf-8")
    with pytest.raises(MedbenchError, match="put text in quotes"):
        load_transcript(path)


@pytest.mark.parametrize("argv", [
    ["adjudication", "import", "9" * 5000],
    ["rehearse", "--bank", "x" * 5000, "case.yaml"],
    ["validate", "y" * 5000],
], ids=["adjudication import", "rehearse --bank", "validate"])
def test_a_file_name_the_system_refuses_is_one_clear_line(tmp_path, monkeypatch, capsys, argv):
    """A name longer than the file system allows is the user's to fix, not a bug of ours."""
    monkeypatch.chdir(tmp_path)
    code = main(argv)
    err = capsys.readouterr().err
    assert code in (1, 2) and "internal error" not in err, err


@pytest.mark.parametrize("argv", [
    ["report", "\udcff"], ["run", "--resume", "\udcff"], ["adjudication", "export", "-", "--group", "\udcff"],
    ["adjudication", "export", "-", "--rater", "\udcff"], ["agreement", "\udcff"], ["agreement", "--rater", "\udcff"],
    ["freeze", "--label", "\udcff"],
], ids=["report", "run --resume", "export --group", "export --rater", "agreement", "agreement --rater", "freeze"])
def test_a_name_with_bytes_that_are_not_utf8_is_a_usage_error(tmp_path, monkeypatch, capsys, argv):
    """A shell passes such bytes as lone surrogates; looked up in the run store or written to
    the manifest they ended in an internal error."""
    write_bank(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--system", "checklist", "--seed", "1"]) in (0, 1)
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "not UTF-8" in err and "internal error" not in err, err
