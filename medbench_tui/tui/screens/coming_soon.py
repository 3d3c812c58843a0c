"""A mode that is planned but not built yet: it says what it will do."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Label, Static

from medbench_tui.tui.widgets.title_bar import TitleBar


class ComingSoonScreen(Screen):
    MODE: ClassVar[str] = ""
    MODE_TITLE: ClassVar[str] = ""
    PROMISE: ClassVar[str] = ""
    """What the mode will do, in a few sentences."""
    MEANWHILE: ClassVar[str] = ""
    """What to use until then (a command line)."""

    def compose(self) -> ComposeResult:
        yield TitleBar(self.MODE)
        with Center(classes="coming-soon"):
            with Vertical(classes="coming-soon-box"):
                yield Label(f"{self.MODE_TITLE}: coming soon", classes="dialog-title")
                yield Static(self.PROMISE, classes="coming-soon-promise")
                yield Static(self.MEANWHILE, classes="coming-soon-meanwhile")
        yield Footer()
