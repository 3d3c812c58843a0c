"""A narrow column beside the case text that marks the lines with problems."""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import TextArea

from medbench_tui.core.diagnostics import SEVERITY_ORDER, Diagnostic

MARK = "▌"


class DiagnosticGutter(Widget):
    """Marks each line of the text area that has an error (or a warning), scrolling with it."""

    DEFAULT_CSS = """
    DiagnosticGutter {
        width: 1;
        height: 1fr;
        background: $surface;
    }
    DiagnosticGutter > .diagnostic-gutter--error { color: $error; }
    DiagnosticGutter > .diagnostic-gutter--warning { color: $warning; }
    DiagnosticGutter > .diagnostic-gutter--info { color: $secondary; }
    """
    COMPONENT_CLASSES = {"diagnostic-gutter--error", "diagnostic-gutter--warning", "diagnostic-gutter--info"}

    def __init__(self, text_area: TextArea, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._text_area = text_area
        self._marks: dict[int, str] = {}

    def on_mount(self) -> None:
        self.watch(self._text_area, "scroll_y", self._scrolled, init=False)

    def _scrolled(self) -> None:
        self.refresh()

    @property
    def marks(self) -> dict[int, str]:
        """0-based line -> worst severity on it."""
        return dict(self._marks)

    def show(self, diagnostics: list[Diagnostic]) -> None:
        marks: dict[int, str] = {}
        for d in diagnostics:
            if d.line is None:
                continue
            line = d.line - 1
            current = marks.get(line)
            if current is None or SEVERITY_ORDER[d.severity] < SEVERITY_ORDER[current]:
                marks[line] = d.severity
        self._marks = marks
        self.refresh()

    def render_line(self, y: int) -> Strip:
        severity = self._marks.get(int(self._text_area.scroll_y) + y)
        style = self.rich_style
        if severity is None:
            return Strip([Segment(" ", style)], 1)
        mark_style = style + self.get_component_rich_style(f"diagnostic-gutter--{severity}")
        return Strip([Segment(MARK, mark_style)], 1)
