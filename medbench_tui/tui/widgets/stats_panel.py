"""The statistics of a run group, as the report module computes them: what was compared
(the frozen bank, repeats, error-testing cases left out), each system's means with
intervals, repeat variability, the paired comparisons (differences, McNemar, direction of
change), the cases left out of the pairing, the subgroups and the case mix. The per-case
table is the matrix and the failure taxonomy has its own tab."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

if TYPE_CHECKING:
    from medbench_tui.core.reports.report import Report
    from medbench_tui.core.reports.report import Table as ReportTable

WAITING = "Computing the statistics (bootstrap intervals)…"


def rich_table(table: ReportTable) -> Group:
    """A report table (rendering-neutral) drawn for the terminal, with its notes below."""
    drawn = Table(title=table.title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD,
                  expand=True, show_edge=False, header_style="bold")
    for index, column in enumerate(table.columns):
        drawn.add_column(column, justify="left" if index == 0 else "right", overflow="fold",
                         ratio=2 if index == 0 else 1)
    for row in table.rows:
        drawn.add_row(*row)
    return Group(drawn, *(Text(note, style="dim") for note in table.notes), Text(""))


class StatsPanel(VerticalScroll):
    DEFAULT_CSS = """
    StatsPanel { height: 1fr; padding: 0 1; }
    StatsPanel > Static { height: auto; }
    """

    def compose(self) -> ComposeResult:
        yield Static(Text(WAITING, style="dim"), id="stats")

    def waiting(self) -> None:
        self.query_one("#stats", Static).update(Text(WAITING, style="dim"))

    def failed(self, problem: str) -> None:
        self.query_one("#stats", Static).update(Text(f"No statistics: {problem}", style="italic"))

    def show(self, report: Report) -> None:
        from medbench_tui.core.reports.report import header_lines, report_tables

        header = Text("\n".join(header_lines(report)) + "\n", style="italic")
        shown = [t for t in report_tables(report) if t.key not in ("per_case", "taxonomy")]
        self.query_one("#stats", Static).update(Group(header, *(rich_table(t) for t in shown)))
