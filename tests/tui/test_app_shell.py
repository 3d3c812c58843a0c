"""The shell: modes, keys and the keymap from the settings, help, theme, palette, settings problems."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from medbench_tui.core.settings import Settings
from medbench_tui.tui.app import MedbenchApp, load_app_settings
from medbench_tui.tui.keymap import declared_bindings
from medbench_tui.tui.screens.compare import CompareScreen
from medbench_tui.tui.screens.dialogs import CaseIdDialog
from medbench_tui.tui.screens.editor import EditorScreen
from medbench_tui.tui.screens.help import HelpScreen
from medbench_tui.tui.screens.library import LibraryScreen
from medbench_tui.tui.screens.play import PlayScreen
from medbench_tui.tui.screens.results import ResultsScreen

from .conftest import SIZE, settle, test_settings


async def test_opens_on_the_library_in_the_house_theme(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.current_mode == "library"
        assert isinstance(app.screen, LibraryScreen)
        assert app.theme == "medbench"
        assert "medbench" in app.available_themes


async def test_function_keys_switch_modes(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for key, kind in [
            ("f3", EditorScreen),
            ("f4", PlayScreen),
            ("f5", CompareScreen),
            ("f6", ResultsScreen),
            ("f2", LibraryScreen),
        ]:
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, kind), key


async def test_help_lists_every_binding_of_every_screen(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.query_one("#help-table", DataTable)
        listed = {str(table.get_row_at(i)[2]) for i in range(table.row_count)}
        declared = {b.id for _, owner in app.binding_sections() for b in declared_bindings(owner)}
        assert declared <= listed
        assert {"app.help", "library.new_case", "editor.save", "icd.results", "unsaved.discard"} <= listed
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LibraryScreen)


@pytest.mark.parametrize("size", [(80, 30), (160, 48)])
async def test_help_shows_every_binding_id_whole(bank, make_app, size):
    """The ids are what the settings file takes: none is cut off at the table's edge."""
    app = make_app(bank)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        table = app.screen.query_one("#help-table", DataTable)
        columns = table.ordered_columns
        at = next(i for i, c in enumerate(columns) if str(c.label) == "Binding id")
        ids = [str(table.get_row_at(i)[at]) for i in range(table.row_count)]
        assert "library.new_case" in ids
        seen = table.scrollable_content_region.width
        right_edge = sum(c.get_render_width(table) for c in columns[: at + 1])
        assert right_edge <= seen, f"the id column ends at {right_edge}, the table shows {seen}"
        assert columns[at].get_render_width(table) >= max(len(i) for i in ids)


async def test_every_binding_has_an_id(bank, make_app):
    app = make_app(bank)
    for _, owner in app.binding_sections():
        for binding in declared_bindings(owner):
            assert binding.id and binding.id.count(".") == 1, (owner, binding)


def test_the_help_covers_every_class_that_declares_bindings(bank, make_app):
    from textual.dom import DOMNode

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    app = make_app(bank)
    ours = {
        cls
        for cls in subclasses(DOMNode)
        if cls.__module__.startswith("medbench_tui.tui") and cls.__dict__.get("BINDINGS")
    }
    assert ours <= {owner for _, owner in app.binding_sections()}


async def test_keymap_from_settings_rebinds_keys(bank, make_app):
    settings = test_settings(keymap={"library.new_case": "ctrl+n", "app.editor": "f9"})
    app = make_app(bank, settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, CaseIdDialog), "the old key must no longer work"
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert isinstance(app.screen, CaseIdDialog)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f9")
        await pilot.pause()
        assert isinstance(app.screen, EditorScreen)
        await pilot.press("f1")
        await pilot.pause()
        table = app.screen.query_one("#help-table", DataTable)
        rows = {str(table.get_row_at(i)[2]): str(table.get_row_at(i)[1]) for i in range(table.row_count)}
        assert rows["library.new_case"] == "^n"
        assert rows["app.editor"] == "f9"


async def test_unknown_binding_ids_in_the_keymap_are_reported(bank, make_app):
    app = make_app(bank, settings=test_settings(keymap={"library.nwe_case": "ctrl+n"}))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "library.nwe_case" in app.notes.text()


async def test_a_broken_settings_file_gives_defaults_and_says_why(tmp_path, monkeypatch, bank, make_app):
    config = tmp_path / "config"
    (config / "medbench").mkdir(parents=True)
    (config / "medbench" / "settings.yaml").write_text("tui: [not, a, mapping\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    settings, problem = load_app_settings()
    assert isinstance(settings, Settings) and settings.tui.theme == "medbench"
    assert problem and "settings.yaml" in problem
    app = make_app(bank, settings=settings, settings_problem=problem)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LibraryScreen)
        assert "settings.yaml" in app.notes.text() and "default settings" in app.notes.text()


async def test_an_unknown_theme_falls_back_to_the_house_theme(bank, make_app):
    app = make_app(bank, settings=test_settings(theme="no-such-theme"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "medbench"
        assert "no-such-theme" in app.notes.text()


async def test_palette_opens_a_case_by_title(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, lambda: bool(app.cases))
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"open cyst")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot, lambda: app.editor_screen() is not None and app.editor_screen().path is not None)
        assert app.current_mode == "editor"
        assert app.editor_screen().path == bank / "fx-uti-002.yaml"


async def test_palette_switches_mode(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"go resu")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert app.current_mode == "results"


def test_run_app_is_what_the_cli_calls():
    from medbench_tui.tui import app as module

    assert callable(module.run_app)
    assert issubclass(module.MedbenchApp, object) and MedbenchApp.DEFAULT_MODE == "library"


async def test_palette_saves_and_closes_the_open_case_and_puts_an_icd_code_into_it(bank, make_app):
    from textual.widgets import TextArea

    app = make_app(bank)
    path = bank / "fx-uti-002.yaml"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, lambda: bool(app.cases))
        assert app.open_case_in_editor() is None
        await app.open_case(path)
        await settle(pilot, lambda: app.open_case_in_editor() is not None)
        editor = app.editor_screen()
        assert editor is not None
        area = editor.query_one(TextArea)
        area.move_cursor((0, 0))
        await pilot.press("end", "enter")
        await settle(pilot)
        open_case = app.open_case_in_editor()
        assert open_case is not None and open_case.is_file(path) and open_case.modified
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"N39.0")  # an ICD-10 code: into the open case at the cursor
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot, lambda: "N39.0" in area.text.splitlines()[1])
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"save fx-uti")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot, lambda: not app.open_case_in_editor().modified)
        assert "N39.0" in path.read_text(encoding="utf-8").splitlines()[1]
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"close fx-uti")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot, lambda: app.open_case_in_editor() is None)
