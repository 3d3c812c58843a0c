"""Saving never loses work: read-only files are refused, a failed save leaves the file and
its backup whole, and the new-case template cannot put a comment into the patient's words."""

from __future__ import annotations

import errno
import os
import stat

import pytest

from medbench_tui.core import files
from medbench_tui.core.cases.templates import new_case_text
from medbench_tui.core.cases.yamlio import save_case_text
from medbench_tui.core.files import backup_path, is_read_only, write_atomic
from medbench_tui.core.validate import validate_text


def test_a_read_only_case_is_refused_not_replaced(tmp_path):
    case = tmp_path / "case.yaml"
    case.write_text("id: case\n")
    case.chmod(stat.S_IRUSR | stat.S_IRGRP)
    assert is_read_only(case)
    with pytest.raises(PermissionError, match="read-only"):
        save_case_text(case, "id: changed\n")
    assert case.read_text() == "id: case\n" and stat.S_IMODE(case.stat().st_mode) == 0o440
    assert not backup_path(case).exists()


def test_a_failed_backup_never_leaves_a_truncated_bak(tmp_path, monkeypatch):
    case = tmp_path / "case.yaml"
    case.write_text("version: 1\n" * 1000)
    save_case_text(case, "version: 2\n" * 1000)  # the .bak now holds version 1, whole
    good_backup = backup_path(case).read_bytes()

    def disk_full(source, target, *args, **kwargs):
        with open(source, "rb") as src, open(target, "wb") as dst:
            dst.write(src.read()[:100])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.shutil, "copyfile", disk_full)
    with pytest.raises(OSError, match="No space"):
        save_case_text(case, "version: 3\n" * 1000)
    assert case.read_text() == "version: 2\n" * 1000
    assert backup_path(case).read_bytes() == good_backup
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_a_failed_write_keeps_the_file_and_leaves_no_temp_file(tmp_path, monkeypatch):
    case = tmp_path / "case.yaml"
    case.write_text("id: case\n")

    def fail(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(OSError):
        write_atomic(case, "id: new\n")
    assert case.read_text() == "id: case\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["case.yaml"]


def _fill_intro_as_the_template_says(text: str) -> str:
    """The template says: write `intro: |`, then the words on the lines below."""
    lines = text.splitlines(keepends=True)
    row = next(i for i, line in enumerate(lines) if line.startswith("intro:"))
    lines[row] = lines[row].replace("intro:", "intro: |", 1)
    lines.insert(row + 1, "  I have had a cough for three days.\n")
    return "".join(lines)


def test_following_the_template_puts_no_comment_into_the_intro():
    report = validate_text(_fill_intro_as_the_template_says(new_case_text("im-new-001")))
    assert report.case is None or "#" not in report.case.intro
    intro_problems = [d for d in report.diagnostics if d.path == "intro"]
    assert intro_problems == [], intro_problems


def test_comment_like_text_in_a_block_is_a_warning_at_its_line():
    text = ("id: x\nintro: |\n  I have a cough.\n  # FILL IN: never the diagnosis\nnotes: |\n  # heading\n"
            "  Reviewer text.\n")
    found = [(d.path, d.line, d.column) for d in validate_text(text).diagnostics if d.code == "yaml.comment_in_block"]
    assert found == [("intro", 4, 3), ("notes", 6, 3)]
    assert not any(d.code == "yaml.comment_in_block" for d in validate_text("id: x\nintro: a # b\n").diagnostics)


def test_a_markdown_heading_in_a_checks_example_response_is_text_not_a_comment():
    """A check's final response is written as systems write it ("## Plan"); in the intro it still warns."""
    text = ("id: x\nintro: |\n  ## Diagnosis\nchecks:\n  answers:\n    - id: a\n      text: |\n        ## Diagnosis\n"
            "        Pneumonia.\n      expect: {diagnosis: correct}\n")
    found = [d.path for d in validate_text(text).diagnostics if d.code == "yaml.comment_in_block"]
    assert found == ["intro"]


def test_a_change_that_keeps_size_and_time_is_a_change(tmp_path):
    """cp -p, rsync -t and tar keep a file's size and modification time: only its content tells."""
    from medbench_tui.core.files import FileStamp

    case = tmp_path / "case.yaml"
    case.write_text("max_turns: 20\n")
    stamp = FileStamp.of(case)
    assert stamp is not None
    theirs = tmp_path / "theirs.yaml"
    theirs.write_text("max_turns: 25\n")
    os.utime(theirs, ns=(stamp.mtime_ns, stamp.mtime_ns))
    os.replace(theirs, case)  # as cp -p leaves it: same size, same mtime
    assert (case.stat().st_size, case.stat().st_mtime_ns) == (stamp.size, stamp.mtime_ns)
    assert not stamp.still(case)
    os.utime(case)  # a touch of the same content is no change
    case.write_text("max_turns: 20\n")
    assert stamp.still(case)
