"""The application shell: modes, house theme, settings, keymap and command palette."""

from __future__ import annotations

import gc
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App
from textual.binding import Binding
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.worker import Worker, WorkerState, get_current_worker

from medbench_tui.core.authoring.library import CaseEntry
from medbench_tui.core.cases.bank import Bank, BankIndex, load_bank
from medbench_tui.core.practice.classroom import Classroom, name_problem
from medbench_tui.core.settings import Settings
from medbench_tui.tui.bank_state import (
    BankChanged,
    BankFailed,
    BankLoading,
    read_bank,
    read_case,
)
from medbench_tui.tui.commands import (
    ActionCommands,
    CaseCommands,
    IcdCommands,
    ModeCommands,
    PlayCommands,
    SessionCommands,
)
from medbench_tui.tui.keymap import declared_bindings, unknown_binding_ids
from medbench_tui.tui.modes import MODE_TITLES
from medbench_tui.tui.screens.dialogs import NameDialog
from medbench_tui.tui.screens.help import HelpScreen
from medbench_tui.tui.screens.library import LibraryScreen
from medbench_tui.tui.theme import MEDBENCH_THEME
from medbench_tui.tui.typed_app import EditorAction, MedbenchApi, OpenCase, mode_screen

if TYPE_CHECKING:
    from medbench_tui.tui.screens.compare import CompareScreen
    from medbench_tui.tui.screens.editor import EditorScreen
    from medbench_tui.tui.screens.play import PlayScreen
    from medbench_tui.tui.screens.results import ResultsScreen
    from medbench_tui.tui.screens.review import ReviewScreen

STYLES = Path(__file__).parent / "styles"
DEFERRED_SCREENS = tuple(
    f"medbench_tui.tui.screens.{mode}" for mode in ("editor", "play", "compare", "results", "review")
)
"""The modules of the modes made on first opening (:func:`_editor`), loaded by :func:`_warm_up`."""
BATCH_COLLECTION = (10_000, 20, 1_000)
"""The collector's thresholds while a batch plays (Python's own: 700, 10, 10). A young
collection walks up to the first threshold's objects: at 50,000 it held the screen for 30-40 ms."""


def _editor() -> EditorScreen:
    """The editor, its module imported when the mode is first opened. Every mode but the
    library is made so: their modules and the core they need (runs, reports, scoring, images)
    took 0.6 s of CPU before the first frame."""
    from medbench_tui.tui.screens.editor import EditorScreen

    return EditorScreen()


def _play() -> PlayScreen:
    from medbench_tui.tui.screens.play import PlayScreen

    return PlayScreen()


def _compare() -> CompareScreen:
    from medbench_tui.tui.screens.compare import CompareScreen

    return CompareScreen()


def _results() -> ResultsScreen:
    from medbench_tui.tui.screens.results import ResultsScreen

    return ResultsScreen()


def _review() -> ReviewScreen:
    from medbench_tui.tui.screens.review import ReviewScreen

    return ReviewScreen()


@dataclass
class CaseRead(Message):
    """One case file was read again (``entry`` None: it is gone), with the bank re-indexed."""

    bank: Bank
    path: Path
    entry: CaseEntry | None


