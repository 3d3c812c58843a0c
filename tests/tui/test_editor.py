"""The case editor: live checks, problems list, saving, unsaved changes, autosave and recovery."""

from __future__ import annotations

import os

import pytest
from textual.widgets import ContentSwitcher, TextArea
from textual.widgets._text_area import SyntaxAwareDocument
from textual.widgets.text_area import Selection

from medbench_tui.core.authoring import autosave
from medbench_tui.core.diagnostics import Diagnostic
from medbench_tui.core.paths import swap_file_for
from medbench_tui.tui.screens.dialogs import SwapRecoveryDialog, UnsavedChangesDialog
from medbench_tui.tui.screens.editor import EditorScreen
from medbench_tui.tui.widgets.case_preview import CasePreview
from medbench_tui.tui.widgets.diagnostic_gutter import DiagnosticGutter
from medbench_tui.tui.widgets.diagnostics_table import DiagnosticsTable

from .conftest import SIZE, open_case, settle

CAP = "fx-cap-001.yaml"


def line_of(text: str, needle: str) -> int:
    """0-based index of the first line containing ``needle``."""
    return next(i for i, line in enumerate(text.splitlines()) if needle in line)


async def replace_on_line(pilot, editor: EditorScreen, old: str, new: str) -> int:
    """Change ``old`` into ``new`` as an author would: select the part that differs and type
    over it. Returns the 0-based line."""
    area = editor.text_area
    row = line_of(area.text, old)
    same = len(os.path.commonprefix([old, new]))
    column = area.document.get_line(row).index(old) + same
    area.selection = Selection((row, column), (row, column + len(old) - same))
    await pilot.press(*new[same:])
    return row


