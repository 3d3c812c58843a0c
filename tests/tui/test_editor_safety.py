"""The editor never loses anyone's work: changes made on disk by other programs, read-only
files, an autosave that cannot be written, Esc, and ICD codes put into the template."""

from __future__ import annotations

import os
import stat

from textual.widgets import DataTable

from medbench_tui.core.authoring import autosave
from medbench_tui.core.cases.templates import new_case_text
from medbench_tui.tui.screens.dialogs import CaseIdDialog, ExternalChangeDialog
from medbench_tui.tui.screens.diff_view import DiffView

from .conftest import SIZE, open_case, settle
from .test_editor import CAP, line_of, replace_on_line


def _change_on_disk(path, old: str, new: str) -> str:
    """Another program (an editor, git pull) rewrites the file, a moment later."""
    text = path.read_text().replace(old, new)
    path.write_text(text)
    status = path.stat()
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns + 2_000_000_000))
    return text


async def _save_over_a_change_on_disk(pilot, app, path):
    """The author edits the open case, another program changes its file, the author saves:
    the editor asks what to do (the dialog is on screen)."""
    editor = await open_case(pilot, path)
    await replace_on_line(pilot, editor, "max_turns: 20", "max_turns: 25")
    theirs = _change_on_disk(path, "complexity: basic", "complexity: advanced")
    await pilot.press("ctrl+s")
    await settle(pilot, lambda: isinstance(app.screen, ExternalChangeDialog))
    return editor, theirs


async def test_a_case_changed_on_disk_is_not_overwritten_unasked(bank, make_app):
    path = bank / CAP
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor, theirs = await _save_over_a_change_on_disk(pilot, app, path)
        await pilot.press("c")  # compare: a diff of the two
        await settle(pilot, lambda: isinstance(app.screen, DiffView))
        diff = app.screen.diff
        assert "-  complexity: advanced" in diff and "+  complexity: basic" in diff and "max_turns: 25" in diff
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, ExternalChangeDialog))
        await pilot.press("escape")  # cancel: nothing written
        await settle(pilot, lambda: app.screen is editor)
        assert path.read_text() == theirs and editor.modified
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: isinstance(app.screen, ExternalChangeDialog))
        await pilot.press("o")  # overwrite: the editor's text wins, knowingly
        await settle(pilot, lambda: not editor.modified)
        assert "max_turns: 25" in path.read_text() and "complexity: basic" in path.read_text()


async def test_reload_takes_the_file_from_disk(bank, make_app):
    path = bank / CAP
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor, theirs = await _save_over_a_change_on_disk(pilot, app, path)
        await pilot.press("r")
        await settle(pilot, lambda: app.screen is editor and not editor.modified)
        assert editor.text_area.text == theirs == path.read_text()


async def test_open_files_are_watched(bank, make_app):
    """Unchanged in the editor: the new text is taken. Changed in both: said once."""
    path = bank / CAP
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, path)
        theirs = _change_on_disk(path, "complexity: basic", "complexity: advanced")
        editor.watch_disk()
        await settle(pilot, lambda: editor.text_area.text == theirs)
        assert not editor.modified and "reloaded" in app.notes.text()
        await replace_on_line(pilot, editor, "max_turns: 20", "max_turns: 25")
        _change_on_disk(path, "urgency: urgent", "urgency: emergency")
        for _ in range(3):
            editor.watch_disk()
            await settle(pilot)
        assert app.notes.text().count("while you edit it") == 1
        assert "max_turns: 25" in editor.text_area.text and editor.modified


async def test_a_read_only_case_is_not_replaced_and_can_be_saved_as(bank, make_app):
    path = bank / CAP
    before = path.read_text()
    path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, path)
        await replace_on_line(pilot, editor, "max_turns: 20", "max_turns: 25")
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: isinstance(app.screen, CaseIdDialog))
        assert "read-only" in str(app.screen.query_one(".dialog-question").render())
        await pilot.press("enter")  # the offered id: fx-cap-001-copy
        await settle(pilot, lambda: app.screen is editor and not editor.modified)
        copy = bank / "fx-cap-001-copy.yaml"
        assert path.read_text() == before and stat.S_IMODE(path.stat().st_mode) == 0o444
        assert "max_turns: 25" in copy.read_text() and editor.path == copy


async def test_an_autosave_that_cannot_be_written_is_said_once(bank, make_app):
    path = bank / CAP
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, path)
        swap = autosave.swap_path(path, editor.editor_id)
        swap.unlink()
        swap.mkdir()  # the swap file's place is taken: it cannot be written
        for turns in ("25", "26", "27"):
            await replace_on_line(pilot, editor, "max_turns: 2", f"max_turns: {turns}")
            editor.autosave()
            await settle(pilot)
        assert app.notes.text().count("Crash protection is off") == 1
        assert not any(severity == "error" for _, _, severity in app.notes.messages)


async def test_esc_in_the_text_keeps_the_typing_in_the_text(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        row = line_of(editor.text_area.text, "max_turns: 20")
        editor.text_area.move_cursor((row, len("max_turns: 20")))
        await pilot.press("escape", "5")
        await settle(pilot)
        assert app.focused is editor.text_area
        assert "max_turns: 205" in editor.text_area.text
        editor.query_one("#diagnostics", DataTable).focus()
        await pilot.press("escape")
        assert app.focused is editor.text_area


async def test_an_icd_code_on_the_template_line_keeps_the_case_readable(bank, make_app):
    path = bank / "im-new-001.yaml"
    path.write_text(new_case_text("im-new-001"))
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, path)
        row = line_of(editor.text_area.text, "    icd10:")
        editor.text_area.move_cursor((row, 6))
        editor.insert_code("N30.0")
        await settle(pilot)
        line = editor.text_area.document.get_line(row)
        assert "N30.0 # FILL IN" in line
        assert not any(d.code.startswith("yaml.") for d in editor.diagnostics)


async def test_a_change_on_disk_that_keeps_size_and_time_is_asked_about(bank, make_app):
    path = bank / CAP
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, path)
        await replace_on_line(pilot, editor, "max_turns: 20", "max_turns: 25")
        before = path.stat()
        path.write_text(path.read_text().replace("urgency: urgent", "urgency: URGENT"))  # as cp -p would copy it
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert path.stat().st_size == before.st_size
        await pilot.press("ctrl+s")
        await settle(pilot, lambda: isinstance(app.screen, ExternalChangeDialog))
        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is editor)
        assert "urgency: URGENT" in path.read_text() and editor.modified
