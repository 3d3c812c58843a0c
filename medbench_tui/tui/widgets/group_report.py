"""A run group at a glance: the case x system matrix with its filters, the group's
statistics, its charts (forest plot, bars per metric and per subgroup) and its failure
taxonomy. Enter on a case asks for its side-by-side view; Enter on a failure count shows
the cases that failed that way."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Select, Static, TabbedContent, TabPane

from medbench_tui.core.comparison.view import FILTERS, MatrixRow, keep_rows, matrix_rows
from medbench_tui.tui.widgets.failure_table import FailureTable
from medbench_tui.tui.widgets.matrix import MetricMatrix
from medbench_tui.tui.widgets.report_charts import ReportCharts
from medbench_tui.tui.widgets.scorecard_view import status_text
from medbench_tui.tui.widgets.stats_panel import StatsPanel
from medbench_tui.tui.worker_failures import ReportsWorkerFailures

if TYPE_CHECKING:
    from medbench_tui.core.reports.report import Report
    from medbench_tui.core.runs.store import RunGroup, RunRecord, RunStore


NEXT_FRAME = 1 / 30
"""Seconds by which the screen has drawn what was asked of it (it draws every 1/60 s at most)."""


def after_the_next_frame(widget: Widget, callback: Callable[..., object], *args: object) -> None:
    """Call ``callback`` once the screen has drawn what is pending: spread over frames, a
    screen's first drawing never holds it for long (``call_after_refresh`` may come first)."""
    widget.set_timer(NEXT_FRAME, partial(callback, *args))


