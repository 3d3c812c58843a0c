"""The library: loading, filters, sorting, and new cases, variants and deletion."""

from __future__ import annotations

import threading

from textual.widgets import Input, ProgressBar, Select

from medbench_tui.core.cases.yamlio import parse_case_text
from medbench_tui.tui.screens.dialogs import CaseIdDialog, ConfirmDialog
from medbench_tui.tui.screens.library import LibraryScreen
from medbench_tui.tui.widgets.case_table import CaseTable

from .conftest import SIZE, settle

ALL = ["fx-app-003", "fx-cap-001", "fx-uti-002"]


def shown_ids(screen: LibraryScreen) -> list[str]:
    table = screen.query_one(CaseTable)
    return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]


async def loaded(pilot) -> LibraryScreen:
    app = pilot.app
    await settle(pilot, lambda: not app.bank_loading)
    return app.library_screen()


async def test_bank_loads_in_the_background_with_progress(bank, make_app, monkeypatch):
    from medbench_tui.tui import bank_state

    release = threading.Event()
    original = bank_state.read_entry

    def slow_read_entry(path, index):
        release.wait(timeout=30)
        return original(path, index)

    monkeypatch.setattr(bank_state, "read_entry", slow_read_entry)
    app = make_app(bank)
    progress: list[tuple[int, int]] = []

    def hook(message):
        if isinstance(message, bank_state.BankLoading):
            progress.append((message.done, message.total))

    async with app.run_test(size=SIZE, message_hook=hook) as pilot:
        await pilot.pause()
        screen = app.screen
        # The screen is drawn and answers keys while the cases are being checked.
        assert app.bank_loading and screen.query_one("#loading").display
        assert "Checking cases: 0 of 3" in str(screen.query_one("#loading-label").render())
        await pilot.press("f1")
        await pilot.pause()
        assert app.screen is not screen
        await pilot.press("escape")
        release.set()
        screen = await loaded(pilot)
        assert not screen.query_one("#loading").display
        assert progress[0] == (0, 3) and progress[-1] == (3, 3)
        assert screen.query_one(ProgressBar).progress == 3
        assert shown_ids(screen) == ALL
        table = screen.query_one(CaseTable)
        assert [str(c) for c in table.get_row_at(0)] == [
            "fx-app-003", "Right iliac fossa pain in a teenager", "surgery", "advanced", "emergency", "final", "–",
            "valid",
        ]
        assert app.bank_index is not None and app.bank_index.has_case("fx-cap-001")


async def test_a_bank_that_cannot_be_read_is_explained(bank, make_app, monkeypatch):
    from medbench_tui.core.cases import bank as bank_module

    def broken(folder):
        raise PermissionError(f"[Errno 13] Permission denied: '{folder}'")

    monkeypatch.setattr(bank_module, "scan_bank", broken)
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        assert app.is_running
        assert "could not be read" in str(screen.query_one("#loading-label").render())
        assert "Permission denied" in app.notes.text()


async def test_validity_counts_errors_and_warnings(bank, make_app):
    text = (bank / "fx-uti-002.yaml").read_text()
    (bank / "fx-uti-002.yaml").write_text(text.replace("complexity: intermediate", "complexity: medium"))
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        row = screen.query_one(CaseTable).get_row(str(bank / "fx-uti-002.yaml"))
        assert str(row[-1]) == "1 error"
        assert "1 with errors" in str(screen.query_one("#library-summary").render())


