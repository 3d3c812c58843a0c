"""The application shell: modes, house theme, settings, keymap and command palette."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.worker import Worker, WorkerState

from medbench_tui.core.paths import cases_dir
from medbench_tui.core.settings import Settings
from medbench_tui.tui.commands import (
    ActionCommands,
    CaseCommands,
    IcdCommands,
    ModeCommands,
    PlayCommands,
    SessionCommands,
)
from medbench_tui.tui.keymap import declared_bindings, unknown_binding_ids
from medbench_tui.tui.screens.compare import CaseComparisonScreen, CompareScreen, GroupReportScreen
from medbench_tui.tui.screens.dialogs import (
    CaseIdDialog,
    ConfirmDialog,
    ExternalChangeDialog,
    SwapRecoveryDialog,
    UnsavedChangesDialog,
)
from medbench_tui.tui.screens.diff_view import DiffView
from medbench_tui.tui.screens.editor import EditorScreen
from medbench_tui.tui.screens.help import HelpScreen
from medbench_tui.tui.screens.library import LibraryScreen
from medbench_tui.tui.screens.play import PlayScreen
from medbench_tui.tui.screens.results import ResultsScreen, RunScreen
from medbench_tui.tui.theme import MEDBENCH_THEME
from medbench_tui.tui.widgets.final_form import EntryList
from medbench_tui.tui.widgets.group_report import GroupReport
from medbench_tui.tui.widgets.icd_panel import IcdPanel

STYLES = Path(__file__).parent / "styles"
MODE_TITLES = {
    "library": "Library",
    "editor": "Editor",
    "play": "Play",
    "compare": "Compare",
    "results": "Results",
}


class MedbenchApp(App[int]):
    TITLE = "medbench"
    CSS_PATH = [
        STYLES / "app.tcss", STYLES / "library.tcss", STYLES / "editor.tcss",
        STYLES / "play.tcss", STYLES / "compare.tcss", STYLES / "results.tcss",
    ]
    MODES = {
        "library": LibraryScreen,
        "editor": EditorScreen,
        "play": PlayScreen,
        "compare": CompareScreen,
        "results": ResultsScreen,
    }
    DEFAULT_MODE = "library"
    INHERIT_BINDINGS = False
    BINDINGS = [
        Binding("f1", "help", "Help", id="app.help", priority=True, tooltip="Every key of every screen"),
        # The mode keys are shown in the title bar of every mode, not in the footer.
        Binding("f2", "switch_mode('library')", "Library", id="app.library", priority=True, show=False),
        Binding("f3", "switch_mode('editor')", "Editor", id="app.editor", priority=True, show=False),
        Binding("f4", "switch_mode('play')", "Play", id="app.play", priority=True, show=False),
        Binding("f5", "switch_mode('compare')", "Compare", id="app.compare", priority=True, show=False),
        Binding("f6", "switch_mode('results')", "Results", id="app.results", priority=True, show=False),
        Binding("ctrl+p", "command_palette", "Commands", id="app.palette", priority=True, show=False),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
    ]
    COMMANDS = App.COMMANDS | {CaseCommands, ModeCommands, ActionCommands, IcdCommands, PlayCommands, SessionCommands}

    def __init__(
        self,
        bank: Path,
        *,
        settings: Settings | None = None,
        settings_problem: str | None = None,
        cursor_blink: bool = True,
        freeze_gc: bool = False,
    ) -> None:
        super().__init__()
        self.bank = Path(bank)
        self.cases_folder = cases_dir(self.bank)
        self.settings = settings if settings is not None else Settings()
        self.settings_problem = settings_problem
        self.cursor_blink = cursor_blink
        self._freeze_gc = freeze_gc
        self.bank_index: Any = None
        self.keymap: dict[str, str] = dict(self.settings.tui.keymap)
        self.register_theme(MEDBENCH_THEME)
        # Set before the modes are composed, so every widget starts in the right colours.
        wanted = self.settings.tui.theme
        self._unknown_theme = wanted if wanted not in self.available_themes else None
        self.theme = MEDBENCH_THEME.name if self._unknown_theme else wanted

    # Shared state and places -------------------------------------------------------------

    @property
    def bank_label(self) -> str:
        """The bank as shown on screen: its folder name (full paths are in notifications)."""
        return self.bank.resolve().name or str(self.bank)

    @property
    def settings_location(self) -> str:
        return str(self.settings.settings_path) if self.settings.settings_path else "settings.yaml"

    def display_path(self, path: Path) -> str:
        """A path as shown to the user: relative to the bank when it is inside it."""
        path = Path(path)
        try:
            return str(path.resolve().relative_to(self.bank.resolve()))
        except ValueError:
            return str(path)

    def mode_keys(self) -> list[tuple[str, str, str]]:
        """(mode, title, keys as shown) for each mode, with the keymap applied."""
        shown = []
        for binding in declared_bindings(type(self)):
            if binding.action.startswith("switch_mode("):
                mode = binding.action.split("'")[1]
                keys = self.keymap.get(binding.id or "", binding.key).split(",")[0].strip()
                shown.append((mode, MODE_TITLES[mode], self.get_key_display(binding.with_key(keys))))
        return shown

    def binding_sections(self) -> list[tuple[str, type]]:
        """Where each binding applies, for the help screen and the keymap check."""
        return [
            ("Everywhere", type(self)),
            ("Library", LibraryScreen),
            ("Editor", EditorScreen),
            ("ICD panel", IcdPanel),
            ("Unsaved changes", UnsavedChangesDialog),
            ("Autosave found", SwapRecoveryDialog),
            ("Changed on disk", ExternalChangeDialog),
            ("Compare with the disk", DiffView),
            ("Confirm", ConfirmDialog),
            ("Case id", CaseIdDialog),
            ("Help", HelpScreen),
            ("Play", PlayScreen),
            ("Final response lists", EntryList),
            ("Compare", CompareScreen),
            ("Run group", GroupReport),
            ("Group report", GroupReportScreen),
            ("Case comparison", CaseComparisonScreen),
            ("Results", ResultsScreen),
            ("Run", RunScreen),
        ]

    def library_screen(self) -> LibraryScreen | None:
        return self._mode_screen("library", LibraryScreen)

    def editor_screen(self) -> EditorScreen | None:
        return self._mode_screen("editor", EditorScreen)

    def _mode_screen(self, mode: str, kind: type) -> Any:
        try:
            stack = self.get_screen_stack(mode)
        except KeyError:
            return None
        return stack[0] if stack and isinstance(stack[0], kind) else None

    # Start -------------------------------------------------------------------------------------

    def on_mount(self) -> None:
        if self._unknown_theme:
            self.notify(
                f"Unknown theme {self._unknown_theme!r} in the settings; using {MEDBENCH_THEME.name!r}.",
                severity="warning",
                markup=False,
            )
        self.set_keymap(self.keymap)
        unknown = unknown_binding_ids(self.keymap, self.binding_sections())
        if unknown:
            self.notify(
                f"The settings keymap names bindings that do not exist: {', '.join(unknown)}. "
                "Press F1 for the binding ids.",
                severity="warning",
                markup=False,
                timeout=10,
            )
        if self.settings_problem:
            self.notify(
                f"{self.settings_problem}\nUsing the default settings.",
                title="Settings not loaded",
                severity="error",
                markup=False,
                timeout=15,
            )
        self.run_worker(_warm_up_icd10, thread=True, group="icd-warm-up", exit_on_error=False)

    # Modes and actions --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("switch_mode", "help") and isinstance(self.screen, ModalScreen):
            return False  # answer the question on screen first
        return True

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    async def open_case(self, path: Path) -> None:
        await self.switch_mode("editor")
        editor = self.editor_screen()
        if editor is not None:
            editor.request_open(path)

    async def play_case(self, path: Path) -> None:
        await self.switch_mode("play")
        play = self._mode_screen("play", PlayScreen)
        if play is not None:
            play.request_play(path)

    def action_play_selected(self) -> None:
        """Play the case selected in the library."""
        library = self.library_screen()
        entry = library.selected_entry() if library is not None else None
        if entry is not None:
            self.run_worker(self.play_case(entry.path), exclusive=True, group="open-case")

    async def new_case(self) -> None:
        await self.switch_mode("library")
        library = self.library_screen()
        if library is not None:
            library.action_new_case()

    async def check_bank(self) -> None:
        await self.switch_mode("library")
        library = self.library_screen()
        if library is not None:
            library.load_bank()

    async def icd_search(self) -> None:
        await self.switch_mode("editor")
        editor = self.editor_screen()
        if editor is not None:
            editor.action_icd_search()

    def case_file_changed(self, path: Path) -> None:
        """A case file was written: the library checks it again."""
        library = self.library_screen()
        if library is not None:
            library.refresh_case(path)

    async def action_quit(self) -> None:
        editor = self.editor_screen()
        if editor is not None and editor.path is not None and editor.modified:
            self.run_worker(self._quit_after_asking(editor), exclusive=True, group="quit", exit_on_error=False)
        else:
            self.exit(0)

    async def _quit_after_asking(self, editor: EditorScreen) -> None:
        if await editor.settle_unsaved():
            self.exit(0)

    # Failures of background work -------------------------------------------------------------

    def keep_long_lived(self) -> None:
        """Exempt what is loaded so far (bank, ICD-10 index, widgets) from garbage collection.

        A full collection walks every object the app holds and pauses it for up to
        100 ms: long enough to delay the check of what the author just typed. Frozen
        objects are never walked again (``gc.freeze``). Only the real app does this:
        tests run many apps in one process.
        """
        if self._freeze_gc:
            gc.freeze()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.SUCCESS and event.worker.group == "icd-warm-up":
            self.keep_long_lived()
        if event.state == WorkerState.ERROR:
            self.report_worker_failure(event.worker)

    def report_worker_failure(self, worker: Worker) -> None:
        """Every worker failure becomes a notification; none ends the app."""
        error = worker.error
        self.notify(
            f"{type(error).__name__}: {error}",
            title=f"Failed: {worker.name or worker.group}",
            severity="error",
            markup=False,
            timeout=10,
        )


def _warm_up_icd10() -> None:
    """Build the ICD-10 table and search index before the author first needs them."""
    from medbench_tui.core import icd10

    icd10.warm_up()


def load_app_settings() -> tuple[Settings, str | None]:
    """The user's settings; a broken settings file gives the defaults and the problem."""
    from pydantic import ValidationError

    from medbench_tui.core.settings import SettingsError, load_settings

    try:
        return load_settings(), None
    except SettingsError as exc:
        problem = str(exc)
    try:
        return Settings(), problem
    except ValidationError as exc:  # a bad MEDBENCH_* environment variable
        return Settings.model_construct(), f"{problem}\n{exc}"


def run_app(bank: Path) -> int:
    settings, problem = load_app_settings()
    app = MedbenchApp(bank, settings=settings, settings_problem=problem, freeze_gc=True)
    result = app.run()
    return result if isinstance(result, int) else (app.return_code or 0)