async def test_yaml_is_highlighted_by_tree_sitter(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        area = editor.query_one("#case-text", TextArea)
        assert area.language == "yaml"
        assert area.is_syntax_aware
        assert isinstance(area.document, SyntaxAwareDocument)
        assert area.show_line_numbers
        assert area.document.query_syntax_tree(area.document.prepare_query("(block_mapping_pair) @pair"))


async def test_a_typing_mistake_shows_a_problem_at_its_line(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        assert editor.diagnostics == []
        row = await replace_on_line(pilot, editor, "complexity: basic", "complexity: basik")
        await settle(pilot)
        assert editor.modified
        problems = [d for d in editor.diagnostics if d.severity == "error"]
        assert [(d.code, d.line) for d in problems] == [("schema.enum", row + 1)]
        table = editor.query_one(DiagnosticsTable)
        assert table.row_count == 1 and str(table.get_row_at(0)[1]).startswith(f"{row + 1}:")
        assert editor.query_one(DiagnosticGutter).marks == {row: "error"}
        assert "1 error" in str(editor.query_one("#editor-status").render())
        assert "modified" in str(editor.query_one("#editor-status").render())


async def test_results_for_old_text_are_discarded(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        stale = Diagnostic(severity="error", code="stale.result", message="old", line=1, column=1)
        report = type(editor.report)(editor.path, "fx-cap-001", None, [stale])
        editor.post_message(EditorScreen.Validated(editor._generation - 1, report))
        await settle(pilot)
        assert all(d.code != "stale.result" for d in editor.diagnostics)


async def test_choosing_a_problem_moves_the_cursor_there(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        row = await replace_on_line(pilot, editor, "urgency: urgent", "urgency: soon")
        await settle(pilot)
        editor.text_area.move_cursor((0, 0))
        table = editor.query_one(DiagnosticsTable)
        table.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.focused is editor.text_area
        assert editor.text_area.cursor_location[0] == row
        editor.text_area.move_cursor((0, 0))
        await pilot.press("f8")
        assert editor.text_area.cursor_location[0] == row


async def test_save_keeps_comments_and_a_backup(bank, make_app):
    path = bank / CAP
    before = path.read_text()
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, path)
        await replace_on_line(pilot, editor, "max_turns: 20", "max_turns: 25")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        after = path.read_text()
        assert after == before.replace("max_turns: 20", "max_turns: 25")
        assert "# the code the tests change" in after and after.startswith("# Fixture case")
        assert (bank / f"{CAP}.bak").read_text() == before
        assert not editor.modified
        assert "Saved fx-cap-001.yaml." in app.notes.text()


async def test_saving_with_errors_says_so(bank, make_app):
    path = bank / CAP
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, path)
        await replace_on_line(pilot, editor, "urgency: urgent", "urgency: soon")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "urgency: soon" in path.read_text()
        assert "Saved fx-cap-001.yaml with 1 error." in app.notes.text()


async def test_a_final_case_with_errors_is_not_saved(bank, make_app):
    path = bank / "fx-app-003.yaml"
    before = path.read_text()
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, path)
        await replace_on_line(pilot, editor, "urgency: emergency", "urgency: now")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert path.read_text() == before
        assert editor.modified
        assert "cannot be final" in app.notes.text()


async def test_quit_with_unsaved_changes_asks(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        await replace_on_line(pilot, editor, "max_turns: 20", "max_turns: 21")
        await pilot.press("ctrl+q")
        await settle(pilot)
        assert isinstance(app.screen, UnsavedChangesDialog)
        await pilot.press("escape")  # cancel: stay
        await settle(pilot)
        assert app.is_running and app.screen is editor and editor.modified
        await pilot.press("ctrl+q")
        await settle(pilot)
        await pilot.press("d")  # discard
        await pilot.pause()
    assert app.return_code == 0
    assert "max_turns: 20" in (bank / CAP).read_text()


async def test_quit_and_save(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        await replace_on_line(pilot, editor, "max_turns: 20", "max_turns: 22")
        await pilot.press("ctrl+q")
        await settle(pilot)
        await pilot.press("s")
        await pilot.pause()
    assert "max_turns: 22" in (bank / CAP).read_text()


async def test_quit_without_changes_does_not_ask(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        await open_case(pilot, bank / CAP)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_closing_with_unsaved_changes_asks(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        await replace_on_line(pilot, editor, "max_turns: 20", "max_turns: 23")
        await pilot.press("ctrl+w")
        await settle(pilot)
        assert isinstance(app.screen, UnsavedChangesDialog)
        await pilot.press("d")
        await settle(pilot)
        assert editor.path is None and editor.text_area.read_only and editor.text_area.text == ""


async def test_opening_another_case_asks_about_unsaved_changes(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        await replace_on_line(pilot, editor, "max_turns: 20", "max_turns: 24")
        await app.open_case(bank / "fx-uti-002.yaml")
        await settle(pilot)
        assert isinstance(app.screen, UnsavedChangesDialog)
        await pilot.press("s")
        await settle(pilot, lambda: editor.path == bank / "fx-uti-002.yaml")
        assert "max_turns: 24" in (bank / CAP).read_text()


def own_swap(editor: EditorScreen) -> autosave.Autosave | None:
    """The editor's own swap file of its case, read as another editor would."""
    assert editor.path is not None
    others = autosave.others_of(editor.path)
    return next((s for s in others if s.editor.instance == editor.editor_id.instance), None)


async def test_autosave_writes_a_swap_file_that_saving_empties_and_closing_removes(bank, make_app):
    path = bank / CAP
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, path)
        editor.autosave()
        await settle(pilot)
        swap = own_swap(editor)
        assert swap is not None and swap.text is None, "open here, nothing unsaved"
        assert swap.path.name.startswith(f".{CAP}.") and swap.editor.pid == os.getpid()
        await replace_on_line(pilot, editor, "max_turns: 20", "max_turns: 26")
        editor.autosave()
        await settle(pilot)
        assert own_swap(editor).text == editor.text_area.text
        assert not (path.parent / f"{swap.path.name}.bak").exists()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert own_swap(editor).text is None
        await pilot.press("ctrl+w")
        await settle(pilot, lambda: editor.path is None)
        assert not swap.path.exists() and not list(bank.glob(".*.swp"))


async def test_undoing_every_change_empties_the_swap_file_and_quitting_removes_it(bank, make_app):
    path = bank / CAP
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, path)
        await replace_on_line(pilot, editor, "max_turns: 20", "max_turns: 28")
        editor.autosave()
        await settle(pilot)
        assert own_swap(editor).text is not None
        editor.text_area.undo()
        await settle(pilot)
        assert editor.text_area.text == path.read_text() and not editor.modified
        assert own_swap(editor).text is None
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running
    assert not list(bank.glob(".*.swp"))


@pytest.mark.parametrize("key", ["r", "d"], ids=["recover", "discard"])
async def test_a_swap_file_is_offered_on_opening(bank, make_app, key):
    path = bank / CAP
    saved = path.read_text()
    swap = swap_file_for(path)
    recovered = saved.replace("max_turns: 20", "max_turns: 27")
    swap.write_text(recovered)
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.open_case(path)
        await settle(pilot)
        assert isinstance(app.screen, SwapRecoveryDialog)
        await pilot.press(key)
        editor = app.editor_screen()
        await settle(pilot, lambda: editor.path == path)
        if key == "r":
            assert editor.text_area.text == recovered
            assert editor.modified
            assert "max_turns: 20" in path.read_text(), "recovering does not save"
        else:
            assert editor.text_area.text == saved and not editor.modified
            assert not swap.exists()


async def test_a_swap_file_equal_to_the_case_is_removed_quietly(bank, make_app):
    path = bank / CAP
    swap = swap_file_for(path)
    swap.write_text(path.read_text())
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, path)
        assert app.screen is editor and not swap.exists()


async def test_a_broken_case_opens_with_its_problems(bank, make_app):
    path = bank / "fx-broken-005.yaml"
    path.write_text("id: fx-broken-005\ntitle: [unclosed\nintro: hi\n")
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, path)
        assert editor.text_area.text == path.read_text()
        assert [d.code for d in editor.diagnostics] == ["yaml.syntax"]
        assert editor.query_one(DiagnosticGutter).marks


async def test_an_unreadable_file_is_a_notification(bank, make_app):
    path = bank / "fx-binary-006.yaml"
    path.write_bytes(b"\xff\xfe\x00\x81 not text")
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.open_case(path)
        await settle(pilot)
        assert app.editor_screen().path is None
        assert "Cannot open fx-binary-006.yaml" in app.notes.text()


async def test_preview_shows_only_what_doctor_and_patient_see(bank, make_app):
    path = bank / CAP
    path.write_text(path.read_text().replace("wiped out.", "wiped out [bold]really[/bold]."))
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, path)
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert editor.query_one(ContentSwitcher).current == "preview"
        preview = editor.query_one(CasePreview)
        doctor = str(preview.query_one("#preview-doctor").render())
        patient = str(preview.query_one("#preview-patient").render())
        assert "wiped out [bold]really[/bold]." in doctor  # case text is never markup
        assert "About twenty a day" in patient and "About twenty a day" not in doctor
        for hidden in ("Lobar pneumonia", "J18.1", "Chest X-ray", "Amoxicillin", "cq-smoking"):
            assert hidden not in doctor and hidden not in patient
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert editor.query_one(ContentSwitcher).current == "icd-panel"


async def test_rehearsal_lists_per_fact_the_questions_that_reached_it(bank, make_app):
    from medbench_tui.tui.widgets.rehearsal_panel import RehearsalPanel

    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert editor.query_one(ContentSwitcher).current == "rehearsal"
        text = str(editor.query_one(RehearsalPanel).query_one("#rehearsal-text").render())
        assert text.startswith("Rehearsal of ") and "Facts:" in text and "To fix:" in text
        assert "smoking: " in text and "Do you smoke?" in text
