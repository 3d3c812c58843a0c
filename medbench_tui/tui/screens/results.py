"""Results mode: the stored run groups and their runs (play sessions, comparisons, command
line runs). Open any run's scorecard and consultation, mark two runs of one case to see
them side by side, or open a group as matrix and statistics."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Label, Static
from textual.widgets.data_table import CellDoesNotExist

from medbench_tui.core.comparison.view import (
    CHANGED_NOTE,
    RubricAnswer,
    Side,
    case_changed,
    counted,
    group_kind,
    load_case,
)
from medbench_tui.core.runs.runner import RUBRIC_SCORE
from medbench_tui.tui.bank_state import BankChanged
from medbench_tui.tui.screens.run_group import (
    CaseComparisonScreen,
    GroupReportScreen,
    sides_of,
)
from medbench_tui.tui.typed_app import MedbenchScreen
from medbench_tui.tui.widgets.key_footer import KeyFooter
from medbench_tui.tui.widgets.rubric_view import RubricView
from medbench_tui.tui.widgets.run_view import RunView
from medbench_tui.tui.widgets.scorecard_view import number, status_text
from medbench_tui.tui.widgets.title_bar import TitleBar
from medbench_tui.tui.worker_failures import ReportsWorkerFailures

if TYPE_CHECKING:
    from medbench_tui.core.cases.model import Case
    from medbench_tui.core.runs.store import RunGroup, RunRecord, RunStore

NO_RUNS = "No runs stored yet: play a case (F4) or compare systems (F5); command-line runs show here too."
HINT = "Enter: open the group's runs, or a run · Space: mark a run · c: compare the marked runs · g: group report"
RUN_METRICS = (("diagnosis_accuracy", "Dx"), ("workup_score", "Workup"), ("treatment_accuracy", "Tx"),
               ("critical_conditions_passed", "Safety"), (RUBRIC_SCORE, "Rubric"))


def when(iso: str) -> str:
    """A stored UTC time as local time, to the minute."""
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso


class ResultsScreen(ReportsWorkerFailures, MedbenchScreen):
    BINDINGS = [
        Binding("o", "open", "Open run", id="results.open"),
        Binding("space", "mark", "Mark", id="results.mark", tooltip="Mark a run to compare it"),
        Binding("c", "compare", "Compare marked", id="results.compare",
                tooltip="The marked runs of one case, side by side"),
        Binding("g", "group", "Group report", id="results.group", tooltip="The group as matrix and statistics"),
        Binding("r", "reload", "Reload", id="results.reload"),
    ]

    @dataclass
    class GroupsLoaded(Message):
        groups: list[RunGroup]
        problem: str | None

    @dataclass
    class RunsLoaded(Message):
        group_id: str
        runs: list[RunRecord]

    def __init__(self) -> None:
        super().__init__()
        self.groups: list[RunGroup] = []
        self.runs: list[RunRecord] = []
        self.group_id: str | None = None
        self.marked: dict[int, RunRecord] = {}
        """Marked runs by id (in the order marked), from any group."""
        self._store: RunStore | None = None

    def compose(self) -> ComposeResult:
        yield TitleBar("results")
        with Vertical(id="results-body"):
            yield Label("Run groups", classes="results-heading")
            yield DataTable(id="results-groups", cursor_type="row", zebra_stripes=True)
            yield Label("Runs", classes="results-heading", id="results-runs-heading")
            yield DataTable(id="results-runs", cursor_type="row", zebra_stripes=True)
            yield Static(HINT, id="results-hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        groups = self.query_one("#results-groups", DataTable)
        for key, label in (("when", "started"), ("group", "group"), ("kind", "kind"), ("systems", "systems"),
                           ("cases", "cases"), ("complete", "complete"), ("incomplete", "incomplete")):
            groups.add_column(label, key=key)
        runs = self.query_one("#results-runs", DataTable)
        for key, label in (("mark", "✓"), ("run", "run"), ("case", "case"), ("system", "system"),
                           ("status", "status"), *RUN_METRICS, ("steps", "steps"), ("reason", "reason")):
            runs.add_column(label, key=key)
        groups.focus()

    def on_screen_resume(self) -> None:
        self.action_reload()

    # Loading ------------------------------------------------------------------------------

    @property
    def store(self) -> RunStore | None:
        """The bank's run store, or None when nothing was ever stored (it is not created here)."""
        if self._store is None:
            from medbench_tui.core.runs.store import existing_store

            self._store = existing_store(self.medbench.bank.run_store)
        return self._store

    def action_reload(self) -> None:
        self._load_groups()

    def on_bank_changed(self, event: BankChanged) -> None:
        """The bank was read again: whether each run's case has changed since may differ."""
        if event.changed is None and self.is_mounted:
            self._load_groups()

    @work(thread=True, exclusive=True, group="results-groups", exit_on_error=False)
    def _load_groups(self) -> None:
        store = self.store
        if store is None:
            self.post_message(self.GroupsLoaded([], NO_RUNS))
            return
        self.post_message(self.GroupsLoaded(store.groups(), None))

    @on(GroupsLoaded)
    def _groups_loaded(self, event: GroupsLoaded) -> None:
        self.groups = event.groups
        table = self.query_one("#results-groups", DataTable)
        selected = self.group_id
        table.clear()
        for group in event.groups:
            cases = len(group.config.get("cases", []))
            table.add_row(
                when(group.created_at), Text(group.id), group_kind(group.config), Text(", ".join(group.systems)),
                str(cases), str(group.complete), str(group.incomplete), key=group.id,
            )
        self.query_one("#results-hint", Static).update(event.problem or HINT)
        if selected is not None and selected in table.rows:
            table.move_cursor(row=table.get_row_index(selected))
        elif event.groups:
            self._show_group(event.groups[0].id)
        else:
            self.query_one("#results-runs", DataTable).clear()

    @on(DataTable.RowHighlighted, "#results-groups")
    def _group_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value is not None and event.row_key.value != self.group_id:
            self._show_group(event.row_key.value)

    @on(DataTable.RowSelected, "#results-groups")
    def _group_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.query_one("#results-runs", DataTable).focus()

    def _show_group(self, group_id: str) -> None:
        self.group_id = group_id
        self._load_runs(group_id)

    @work(thread=True, exclusive=True, group="results-runs", exit_on_error=False)
    def _load_runs(self, group_id: str) -> None:
        store = self.store
        if store is not None:  # runs are listed only from groups the store gave
            self.post_message(self.RunsLoaded(group_id, store.runs(group_id)))

    @on(RunsLoaded)
    def _runs_loaded(self, event: RunsLoaded) -> None:
        if event.group_id != self.group_id:
            return
        self.runs = event.runs
        self.query_one("#results-runs-heading", Label).update(f"Runs of group {event.group_id}")
        table = self.query_one("#results-runs", DataTable)
        table.clear()
        theme = self.app.current_theme
        for run in event.runs:
            metrics = [number(run.metrics.get(name)) if run.complete else "" for name, _ in RUN_METRICS]
            table.add_row(
                self._mark(run.id), str(run.id), Text(run.case_id), Text(run.system), status_text(run.status, theme),
                *metrics, str(run.steps), Text(run.reason or "", style="dim"), key=str(run.id),
            )
        self.refresh_bindings()

    def _mark(self, run_id: int | None) -> Text:
        return Text("✓", style="bold") if run_id in self.marked else Text("")

    # Acting on runs --------------------------------------------------------------------------

    def selected_run(self) -> RunRecord | None:
        table = self.query_one("#results-runs", DataTable)
        if not table.row_count:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        except CellDoesNotExist:
            return None
        return next((r for r in self.runs if str(r.id) == key), None)

    @on(DataTable.RowSelected, "#results-runs")
    def _run_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        run = self.selected_run()
        if run is not None and run.id is not None:
            self._open_run(run.id)

    @work(exclusive=True, group="results-open", exit_on_error=False)
    async def _open_run(self, run_id: int) -> None:
        store = self.store
        if store is None:
            return
        bank = self.medbench.bank.root
        run = await asyncio.to_thread(store.run, run_id)
        heading = f"Run {run.id}: {run.system} on {run.case_id}"
        if await asyncio.to_thread(case_changed, bank, run):
            heading += CHANGED_NOTE
        graded = await asyncio.to_thread(RubricAnswer.of_run, run, bank, store)
        if graded is not None:
            self.app.push_screen(RunScreen(Side.of_run(run), None, heading, graded))
            return
        case = await asyncio.to_thread(load_case, bank, run.case_path)
        side = await asyncio.to_thread(Side.of_run, run, None, store)
        self.app.push_screen(RunScreen(side, case, heading))

    def action_mark(self) -> None:
        run = self.selected_run()
        if run is None or run.id is None:
            return
        if run.id in self.marked:
            del self.marked[run.id]
        else:
            self.marked[run.id] = run
        table = self.query_one("#results-runs", DataTable)
        table.update_cell(str(run.id), "mark", self._mark(run.id))
        self.refresh_bindings()
        self.notify(f"{counted(len(self.marked), 'run')} marked.")

    def action_compare(self) -> None:
        marked = list(self.marked.values())
        if len(marked) < 2:
            self.notify("Mark two runs of one case (Space), then press c.", severity="warning")
            return
        if len({r.case_id for r in marked}) > 1:
            self.notify("The marked runs are of different cases: mark runs of one case.", severity="warning")
            return
        self._compare([r.id for r in marked])

    @work(exclusive=True, group="results-compare", exit_on_error=False)
    async def _compare(self, run_ids: list[int]) -> None:
        store = self.store
        if store is None:
            return
        runs = [await asyncio.to_thread(store.run, run_id) for run_id in run_ids]
        heading = f"{runs[0].case_id}: runs {', '.join(str(r.id) for r in runs)}"
        sides, case, heading = await asyncio.to_thread(sides_of, runs, self.medbench.bank.root, heading, store)
        self.app.push_screen(CaseComparisonScreen(sides, case, heading))

    def action_group(self) -> None:
        if self.group_id is not None and self.store is not None:
            self.app.push_screen(GroupReportScreen(self.store, self.group_id))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("open", "mark"):
            return bool(self.runs)
        if action == "compare":
            return len(self.marked) >= 2
        if action == "group":
            return self.group_id is not None
        return True


class RunScreen(Screen[None]):
    """One stored run: its scorecard and its consultation, or (a rubric run) its graded answer;
    Esc goes back."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back", id="run_screen.back")]

    def __init__(self, side: Side, case: Case | None, heading: str, rubric: RubricAnswer | None = None) -> None:
        super().__init__()
        self.side, self.case, self.heading, self.rubric = side, case, heading, rubric

    def compose(self) -> ComposeResult:
        yield TitleBar(self.app.current_mode, self.heading)
        yield RubricView() if self.rubric is not None else RunView()
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.rubric is not None:
            self.query_one(RubricView).show(self.rubric, heading=self.heading)
        else:
            self.query_one(RunView).show(self.side, self.case, heading=self.heading)
