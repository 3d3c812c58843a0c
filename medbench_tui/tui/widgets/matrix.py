"""The case x system matrix: one row per case, one column per system, each cell the key
metrics of that run (or why it is incomplete). Enter on a row asks for its side-by-side view.

Drawn line by line from segments worked out once per :meth:`MetricMatrix.show`: a data
table renders every cell through Rich on its first drawing, which held the screen for
50 ms or more when a comparison's results came up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from medbench_tui.core.comparison.view import KEY_METRICS, MatrixRow
from medbench_tui.core.runs.runner import RUBRIC_SCORE, RUBRIC_UNGRADED
from medbench_tui.tui.widgets.scorecard_view import tone_styles

FIELDS: tuple[tuple[str, str, int], ...] = (
    *((name, short, max(len(short), 3) + 1) for name, short in KEY_METRICS),
    ("steps", "Steps", 6),
)
"""(metric, heading, width) of the fields of a cell."""
PASS_FAIL = {"diagnosis_accuracy", "critical_conditions_passed"}
HEADER_HEIGHT = 2
PADDING = 1
"""Blank cells on each side of a column's text."""

Piece = tuple[str, Style]
"""A run of a cell's text in one style."""
Cell = list[Piece]


def cell_heading(system: str) -> tuple[Cell, Cell]:
    """The two heading lines of a system's column: its name, and the fields' short names."""
    fields = "".join(f"{short:>{width}}" for _, short, width in FIELDS)
    return [(system, Style(bold=True))], [(fields, Style(dim=True))]


def cell_pieces(row: MatrixRow, system: str, styles: dict[str, Style]) -> Cell:
    run = row.runs.get(system)
    if run is None:
        return [("not run", Style(dim=True))]
    if not run.complete:
        return [(f"incomplete: {run.reason or 'no reason recorded'}", styles["warn"])]
    if RUBRIC_UNGRADED in run.metrics:  # a rubric question: its score is the cell (it has no consultation)
        score = row.value(system, RUBRIC_SCORE)
        return [("rubric score ", Style(dim=True)), ("ungraded" if score is None else f"{score:.0f}", Style(bold=True))]
    pieces: Cell = []
    for metric, _, width in FIELDS:
        value = row.value(system, metric)
        shown = "–" if value is None else f"{value:.0f}"
        style = Style()
        if metric in PASS_FAIL and value is not None:
            style = styles["good"] if value >= 100 else styles["bad"]
        pieces.append((f"{shown:>{width}}", style))
    return pieces


def _width(cell: Cell) -> int:
    return sum(cell_len(text) for text, _ in cell)


