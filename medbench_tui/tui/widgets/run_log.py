"""The latest lines of a batch run's log, as many as fit.

A scrolling log grows its virtual height with every line, and each change of size lays the
whole screen out again and repaints it (about 20 ms a line on these machines, twice that
while the batch thread holds the interpreter): the screen stalls. This one keeps its size
and fills downwards, so a new line repaints only its own row; when it is full, it turns a
page: the latest half stays on top, and only then is every row repainted. Every line is
kept (:attr:`lines`); the run's full account is the run group, shown when it is over.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget


class RunLog(Widget):
    DEFAULT_CSS = """
    RunLog { height: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: list[str] = []
        self._top = 0
        """The index of the line on the first row."""
        self._style: Style | None = None

    @property
    def lines(self) -> list[str]:
        """Every line written since the last :meth:`clear`."""
        return list(self._lines)

    def write_lines(self, lines: Iterable[str]) -> None:
        new = [part for line in lines for part in line.splitlines()]
        if not new:
            return
        first = len(self._lines)
        self._lines.extend(new)
        height = self.size.height
        if len(self._lines) - self._top <= height:
            self.refresh(Region(0, first - self._top, self.size.width, len(new)))
        else:  # a new page: the latest half of a page stays
            self._top = max(len(self._lines) - max(height // 2, 1), 0)
            self.refresh()

    def clear(self) -> None:
        self._lines.clear()
        self._top = 0
        self.refresh()

    def on_resize(self) -> None:
        self._top = max(len(self._lines) - self.size.height, 0)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._style = None

    def render_line(self, y: int) -> Strip:
        if self._style is None:  # worked out once: it walks the styles of every ancestor
            self._style = self.rich_style
        width = self.size.width
        index = self._top + y
        if index >= len(self._lines):
            return Strip.blank(width, self._style)
        text = self._lines[index]
        if cell_len(text) > width:
            text = set_cell_size(text, max(width - 1, 0)) + "…"
        return Strip([Segment(set_cell_size(text, width), self._style)], width)