class GroupReport(ReportsWorkerFailures, Vertical):
    DEFAULT_CSS = """
    GroupReport { height: 1fr; }
    GroupReport > #group-bar { height: auto; padding: 0 1; }
    GroupReport > #group-bar > Select { width: 26; }
    GroupReport > #group-bar > #group-summary { width: 1fr; padding: 1 1 0 2; color: $text-muted; }
    GroupReport > TabbedContent { height: 1fr; }
    GroupReport TabPane { padding: 0; height: 1fr; }
    GroupReport #group-detail { height: auto; max-height: 6; padding: 0 1; color: $text-muted; }
    """

    BINDINGS = [
        Binding("f", "next_filter", "Next filter", id="group.filter"),
        Binding("t", "toggle_tab", "Next tab", id="group.tab"),
    ]
    TABS = ("tab-cases", "tab-statistics", "tab-charts", "tab-failures")

    @dataclass
    class CaseChosen(Message):
        group_id: str
        case_id: str

    @dataclass
    class Loaded(Message):
        group: RunGroup
        runs: list[RunRecord]

    @dataclass
    class ReportBuilt(Message):
        group_id: str
        report: Report | None
        problem: str | None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.group: RunGroup | None = None
        self.report: Report | None = None
        self.systems: list[str] = []
        self.rows: list[MatrixRow] = []
        self.only: tuple[str, set[str]] | None = None
        """The cases a failure count opened (label, case ids); None: the filter decides."""
        self.store: RunStore | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="group-bar"):
            yield Select([(label, key) for key, label in FILTERS], value="all", allow_blank=False, id="group-filter")
            yield Static("", id="group-summary")
        with TabbedContent(id="group-tabs"):
            with TabPane("Cases", id="tab-cases"):
                yield MetricMatrix(id="matrix")
                yield Static("", id="group-detail")
            with TabPane("Statistics", id="tab-statistics"):
                yield StatsPanel()
            with TabPane("Charts", id="tab-charts"):
                yield ReportCharts()
            with TabPane("Failures", id="tab-failures"):
                yield FailureTable(id="failures")

    @property
    def matrix(self) -> MetricMatrix:
        return self.query_one(MetricMatrix)

    @property
    def filter(self) -> str:
        return str(self.query_one("#group-filter", Select).value)

    def waiting(self) -> None:
        """Forget the group shown: another is on its way (see :meth:`load`). The tabs are
        hidden till then: a screen that shows the report draws its bar first, and its tabs
        in a frame of their own (drawn together, they held the screen for 50 ms)."""
        self.report = None
        self.only = None
        self.rows = []
        self.matrix.show([], [])
        self.query_one("#group-summary", Static).update("Reading the runs…")
        self.query_one(StatsPanel).waiting()
        self.query_one("#group-tabs").display = False

    def load(self, store: RunStore, group_id: str) -> None:
        """Show the tabs, then read the group's runs once they are drawn and compute its
        statistics once the runs are drawn (both in the background: a thread beside a
        drawing holds the interpreter)."""
        self.waiting()
        self.store = store
        self.query_one("#group-tabs").display = True
        after_the_next_frame(self, self._load, store, group_id)

    @work(thread=True, exclusive=True, group="group-load", exit_on_error=False)
    def _load(self, store: RunStore, group_id: str) -> None:
        group = store.group(group_id)
        self.post_message(self.Loaded(group, store.runs(group_id)))

    @work(thread=True, exclusive=True, group="group-report", exit_on_error=False)
    def _build(self, store: RunStore, group_id: str, by: str) -> None:
        from medbench_tui.core.errors import MedbenchError
        from medbench_tui.core.reports.report import build_report

        try:
            report, problem = build_report(store, group_id, by=by), None
        except MedbenchError as exc:
            report, problem = None, str(exc)
        self.post_message(self.ReportBuilt(group_id, report, problem))

    @on(ReportCharts.SubgroupWanted)
    def _subgroup_wanted(self, event: ReportCharts.SubgroupWanted) -> None:
        event.stop()
        if self.group is not None and self.store is not None:
            self._build(self.store, self.group.id, event.field)

    @on(Loaded)
    def _loaded(self, event: Loaded) -> None:
        event.stop()
        self.group = event.group
        case_ids = [c["id"] for c in event.group.config.get("cases", [])]
        self.systems = event.group.systems or sorted({r.system for r in event.runs})
        self.rows = matrix_rows(event.runs, case_ids)
        self.refresh_matrix()
        self.matrix.focus()
        # the statistics are worked out once the matrix is on screen: built beside its first
        # drawing, they would hold the interpreter while it draws
        self.call_after_refresh(self._build, self.store, event.group.id, self.query_one(ReportCharts).field)

    @on(ReportBuilt)
    def _report_built(self, event: ReportBuilt) -> None:
        event.stop()
        if self.group is None or event.group_id != self.group.id:
            return
        self.report = event.report
        if event.report is None:
            self.query_one(StatsPanel).failed(event.problem or "no runs")
        else:
            self.query_one(StatsPanel).show(event.report)
            self.query_one(ReportCharts).show(event.report)
            self.query_one(FailureTable).show(event.report)

    def refresh_matrix(self) -> None:
        if self.only is not None:
            shown = [r for r in self.rows if r.case_id in self.only[1]]
            what = f"{len(shown)} cases with {self.only[0]} · f: every case"
        else:
            shown = keep_rows(self.rows, self.systems, self.filter)
            what = f"{len(shown)} of {len(self.rows)} cases shown"
        self.matrix.show(shown, self.systems)
        every = [run for r in self.rows for found in r.repeats.values() for run in found]
        complete = sum(1 for run in every if run.complete)
        runs = len(every)
        self.query_one("#group-summary", Static).update(
            f"{what} · {len(self.systems)} systems · {complete} of {runs} runs complete · Enter: side by side"
        )
        self._show_detail()

    @on(Select.Changed, "#group-filter")
    def _filter_changed(self, event: Select.Changed) -> None:
        event.stop()
        self.only = None
        if self.group is not None:
            self.refresh_matrix()

    @on(FailureTable.CasesChosen)
    def _failures_chosen(self, event: FailureTable.CasesChosen) -> None:
        event.stop()
        self.only = (event.label, set(event.case_ids))
        self.query_one("#group-tabs", TabbedContent).active = "tab-cases"
        self.refresh_matrix()
        self.matrix.focus()

    def action_next_filter(self) -> None:
        if self.only is not None:  # leave the cases a failure count opened: back to the filter
            self.only = None
            self.refresh_matrix()
            return
        keys = [key for key, _ in FILTERS]
        self.query_one("#group-filter", Select).value = keys[(keys.index(self.filter) + 1) % len(keys)]

    def action_toggle_tab(self) -> None:
        tabs = self.query_one("#group-tabs", TabbedContent)
        tabs.active = self.TABS[(self.TABS.index(tabs.active) + 1) % len(self.TABS)]
        focus = {"tab-cases": self.matrix, "tab-statistics": self.query_one(StatsPanel),
                 "tab-charts": self.query_one(ReportCharts), "tab-failures": self.query_one(FailureTable)}
        focus[tabs.active].focus()

    @on(MetricMatrix.CaseHighlighted)
    def _highlighted(self, event: MetricMatrix.CaseHighlighted) -> None:
        event.stop()
        self._show_detail()

    def _show_detail(self) -> None:
        case_id = self.matrix.selected_case
        row = next((r for r in self.rows if r.case_id == case_id), None)
        detail = Text()
        if row is not None:
            theme = self.app.current_theme
            detail.append(row.case_id, style="bold")
            for system in self.systems:
                run = row.runs.get(system)
                detail.append(f"\n{system}: ")
                if run is None:
                    detail.append("not run", style="dim")
                    continue
                detail.append_text(status_text(run.status, theme))
                repeats = row.repeats.get(system, [run])
                if len(repeats) > 1:
                    done = sum(1 for r in repeats if r.complete)
                    detail.append(f" ({done} of {len(repeats)} repeats complete; the matrix shows their mean)")
                detail.append(f", {run.steps} steps")
                if run.reason:
                    detail.append(f": {run.reason}")
        self.query_one("#group-detail", Static).update(detail)

    @on(MetricMatrix.CaseChosen)
    def _case_chosen(self, event: MetricMatrix.CaseChosen) -> None:
        event.stop()
        if self.group is not None:
            self.post_message(self.CaseChosen(self.group.id, event.case_id))
