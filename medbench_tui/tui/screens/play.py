"""Play mode: the player is the doctor. Pick a case, read the patient's opening words,
ask one question at a time, read the attachments handed over, take notes; then give a
final response and learn from the scorecard what was found, missed or done wrongly.

The session is a run of the system ``human`` (see :mod:`medbench_tui.core.practice.session`):
stored in the run store like any other run, autosaved while it lasts, resumable.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import (
    Button,
    ContentSwitcher,
    Input,
    OptionList,
    Select,
    Static,
    TextArea,
)
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from medbench_tui.core.authoring.library import CaseEntry
from medbench_tui.core.cases.model import ERROR_TESTING
from medbench_tui.core.cases.rubric import CONSULTATION
from medbench_tui.core.comparison.view import counted
from medbench_tui.core.practice.label import case_practice_label, practice_number
from medbench_tui.core.practice.play import PlaySession, Start
from medbench_tui.core.practice.progress import CaseProgress
from medbench_tui.core.practice.session import (
    ABANDONED,
    Desk,
    SessionState,
    SessionSwap,
)
from medbench_tui.core.runs.background import BackgroundRun
from medbench_tui.core.runs.runner import RunPlan
from medbench_tui.core.runs.store import RunGroup, RunRecord
from medbench_tui.tui.bank_state import BankChanged
from medbench_tui.tui.screens.dialogs import ConfirmDialog, SwapRecoveryDialog
from medbench_tui.tui.typed_app import MedbenchScreen
from medbench_tui.tui.widgets.attachments_panel import AttachmentsPanel
from medbench_tui.tui.widgets.chat_log import ChatLog
from medbench_tui.tui.widgets.final_form import FinalResponseForm
from medbench_tui.tui.widgets.key_footer import KeyFooter
from medbench_tui.tui.widgets.notes_pad import NotesPad
from medbench_tui.tui.widgets.practice_progress import PracticeProgress
from medbench_tui.tui.widgets.run_view import RunView
from medbench_tui.tui.widgets.scorecard_view import ScorecardView
from medbench_tui.tui.widgets.title_bar import TitleBar
from medbench_tui.tui.widgets.turn_counter import TurnCounter
from medbench_tui.tui.worker_failures import ReportsWorkerFailures

if TYPE_CHECKING:
    from medbench_tui.core.cases.model import Case
    from medbench_tui.core.consultation.loop import DoctorView
    from medbench_tui.core.simulators import PatientReply
    from medbench_tui.core.transcript import FinalResponse

PICK_A_CASE = (
    "Pick a case to see as its doctor: Enter starts the consultation (or resumes an unfinished one). "
    "The patient answers only what you ask; the scorecard comes when you give your final response. "
    "Ctrl+L shows your progress: every case you have played, with its scores over time."
)
SESSION_WORKER = "play-session"

SESSION_RECORD_WAIT = 3.0
"""Seconds the closing app waits for a cancelled consultation to be recorded as incomplete."""


class PlayScreen(ReportsWorkerFailures, MedbenchScreen):
    BINDINGS = [
        Binding("ctrl+f", "finish", "Finish", id="play.finish", priority=True,
                tooltip="Stop asking and give your final response"),
        Binding("ctrl+n", "toggle_notes", "Notes", id="play.notes", priority=True,
                tooltip="Between the question and your notes"),
        Binding("ctrl+s", "submit", "Submit", id="play.submit", priority=True,
                tooltip="Submit the final response and see the scorecard"),
        Binding("escape", "back", "Back to the consultation", id="play.back"),
        Binding("ctrl+g", "abandon", "Abandon", id="play.abandon", priority=True,
                tooltip="End the consultation without a final response (recorded as incomplete)"),
        Binding("ctrl+o", "cases", "Cases", id="play.cases", priority=True,
                tooltip="Pick a case (an unfinished consultation is kept)"),
        Binding("ctrl+l", "progress", "My progress", id="play.progress", priority=True,
                tooltip="Every case you have played, with its scores over time"),
    ]

    @dataclass
    class SessionReady(Message):
        """A consultation was planned (and its autosave settled): it begins."""

        start: Start

    @dataclass
    class Opened(Message):
        """The consultation began: the patient's opening words and turn-zero attachments."""

        view: DoctorView

    @dataclass
    class Asked(Message):
        text: str
        replayed: bool

    @dataclass
    class Streamed(Message):
        text: str

    @dataclass
    class Replied(Message):
        reply: PatientReply

    @dataclass
    class SessionEnded(Message):
        run: RunRecord | None

    @dataclass
    class SwapWritten(Message):
        path: Path

    @dataclass
    class ProgressLoaded(Message):
        cases: list[CaseProgress]

    def __init__(self) -> None:
        super().__init__()
        self._play: PlaySession | None = None
        self._scorecard_of: str | None = None
        """The case whose scorecard was shown last (going back to the cases moves past it)."""

    @property
    def play(self) -> PlaySession:
        """The consultations of this screen (made on first use, in the bank's run store)."""
        if self._play is None:
            self._play = PlaySession(self.medbench.bank.run_store, moved=self.refresh_bindings)
        return self._play

    @property
    def state(self) -> SessionState:
        """Where the consultation stands."""
        return self.play.state

    @property
    def case(self) -> Case | None:
        return self.play.case

    @property
    def swap(self) -> SessionSwap | None:
        return self.play.swap

    @property
    def steps(self) -> int:
        return self.play.steps

    @property
    def result(self) -> RunRecord | None:
        """The stored run of the last consultation that ended."""
        return self.play.result

    @property
    def played(self) -> dict[str, CaseProgress]:
        """The player's practice, by case (read in a worker when the screen shows)."""
        return self.play.played

    # Layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TitleBar("play")
        with ContentSwitcher(initial="play-cases", id="play-panes"):
            with Vertical(id="play-cases"):
                yield Static(PICK_A_CASE, id="play-cases-help")
                with Horizontal(id="play-cases-bar"):
                    yield Input(placeholder="Filter: number, category, age, sex, urgency or setting", id="play-filter")
                    yield Select(
                        [("patient: grounded", "grounded")], value="grounded", allow_blank=False, id="play-simulator"
                    )
                yield OptionList(id="play-case-list")
            with Horizontal(id="play-consult"):
                with Vertical(id="play-main"):
                    yield ChatLog(id="play-chat")
                    with Horizontal(id="play-ask"):
                        yield Input(placeholder="Ask the patient a question, then press Enter", id="play-question")
                        yield Button("Finish", id="play-finish", variant="primary")
                with Vertical(id="play-side"):
                    yield TurnCounter(id="play-turns")
                    yield AttachmentsPanel(id="play-attachments")
                    yield NotesPad(id="play-notes")
            yield FinalResponseForm(id="play-final")
            yield RunView(id="play-card")
            yield PracticeProgress(id="play-progress")
        yield KeyFooter()

    def on_mount(self) -> None:
        for widget in self.query(Input):
            widget.cursor_blink = self.medbench.cursor_blink
        self.query_one(NotesPad).cursor_blink = self.medbench.cursor_blink
        self.query_one("#play-chat").border_title = "Consultation"
        self._load_simulators()
        self.set_interval(self.medbench.settings.tui.autosave_seconds, self.autosave)
        self._load_progress()

    def on_screen_resume(self) -> None:
        self.refresh_cases()

    def on_bank_changed(self, event: BankChanged) -> None:
        self._load_simulators()
        self.refresh_cases()

    @property
    def live(self) -> bool:
        """A consultation is going on."""
        return self.play.live

    @property
    def waiting(self) -> bool:
        """The player waits for the patient (no question can be asked now)."""
        return self.play.waiting

    @property
    def pane(self) -> str:
        return self.query_one("#play-panes", ContentSwitcher).current or "play-cases"

    def show_pane(self, pane: str) -> None:
        self.query_one("#play-panes", ContentSwitcher).current = pane
        focus = {
            "play-cases": "#play-case-list",
            "play-consult": "#play-question",
            "play-progress": "#progress-cases",
        }.get(pane)
        if focus:
            self.query_one(focus).focus()
        elif pane == "play-final":
            self.query_one(FinalResponseForm).focus_first()
        self.refresh_bindings()

    @property
    def player(self) -> str:
        return self.medbench.settings.player_name

    def swap_file(self, case_id: str) -> Path:
        return self.play.swap_file(self.player, case_id)

    # Picking a case ----------------------------------------------------------------------------

    def _load_simulators(self) -> None:
        """The simulators of the bank (announced by the app: read in its worker)."""
        from medbench_tui.core.simulators import DEFAULT_SIMULATOR

        if self.medbench.bank_loading:
            return
        bank = self.medbench.bank
        names = [DEFAULT_SIMULATOR, *bank.config.simulators]
        if bank.config_problem:
            self.notify(f"{bank.config_problem}\nPlaying with the grounded patient.", title="medbench.yaml",
                        severity="warning", markup=False)
        wanted = self.medbench.settings.default_simulator
        select = self.query_one("#play-simulator", Select)
        select.set_options([(f"patient: {name}", name) for name in names])
        select.value = wanted if wanted in names else DEFAULT_SIMULATOR

    @property
    def simulator(self) -> str:
        return str(self.query_one("#play-simulator", Select).value)

    def refresh_cases(self, *, highlight: str | None = None) -> None:
        """List the library's cases (not the harness tests, and only those the app allows); those
        with an unfinished consultation, or played before, say so. ``highlight``: the case id to
        put the cursor on."""
        entries = self._offered()
        listed = self.query_one("#play-case-list", OptionList)
        words = self.query_one("#play-filter", Input).value.casefold().split()
        # Ids and titles name the diagnosis the player must find: the blind practice label only.
        kept = sorted((e for e in entries if all(w in e.practice.casefold() for w in words)), key=lambda e: e.practice)
        options = []
        for entry in kept:
            label = entry.practice
            if entry.errors:
                label += "  · has errors: fix it in the editor"
            elif self.swap_file(entry.id).is_file():
                label += "  · unfinished: Enter resumes"
            elif (played := self.played.get(entry.id)) is not None:
                label += f"  · played {len(played.sessions)}×"
            options.append(Option(label, id=str(entry.path), disabled=bool(entry.errors)))
        highlighted = listed.highlighted
        listed.set_options(options)
        if highlight is not None:
            ids = [e.id for e in kept]
            highlighted = ids.index(highlight) if highlight in ids else 0
        if options:
            listed.highlighted = min(highlighted or 0, len(options) - 1)

    @on(Input.Changed, "#play-filter")
    def _filter_changed(self) -> None:
        self.refresh_cases()

    @on(Input.Submitted, "#play-filter")
    def _filter_submitted(self) -> None:
        """Enter in the filter starts the case it leaves highlighted (the first one that fits)."""
        listed = self.query_one("#play-case-list", OptionList)
        listed.focus()
        if listed.highlighted is not None:
            option = listed.get_option_at_index(listed.highlighted)
            if option.id and not option.disabled:
                self.request_play(Path(option.id))

    @on(OptionList.OptionSelected, "#play-case-list")
    def _case_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.request_play(Path(event.option.id))

    def request_play(self, path: Path) -> None:
        """Start (or resume, or go back to) a consultation of the case at ``path``.

        A screen just made by a mode switch may not have composed its panes yet: the request then
        waits in the screen's own queue, which runs only after the screen is mounted.
        """
        if self.is_mounted:
            self._open(Path(path))
        else:
            self.call_later(self._open, Path(path))

    @work(exclusive=True, group="play-open", exit_on_error=False)
    async def _open(self, path: Path) -> None:
        from medbench_tui.core.errors import MedbenchError

        if self.live and not await self._leave_for(path):
            return
        if self.medbench.bank_loading:
            self.notify("The bank is still being read: try again in a moment.")
            return
        desk = Desk(asked=self._asked_by, shown=self._shown, streamed=self._streamed_in)
        try:
            start = await self.play.start(self.medbench.bank, path, self.simulator, self.player, desk, self)
        except MedbenchError as exc:
            self.notify(str(exc), title="Cannot play this case", severity="error", markup=False, timeout=10)
            return
        if start is not None:
            self.post_message(self.SessionReady(start))

    # What starting a consultation asks the player (:class:`PlayerQuestions`).

    async def play_again(self, case_id: str, played: CaseProgress) -> bool:
        """A case played before is started again only when the player says so."""
        last = played.sessions[-1]
        again = await self.app.push_screen_wait(ConfirmDialog(
            "Play this case again?",
            f"You have played case {practice_number(case_id)} {counted(len(played.sessions), 'time')}, last on "
            f"{last.started_at[:10]}. Play it again? Every session is kept in your progress (Ctrl+L).",
            yes="Play again",
        ))
        return bool(again)

    def unfinished_dropped(self, case_id: str) -> None:
        self.notify(f"Case {practice_number(case_id)} changed since your unfinished consultation: "
                    "it starts afresh.",
                    severity="warning", markup=False)

    async def resume_unfinished(self, case_id: str, swap: SessionSwap) -> str:
        return await self.app.push_screen_wait(SwapRecoveryDialog(
            "Unfinished consultation",
            f"You left a consultation of case {practice_number(case_id)} "
            f"after {counted(len(swap.questions), 'question')}. "
            f"Resume it? Your questions are asked again of the patient ({swap.simulator} simulator); "
            "discarding starts afresh.",
        ))

    async def _leave_for(self, path: Path) -> bool:
        """A consultation is going on: go back to it (same case), or leave it after asking."""
        if self.play.is_case(path):
            self.show_pane("play-consult" if self.pane == "play-cases" else self.pane)
            return False
        case_id = self.case.id if self.case is not None else path.stem
        leave = await self.app.push_screen_wait(ConfirmDialog(
            "Leave this consultation?",
            f"Your consultation of case {practice_number(case_id)} is kept: "
            "open the case in Play again to resume it.",
            yes="Leave",
        ))
        if leave:
            self.leave_session()
        return bool(leave)

    # What the consultation does, in its thread: each becomes a message to this screen.

    def _asked_by(self, text: str, replayed: bool) -> None:
        self.post_message(self.Asked(text, replayed))

    def _streamed_in(self, text: str) -> None:
        self.post_message(self.Streamed(text))

    def _shown(self, seen: DoctorView | PatientReply) -> None:
        from medbench_tui.core.consultation.loop import DoctorView

        self.post_message(self.Opened(seen) if isinstance(seen, DoctorView) else self.Replied(seen))

    # The session ---------------------------------------------------------------------------------

    @on(SessionReady)
    def _session_ready(self, event: SessionReady) -> None:
        start = event.start
        background = self.play.begin(start, self.player)
        case, swap = start.plan.cases[0].case, start.swap
        # The id and title often name the diagnosis: they are shown only on the scorecard.
        self.query_one(TitleBar).set_where(case_practice_label(case))
        self.query_one(ChatLog).clear_log()
        self.query_one(AttachmentsPanel).clear_attachments()
        self.query_one(NotesPad).load_text(swap.notes)
        self.query_one(FinalResponseForm).load(swap.draft)
        self._set_asking(True)
        self._show_count()
        self.show_pane("play-consult")
        if start.resumed:
            self.query_one(ChatLog).add_notice(f"Resuming: asking your {len(swap.questions)} questions again…")
        self._consult(background, start.plan, start.group)

    @work(thread=True, exclusive=True, group=SESSION_WORKER, exit_on_error=False)
    def _consult(self, background: BackgroundRun, plan: RunPlan, group: RunGroup) -> None:
        """The consultation, played by the runner on a loop of its own in this thread."""
        run = self.play.consult(background, plan, group, self.medbench.settings.runner)
        if not background.cancelled:
            self.post_message(self.SessionEnded(run))

    def leave_session(self) -> None:
        """Stop the consultation; it is recorded incomplete (cancelled) and its autosave stays."""
        if self.live:
            self.save_swap()
        self.play.leave()

    @on(Opened)
    def _opened(self, event: Opened) -> None:
        self.play.opened()
        self.query_one(ChatLog).add_opening(event.view.intro, event.view.attachments)
        self.query_one(AttachmentsPanel).add(event.view.attachments)
        self._ready_for_question()

    @on(Asked)
    def _asked(self, event: Asked) -> None:
        self.play.asked(event.text, replayed=event.replayed)
        chat = self.query_one(ChatLog)
        chat.add_question(event.text)
        chat.begin_reply()
        self._set_asking(False)

    @on(Streamed)
    def _streamed(self, event: Streamed) -> None:
        self.query_one(ChatLog).stream(event.text)

    @on(Replied)
    def _replied(self, event: Replied) -> None:
        reply = self.play.replied()
        self.query_one(ChatLog).end_reply(event.reply.text, event.reply.attachments)
        self.query_one(AttachmentsPanel).add(event.reply.attachments)
        self._show_count()
        if reply.resumed:
            self.query_one(ChatLog).add_notice("Resumed where you left off.")
        if reply.asking:
            self.save_swap()
            self._ready_for_question()

    def _ready_for_question(self) -> None:
        if self.play.out_of_turns and self.case is not None:
            self.query_one(ChatLog).add_notice(
                f"That was the last question this case allows ({self.case.max_turns}). "
                "Give your final response: Ctrl+F."
            )
            self._set_asking(False)
            return
        if not self.play.desk or not self.play.desk.replaying:
            self._set_asking(True)
            if self.pane == "play-consult" and not self.query_one(NotesPad).has_focus:
                self.query_one("#play-question").focus()

    def _set_asking(self, enabled: bool) -> None:
        self.query_one("#play-question", Input).disabled = not enabled

    def _show_count(self) -> None:
        if (turns := self.play.turns) is not None:
            self.query_one(TurnCounter).show(turns)

    @on(Input.Submitted, "#play-question")
    def _question(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text or not self.live or self.play.desk is None:
            return
        if self.waiting:
            self.notify("Wait for the patient's reply.")
            return
        event.input.value = ""
        self.play.ask(text)
        self._set_asking(False)

    @on(SessionEnded)
    def _session_ended(self, event: SessionEnded) -> None:
        from medbench_tui.core.comparison.view import Side

        run = event.run
        self.play.stopped()
        self.query_one(ChatLog).drop_reply()
        self.query_one(FinalResponseForm).loading = False
        if run is None:
            self.notify("The consultation ended but its run was not found in the run store.", severity="error")
            self.show_pane("play-cases")
            return
        if self.play.ended(run):
            self._remove_swap()
        self._load_progress()
        if run.reason == ABANDONED:
            self.notify(f"Consultation of case {practice_number(run.case_id)} abandoned; recorded as incomplete.",
                        markup=False)
            self.refresh_cases()
            self.show_pane("play-cases")
            return
        self._scorecard_of = run.case_id
        side = Side.of_run(run, label=self.medbench.settings.player_name)
        heading = f"Your consultation of {run.case_id}"
        self.query_one(RunView).show(side, self.case, heading=heading)
        self.show_pane("play-card")
        self.query_one(ScorecardView).focus()
        if run.complete:
            self.notify(f"Kept in your practice (run group {run.group_id}): Ctrl+L shows your progress, "
                        "Ctrl+O another case.", markup=False)
        else:
            self.notify(f"The consultation ended incomplete: {run.reason}", severity="warning", markup=False,
                        timeout=10)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        super().on_worker_state_changed(event)
        if event.worker.group == SESSION_WORKER and event.state == WorkerState.ERROR:
            self.play.stopped()
            self.query_one(FinalResponseForm).loading = False
            self.show_pane("play-cases")

    # Actions ----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        pane = self.pane
        if action == "finish":
            return pane == "play-consult" and self.live
        if action == "toggle_notes":
            return pane == "play-consult"
        if action in ("submit", "back"):
            return pane == "play-final" and self.live
        if action == "abandon":
            return self.live and pane in ("play-consult", "play-final")
        if action == "progress":
            return pane in ("play-cases", "play-card")
        return True

    @on(Button.Pressed, "#play-finish")
    def action_finish(self) -> None:
        if not self.live:
            return
        if self.state in (SessionState.OPENING, SessionState.WAITING):
            self.notify("Wait for the patient's reply first.")
            return
        self.show_pane("play-final")

    def action_toggle_notes(self) -> None:
        notes = self.query_one(NotesPad)
        if notes.has_focus:
            self.query_one("#play-question").focus()
        else:
            notes.focus()

    def action_back(self) -> None:
        self.show_pane("play-consult")

    def action_submit(self) -> None:
        self.query_one(FinalResponseForm).submit()

    @on(FinalResponseForm.BackRequested)
    def _back_requested(self) -> None:
        self.action_back()

    @on(FinalResponseForm.Submitted)
    def _submitted(self, event: FinalResponseForm.Submitted) -> None:
        self._submit_flow(event.final)

    @work(exclusive=True, group="play-submit", exit_on_error=False)
    async def _submit_flow(self, final: FinalResponse) -> None:
        if not final.is_structured() and not final.advice:
            sure = await self.app.push_screen_wait(ConfirmDialog(
                "Empty final response",
                "You have named no diagnosis, test or treatment. Submit it anyway? It will score zero.",
                yes="Submit",
            ))
            if not sure:
                return
        if self.play.desk is None or not self.live:
            return
        self.query_one(FinalResponseForm).loading = True
        self.play.finish(final, self.query_one(NotesPad).text)

    def action_abandon(self) -> None:
        if not self.live or self.case is None:
            return
        self.app.push_screen(
            ConfirmDialog(
                "Abandon the consultation?",
                f"The consultation of case {practice_number(self.case.id)} ends without a final response: "
                "it is recorded as "
                "incomplete and never scored.",
                yes="Abandon",
            ),
            lambda yes: self.play.abandon() if yes else None,
        )

    def action_cases(self) -> None:
        """Back to the cases. After a finished consultation the filter is cleared and the
        cursor is on the case after it, so that Enter does not start the same one again."""
        finished, self._scorecard_of = self._scorecard_of, None
        if finished is not None and not self.live:
            self.query_one("#play-filter", Input).value = ""
            self.refresh_cases(highlight=self.play.case_after(self._offered(), finished))
        else:
            self.refresh_cases()
        self.show_pane("play-cases")

    def _offered(self) -> list[CaseEntry]:
        """The cases the picker offers: the clinical consultations the app allows (not the harness tests,
        nor rubric questions, which have no patient)."""
        return [e for e in self.medbench.cases if e.category != ERROR_TESTING and e.kind == CONSULTATION
                and self.medbench.allows_case(e.path)]

    def action_progress(self) -> None:
        self.show_pane("play-progress")
        self._load_progress()

    @work(thread=True, exclusive=True, group="play-progress", exit_on_error=False)
    def _load_progress(self) -> None:
        self.post_message(self.ProgressLoaded(self.play.progress(self.player)))

    @on(ProgressLoaded)
    def _progress_loaded(self, event: ProgressLoaded) -> None:
        self.play.played = {case.case_id: case for case in event.cases}
        labels = {entry.id: entry.practice for entry in self.medbench.cases}
        self.query_one(PracticeProgress).show(self.medbench.settings.player_name, event.cases, labels)
        if self.pane == "play-cases":
            self.refresh_cases()

    # The autosave --------------------------------------------------------------------------

    @on(TextArea.Changed, "#play-notes")
    @on(FinalResponseForm.Edited)
    def _edited(self) -> None:
        """Keep the notes and the draft in the session's autosave (written by the timer)."""
        if self.swap is not None:
            self.play.keep(self.query_one(NotesPad).text, self.query_one(FinalResponseForm).value())

    def autosave(self) -> None:
        """Write the autosave if the notes or the draft changed since it was last written."""
        if self.play.autosave_due:
            self.save_swap()

    def save_swap(self, *, now: bool = False) -> None:
        """Autosave the session: questions, notes, the final response being written.
        ``now`` writes at once (the app is closing and workers are being stopped)."""
        due = self.play.swap_to_write()
        if due is None:
            return
        path, swap = due
        if now:
            swap.save(path)
        else:
            self._write_swap(path, swap)

    def on_unmount(self) -> None:
        if self.play.background is not None:
            self.play.background.cancel()
            self.play.background.wait_recorded(SESSION_RECORD_WAIT)  # the app is closing: keep the incomplete run
        if self.state in (SessionState.ASKING, SessionState.WAITING):
            with contextlib.suppress(OSError):  # the autosave written after the last reply is kept
                self.save_swap(now=True)

    @work(thread=True, exclusive=True, group="play-swap", exit_on_error=False)
    def _write_swap(self, path: Path, swap: SessionSwap) -> None:
        swap.save(path)
        self.post_message(self.SwapWritten(path))

    @on(SwapWritten)
    def _swap_written(self, event: SwapWritten) -> None:
        self.play.swap_landed(event.path)

    def _remove_swap(self) -> None:
        self.workers.cancel_group(self, "play-swap")
        try:
            self.play.remove_swap()
        except OSError as exc:
            self.notify(f"Could not remove the autosave: {exc}", severity="warning", markup=False)
