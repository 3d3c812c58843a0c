"""The editor's bottom line: which file, whether it is saved, its problems, the cursor."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widget import Widget


class EditorStatus(Widget):
    """One line, redrawn on every keystroke and cursor move: it never changes the layout."""

    DEFAULT_CSS = """
    EditorStatus {
        height: 1;
        background: $panel;
        padding: 0 1;
    }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._text = Text()

    def render(self) -> Text:
        return self._text

    def update(self, text: Text) -> None:
        if text != self._text:
            self._text = text
            self.refresh()

    def show(
        self,
        *,
        name: str | None,
        modified: bool,
        errors: int,
        warnings: int,
        line: int,
        column: int,
        checking: bool = False,
    ) -> None:
        theme = self.app.current_theme
        text = Text()
        if name is None:
            text.append("no case open", style="italic")
            self.update(text)
            return
        text.append(name, style="bold")
        text.append("  ")
        text.append("● modified" if modified else "saved", style=(theme.warning if modified else theme.success) or "")
        text.append("  │  ")
        text.append(f"{errors} error{'s' if errors != 1 else ''}", style=f"bold {theme.error}" if errors else "")
        text.append(", ")
        text.append(
            f"{warnings} warning{'s' if warnings != 1 else ''}", style=(theme.warning or "") if warnings else ""
        )
        if checking:
            text.append("  (checking…)", style="italic")
        text.append("  │  ")
        text.append(f"Ln {line}, Col {column}")
        self.update(text)
