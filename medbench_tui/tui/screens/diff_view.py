"""The case on disk against the text in the editor, as a unified diff, before choosing
whether to reload or overwrite."""

from __future__ import annotations

import difflib

from rich.syntax import Syntax
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static


def case_diff(on_disk: str, in_editor: str, name: str) -> str:
    """``-`` lines are only on disk, ``+`` lines only in the editor."""
    lines = difflib.unified_diff(
        on_disk.splitlines(keepends=True), in_editor.splitlines(keepends=True),
        fromfile=f"{name} (on disk)", tofile=f"{name} (in the editor)",
    )
    return "".join(lines) or "The two texts are the same."


class DiffView(ModalScreen[None]):
    """Read-only; Escape (or q) goes back to the question."""

    BINDINGS = [Binding("escape,q", "dismiss", "Back", id="diff.close")]

    def __init__(self, title: str, diff: str) -> None:
        super().__init__()
        self._title, self.diff = title, diff

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog diff-dialog"):
            yield Label(self._title, classes="dialog-title", markup=False)
            with VerticalScroll(id="diff-scroll"):
                yield Static(Syntax(self.diff, "diff", word_wrap=True), id="diff-text")
            yield Static("- only on disk   + only in the editor   ·   Esc: back", classes="dialog-question")

    def on_mount(self) -> None:
        self.query_one("#diff-scroll").focus()
