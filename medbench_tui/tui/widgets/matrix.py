"""The case x system matrix: one row per case, one column per system, each cell the key
metrics of that run (or why it is incomplete). Enter on a row asks for its side-by-side view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable
from textual.widgets.data_table import CellDoesNotExist

from medbench_tui.tui.compare_model import KEY_METRICS, MatrixRow
from medbench_tui.tui.widgets.scorecard_view import tone_styles

FIELDS: tuple[tuple[str, str, int], ...] = (
    *((name, short, max(len(short), 3) + 1) for name, short in KEY_METRICS),
    ("steps", "Steps", 6),
)
"""(metric, heading, width) of the fields of a cell."""
PASS_FAIL = {"diagnosis_accuracy", "critical_conditions_passed"}


def cell_heading(system: str) -> Text:
    heading = Text(system, style="bold")
    heading.append("\n" + "".join(f"{short:>{width}}" for _, short, width in FIELDS), style="dim")
    return heading


def cell_text(row: MatrixRow, system: str, styles: dict[str, str]) -> Text:
    run = row.runs.get(system)
    if run is None:
        return Text("not run", style="dim")
    if not run.complete:
        return Text(f"incomplete: {run.reason or 'no reason recorded'}", style=styles["warn"])
    text = Text()
    for metric, _, width in FIELDS:
        value = row.value(system, metric)
        shown = "–" if value is None else f"{value:.0f}"
        style = ""
        if metric in PASS_FAIL and value is not None:
            style = styles["good"] if value >= 100 else styles["bad"]
        text.append(f"{shown:>{width}}", style=style)
    return text


class MetricMatrix(DataTable):
    DEFAULT_CSS = """
    MetricMatrix { height: 1fr; }
    """

    @dataclass
    class CaseChosen(Message):
        case_id: str

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, header_height=2, **kwargs)
        self.rows_shown: list[MatrixRow] = []

    def show(self, rows: list[MatrixRow], systems: list[str]) -> None:
        """Replace the rows, keeping the cursor on the same case when it is still shown."""
        selected = self.selected_case
        self.clear(columns=True)
        self.rows_shown = list(rows)
        styles = tone_styles(self.app.current_theme)
        self.add_column(Text("case", style="bold"), key="case")
        for system in systems:
            self.add_column(cell_heading(system), key=system)
        if len(systems) > 1:
            self.add_column(Text("differ", style="bold"), key="differ")
        for row in rows:
            cells: list[Any] = [Text(row.case_id)]
            cells += [cell_text(row, system, styles) for system in systems]
            if len(systems) > 1:
                cells.append(Text("≠", style=styles["warn"]) if row.differs(systems) else Text(""))
            self.add_row(*cells, key=row.case_id)
        if selected is not None and selected in self.rows:
            self.move_cursor(row=self.get_row_index(selected))

    @property
    def selected_case(self) -> str | None:
        if not self.row_count:
            return None
        try:
            return self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        except CellDoesNotExist:
            return None

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.post_message(self.CaseChosen(event.row_key.value))
