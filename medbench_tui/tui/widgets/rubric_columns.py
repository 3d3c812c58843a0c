"""Rubric decisions side by side - of a rubric question's runs, or of a consultation case's criteria on
the final responses: each run's score, then one row per criterion (or panel action) with each run's
verdict and the words of its answer the verdict rests on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from medbench_tui.core.rubric.side_by_side import CriterionCell, criteria_side_by_side, verdict_tone
from medbench_tui.tui.widgets.rubric_view import score_line
from medbench_tui.tui.widgets.scorecard_view import tone_styles

if TYPE_CHECKING:
    from medbench_tui.core.comparison.view import Side


class RubricColumns(VerticalScroll):
    """The rubric counterpart of the scorecard and item columns of a case comparison."""

    def compose(self) -> ComposeResult:
        yield Static("", id="rubric-columns-scores")
        yield Static("", id="rubric-columns")

    def show(self, sides: list[Side]) -> None:
        theme = self.app.current_theme
        styles = tone_styles(theme)
        scores = Text()
        for side in sides:
            scores.append(f"{side.label}: ", style="bold")
            grade = side.criteria_grade
            if grade is None:
                scores.append(f"{side.status}{': ' + side.reason if side.reason else ''}\n", style=styles["muted"])
            else:
                scores.append(score_line(grade) + "\n")
        scores.rstrip()
        self.query_one("#rubric-columns-scores", Static).update(scores)
        graded = [grade for side in sides if (grade := side.criteria_grade) is not None]
        panel = bool(graded) and graded[0].method == "panel"
        table = Table(box=box.SQUARE, expand=True, show_lines=True, header_style="bold")
        table.add_column("action" if panel else "criterion", ratio=2)
        table.add_column("severity" if panel else "points", justify="right", no_wrap=True)
        for side in sides:
            table.add_column(side.label, ratio=2, vertical="top")
        rows = criteria_side_by_side([[grade] if (grade := side.criteria_grade) is not None else [] for side in sides])
        for row in rows:
            table.add_row(row.text, f"{row.weight:+d}",
                          *(self._cell(cell, row.weight, panel, styles) for cell in row.cells))
        self.query_one("#rubric-columns", Static).update(table)

    @staticmethod
    def _cell(cell: CriterionCell | None, weight: int, panel: bool, styles: dict[str, str]) -> Text:
        if cell is None:
            return Text("–", style=styles["muted"])
        text = Text()
        text.append(cell.shown(action=panel), style=f"bold {styles[verdict_tone(cell.verdict, weight)]}")
        if cell.evidence:
            text.append(f"\n“{cell.evidence}”")
        if cell.decided_by:
            text.append(f"\n{', '.join(cell.decided_by)}", style=styles["muted"])
        return text
