"""The Charts tab of a run group: the figures of the group's report tables, in their order
(the bars of each summary table, accuracy against cost, the forest plot of each paired
comparison), and the bars
per subgroup of a case field (chosen here; the group's report is rebuilt for it). They are
the figures the HTML report draws, made with the tables (see ``core.reports.figures``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Select, Static

from medbench_tui.core.cases.casemix import SUBGROUP_FIELDS
from medbench_tui.core.reports.figures import BarChart, CostChart, ForestChart
from medbench_tui.core.reports.report import SUBGROUP_METRICS, metric_title
from medbench_tui.tui.widgets.report_plots import BarChartView, CostPlot, ForestPlot

if TYPE_CHECKING:
    from medbench_tui.core.reports.report import Report


class ReportCharts(VerticalScroll):
    DEFAULT_CSS = """
    ReportCharts { height: 1fr; padding: 0 1; }
    ReportCharts > #charts-note { height: auto; color: $text-muted; margin-bottom: 1; }
    ReportCharts > #figures { height: auto; }
    ReportCharts > #subgroup-bar { height: auto; margin-top: 1; }
    ReportCharts > #subgroup-bar > Select { width: 36; }
    """

    @dataclass
    class SubgroupWanted(Message):
        """The report should be rebuilt with ``--by field``."""

        field: str

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.report: Report | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="charts-note")
        yield Vertical(id="figures")
        with Horizontal(id="subgroup-bar"):
            yield Select([(f"by {name}", name) for name in SUBGROUP_FIELDS], value="category", allow_blank=False,
                         id="subgroup-field")
            yield Select([(metric_title(name), name) for name in SUBGROUP_METRICS], value="diagnosis_accuracy",
                         allow_blank=False, id="subgroup-metric")
        yield BarChartView(id="subgroup-bars")

    @property
    def field(self) -> str:
        return str(self.query_one("#subgroup-field", Select).value)

    def show(self, report: Report) -> None:
        from medbench_tui.core.reports.report import report_tables

        self.report = report
        figures: list[Widget] = []
        for table in report_tables(report):
            if table.key == "subgroups":
                continue  # drawn below, for the field and metric chosen
            for figure in table.figures:
                if isinstance(figure, ForestChart):
                    figures.append(ForestPlot(figure, classes=f"figure-{table.key}"))
                elif isinstance(figure, CostChart):
                    figures.append(CostPlot(figure, classes=f"figure-{table.key}"))
                else:
                    figures.append(BarChartView(figure, classes=f"figure-{table.key}"))
        note = "Each chart is drawn from the table of the same name in Statistics (and in the exported report)."
        if not report.comparisons:
            note += " One system: nothing to compare pairwise."
        self.query_one("#charts-note", Static).update(note)
        box = self.query_one("#figures", Vertical)
        box.remove_children()
        box.mount_all(figures)
        self._show_subgroups()

    def subgroup_chart(self) -> BarChart | None:
        """The chart per subgroup of the field and metric chosen, from the report's subgroup table."""
        from medbench_tui.core.reports.report import subgroup_tables

        report = self.report
        if report is None or report.subgroups is None or report.subgroups.field != self.field:
            return None
        metric = str(self.query_one("#subgroup-metric", Select).value)
        return next((f for t in subgroup_tables(report) for f in t.figures
                     if isinstance(f, BarChart) and f.metric == metric), None)

    def _show_subgroups(self) -> None:
        report = self.report
        bars = self.query_one("#subgroup-bars", BarChartView)
        if report is None or report.subgroups is None or report.subgroups.field != self.field:
            bars.show(None, f"by {self.field}: computing…")
            return
        chart = self.subgroup_chart()
        missing = report.subgroups.missing
        metric = metric_title(str(self.query_one("#subgroup-metric", Select).value))
        bars.show(chart, f"{metric} by {self.field}: no case of a subgroup has a value ({missing} cases do not "
                         "set the field)")

    @on(Select.Changed, "#subgroup-field")
    def _field_changed(self, event: Select.Changed) -> None:
        event.stop()
        if self.report is not None and (self.report.subgroups is None or self.report.subgroups.field != self.field):
            self._show_subgroups()
            self.post_message(self.SubgroupWanted(self.field))

    @on(Select.Changed, "#subgroup-metric")
    def _metric_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._show_subgroups()
