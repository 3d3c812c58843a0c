"""The editor's case file without the screen: opening (with work crashed editors left
behind), saving, the autosave, and changes other programs make."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from medbench_tui.core.authoring import autosave
from medbench_tui.core.authoring.case_file import CaseFile, DiskNews, Opened
from medbench_tui.core.cases.bank import scan_bank

FIXTURE_BANK = Path(__file__).parent / "tui" / "fixtures" / "bank"


@pytest.fixture
def bank(tmp_path: Path) -> Path:
    folder = tmp_path / "bank"
    shutil.copytree(FIXTURE_BANK, folder)
    return folder


def crashed_editor(instance: str, started: float) -> autosave.Editor:
    """An editor of this machine whose process has ended."""
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return autosave.Editor(autosave.Editor.here().host, int(gone.stdout), instance, started)


Recover = Callable[[autosave.Autosave], Awaitable[str]]


def answering(*answers: str) -> tuple[list[autosave.Autosave], Recover]:
    """A ``recover`` callback giving ``answers`` in turn, and the autosaves it was asked about."""
    asked: list[autosave.Autosave] = []
    given = iter(answers)

    async def recover(swap: autosave.Autosave) -> str:
        asked.append(swap)
        return next(given)

    return asked, recover


def open_file(case_file: CaseFile, path: Path, recover: Recover) -> Opened | None:
    return asyncio.run(case_file.open(path, recover))


def test_a_case_without_autosaves_opens_as_it_is_on_disk(bank):
    path = bank / "fx-cap-001.yaml"
    asked, recover = answering()
    case_file = CaseFile()
    opened = open_file(case_file, path, recover)
    assert opened.text == opened.on_disk == path.read_text() and not opened.settled and not opened.elsewhere
    assert not asked
    case_file.load(path, opened.on_disk, opened.text)
    assert case_file.path == path and case_file.swap_text is None
    assert not case_file.differs(opened.text) and case_file.differs(opened.text + "# more\n")


def test_work_left_behind_is_recovered_and_its_autosave_taken_over(bank):
    path = bank / "fx-cap-001.yaml"
    text = path.read_text()
    older, newer = crashed_editor("old-1", 1.0), crashed_editor("new-1", 2.0)
    empty = crashed_editor("empty-1", 3.0)
    autosave.write(path, older, text.replace("max_turns: 20", "max_turns: 21"))
    autosave.write(path, newer, text.replace("max_turns: 20", "max_turns: 27"))
    autosave.write(path, empty, None)
    asked, recover = answering("recover")
    case_file = CaseFile()
    opened = open_file(case_file, path, recover)
    assert len(asked) == 1, "one recovered: the others are offered next time"
    assert "max_turns: 2" in opened.text and opened.text != text
    assert autosave.swap_path(path, empty) in opened.settled
    case_file.load(path, opened.on_disk, opened.text)
    assert case_file.swap_text == opened.text and case_file.inherited == asked[0].path
    assert case_file.swap_kept(path, opened.text) == asked[0].path
    assert case_file.inherited is None


def test_discarded_work_is_settled_and_cancelling_opens_nothing(bank):
    path = bank / "fx-cap-001.yaml"
    crashed = crashed_editor("crashed-1", 1.0)
    autosave.write(path, crashed, path.read_text() + "# unsaved\n")
    asked, recover = answering("discard")
    opened = open_file(CaseFile(), path, recover)
    assert opened.text == opened.on_disk and opened.settled == [autosave.swap_path(path, crashed)]
    asked, recover = answering("cancel")
    assert open_file(CaseFile(), path, recover) is None


def test_an_editor_that_still_runs_has_the_case_open_elsewhere(bank):
    path = bank / "fx-cap-001.yaml"
    other = CaseFile()
    other.write_swap(path, path.read_text() + "# theirs\n")
    asked, recover = answering()
    opened = open_file(CaseFile(), path, recover)
    assert not asked and [swap.editor for swap in opened.elsewhere] == [other.editor]
    assert opened.unsaved_elsewhere


def test_an_unreadable_file_is_not_opened(bank):
    path = bank / "missing.yaml"
    asked, recover = answering()
    with pytest.raises(OSError):
        open_file(CaseFile(), path, recover)


def test_saving_writes_the_text_and_refuses_a_final_case_with_errors(bank):
    path = bank / "fx-app-003.yaml"
    case_file = CaseFile()
    before = path.read_text()
    case_file.load(path, before, before)
    broken = before.replace("urgency: emergency", "urgency: now")
    refused = case_file.save(broken, scan_bank(bank))
    assert not refused.written and refused.errors and path.read_text() == before
    assert case_file.differs(broken)
    fixed = before + "# checked\n"
    saved = case_file.save(fixed, scan_bank(bank))
    assert saved.written and saved.errors == 0 and path.read_text() == fixed
    assert not case_file.differs(fixed) and not case_file.changed_on_disk()


def test_a_read_only_file_is_not_replaced(bank):
    path = bank / "fx-cap-001.yaml"
    case_file = CaseFile()
    case_file.load(path, path.read_text(), path.read_text())
    assert not case_file.read_only
    path.chmod(0o444)
    try:
        assert case_file.read_only
    finally:
        path.chmod(0o644)


def test_the_autosave_holds_unsaved_text_and_says_it_failed_once(bank):
    path = bank / "fx-cap-001.yaml"
    case_file = CaseFile()
    text = path.read_text()
    case_file.load(path, text, text)
    assert not case_file.autosave_due(text, modified=False)
    assert case_file.autosave_due(text + "#\n", modified=True)
    case_file.write_swap(path, text + "#\n")
    assert case_file.swap_kept(path, text + "#\n") is None
    assert not case_file.autosave_due(text + "#\n", modified=True)
    assert case_file.own_swap is not None and case_file.own_swap.is_file()
    assert case_file.swap_failed(text) and not case_file.swap_failed(text), "said once"
    assert not CaseFile().swap_failed(None), "nothing unsaved to protect"
    case_file.swap_kept(path, text)
    assert case_file.swap_failed(text), "said again once the autosave worked in between"


def test_a_change_on_disk_reloads_or_warns_once(bank):
    path = bank / "fx-cap-001.yaml"
    case_file = CaseFile()
    text = path.read_text()
    case_file.load(path, text, text)
    assert case_file.disk is not None and CaseFile.look(path, case_file.disk) is None
    path.write_text(text + "# theirs\n")
    assert case_file.changed_on_disk()
    change = CaseFile.look(path, case_file.disk)
    assert change is not None and change.text == text + "# theirs\n"
    assert case_file.news(change, modified=False) is DiskNews.RELOAD
    assert case_file.news(change, modified=True) is DiskNews.WARN
    assert case_file.news(change, modified=True) is DiskNews.NONE, "told about once"
    path.unlink()
    removed = CaseFile.look(path, case_file.disk)
    assert removed is not None and removed.stamp is None and removed.text is None
    assert case_file.news(removed, modified=False) is DiskNews.WARN, "nothing to reload"


def test_save_as_moves_the_case_and_back(bank):
    path = bank / "fx-cap-001.yaml"
    case_file = CaseFile()
    case_file.load(path, path.read_text(), path.read_text())
    case_file.move_to(bank / "fx-cap-001-copy.yaml")
    assert case_file.disk is None and case_file.own_swap is not None
    assert case_file.own_swap.name.startswith(".fx-cap-001-copy.yaml.")
    case_file.move_to(path)
    assert case_file.path == path and case_file.disk is not None and not case_file.changed_on_disk()
    case_file.close()
    assert case_file.path is None and case_file.own_swap is None and not case_file.differs("anything")
