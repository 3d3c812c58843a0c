"""Compare mode: run two or more systems over one case or a set of cases, then read where
and why they differ: one case side by side (transcripts, scorecards, items), many cases
as a case x system matrix with the paired statistics.

Runs go through the batch runner in a worker, into a run group of their own (its
configuration carries ``compare``). The player's own played runs can be one of the
systems: the latest complete one of each case is copied into the group as ``human``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import (
    Button,
    ContentSwitcher,
    Footer,
    Input,
    Label,
    ProgressBar,
    RichLog,
    Select,
    SelectionList,
    Static,
)
from textual.worker import Worker, WorkerState

from medbench_tui.core.case import ERROR_TESTING
from medbench_tui.tui.compare_model import CHANGED_NOTE, Side, case_changed, counted, load_case
from medbench_tui.tui.play_session import PLAYER_SYSTEM
from medbench_tui.tui.widgets.group_report import GroupReport
from medbench_tui.tui.widgets.side_by_side import CaseComparison
from medbench_tui.tui.widgets.title_bar import TitleBar
from medbench_tui.tui.worker_failures import ReportsWorkerFailures

RUN_WORKER = "compare-run"
EXPLANATION = (
    "Pick two or more systems (space) and the cases, then Ctrl+R. Each run is stored; one case is "
    "shown side by side, several as a case × system matrix with paired statistics."
)
ALL, CHOSEN = "all", "chosen"


class CompareScreen(ReportsWorkerFailures, Screen):
    BINDINGS = [
        Binding("ctrl+r", "run", "Run", id="compare.run", priority=True,
                tooltip="Run the chosen systems over the cases"),
        Binding("escape", "cancel", "Cancel the runs", id="compare.cancel",
                tooltip="Stop: runs in flight are recorded as incomplete (cancelled)"),
        Binding("ctrl+o", "setup", "Setup", id="compare.setup", priority=True, tooltip="Choose systems and cases"),
        Binding("ctrl+e", "export", "Export report", id="compare.export", priority=True,
                tooltip="Markdown, CSV and JSON into the bank's reports folder"),
    ]

    @dataclass
    class Started(Message):
        group_id: str
        runs: int
        note: str

    @dataclass
    class Progress(Message):
        """A progress event of the runner (GroupStarted, RunStarted, RequestRetried, RunFinished, GroupFinished)."""

        event: Any

    @dataclass
    class Finished(Message):
        group_id: str

    @dataclass
    class CaseLoaded(Message):
        sides: list[Side]
        case: Any
        heading: str
        push: bool

    def __init__(self) -> None:
        super().__init__()
        self.group_id: str | None = None
        self.case_ids: list[str] = []
        self.running = False
        self.finished_runs = 0
        self.cancelled_runs = 0
        self._store: Any = None

    def compose(self) -> ComposeResult:
        yield TitleBar("compare")
        with ContentSwitcher(initial="compare-setup", id="compare-panes"):
            with Vertical(id="compare-setup"):
                yield Static(EXPLANATION, id="compare-help")
                with Horizontal(id="compare-columns"):
                    with Vertical(id="compare-systems"):
                        yield Label("Systems", classes="compare-heading")
                        yield SelectionList[str](id="compare-system-list")
                        yield Input(placeholder="replay:PATH (a transcript file or folder), Enter adds it",
                                    id="compare-replay")
                    with Vertical(id="compare-cases"):
                        yield Label("Cases", classes="compare-heading")
                        yield Select([("All cases", ALL)], value=ALL, allow_blank=False, id="compare-scope")
                        yield SelectionList[str](id="compare-case-list")
                with Horizontal(id="compare-bar"):
                    yield Select([("patient: grounded", "grounded")], value="grounded", allow_blank=False,
                                 id="compare-simulator")
                    yield Static("", id="compare-plan")
                    yield Button("Run", id="compare-run", variant="primary")
            with Vertical(id="compare-running"):
                yield Static("", id="compare-status")
                yield ProgressBar(id="compare-progress", show_eta=False)
                yield RichLog(id="compare-log", markup=False, wrap=True)
            yield CaseComparison(id="compare-one")
            yield GroupReport(id="compare-many")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#compare-replay", Input).cursor_blink = self.app.cursor_blink
        self._load_bank_config()
        self.refresh_cases()
        self.query_one("#compare-system-list").focus()

    def on_screen_resume(self) -> None:
        self.refresh_cases()

    @property
    def store(self) -> Any:
        if self._store is None:
            from medbench_tui.tui.compare_model import open_run_store

            self._store = open_run_store(self.app.bank, self.app.settings.run_store)
        return self._store

    @property
    def pane(self) -> str:
        return self.query_one("#compare-panes", ContentSwitcher).current or "compare-setup"

    def show_pane(self, pane: str) -> None:
        self.query_one("#compare-panes", ContentSwitcher).current = pane
        if pane == "compare-setup":
            self.query_one("#compare-system-list").focus()
        self.refresh_bindings()

    # Setup ------------------------------------------------------------------------------------

    def _load_bank_config(self) -> None:
        from medbench_tui.core.bankconfig import load_bank_config
        from medbench_tui.core.errors import MedbenchError
        from medbench_tui.core.simulators import DEFAULT_SIMULATOR

        systems = self.query_one("#compare-system-list", SelectionList)
        simulators = [DEFAULT_SIMULATOR]
        try:
            config = load_bank_config(self.app.bank)
        except MedbenchError as exc:
            self.notify(str(exc), title="medbench.yaml", severity="warning", markup=False, timeout=10)
            config = None
        if config is not None:
            for name, system in config.systems.items():
                detail = getattr(system, "model", None) or getattr(system, "path", None) or ""
                systems.add_option((f"{name}  ({system.kind}{': ' + detail if detail else ''})", name))
            simulators += list(config.simulators)
        systems.add_option(("checklist  (built-in floor baseline)", "checklist"))
        systems.add_option((f"human  (your played runs, {self.app.settings.player_name})", PLAYER_SYSTEM))
        select = self.query_one("#compare-simulator", Select)
        select.set_options([(f"patient: {name}", name) for name in simulators])
        wanted = self.app.settings.default_simulator
        select.value = wanted if wanted in simulators else DEFAULT_SIMULATOR

    def _entries(self) -> list[Any]:
        library = self.app.library_screen()
        return sorted(library.entries if library is not None else [], key=lambda e: e.id)

    def refresh_cases(self) -> None:
        library = self.app.library_screen()
        entries = self._entries()
        if library is not None and library.loading_bank and not entries:
            self.set_timer(0.2, self.refresh_cases)
        cases = self.query_one("#compare-case-list", SelectionList)
        chosen = set(cases.selected)
        cases.clear_options()
        for entry in entries:
            label = f"{entry.id}  {entry.title}" + ("  (has errors)" if entry.errors else "")
            cases.add_option((label, str(entry.path), str(entry.path) in chosen))
        scope = self.query_one("#compare-scope", Select)
        current = scope.value
        categories = sorted({e.category for e in entries if e.category})
        options = [("All cases", ALL)] + [(f"Category: {c.replace('_', ' ')}", f"category:{c}") for c in categories]
        options.append(("The cases ticked below", CHOSEN))
        scope.set_options(options)
        scope.value = current if current in [value for _, value in options] else ALL
        self._describe_plan()

    def chosen_entries(self) -> list[Any]:
        scope = str(self.query_one("#compare-scope", Select).value)
        entries = self._entries()
        if scope == CHOSEN:
            ticked = set(self.query_one("#compare-case-list", SelectionList).selected)
            return [e for e in entries if str(e.path) in ticked]
        if scope.startswith("category:"):
            return [e for e in entries if e.category == scope.removeprefix("category:")]
        # error-testing cases test the harness: "All cases" leaves them out (their category includes them)
        return [e for e in entries if e.category != ERROR_TESTING]

    @property
    def specs(self) -> list[str]:
        return list(self.query_one("#compare-system-list", SelectionList).selected)

    @on(SelectionList.SelectedChanged)
    @on(Select.Changed, "#compare-scope")
    def _describe_plan(self) -> None:
        entries = self.chosen_entries()
        valid = [e for e in entries if not e.errors]
        specs = self.specs
        text = f"{counted(len(specs), 'system')} × {counted(len(valid), 'case')}"
        if len(entries) > len(valid):
            text += f" ({len(entries) - len(valid)} with errors left out)"
        if str(self.query_one("#compare-scope", Select).value) == ALL:
            tests = sum(1 for e in self._entries() if e.category == ERROR_TESTING)
            text += f" ({counted(tests, 'error-testing case')} left out)" if tests else ""
        if len(specs) < 2:
            text += " · pick at least two systems"
        self.query_one("#compare-plan", Static).update(text)

    @on(Input.Submitted, "#compare-replay")
    def _add_replay(self, event: Input.Submitted) -> None:
        from medbench_tui.core.errors import MedbenchError
        from medbench_tui.core.systems import resolve_system

        event.stop()
        given = event.value.strip()
        if not given:
            return
        spec = given if given.startswith("replay:") else f"replay:{given}"
        try:
            resolve_system(spec, bank=self.app.bank)
        except MedbenchError as exc:
            self.notify(str(exc), title="Not added", severity="error", markup=False)
            return
        systems = self.query_one("#compare-system-list", SelectionList)
        if spec not in [systems.get_option_at_index(i).value for i in range(systems.option_count)]:
            systems.add_option((f"{spec}  (recorded transcripts)", spec, True))
        else:
            systems.select(spec)
        event.input.value = ""

    # Running ----------------------------------------------------------------------------------

    @on(Button.Pressed, "#compare-run")
    def action_run(self) -> None:
        if self.running:
            self.notify("A comparison is running: Esc cancels it.")
            return
        specs = self.specs
        entries = [e for e in self.chosen_entries() if not e.errors]
        if len(specs) < 2:
            self.notify("Pick at least two systems to compare (space ticks one).", severity="warning")
            return
        if not entries:
            self.notify("No valid case chosen.", severity="warning")
            return
        every = self.query_one("#compare-scope", Select).value == ALL and not any(e.errors for e in self._entries())
        self.running = True
        self.group_id = None
        self.finished_runs = self.cancelled_runs = 0
        self.case_ids = [e.id for e in entries]
        self.query_one("#compare-log", RichLog).clear()
        self.query_one("#compare-status", Static).update("Planning: checking the cases and the systems…")
        self.query_one("#compare-progress", ProgressBar).update(total=None, progress=0)
        self.show_pane("compare-running")
        files = None if every else [e.path for e in entries]
        self._run(specs, files, str(self.query_one("#compare-simulator", Select).value))

    @work(exclusive=True, group=RUN_WORKER, exit_on_error=False)
    async def _run(self, specs: list[str], files: list[Path] | None, simulator: str) -> None:
        from medbench_tui.core.errors import MedbenchError
        from medbench_tui.core.runs.runner import Runner
        from medbench_tui.tui.compare_model import comparison_config, plan_cases, retry_policy
        from medbench_tui.tui.play_session import latest_played_runs

        player = self.app.settings.player_name
        machines = [s for s in specs if s != PLAYER_SYSTEM]
        with_player = PLAYER_SYSTEM in specs
        try:
            store = self.store
            plan = await asyncio.to_thread(plan_cases, self.app.bank, machines, files, simulator)
        except MedbenchError as exc:
            self.notify(str(exc), title="Cannot run", severity="error", markup=False, timeout=15)
            self.post_message(self.Finished(""))
            return
        group = await asyncio.to_thread(store.create_group, comparison_config(plan, player, with_player), plan.seed)
        note = ""
        if with_player:
            played = await asyncio.to_thread(latest_played_runs, store, [c.id for c in plan.cases], player)
            for run in played.values():
                await asyncio.to_thread(store.record, replace(run, group_id=group.id, id=None))
            note = f"Your played runs: {len(played)} of {len(plan.cases)} cases."
        self.post_message(self.Started(group.id, len(plan.cases) * len(plan.systems), note))
        runner_settings = self.app.settings.runner
        runner = Runner(
            store, plan, group=group, concurrency=runner_settings.concurrency,
            endpoint_concurrency=runner_settings.endpoint_concurrency, retry=retry_policy(runner_settings),
            on_event=lambda event: self.post_message(self.Progress(event)),
        )
        await runner.run()
        self.post_message(self.Finished(group.id))

    @on(Started)
    def _started(self, event: Started) -> None:
        self.group_id = event.group_id
        self.query_one("#compare-status", Static).update(
            f"Run group {event.group_id}: {event.runs} runs to play. Esc cancels."
        )
        if event.note:
            self.query_one("#compare-log", RichLog).write(event.note)

    @on(Progress)
    def _progress(self, message: Progress) -> None:
        from medbench_tui.core.runs.runner import (
            CANCELLED,
            GroupFinished,
            GroupStarted,
            RequestRetried,
            RunFinished,
            RunStarted,
        )

        event = message.event
        log = self.query_one("#compare-log", RichLog)
        bar = self.query_one("#compare-progress", ProgressBar)
        if isinstance(event, GroupStarted):
            bar.update(total=max(event.to_play, 1), progress=0)
        elif isinstance(event, RunStarted):
            log.write(f"started   {event.case_id} × {event.system}")
        elif isinstance(event, RequestRetried):
            log.write(f"retrying  {event.case_id} × {event.system} (attempt {event.attempt}): {event.reason}")
        elif isinstance(event, RunFinished):
            if event.reason == CANCELLED:
                self.cancelled_runs += 1
            else:
                self.finished_runs += 1
            bar.advance(1)
            if event.status == "complete":
                log.write(f"complete  {event.case_id} × {event.system}: {event.steps} steps")
            else:
                log.write(f"INCOMPLETE {event.case_id} × {event.system}: {event.reason}")
        elif isinstance(event, GroupFinished):
            verb = "Cancelled" if event.cancelled else "Finished"
            self.query_one("#compare-status", Static).update(
                f"{verb}: {event.complete} complete, {event.incomplete} incomplete, {event.not_played} not played."
            )

    @on(Finished)
    def _finished(self, event: Finished) -> None:
        self.running = False
        self.refresh_bindings()
        if not event.group_id:
            self.show_pane("compare-setup")
            return
        self.show_results(event.group_id)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        super().on_worker_state_changed(event)
        if event.worker.group != RUN_WORKER:
            return
        if event.state == WorkerState.CANCELLED:
            self.running = False
            self.refresh_bindings()
            self.notify(
                f"Comparison cancelled after {counted(self.finished_runs, 'finished run')}; "
                f"{self.cancelled_runs} in flight recorded as incomplete (cancelled).",
                title="Cancelled",
                severity="warning",
                markup=False,
            )
            self.query_one("#compare-status", Static).update(
                Text(f"Cancelled. {self.finished_runs} runs finished before; the group keeps what was recorded.")
            )
            if self.group_id:
                self.show_results(self.group_id)
        elif event.state == WorkerState.ERROR:
            self.running = False
            self.refresh_bindings()

    def action_cancel(self) -> None:
        if self.running:
            self.query_one("#compare-status", Static).update("Cancelling…")
            self.workers.cancel_group(self, RUN_WORKER)

    # Results ------------------------------------------------------------------------------------

    def show_results(self, group_id: str) -> None:
        self.group_id = group_id
        if len(self.case_ids) == 1:
            self._load_case(group_id, self.case_ids[0], push=False)
        else:
            self.query_one(GroupReport).load(self.store, group_id)
            self.show_pane("compare-many")

    @on(GroupReport.CaseChosen)
    def _case_chosen(self, event: GroupReport.CaseChosen) -> None:
        self._load_case(event.group_id, event.case_id, push=True)

    @work(exclusive=True, group="compare-case", exit_on_error=False)
    async def _load_case(self, group_id: str, case_id: str, *, push: bool) -> None:
        sides, case, heading = await asyncio.to_thread(case_sides, self.store, self.app.bank, group_id, case_id)
        self.post_message(self.CaseLoaded(sides, case, heading, push))

    @on(CaseLoaded)
    def _case_loaded(self, event: CaseLoaded) -> None:
        if event.push:
            self.app.push_screen(CaseComparisonScreen(event.sides, event.case, event.heading))
            return
        self.query_one(CaseComparison).show(event.sides, event.case, heading=event.heading)
        self.show_pane("compare-one")

    def action_setup(self) -> None:
        if not self.running:
            self.show_pane("compare-setup")

    def action_export(self) -> None:
        if self.group_id and not self.running:
            export(self, self.store, self.group_id, self.query_one(GroupReport).report)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return self.running
        if action == "run":
            return self.pane == "compare-setup"
        if action == "setup":
            return not self.running and self.pane != "compare-setup"
        if action == "export":
            return not self.running and self.pane in ("compare-one", "compare-many") and self.group_id is not None
        return True


def case_sides(store: Any, bank: Path, group_id: str, case_id: str) -> tuple[list[Side], Any, str]:
    """The runs of one case in a group (in the group's system order): sides, case, heading."""
    group = store.group(group_id)
    runs = [run for system in group.systems if (run := store.find_run(group_id, case_id, system)) is not None]
    return sides_of(runs, bank, f"{case_id} in run group {group_id}")


def sides_of(runs: list[Any], bank: Path, heading: str) -> tuple[list[Side], Any, str]:
    """Sides from full runs of one case (two runs of one system are told apart by run id),
    the case they were played on, and the heading."""
    systems = [r.system for r in runs]
    sides = [Side.of_run(r, f"{r.system} #{r.id}" if systems.count(r.system) > 1 else r.system) for r in runs]
    case = load_case(bank, runs[0].case_path) if runs else None
    if any(case_changed(bank, run) for run in runs):
        heading += CHANGED_NOTE
    return sides, case, heading


def export(screen: Screen, store: Any, group_id: str, report: Any) -> None:
    """Export a group's report in a worker; a notification says where it went."""

    async def write() -> None:
        from medbench_tui.tui.compare_model import export_report

        try:
            written = await asyncio.to_thread(export_report, store, group_id, screen.app.bank, report)
        except OSError as exc:
            screen.notify(f"Could not write the report: {exc}", severity="error", markup=False)
            return
        shown = ", ".join(screen.app.display_path(p) for p in written)
        screen.notify(f"Report of run group {group_id} written: {shown}", title="Exported", markup=False, timeout=10)

    screen.run_worker(write(), exclusive=True, group="export", exit_on_error=False)


class CaseComparisonScreen(Screen):
    """One case across runs, over the mode it was opened from; Esc goes back."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back", id="case_comparison.back")]

    def __init__(self, sides: list[Side], case: Any, heading: str) -> None:
        super().__init__()
        self.sides, self.case, self.heading = sides, case, heading

    def compose(self) -> ComposeResult:
        yield TitleBar(self.app.current_mode, self.heading)
        yield CaseComparison()
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(CaseComparison).show(self.sides, self.case)


class GroupReportScreen(ReportsWorkerFailures, Screen):
    """A stored run group as matrix and statistics (from Results); Enter on a case compares its runs."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="group_screen.back"),
        Binding("ctrl+e", "export", "Export report", id="group_screen.export", priority=True),
    ]

    def __init__(self, store: Any, group_id: str) -> None:
        super().__init__()
        self.store, self.group_id = store, group_id

    def compose(self) -> ComposeResult:
        yield TitleBar(self.app.current_mode, f"run group {self.group_id}")
        yield GroupReport()
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(GroupReport).load(self.store, self.group_id)

    @on(GroupReport.CaseChosen)
    def _case_chosen(self, event: GroupReport.CaseChosen) -> None:
        self._load(event.group_id, event.case_id)

    @work(exclusive=True, group="group-case", exit_on_error=False)
    async def _load(self, group_id: str, case_id: str) -> None:
        sides, case, heading = await asyncio.to_thread(case_sides, self.store, self.app.bank, group_id, case_id)
        self.app.push_screen(CaseComparisonScreen(sides, case, heading))

    def action_export(self) -> None:
        export(self, self.store, self.group_id, self.query_one(GroupReport).report)
