"""Compare mode: run two or more systems over one case or a set of cases, then read where
and why they differ: one case side by side (transcripts, scorecards, items), many cases
as a case x system matrix with the paired statistics.

Runs go through the batch runner in a worker, into a run group of their own (its
configuration carries ``compare``). The player's own played runs can be one of the
systems: the latest complete one of each case is copied into the group as ``human``.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import (
    Button,
    ContentSwitcher,
    Input,
    Label,
    ProgressBar,
    Select,
    SelectionList,
    Static,
)
from textual.worker import Worker, WorkerState

from medbench_tui.core.authoring.library import CaseEntry
from medbench_tui.core.cases.model import ERROR_TESTING
from medbench_tui.core.cases.rubric import CONSULTATION
from medbench_tui.core.comparison.plan import progress_line
from medbench_tui.core.comparison.view import Side, counted
from medbench_tui.core.practice.session import PLAYER_SYSTEM
from medbench_tui.core.runs.background import BatchProcess, ProgressFeed, Tally
from medbench_tui.core.runs.runner import GroupResult
from medbench_tui.core.runs.store import RunStore
from medbench_tui.tui.bank_state import BankChanged
from medbench_tui.tui.screens.run_group import CaseComparisonScreen, case_sides, export
from medbench_tui.tui.typed_app import MedbenchScreen
from medbench_tui.tui.widgets.group_report import GroupReport, after_the_next_frame
from medbench_tui.tui.widgets.key_footer import KeyFooter
from medbench_tui.tui.widgets.run_log import RunLog
from medbench_tui.tui.widgets.side_by_side import CaseComparison
from medbench_tui.tui.widgets.title_bar import TitleBar
from medbench_tui.tui.worker_failures import ReportsWorkerFailures

if TYPE_CHECKING:
    from medbench_tui.core.cases.model import Case

PROGRESS_EVERY = 0.03
"""Seconds between two drawings of a batch's progress (about thirty a second: the runs
play in another process, so a drawing slows neither them nor the keys)."""
RUN_WORKER = "compare-run"
CASE_WORKER = "compare-case"
EXPLANATION = (
    "Pick two or more systems (space) and the cases, then Ctrl+R. Ticking cases compares just those "
    "(untick them all for every case). Each run is stored; one case is shown side by side, several as a "
    "case × system matrix with paired statistics."
)
ALL, CHOSEN = "all", "chosen"


class CompareScreen(ReportsWorkerFailures, MedbenchScreen):
    BINDINGS = [
        Binding("ctrl+r", "run", "Run", id="compare.run", priority=True,
                tooltip="Run the chosen systems over the cases"),
        Binding("escape", "cancel", "Cancel the runs", id="compare.cancel",
                tooltip="Stop: runs in flight are recorded as incomplete (cancelled)"),
        Binding("ctrl+o", "setup", "Setup", id="compare.setup", priority=True, tooltip="Choose systems and cases"),
        Binding("ctrl+e", "export", "Export report", id="compare.export", priority=True,
                tooltip="Markdown, CSV, JSON, HTML and the case-level matrix into the bank's reports folder"),
    ]

    @dataclass
    class Started(Message):
        group_id: str
        runs: int
        note: str

    @dataclass
    class Progressed(Message):
        """The runner has news: the handler takes it from ``feed``. One pending message
        stands for any number behind it (they would take the same news)."""

        feed: ProgressFeed

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, CompareScreen.Progressed)

    @dataclass
    class Finished(Message):
        result: GroupResult | None
        """None: nothing was run (the plan was refused)."""

    @dataclass
    class CaseLoaded(Message):
        sides: list[Side]
        case: Case | None
        heading: str
        push: bool

    def __init__(self) -> None:
        super().__init__()
        self.group_id: str | None = None
        self.case_ids: list[str] = []
        self.running = False
        self.tally = Tally()
        self._batch: BatchProcess | None = None
        self._store: RunStore | None = None
        self._feed: ProgressFeed | None = None
        self._progress_drawn = 0.0
        self._progress_due: Timer | None = None

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
                        yield Label("Cases (tick to choose; none ticked: the scope below)", classes="compare-heading")
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
                yield RunLog(id="compare-log")
            yield CaseComparison(id="compare-one")
            yield GroupReport(id="compare-many")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#compare-replay", Input).cursor_blink = self.medbench.cursor_blink
        self._load_bank_config()
        self.refresh_cases()
        self.query_one("#compare-system-list").focus()

    def on_screen_resume(self) -> None:
        self.refresh_cases()

    def on_bank_changed(self, event: BankChanged) -> None:
        if event.changed is None:
            self._load_bank_config()
        self.refresh_cases()

    @property
    def store(self) -> RunStore:
        if self._store is None:
            self._store = RunStore(self.medbench.bank.run_store)
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
        """The systems and simulators of the bank (announced by the app: read in its worker)."""
        from medbench_tui.core.simulators import DEFAULT_SIMULATOR

        if self.medbench.bank_loading:
            return
        bank = self.medbench.bank
        systems = self.query_one("#compare-system-list", SelectionList)
        ticked = set(systems.selected)
        systems.clear_options()
        if bank.config_problem:
            self.notify(bank.config_problem, title="medbench.yaml", severity="warning", markup=False, timeout=10)
        for name, system in bank.config.systems.items():
            detail = system.description or getattr(system, "model", None) or getattr(system, "path", None) or ""
            systems.add_option((f"{name}  ({system.kind}{': ' + detail if detail else ''})", name, name in ticked))
        simulators = [DEFAULT_SIMULATOR, *bank.config.simulators]
        systems.add_option(("checklist  (built-in floor baseline)", "checklist", "checklist" in ticked))
        player = self.medbench.settings.player_name
        systems.add_option((f"human  (your played runs, {player})", PLAYER_SYSTEM, PLAYER_SYSTEM in ticked))
        for spec in sorted(s for s in ticked if s.startswith("replay:")):
            systems.add_option((f"{spec}  (recorded transcripts)", spec, True))
        select = self.query_one("#compare-simulator", Select)
        select.set_options([(f"patient: {name}", name) for name in simulators])
        wanted = self.medbench.settings.default_simulator
        select.value = wanted if wanted in simulators else DEFAULT_SIMULATOR

    def _entries(self) -> list[CaseEntry]:
        """Every case: consultations, and rubric questions (answered in one turn by model endpoints only)."""
        return sorted(self.medbench.cases, key=lambda e: e.id)

    def refresh_cases(self) -> None:
        entries = self._entries()
        cases = self.query_one("#compare-case-list", SelectionList)
        chosen = set(cases.selected)
        cases.clear_options()
        for entry in entries:
            label = (f"{entry.id}  " + ("rubric · " if entry.kind != CONSULTATION else "") + entry.title
                     + ("  (has errors)" if entry.errors else ""))
            cases.add_option((label, str(entry.path), str(entry.path) in chosen))
        scope = self.query_one("#compare-scope", Select)
        current = scope.value
        categories = sorted({e.category for e in entries if e.category})
        options = [("All cases", ALL)] + [(f"Category: {c.replace('_', ' ')}", f"category:{c}") for c in categories]
        options.append(("The cases ticked below", CHOSEN))
        scope.set_options(options)
        scope.value = current if current in [value for _, value in options] else ALL
        self._describe_plan()

    def chosen_entries(self) -> list[CaseEntry]:
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

    @on(SelectionList.SelectedChanged, "#compare-case-list")
    def _cases_ticked(self, event: SelectionList.SelectedChanged[str]) -> None:
        """Ticking a case switches the scope to the ticked cases; unticking the last one goes back to all."""
        scope = self.query_one("#compare-scope", Select)
        if event.selection_list.selected:
            scope.value = CHOSEN
        elif scope.value == CHOSEN:
            scope.value = ALL
        self._describe_plan()

    @on(SelectionList.SelectedChanged, "#compare-system-list")
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
        questions = sum(1 for e in valid if e.kind != CONSULTATION)
        if questions and not all(self._answers_questions(spec) for spec in specs):
            text += f" ({counted(questions, 'rubric question')} left out: only model endpoints answer them)"
        if len(specs) < 2:
            text += " · pick at least two systems"
        self.query_one("#compare-plan", Static).update(text)

    def _answers_questions(self, spec: str) -> bool:
        """Whether a ticked system is a model endpoint (the systems that answer rubric questions)."""
        from medbench_tui.core.cases.bankconfig import EndpointConfig

        return isinstance(self.medbench.bank.config.systems.get(spec), EndpointConfig)

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
            resolve_system(spec, bank=self.medbench.bank)
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
        self.medbench.batch_playing(True)  # from the planning on: its cases live as long as the run
        self.group_id = None
        self.tally = Tally()
        self._batch = BatchProcess()
        self.case_ids = [e.id for e in entries]
        self.query_one(RunLog).clear()
        self.query_one("#compare-status", Static).update(
            "Planning: checking the cases, the systems and that their endpoints answer…")
        self.query_one("#compare-progress", ProgressBar).update(total=None, progress=0)
        self.show_pane("compare-running")
        files = None if every else [e.path for e in entries]
        self._run(self._batch, specs, files, str(self.query_one("#compare-simulator", Select).value))

    @work(thread=True, exclusive=True, group=RUN_WORKER, exit_on_error=False)
    def _run(self, batch: BatchProcess, specs: list[str], files: list[Path] | None, simulator: str) -> None:
        """Plan and play the runs in a process of their own, relaying its news: the
        screen's interpreter only draws the progress (see :mod:`medbench_tui.core.runs.background`)."""
        from medbench_tui.core.comparison.job import ComparisonJob, ComparisonNews, ComparisonStarted
        from medbench_tui.core.errors import MedbenchError
        from medbench_tui.core.runs.store import new_group_id

        bank = self.medbench.bank
        job = ComparisonJob(
            bank_root=bank.root, run_store=bank.run_store, machines=[s for s in specs if s != PLAYER_SYSTEM],
            files=files, simulator=simulator, player=self.medbench.settings.player_name,
            with_player=PLAYER_SYSTEM in specs, group_id=new_group_id(), runner=self.medbench.settings.runner,
        )
        feed = ProgressFeed(lambda: self.post_message(self.Progressed(feed)))

        def relay(news: ComparisonNews) -> None:
            if isinstance(news, ComparisonStarted):
                self.post_message(self.Started(news.group_id, news.runs, news.note))
            else:
                feed(news)

        try:
            result = batch.play(job, relay)
        except MedbenchError as exc:
            self.notify(str(exc), title="Cannot run", severity="error", markup=False, timeout=15)
            result = None
        self.post_message(self.Finished(result))

    @on(Started)
    def _started(self, event: Started) -> None:
        self.group_id = event.group_id
        self.query_one("#compare-status", Static).update(
            f"Run group {event.group_id}: {event.runs} runs to play. Esc cancels."
        )
        if event.note:
            self.query_one(RunLog).write_lines([event.note])

    @on(Progressed)
    def _progressed(self, message: Progressed) -> None:
        """Draw the news at most every PROGRESS_EVERY seconds: each frame costs the screen's
        loop a repaint."""
        self._feed = message.feed
        if self._progress_due is not None:
            return  # a drawing is planned: it will take this news too
        wait = self._progress_drawn + PROGRESS_EVERY - time.monotonic()
        if wait > 0:
            self._progress_due = self.set_timer(wait, self._draw_progress)
        else:
            self._draw_progress()

    def _draw_progress(self) -> None:
        if self._progress_due is not None:
            self._progress_due.stop()
            self._progress_due = None
        if self._feed is None:
            return
        self._progress_drawn = time.monotonic()
        self.tally, events = self._feed.take()
        self.query_one(RunLog).write_lines(line for line in map(progress_line, events) if line)
        if self.tally.to_play is not None:
            self.query_one("#compare-progress", ProgressBar).update(
                total=max(self.tally.to_play, 1), progress=self.tally.finished
            )
        over = self.tally.over
        if over is not None:
            verb = "Cancelled" if over.cancelled else "Finished"
            self.query_one("#compare-status", Static).update(
                f"{verb}: {over.complete} complete, {over.incomplete} incomplete, {over.not_played} not played."
            )

    @on(Finished)
    def _finished(self, event: Finished) -> None:
        self._batch = None
        self._draw_progress()  # the last news, before the results
        self._feed = None
        result = event.result
        if result is None:
            self._stopped()
            self.show_pane("compare-setup")
            return
        if result.cancelled:
            finished = self.tally.finished - self.tally.cancelled
            self.notify(
                f"Comparison cancelled after {counted(finished, 'finished run')}; "
                f"{self.tally.cancelled} in flight recorded as incomplete (cancelled).",
                title="Cancelled",
                severity="warning",
                markup=False,
            )
            self.query_one("#compare-status", Static).update(
                Text(f"Cancelled. {finished} runs finished before; the group keeps what was recorded.")
            )
        self.show_results(result.group_id)
        if len(self.case_ids) != 1:
            self._stopped()

    def _stopped(self) -> None:
        """The comparison is over and its results are on screen (or there are none)."""
        self.call_after_refresh(self.medbench.batch_playing, False)  # once the results are drawn
        self.running = False
        if self._batch is not None:
            self._batch.cancel()  # its worker was cancelled (the app is closing): stop its process too
        self._batch = None
        self.refresh_bindings()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        super().on_worker_state_changed(event)
        group, state = event.worker.group, event.state
        # A case load that was cancelled was replaced by a newer one, which ends the comparison itself.
        if (group == RUN_WORKER and state in (WorkerState.ERROR, WorkerState.CANCELLED)) or (
            group == CASE_WORKER and state == WorkerState.ERROR
        ):
            self._stopped()

    def action_cancel(self) -> None:
        if self.running and self._batch is not None:
            self.query_one("#compare-status", Static).update("Cancelling…")
            self._batch.cancel()

    def on_unmount(self) -> None:
        if self._batch is not None:
            self._batch.cancel()

    # Results ------------------------------------------------------------------------------------

    def show_results(self, group_id: str) -> None:
        self.group_id = group_id
        if len(self.case_ids) == 1:
            self._load_case(group_id, self.case_ids[0], push=False)
        else:
            report = self.query_one(GroupReport)
            report.waiting()
            report.matrix.focus()  # before the pane shows: the footer changes its keys once
            self.show_pane("compare-many")
            after_the_next_frame(self, report.load, self.store, group_id)

    @on(GroupReport.CaseChosen)
    def _case_chosen(self, event: GroupReport.CaseChosen) -> None:
        self._load_case(event.group_id, event.case_id, push=True)

    @work(exclusive=True, group=CASE_WORKER, exit_on_error=False)
    async def _load_case(self, group_id: str, case_id: str, *, push: bool) -> None:
        root = self.medbench.bank.root
        sides, case, heading = await asyncio.to_thread(case_sides, self.store, root, group_id, case_id)
        self.post_message(self.CaseLoaded(sides, case, heading, push))

    @on(CaseLoaded)
    def _case_loaded(self, event: CaseLoaded) -> None:
        if event.push:
            self.app.push_screen(CaseComparisonScreen(event.sides, event.case, event.heading))
            return
        self.query_one(CaseComparison).show(event.sides, event.case, heading=event.heading)
        self.show_pane("compare-one")
        self._stopped()

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
