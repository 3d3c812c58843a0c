"""The library's table of cases."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable
from textual.widgets.data_table import CellDoesNotExist

from medbench_tui.core.authoring.library import COLUMNS, CaseEntry


class CaseTable(DataTable[str | Text]):
    """One row per case file; a click on a column header asks to sort by that column."""

    DEFAULT_CSS = """
    CaseTable { height: 1fr; }
    """

    @dataclass
    class SortRequested(Message):
        column: str

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self._shown: tuple[list[CaseEntry], str, bool] | None = None
        self._shown_width = 0
        """The width the rows were made for."""

    def show(self, entries: list[CaseEntry], sort_column: str, reverse: bool) -> None:
        """Replace the rows, keeping the cursor on the same case when it is still shown.

        Titles are cut (with an ellipsis) so that every column fits the width.
        """
        self._shown = (entries, sort_column, reverse)
        self._shown_width = self.scrollable_content_region.width
        selected = self.selected_path
        theme = self.app.current_theme
        rows = [
            [
                Text(entry.id),
                Text(entry.title, no_wrap=True, overflow="ellipsis"),
                Text(entry.category),
                Text(entry.complexity),
                Text(entry.urgency),
                Text(entry.status),
                Text(entry.review or "–", style="" if entry.review else "dim"),
                _validity(entry, theme.error or "red", theme.warning or "yellow", theme.success or "green"),
            ]
            for entry in entries
        ]
        arrow = " ▼" if reverse else " ▲"
        labels = [label + (arrow if key == sort_column else "") for key, label in COLUMNS]
        widths = [max([len(label) + 2, *(row[i].cell_len for row in rows)]) for i, label in enumerate(labels)]
        title = [key for key, _ in COLUMNS].index("title")
        room = self.scrollable_content_region.width - 2 * self.cell_padding * len(COLUMNS)
        room -= sum(w for i, w in enumerate(widths) if i != title)
        self.clear(columns=True)
        for index, ((key, _), label) in enumerate(zip(COLUMNS, labels, strict=False)):
            width = max(16, min(widths[index], room)) if index == title and room > 0 else None
            self.add_column(label, key=key, width=width)
        for entry, cells in zip(entries, rows, strict=False):
            self.add_row(*cells, key=str(entry.path))
        if selected is not None and str(selected) in self.rows:
            self.move_cursor(row=self.get_row_index(str(selected)))

    def on_resize(self) -> None:
        """The titles are cut to the width: the rows are made again when it changed (only the
        height does when the bank's loading bar goes, and a thousand rows take a while)."""
        if self._shown is not None and self.scrollable_content_region.width != self._shown_width:
            self.show(*self._shown)

    @property
    def selected_path(self) -> Path | None:
        if not self.row_count:
            return None
        try:
            key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key
        except CellDoesNotExist:
            return None
        return Path(key.value) if key.value is not None else None

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        if event.column_key.value is not None:
            self.post_message(self.SortRequested(event.column_key.value))


def _validity(entry: CaseEntry, error: str, warning: str, success: str) -> Text:
    if entry.errors:
        text = Text(f"{entry.errors} error{'s' if entry.errors != 1 else ''}", style=f"bold {error}")
        if entry.warnings:
            text.append(f", {entry.warnings} warn", style=warning)
        return text
    if entry.warnings:
        return Text(f"{entry.warnings} warning{'s' if entry.warnings != 1 else ''}", style=warning)
    return Text("valid", style=success)