class MedbenchApp(App[int]):
    TITLE = "medbench"
    CSS_PATH = [
        STYLES / "app.tcss", STYLES / "library.tcss", STYLES / "editor.tcss",
        STYLES / "play.tcss", STYLES / "compare.tcss", STYLES / "results.tcss", STYLES / "review.tcss",
    ]
    MODES = {
        "library": LibraryScreen,
        "editor": _editor,
        "play": _play,
        "compare": _compare,
        "results": _results,
        "review": _review,
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
        Binding("f7", "switch_mode('review')", "Review", id="app.review", priority=True, show=False),
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
        classroom: Classroom | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings if settings is not None else Settings()
        self.classroom = classroom
        """A served class: the modes and cases students may use, a name asked at the start (None: all)."""
        self.bank: Bank = load_bank(bank, run_store=self.settings.run_store, strict=False)
        """The bank (its configuration and index are read in a worker: see :meth:`load_bank`)."""
        self.cases: list[CaseEntry] = []
        """Every case of the bank as last checked."""
        self.bank_loading = True
        """The bank is being read (from start until the first :class:`BankChanged`, and on reload)."""
        self._bank_read = False
        self.settings_problem = settings_problem
        self.cursor_blink = cursor_blink
        self._freeze_gc = freeze_gc
        self._thresholds: tuple[int, int, int] | None = None
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
        return self.bank.root.name or str(self.bank.root)

    @property
    def bank_index(self) -> BankIndex | None:
        """The index for checks across cases; None until the bank was first read."""
        return self.bank.index if self._bank_read else None

    @property
    def settings_location(self) -> str:
        return str(self.settings.settings_path) if self.settings.settings_path else "settings.yaml"

    def display_path(self, path: Path) -> str:
        """A path as shown to the user: relative to the bank when it is inside it."""
        path = Path(path)
        try:
            return str(path.resolve().relative_to(self.bank.root))
        except ValueError:
            return str(path)

    def allows_mode(self, mode: str) -> bool:
        """Whether this session may open ``mode`` (a served class may show only Play)."""
        return self.classroom is None or self.classroom.allows_mode(mode)

    def allows_case(self, path: Path) -> bool:
        """Whether this session may play the case at ``path`` (a served class may offer only some)."""
        return self.classroom is None or self.classroom.allows_case(path)

    def mode_keys(self) -> list[tuple[str, str, str]]:
        """(mode, title, keys as shown) for each mode this session may open, with the keymap applied."""
        shown = []
        for binding in declared_bindings(MedbenchApp):
            if binding.action.startswith("switch_mode("):
                mode = binding.action.split("'")[1]
                if not self.allows_mode(mode):
                    continue
                keys = self.keymap.get(binding.id or "", binding.key).split(",")[0].strip()
                shown.append((mode, MODE_TITLES[mode], self.get_key_display(binding.with_key(keys))))
        return shown

    def binding_sections(self) -> list[tuple[str, type]]:
        """Where each binding applies, for the help screen and the keymap check (imports
        every screen: see :func:`_editor`)."""
        from medbench_tui.tui.screens.compare import CompareScreen
        from medbench_tui.tui.screens.dialogs import (
            CaseIdDialog,
            ConfirmDialog,
            ExternalChangeDialog,
            SwapRecoveryDialog,
            UnsavedChangesDialog,
        )
        from medbench_tui.tui.screens.diff_view import DiffView
        from medbench_tui.tui.screens.editor import EditorScreen
        from medbench_tui.tui.screens.play import PlayScreen
        from medbench_tui.tui.screens.results import ResultsScreen, RunScreen
        from medbench_tui.tui.screens.review import NoteDialog, ReviewScreen
        from medbench_tui.tui.screens.run_group import CaseComparisonScreen, GroupReportScreen
        from medbench_tui.tui.widgets.final_form import EntryList
        from medbench_tui.tui.widgets.group_report import GroupReport
        from medbench_tui.tui.widgets.icd_panel import IcdPanel
        from medbench_tui.tui.widgets.matrix import MetricMatrix

        return [
            ("Everywhere", MedbenchApp),
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
            ("Case matrix", MetricMatrix),
            ("Group report", GroupReportScreen),
            ("Case comparison", CaseComparisonScreen),
            ("Results", ResultsScreen),
            ("Run", RunScreen),
            ("Review", ReviewScreen),
            ("Note on a decision", NoteDialog),
        ]

    def library_screen(self) -> LibraryScreen | None:
        return mode_screen(self, "library", LibraryScreen)

    def editor_screen(self) -> EditorScreen | None:
        if mode_screen(self, "editor", Screen) is None:
            return None  # never opened, so its module need not be imported
        from medbench_tui.tui.screens.editor import EditorScreen

        return mode_screen(self, "editor", EditorScreen)

    # The bank ------------------------------------------------------------------------------------

    def load_bank(self) -> None:
        """Read the bank again, checking every case; each mode screen hears of it."""
        self.bank_loading = True
        self.run_worker(self._read_bank, thread=True, exclusive=True, group="bank", exit_on_error=False)

    def _read_bank(self) -> None:
        worker = get_current_worker()
        read = read_bank(
            self.bank,
            lambda done, total, checked: self.post_message(BankLoading(done, total, checked)),
            lambda: worker.is_cancelled,
        )
        if read is not None:
            self.post_message(BankChanged(*read))

    def on_bank_loading(self, message: BankLoading) -> None:
        self._announce(lambda: BankLoading(message.done, message.total, message.checked))

    def on_bank_changed(self, message: BankChanged) -> None:
        self.bank, self.cases = message.bank, message.cases
        first = not self._bank_read
        self._bank_read = True
        if message.changed is None:
            self.bank_loading = False
        self._announce(lambda: BankChanged(message.bank, message.cases, message.changed))
        if first:
            self.keep_long_lived()
            self.run_worker(_warm_up, thread=True, group="warm-up", exit_on_error=False)

    def case_file_changed(self, path: Path) -> None:
        """A case file was written, created or deleted: check it again."""
        bank = self.bank

        def read() -> None:
            fresh, entry = read_case(bank, path)
            self.post_message(CaseRead(fresh, path, entry))

        self.run_worker(read, thread=True, group="bank-entry", exit_on_error=False)

    def on_case_read(self, message: CaseRead) -> None:
        others = [e for e in self.cases if e.path != message.path]
        cases = others + ([message.entry] if message.entry else [])
        self.post_message(BankChanged(message.bank, cases, message.path))

    def _announce(self, make: Callable[[], Message]) -> None:
        """A message to each mode screen open so far (the others read the app's state when they open)."""
        for mode in self.MODES:
            screen = mode_screen(self, mode, Screen)
            if screen is not None:
                screen.post_message(make())

    # Start -------------------------------------------------------------------------------------

    def on_mount(self) -> None:
        if self._unknown_theme:
            self.notify(
                f"Unknown theme {self._unknown_theme!r} in the settings; using {MEDBENCH_THEME.name!r}.",
                severity="warning",
                markup=False,
            )
        self.set_keymap(self.keymap)
        unknown = unknown_binding_ids(self.keymap, self.binding_sections()) if self.keymap else []
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
        self.load_bank()
        if self.classroom is not None:
            self.push_screen(NameDialog(name_problem), self._player_named)

    def _player_named(self, name: str | None) -> None:
        """A student's name is this session's player (never written to the settings file)."""
        if name:
            self.settings = self.settings.model_copy(update={"player_name": name})
            self.notify(f"Your consultations are stored as {name}.", markup=False)

    # Modes and actions --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "switch_mode" and parameters and not self.allows_mode(str(parameters[0])):
            return False  # a served class shows only the modes its tutor chose
        # answer the question on screen first
        return not (action in ("switch_mode", "help") and isinstance(self.screen, ModalScreen))


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
        from medbench_tui.tui.screens.play import PlayScreen

        play = mode_screen(self, "play", PlayScreen)
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
        self.load_bank()

    # The case open in the editor, for the other screens and the palette -----------------------

    def open_case_in_editor(self) -> OpenCase | None:
        editor = self.editor_screen()
        if editor is None or editor.path is None:
            return None
        return OpenCase(editor.path, editor.modified)

    def case_removed(self, path: Path) -> None:
        """A case file was deleted: the editor lets it go when it is the open one."""
        editor, open_case = self.editor_screen(), self.open_case_in_editor()
        if editor is not None and open_case is not None and open_case.is_file(path):
            editor.close_case()

    async def edit_open_case(self, action: EditorAction) -> None:
        """Save, close, preview or rehearse the open case (the palette's case commands)."""
        editor = self.editor_screen()
        if editor is None or editor.path is None:
            self.notify("No case is open in the editor.", severity="warning")
            return
        if action == "save":
            editor.action_save()
        elif action == "close":
            editor.action_close_case()
        elif action == "preview":
            editor.action_toggle_preview()
        else:
            editor.action_rehearse()

    async def use_icd_code(self, code: str) -> bool:
        """Put ``code`` into the open case at the cursor; False when no case is open."""
        editor = self.editor_screen()
        if editor is None or editor.path is None:
            return False
        await self.switch_mode("editor")
        editor.insert_code(code)
        return True

    async def icd_search(self) -> None:
        await self.switch_mode("editor")
        editor = self.editor_screen()
        if editor is not None:
            editor.action_icd_search()

    async def action_quit(self) -> None:
        editor, open_case = self.editor_screen(), self.open_case_in_editor()
        if editor is not None and open_case is not None and open_case.modified:
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

    def batch_playing(self, playing: bool) -> None:
        """While a batch plays, collect rarely; when it is over, as before.

        The runs play in another process, but their news and then their results (runs,
        scorecards, report rows) are many small objects made here, and a full collection
        walks them all, holding the interpreter for as long as a frame or more: the screen
        stalls. Young cycles are still collected, every BATCH_COLLECTION objects.
        Only the real app does this (see :meth:`keep_long_lived`).
        """
        if not self._freeze_gc:
            return
        if playing:
            gc.freeze()
            if self._thresholds is None:
                self._thresholds = gc.get_threshold()
                gc.set_threshold(*BATCH_COLLECTION)
        elif self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
            gc.freeze()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.SUCCESS and event.worker.group == "warm-up":
            self.keep_long_lived()
        if event.state == WorkerState.ERROR:
            self.report_worker_failure(event.worker)
            if event.worker.group == "bank":
                self.bank_loading = False
                self._announce(lambda: BankFailed(str(event.worker.error)))

    def report_worker_failure(self, worker: Worker[object]) -> None:
        """Every worker failure becomes a notification; none ends the app."""
        error = worker.error
        self.notify(
            f"{type(error).__name__}: {error}",
            title=f"Failed: {worker.name or worker.group}",
            severity="error",
            markup=False,
            timeout=10,
        )


if TYPE_CHECKING:
    _THE_APP_IS_WHAT_SCREENS_REACH: type[MedbenchApi] = MedbenchApp  # mypy checks the Protocol


def _warm_up() -> None:
    """Load what the other modes need (their screens, the ICD-10 search index, the
    statistics) once the library is drawn, while the app waits for its first key: before
    the first frame it cost 0.6 s of CPU, and on a mode's first opening it would stall it."""
    from medbench_tui.core import icd10
    from medbench_tui.core.reports import statistics

    for module in DEFERRED_SCREENS:
        importlib.import_module(module)
    icd10.warm_up()
    statistics.warm_up()


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


class PlayOnlyApp(MedbenchApp):
    """The app of a class that only plays cases: it opens on Play, and its palette offers only Play's commands."""

    DEFAULT_MODE = "play"
    COMMANDS = App.COMMANDS | {PlayCommands, SessionCommands}


def app_for(bank: Path, *, classroom: Classroom | None = None, settings: Settings | None = None,
            settings_problem: str | None = None, cursor_blink: bool = True, freeze_gc: bool = False) -> MedbenchApp:
    """The app for ``bank``: a served class that only plays opens on Play with nothing else."""
    kind = PlayOnlyApp if classroom is not None and not classroom.allows_mode("library") else MedbenchApp
    return kind(bank, settings=settings, settings_problem=settings_problem, cursor_blink=cursor_blink,
                freeze_gc=freeze_gc, classroom=classroom)


def run_app(bank: Path, classroom: Classroom | None = None) -> int:
    settings, problem = load_app_settings()
    app = app_for(bank, settings=settings, settings_problem=problem, freeze_gc=True, classroom=classroom)
    result = app.run()
    return result if isinstance(result, int) else (app.return_code or 0)
