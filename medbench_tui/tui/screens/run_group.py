"""A run group's views, shared by Compare and Results (neither mode screen imports the other): the
group's report (matrix and statistics) and one case's runs side by side, with the loading of the
runs behind them and the export of the report."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding

from medbench_tui.core.comparison.view import CHANGED_NOTE, RubricAnswer, Side, case_changed, load_case
from medbench_tui.core.runs.store import RunRecord, RunStore
from medbench_tui.tui.typed_app import MedbenchScreen
from medbench_tui.tui.widgets.group_report import GroupReport
from medbench_tui.tui.widgets.key_footer import KeyFooter
from medbench_tui.tui.widgets.side_by_side import CaseComparison
from medbench_tui.tui.widgets.title_bar import TitleBar
from medbench_tui.tui.worker_failures import ReportsWorkerFailures

if TYPE_CHECKING:
    from medbench_tui.core.cases.model import Case
    from medbench_tui.core.reports.report import Report


NOT_RUN = "not run"


def case_sides(store: RunStore, bank: Path, group_id: str, case_id: str) -> tuple[list[Side], Case | None, str]:
    """The runs of one case in a group (in the group's system order): sides, case, heading.
    A system of the group without a run of the case gets a side that says so."""
    group = store.group(group_id)
    found = {system: store.find_run(group_id, case_id, system) for system in group.systems}
    sides, case, heading = sides_of([run for run in found.values() if run is not None], bank,
                                    f"{case_id} in run group {group_id}", store)
    missing = [system for system, run in found.items() if run is None]
    if missing:
        by_label = {side.label: side for side in sides}
        placeholder = "no run of this case in this group"
        sides = [by_label.get(system) or Side(system, NOT_RUN, placeholder, None, None) for system in group.systems]
        heading += f" · {', '.join(missing)} {'has' if len(missing) == 1 else 'have'} no run of this case"
    if group.repeats > 1:
        heading += f" · the first of {group.repeats} repeats (the matrix shows their mean)"
    return sides, case, heading


def sides_of(runs: list[RunRecord], bank: Path, heading: str,
             store: RunStore | None = None) -> tuple[list[Side], Case | None, str]:
    """Sides from full runs of one case (two runs of one system are told apart by run id),
    the case they were played on (None for a rubric question: its sides carry their graded
    answers, with the criteria physicians graded in ``store``), and the heading."""
    systems = [r.system for r in runs]
    sides = [replace(Side.of_run(r, f"{r.system} #{r.id}" if systems.count(r.system) > 1 else r.system, store),
                     rubric=RubricAnswer.of_run(r, bank, store)) for r in runs]
    rubric = any(side.rubric is not None for side in sides)
    case = load_case(bank, runs[0].case_path) if runs and not rubric else None
    if any(case_changed(bank, run) for run in runs):
        heading += CHANGED_NOTE
    return sides, case, heading


def export(screen: MedbenchScreen, store: RunStore, group_id: str, report: Report | None) -> None:
    """Export a group's report in a worker; a notification says where it went."""

    async def write() -> None:
        from medbench_tui.core.comparison.plan import export_report

        try:
            written = await asyncio.to_thread(export_report, store, group_id, screen.medbench.bank.root, report)
        except OSError as exc:
            screen.notify(f"Could not write the report: {exc}", severity="error", markup=False)
            return
        shown = ", ".join(screen.medbench.display_path(p) for p in written)
        screen.notify(f"Report of run group {group_id} written: {shown}", title="Exported", markup=False, timeout=10)
        if screen.app.is_web:  # served in a browser: the files come down as downloads too
            for path in written:
                screen.app.deliver_binary(path, save_filename=path.name)

    screen.run_worker(write(), exclusive=True, group="export", exit_on_error=False)


class CaseComparisonScreen(MedbenchScreen):
    """One case across runs, over the mode it was opened from; Esc goes back."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back", id="case_comparison.back")]

    def __init__(self, sides: list[Side], case: Case | None, heading: str) -> None:
        super().__init__()
        self.sides, self.case, self.heading = sides, case, heading

    def compose(self) -> ComposeResult:
        yield TitleBar(self.app.current_mode, self.heading)
        yield CaseComparison()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(CaseComparison).show(self.sides, self.case)


class GroupReportScreen(ReportsWorkerFailures, MedbenchScreen):
    """A stored run group as matrix and statistics (from Results); Enter on a case compares its runs."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="group_screen.back"),
        Binding("ctrl+e", "export", "Export report", id="group_screen.export", priority=True),
    ]

    def __init__(self, store: RunStore, group_id: str) -> None:
        super().__init__()
        self.store, self.group_id = store, group_id

    def compose(self) -> ComposeResult:
        yield TitleBar(self.app.current_mode, f"run group {self.group_id}")
        yield GroupReport()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(GroupReport).load(self.store, self.group_id)

    @on(GroupReport.CaseChosen)
    def _case_chosen(self, event: GroupReport.CaseChosen) -> None:
        self._load(event.group_id, event.case_id)

    @work(exclusive=True, group="group-case", exit_on_error=False)
    async def _load(self, group_id: str, case_id: str) -> None:
        sides, case, heading = await asyncio.to_thread(case_sides, self.store, self.medbench.bank.root, group_id,
                                                       case_id)
        self.app.push_screen(CaseComparisonScreen(sides, case, heading))

    def action_export(self) -> None:
        export(self, self.store, self.group_id, self.query_one(GroupReport).report)