async def test_fuzzy_filter_box(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("slash")
        assert app.focused is screen.query_one("#filter", Input)
        await pilot.press(*"pnemonia")
        await pilot.pause()
        assert shown_ids(screen) == ["fx-cap-001"]
        await pilot.press("enter")
        assert isinstance(app.focused, CaseTable)
        await pilot.press("escape")
        await pilot.pause()
        assert shown_ids(screen) == ALL


async def test_category_and_status_filters(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        screen.query_one("#category-filter", Select).value = "surgery"
        await pilot.pause()
        assert shown_ids(screen) == ["fx-app-003"]
        screen.query_one("#category-filter", Select).clear()
        screen.query_one("#status-filter", Select).value = "draft"
        await pilot.pause()
        assert shown_ids(screen) == ["fx-uti-002"]
        screen.query_one("#status-filter", Select).value = Select.NULL
        await pilot.pause()
        assert shown_ids(screen) == ALL


async def test_sort_by_key_and_by_header(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("s")  # next column: title
        await pilot.pause()
        assert screen.sort_column == "title"
        assert shown_ids(screen) == ["fx-uti-002", "fx-cap-001", "fx-app-003"]
        await pilot.press("S")
        await pilot.pause()
        assert shown_ids(screen) == ["fx-app-003", "fx-cap-001", "fx-uti-002"]
        screen.query_one(CaseTable).post_message(CaseTable.SortRequested("urgency"))
        await pilot.pause()
        assert shown_ids(screen) == ["fx-app-003", "fx-uti-002", "fx-cap-001"]
        assert "Urgency ▲" in [str(c.label) for c in screen.query_one(CaseTable).columns.values()]


async def test_clicking_a_header_sorts(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        table = screen.query_one(CaseTable)
        status_x = sum(
            c.get_render_width(table)
            for key, c in table.columns.items()
            if key.value in ("id", "title", "category", "complexity", "urgency")
        )
        await pilot.click(CaseTable, offset=(status_x + 2, 0))
        await pilot.pause()
        assert screen.sort_column == "status"
        assert shown_ids(screen) == ["fx-uti-002", "fx-app-003", "fx-cap-001"]


async def test_enter_opens_the_case_in_the_editor(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("down", "enter")
        await settle(pilot, lambda: app.editor_screen() is not None and app.editor_screen().path is not None)
        assert app.current_mode == "editor"
        assert app.editor_screen().path == bank / "fx-cap-001.yaml"
        assert app.editor_screen().text_area.text == (bank / "fx-cap-001.yaml").read_text()


async def test_new_case_from_the_template(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, CaseIdDialog)
        await pilot.press(*"fx-cap-001")  # taken
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog
        assert "already a case" in str(dialog.query_one("#case-id-problem").render())
        dialog.query_one(Input).value = "Bad Id"
        await pilot.press("enter")
        await pilot.pause()
        assert "not a case id" in str(dialog.query_one("#case-id-problem").render())
        dialog.query_one(Input).value = "fx-new-004"
        await pilot.press("enter")
        editor = None
        await settle(pilot, lambda: app.editor_screen() is not None and app.editor_screen().path is not None)
        editor = app.editor_screen()
        path = bank / "fx-new-004.yaml"
        assert path.is_file() and editor.path == path
        lines = editor.text_area.text.splitlines()
        assert editor.diagnostics and all(
            "FILL IN" in lines[d.line - 1] for d in editor.diagnostics if d.severity == "error"
        )
        assert "fx-new-004.yaml" in app.notes.text()
        await settle(pilot, lambda: any(e.id == "fx-new-004" for e in app.cases))


async def test_new_variant_of_the_selected_case(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("down", "v")  # fx-cap-001
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, CaseIdDialog)
        assert dialog.query_one(Input).value == "fx-cap-001-v2"
        await pilot.press("enter")
        await settle(pilot, lambda: app.editor_screen() is not None and app.editor_screen().path is not None)
        path = bank / "fx-cap-001-v2.yaml"
        text = path.read_text()
        data = parse_case_text(text).data
        assert (data["id"], data["parent_id"], data["status"]) == ("fx-cap-001-v2", "fx-cap-001", "draft")
        assert "# the code the tests change" in text and text.startswith("# Fixture case")
        assert app.editor_screen().path == path
        assert [d for d in app.editor_screen().diagnostics if d.severity == "error"] == []
        await settle(pilot, lambda: any(e.id == "fx-cap-001-v2" for e in app.cases))
        entry = next(e for e in app.cases if e.id == "fx-cap-001-v2")
        assert entry.parent_id == "fx-cap-001" and entry.errors == 0


async def test_delete_asks_first_and_keeps_the_file_in_the_trash(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("delete")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")  # no
        await pilot.pause()
        assert (bank / "fx-app-003.yaml").exists()
        await pilot.press("delete")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot, lambda: "fx-app-003" not in shown_ids(screen))
        assert not (bank / "fx-app-003.yaml").exists()
        assert (bank / ".trash" / "fx-app-003.yaml").is_file()
        assert ".trash/fx-app-003.yaml" in app.notes.text()
        assert shown_ids(screen) == ["fx-cap-001", "fx-uti-002"]


async def test_enter_after_a_filter_goes_to_its_best_match(bank, make_app):
    """Not to the case the cursor was on before, which the filter may still list further down."""
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        last = shown_ids(screen)[-1]
        screen.table.move_cursor(row=len(shown_ids(screen)) - 1)
        await pilot.press("slash")
        await pilot.press(*"fx")  # every case still listed, the one under the cursor too
        await settle(pilot)
        assert last in shown_ids(screen) and shown_ids(screen)[0] != last
        await pilot.press("enter")
        await settle(pilot)
        assert screen.table.has_focus
        assert screen.selected_entry().id == shown_ids(screen)[0]
