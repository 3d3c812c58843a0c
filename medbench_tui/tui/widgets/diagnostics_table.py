"""The list of problems in the open case: severity, place, code, message."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable

from medbench_tui.core.diagnostics import Diagnostic

SEVERITY_LABEL = {"error": "error", "warning": "warn", "info": "info"}


class DiagnosticsTable(DataTable[str | Text]):
    """Selecting a row asks the editor to put the cursor on that problem."""

    DEFAULT_CSS = """
    DiagnosticsTable { height: 9; overflow-x: hidden; }
    """

    @dataclass
    class Chosen(Message):
        diagnostic: Diagnostic

    @dataclass
    class Highlighted(Message):
        diagnostic: Diagnostic | None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self._diagnostics: list[Diagnostic] = []

    def on_mount(self) -> None:
        self.add_column("Severity", key="severity", width=8)
        self.add_column("Line:Col", key="place", width=8)
        self.add_column("Code", key="code")
        self.add_column("Message", key="message")

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return list(self._diagnostics)

    def show(self, diagnostics: list[Diagnostic]) -> None:
        self._diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        theme = self.app.current_theme
        colours = {"error": theme.error, "warning": theme.warning, "info": theme.secondary}
        self.clear()
        if not self._diagnostics:
            self.post_message(self.Highlighted(None))
        for index, d in enumerate(self._diagnostics):
            place = f"{d.line}:{d.column or 1}" if d.line else "-"
            self.add_row(
                Text(SEVERITY_LABEL[d.severity], style=f"bold {colours[d.severity] or ''}".strip()),
                Text(place),
                Text(d.code),
                Text(d.message),
                key=str(index),
            )

    def highlight(self, diagnostic: Diagnostic) -> None:
        if diagnostic in self._diagnostics:
            self.move_cursor(row=self._diagnostics.index(diagnostic))

    def highlight_line(self, line: int) -> None:
        """Highlight the first problem on ``line`` (1-based), if it has one."""
        found = next((d for d in self._diagnostics if d.line == line), None)
        if found is not None and self.cursor_row != self._diagnostics.index(found):
            self.highlight(found)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.post_message(self.Highlighted(self._diagnostics[int(event.row_key.value)]))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.post_message(self.Chosen(self._diagnostics[int(event.row_key.value)]))