class MetricMatrix(ScrollView, can_focus=True):
    DEFAULT_CSS = """
    MetricMatrix {
        height: 1fr;
        background: $surface;
        color: $foreground;
        &:focus > .metric-matrix--cursor {  /* no tint of the whole: it is worked out cell by cell */
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
        & > .metric-matrix--header { text-style: bold; background: $panel; color: $foreground; }
        &:ansi > .metric-matrix--header { background: ansi_bright_blue; color: ansi_default; }
        & > .metric-matrix--even-row { background: $surface-lighten-1 50%; }
        &:dark > .metric-matrix--even-row { background: $surface-darken-1 40%; }
        & > .metric-matrix--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "metric-matrix--header", "metric-matrix--even-row", "metric-matrix--cursor",
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose", "Side by side", id="matrix.choose", show=False),
        Binding("up", "cursor_up", "Cursor up", id="matrix.up", show=False),
        Binding("down", "cursor_down", "Cursor down", id="matrix.down", show=False),
        Binding("pageup", "page_up", "Page up", id="matrix.page_up", show=False),
        Binding("pagedown", "page_down", "Page down", id="matrix.page_down", show=False),
        Binding("home,ctrl+home", "first", "First case", id="matrix.first", show=False),
        Binding("end,ctrl+end", "last", "Last case", id="matrix.last", show=False),
        Binding("left", "scroll_left", "Scroll left", id="matrix.left", show=False),
        Binding("right", "scroll_right", "Scroll right", id="matrix.right", show=False),
    ]

    cursor_row: reactive[int] = reactive(0, always_update=True, init=False)
    """The index of the highlighted case among those shown."""

    @dataclass
    class CaseChosen(Message):
        case_id: str

    @dataclass
    class CaseHighlighted(Message):
        case_id: str

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rows_shown: list[MatrixRow] = []
        self._heading: list[list[Cell]] = [[], []]
        self._cells: list[list[Cell]] = []
        self._widths: list[int] = []
        self._lines: dict[tuple[int, bool], tuple[Strip, Style]] = {}
        """Whole lines drawn so far, by (line, under the cursor); dropped when anything changes."""
        self._looks: dict[str, Style] = {}
        """The widget's style and its parts' (worked out once: each walks the styles of every
        ancestor)."""

    @property
    def row_count(self) -> int:
        return len(self.rows_shown)

    @property
    def selected_case(self) -> str | None:
        if not self.rows_shown:
            return None
        return self.rows_shown[min(self.cursor_row, len(self.rows_shown) - 1)].case_id

    def show(self, rows: list[MatrixRow], systems: list[str]) -> None:
        """Replace the rows, keeping the cursor on the same case when it is still shown."""
        selected = self.selected_case
        self.rows_shown = list(rows)
        styles = {name: Style.parse(style) for name, style in tone_styles(self.app.current_theme).items()}
        bold = Style(bold=True)
        first: list[Cell] = [[("case", bold)]]
        second: list[Cell] = [[]]
        for system in systems:
            name, fields = cell_heading(system)
            first.append(name)
            second.append(fields)
        self._cells = [
            [[(row.case_id, Style())], *(cell_pieces(row, system, styles) for system in systems)] for row in rows
        ]
        if len(systems) > 1:
            first.append([("differ", bold)])
            second.append([])
            for row, cells in zip(rows, self._cells, strict=True):
                cells.append([("≠", styles["warn"])] if row.differs(systems) else [])
        self._heading = [first, second]
        columns = len(self._heading[0])
        self._widths = [
            max(_width(line[column]) for line in [*self._heading, *self._cells]) + 2 * PADDING
            for column in range(columns)
        ]
        self._lines.clear()
        self.virtual_size = Size(sum(self._widths), HEADER_HEIGHT + len(rows))
        index = next((i for i, row in enumerate(rows) if row.case_id == selected), 0)
        self.cursor_row = index
        self.refresh()

    # Drawing ------------------------------------------------------------------------------------

    def _forget_drawing(self) -> None:
        self._lines.clear()
        self._looks.clear()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._forget_drawing()

    def _on_focus(self, event: events.Focus) -> None:
        self._forget_drawing()
        super()._on_focus(event)

    def _on_blur(self, event: events.Blur) -> None:
        self._forget_drawing()
        super()._on_blur(event)

    def _look(self, part: str) -> Style:
        """The style of ``part`` (a component class), or of the widget itself (``""``)."""
        if part not in self._looks:
            self._looks[part] = self.get_component_rich_style(part) if part else self.rich_style
        return self._looks[part]

    def _whole_line(self, line: int, cursor: bool) -> tuple[Strip, Style]:
        """A heading line (line < HEADER_HEIGHT) or a case's row, the full width of the columns,
        and the style that fills the widget's width beyond them."""
        over = Style()
        if line < HEADER_HEIGHT:
            cells, base = self._heading[line], self._look("metric-matrix--header")
        else:
            index = line - HEADER_HEIGHT
            cells, base = self._cells[index], self._look("")
            if cursor:  # the cursor's colours over the cell's: its emphasis stays
                over = self._look("metric-matrix--cursor")
            elif index % 2 == 0:  # striped as a data table stripes: the first row, the third…
                base += self._look("metric-matrix--even-row")
        blank = base + over
        styled: dict[Style, Style] = {}
        segments: list[Segment] = []
        for cell, width in zip(cells, self._widths, strict=True):
            segments.append(Segment(" " * PADDING, blank))
            for text, style in cell:
                if style not in styled:
                    styled[style] = base + style + over
                segments.append(Segment(text, styled[style]))
            segments.append(Segment(" " * (width - PADDING - _width(cell)), blank))
        return Strip(segments, sum(self._widths)), blank

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        scroll_x, scroll_y = self.scroll_offset
        line = y if y < HEADER_HEIGHT else y + scroll_y
        if line >= HEADER_HEIGHT + len(self._cells) or not self._widths:
            return Strip.blank(width, self._look(""))
        cursor = line - HEADER_HEIGHT == self.cursor_row
        drawn = self._lines.get((line, cursor))
        if drawn is None:
            drawn = self._lines[line, cursor] = self._whole_line(line, cursor)
        whole, fill = drawn
        return whole.crop(scroll_x, scroll_x + width).extend_cell_length(width, fill)

    # The cursor ---------------------------------------------------------------------------------

    def validate_cursor_row(self, row: int) -> int:
        return max(0, min(row, len(self.rows_shown) - 1))

    def watch_cursor_row(self, old: int, new: int) -> None:
        for row in {old, new}:
            self._refresh_row(row)
        self.call_after_refresh(self._scroll_to_cursor)
        case_id = self.selected_case
        if case_id is not None:
            self.post_message(self.CaseHighlighted(case_id))

    def _refresh_row(self, row: int) -> None:
        y = row + HEADER_HEIGHT - self.scroll_offset.y
        if HEADER_HEIGHT <= y < self.size.height:
            self.refresh_line(y)

    def _scroll_to_cursor(self) -> None:
        visible = max(self.scrollable_content_region.height - HEADER_HEIGHT, 1)
        top = self.scroll_offset.y
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False)
        elif self.cursor_row >= top + visible:
            self.scroll_to(y=self.cursor_row - visible + 1, animate=False)

    def _page(self) -> int:
        return max(self.scrollable_content_region.height - HEADER_HEIGHT, 1)

    def action_cursor_up(self) -> None:
        self.cursor_row -= 1

    def action_cursor_down(self) -> None:
        self.cursor_row += 1

    def action_page_up(self) -> None:
        self.cursor_row -= self._page()

    def action_page_down(self) -> None:
        self.cursor_row += self._page()

    def action_first(self) -> None:
        self.cursor_row = 0

    def action_last(self) -> None:
        self.cursor_row = len(self.rows_shown) - 1

    def action_choose(self) -> None:
        case_id = self.selected_case
        if case_id is not None:
            self.post_message(self.CaseChosen(case_id))

    def on_click(self, event: events.Click) -> None:
        """A click moves the cursor to its case; a click on the highlighted case chooses it."""
        if event.y < HEADER_HEIGHT:
            return
        row = event.y - HEADER_HEIGHT + self.scroll_offset.y
        if not 0 <= row < len(self.rows_shown):
            return
        event.stop()
        if row == self.cursor_row:
            self.action_choose()
        else:
            self.cursor_row = row
