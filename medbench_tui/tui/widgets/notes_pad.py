"""The player's own notes during a consultation (kept with the session, never scored)."""

from __future__ import annotations

from typing import Any

from textual.widgets import TextArea


class NotesPad(TextArea):
    DEFAULT_CSS = """
    NotesPad { height: 1fr; border: round $foreground 25%; border-title-color: $text-muted; }
    NotesPad:focus { border: round $primary; border-title-color: $primary; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(soft_wrap=True, placeholder="Your notes (only you see them)", **kwargs)

    def on_mount(self) -> None:
        self.border_title = "Notes"
