"""The Charts tab of a run group: the forest plot of each paired comparison, the key
metrics per system, and the metrics per subgroup of a case field (chosen here; the
group's report is rebuilt for it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import Select, Static

from medbench_tui.core.cases.casemix import SUBGROUP_FIELDS
from medbench_tui.core.reports.report import SUBGROUP_METRICS, metric_title
from medbench_tui.tui.widgets.report_plots import CostPlot, ForestPlot, GroupedBars


class ReportCharts(VerticalScroll):
    DEFAULT_CSS = """
    ReportCharts { height: 1fr; padding: 0 1; }
    ReportCharts > #charts-note { height: auto; color: $text-muted; }
    ReportCharts > #subgroup-bar { height: auto; margin-top: 1; }
    ReportCharts > #subgroup-bar > Select { width: 36; }
    """

    @dataclass
    class SubgroupWanted(Message):
        """The report should be rebuilt with ``--by field``."""

        field: str

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.report: Any = None

    def compose(self) -> ComposeResult:
        yield Static("", id="charts-note")
        yield ForestPlot(id="forest")
        yield GroupedBars(id="metric-bars")
        yield CostPlot(id="cost-plot")
        with Horizontal(id="subgroup-bar"):
            yield Select([(f"by {name}", name) for name in SUBGROUP_FIELDS], value="category", allow_blank=False,
                         id="subgroup-field")
            yield Select([(metric_title(name), name) for name in SUBGROUP_METRICS], value="diagnosis_accuracy",
                         allow_blank=False, id="subgroup-metric")
        yield GroupedBars(id="subgroup-bars")

    @property
    def field(self) -> str:
        return str(self.query_one("#subgroup-field", Select).value)

    def show(self, report: Any) -> None:
        from medbench_tui.core.reports.figures import forest_rows, metric_bars

        self.report = report
        note = "Points: mean paired difference (B − A); lines: 95% intervals. Bars: headline means."
        if report.comparisons:
            first = report.comparisons[0]
            self.query_one(ForestPlot).show(
                f"Paired differences, {first.system_b} − {first.system_a} (n={first.cases})", forest_rows(first))
            if len(report.comparisons) > 1:
                note += f" The forest plot shows the first of {len(report.comparisons)} comparisons."
        else:
            self.query_one(ForestPlot).show("Paired differences: one system, nothing to compare", [])
        self.query_one("#charts-note", Static).update(note)
        self.query_one("#metric-bars", GroupedBars).show("Key metrics per system", metric_bars(report),
                                                         report.systems)
        from medbench_tui.core.reports.figures import cost_dots

        money = "relative units" if report.costs is None or report.costs.currency == "relative" \
            else report.costs.currency
        self.query_one(CostPlot).show("Diagnosis accuracy against cost", cost_dots(report), report.systems, money)
        self._show_subgroups()

    def _show_subgroups(self) -> None:
        from medbench_tui.core.reports.figures import subgroup_bars

        report = self.report
        bars = self.query_one("#subgroup-bars", GroupedBars)
        if report is None or report.subgroups is None or report.subgroups.field != self.field:
            bars.show(f"by {self.field}: computing…", [], [])
            return
        metric = str(self.query_one("#subgroup-metric", Select).value)
        title = metric_title(metric)
        missing = report.subgroups.missing
        bars.show(f"{title} by {self.field} ({missing} cases do not set it)", subgroup_bars(report, metric),
                  report.systems)

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
