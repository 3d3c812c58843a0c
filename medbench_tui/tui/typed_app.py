"""The app as screens, widgets and palette providers reach it: typed, so that a renamed
attribute fails the type check rather than the user (``self.app`` is only a
``textual.app.App``). A Protocol, not the app class: they need not import the app that
imports them (``tui.app`` checks that ``MedbenchApp`` is one)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol, TypeVar, cast

from textual.app import App
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.worker import Worker

from medbench_tui.core.authoring.library import CaseEntry
from medbench_tui.core.cases.bank import Bank, BankIndex
from medbench_tui.core.settings import Settings

ModeScreen = TypeVar("ModeScreen", bound=Screen[object])
AppResult = TypeVar("AppResult")
EditorAction = Literal["save", "close", "preview", "rehearse"]
"""What another screen or the command palette may ask of the open case (through the app)."""


@dataclass(frozen=True)
class OpenCase:
    """The case open in the editor, as other screens may know it: which file, and whether it has
    unsaved changes (they ask the app; they never reach into the editor)."""

    path: Path
    modified: bool

    def is_file(self, path: Path) -> bool:
        return self.path.resolve() == Path(path).resolve()


class MedbenchApi(Protocol):
    """What the app's screens, widgets and commands use of it (``tui.app.MedbenchApp``)."""

    bank: Bank
    settings: Settings
    cases: list[CaseEntry]
    bank_loading: bool
    cursor_blink: bool
    keymap: dict[str, str]

    @property
    def current_mode(self) -> str: ...
    @property
    def bank_label(self) -> str: ...
    @property
    def bank_index(self) -> BankIndex | None: ...
    @property
    def settings_location(self) -> str: ...
    def display_path(self, path: Path) -> str: ...
    def mode_keys(self) -> list[tuple[str, str, str]]: ...
    def allows_mode(self, mode: str) -> bool: ...
    def allows_case(self, path: Path) -> bool: ...
    def binding_sections(self) -> list[tuple[str, type]]: ...
    def load_bank(self) -> None: ...
    def case_file_changed(self, path: Path) -> None: ...
    def keep_long_lived(self) -> None: ...
    def batch_playing(self, playing: bool) -> None: ...
    def report_worker_failure(self, worker: Worker[object]) -> None: ...
    async def open_case(self, path: Path) -> None: ...
    async def play_case(self, path: Path) -> None: ...
    async def new_case(self) -> None: ...
    async def check_bank(self) -> None: ...
    async def icd_search(self) -> None: ...
    def open_case_in_editor(self) -> OpenCase | None: ...
    def case_removed(self, path: Path) -> None: ...
    async def edit_open_case(self, action: EditorAction) -> None: ...
    async def use_icd_code(self, code: str) -> bool: ...


def medbench_app(node: MessagePump) -> MedbenchApi:
    """The app that ``node`` belongs to, as :class:`MedbenchApi`."""
    return cast(MedbenchApi, node.app)


def mode_screen(app: App[AppResult], mode: str, kind: type[ModeScreen]) -> ModeScreen | None:
    """The base screen of ``mode`` when it has been made and is a ``kind``."""
    try:
        stack = app.get_screen_stack(mode)
    except KeyError:
        return None
    return stack[0] if stack and isinstance(stack[0], kind) else None


class MedbenchScreen(Screen[object]):
    """A screen of the app, with the app typed as :attr:`medbench`."""

    @property
    def medbench(self) -> MedbenchApi:
        return medbench_app(self)
