"""Editor mode: a case file as YAML, checked as the author types."""

from __future__ import annotations

import asyncio
import contextvars
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import ContentSwitcher, Input, Static, TextArea
from textual.worker import get_current_worker

from medbench_tui.core.authoring import autosave
from medbench_tui.core.authoring.case_file import CaseFile, DiskChange, DiskNews
from medbench_tui.core.diagnostics import Diagnostic, count
from medbench_tui.core.files import FileStamp, why_unreadable
from medbench_tui.tui.bank_state import BankChanged
from medbench_tui.tui.screens.dialogs import (
    CaseIdDialog,
    ExternalChangeDialog,
    SwapRecoveryDialog,
    UnsavedChangesDialog,
)
from medbench_tui.tui.screens.diff_view import DiffView, case_diff
from medbench_tui.tui.typed_app import MedbenchScreen
from medbench_tui.tui.widgets.case_preview import CasePreview
from medbench_tui.tui.widgets.diagnostic_gutter import DiagnosticGutter
from medbench_tui.tui.widgets.diagnostics_table import DiagnosticsTable
from medbench_tui.tui.widgets.editor_status import EditorStatus
from medbench_tui.tui.widgets.icd_panel import IcdPanel
from medbench_tui.tui.widgets.key_footer import KeyFooter
from medbench_tui.tui.widgets.rehearsal_panel import RehearsalPanel
from medbench_tui.tui.widgets.title_bar import TitleBar
from medbench_tui.tui.worker_failures import ReportsWorkerFailures
from medbench_tui.tui.yaml_lines import icd_insertion, icd_value_at

if TYPE_CHECKING:
    from medbench_tui.core.cases.model import Case
    from medbench_tui.core.validate import CaseReport

NO_CASE = "No case open. Open one from the library (F2), or press n there for a new case."
EMPTY_CASE = "This case file is empty: type the case here (press n in the library for one from the template)."
WATCH_SECONDS = 2.0
"""How often the open case file is checked for changes made by other programs."""


CHECKS_PAUSE = 0.6
"""Seconds of quiet before the case's self-checks run (they score answers and ask the patient)."""

class EditorScreen(ReportsWorkerFailures, MedbenchScreen):
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="editor.save", priority=True),
        Binding("ctrl+w", "close_case", "Close case", id="editor.close", priority=True),
        Binding("ctrl+f", "icd_search", "ICD search", id="editor.icd_search", priority=True),
        Binding("ctrl+t", "toggle_preview", "Preview", id="editor.preview", priority=True),
        Binding("ctrl+r", "rehearse", "Rehearse", id="editor.rehearse", priority=True),
        Binding("f8", "next_problem", "Next problem", id="editor.next_problem", priority=True),
        Binding("shift+f8", "next_problem(-1)", "Previous problem", id="editor.previous_problem",
                priority=True, show=False),
        # priority: the text area's own Esc moves focus away, and the next keys would be lost.
        Binding("escape", "focus_text", "Back to the text", id="editor.focus_text", show=False, priority=True),
    ]

    modified: reactive[bool] = reactive(False, repaint=False)
    """Unsaved changes. Only the status line shows it (its watcher updates it): a repaint of the
    screen would redraw every widget of it, on the keystroke that changes it."""

    @dataclass
    class Validated(Message):
        generation: int
        report: CaseReport

    @dataclass
    class ChecksRan(Message):
        """The case's self-checks, run on the text of ``generation``: the failed ones."""

        generation: int
        failed: list[Diagnostic]

    @dataclass
    class SwapWritten(Message):
        path: Path
        text: str | None

    @dataclass
    class SwapFailed(Message):
        path: Path
        reason: str
        text: str | None

    @dataclass
    class DiskChanged(Message):
        """Another program changed (or removed) the open case file."""

        change: DiskChange

    def __init__(self) -> None:
        super().__init__()
        self.file = CaseFile()
        """The open case file: what is on disk, what is unsaved, this editor's autosave."""
        self.report: CaseReport | None = None
        self._last_case: Case | None = None
        self._generation = 0
        self._validated_generation = -1
        self._checking: asyncio.Future[CaseReport] | None = None
        """The check running in a thread, if any (see :meth:`_validate`)."""
        self._check_seconds = 0.0
        """How long the last check took."""
        self._shown_diagnostics: list[Diagnostic] | None = None
        self._previewed: tuple[Case | None, bool] | None = None
        self._detail = Text()

    # Layout --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        self.text_area = TextArea.code_editor(
            "", language="yaml", theme="css", read_only=True, id="case-text", placeholder=NO_CASE
        )
        self.text_area.cursor_blink = self.medbench.cursor_blink
        yield TitleBar("editor")
        with Horizontal(id="editor-body"):
            with Vertical(id="editor-main"):
                with Horizontal(id="code-frame"):
                    yield DiagnosticGutter(self.text_area, id="gutter")
                    yield self.text_area
                with Vertical(id="problems"):
                    yield DiagnosticsTable(id="diagnostics")
                    yield Static(id="problem-detail", markup=False)
            with ContentSwitcher(initial="icd-panel", id="side"):
                yield IcdPanel(id="icd-panel")
                yield CasePreview(id="preview")
                yield RehearsalPanel(id="rehearsal")
        yield EditorStatus(id="editor-status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#code-frame").border_title = "Case"
        self.query_one("#problems").border_title = "Problems"
        self.query_one("#rehearsal").border_title = "Rehearsal"
        self.query_one("#icd-query", Input).cursor_blink = self.medbench.cursor_blink
        self.set_interval(self.medbench.settings.tui.autosave_seconds, self.autosave)
        self.set_interval(WATCH_SECONDS, self.watch_disk)
        self._refresh_status()

    # Reading the state ---------------------------------------------------------------------

    @property
    def path(self) -> Path | None:
        """The open case file (None: no case open)."""
        return self.file.path

    @property
    def editor_id(self) -> autosave.Editor:
        """This editor, as its swap files name it."""
        return self.file.editor

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return list(self.report.diagnostics) if self.report is not None else []

    @property
    def up_to_date(self) -> bool:
        """The problems shown are those of the text now in the editor."""
        return self._validated_generation == self._generation

    @property
    def case_name(self) -> str | None:
        return self.medbench.display_path(self.path) if self.path else None

    def _refresh_status(self) -> None:
        row, column = self.text_area.cursor_location
        diagnostics = self.diagnostics
        self.query_one(EditorStatus).show(
            name=self.case_name,
            modified=self.modified,
            errors=count(diagnostics, "error"),
            warnings=count(diagnostics, "warning"),
            line=row + 1,
            column=column + 1,
            checking=self.path is not None and not self.up_to_date,
        )

    def watch_modified(self, modified: bool) -> None:
        if not modified and self.file.swap_text is not None:
            self._mark_unchanged()  # back to the text on disk (undone, saved or discarded)
        self._refresh_status()

    def on_unmount(self) -> None:
        """Leaving medbench: the swap file goes with the open case (unsaved work was settled)."""
        if self.path is not None and not self.modified:
            self._remove_swap()

    # Opening and closing -----------------------------------------------------------------------

    def request_open(self, path: Path) -> None:
        """Open ``path``, first settling unsaved changes to the case now open."""
        self._open_flow(Path(path))

    @work(exclusive=True, group="editor-open", exit_on_error=False)
    async def _open_flow(self, path: Path) -> None:
        if self.path is not None and path.resolve() == self.path.resolve():
            self.text_area.focus()
            return
        if not await self.settle_unsaved():
            return
        try:
            opened = await self.file.open(path, lambda swap: self._offer_recovery(path, swap))
        except (OSError, UnicodeDecodeError) as exc:
            self.notify(f"Cannot open {self.medbench.display_path(path)}: {why_unreadable(exc)}.", severity="error",
                        markup=False, timeout=10)
            return
        if opened is None:
            return
        for swap_path in opened.settled:
            self._unlink(swap_path)
        self._load(path, opened.on_disk, opened.text)
        if opened.elsewhere:
            self.notify(
                f"{self.case_name} is open in another editor too: {opened.elsewhere[0].editor.describe()}"
                f"{', with unsaved changes' if opened.unsaved_elsewhere else ''}. Each keeps its own autosave; if "
                "the other saves first, saving here asks whether to reload, overwrite or compare.",
                title="Open elsewhere", severity="warning", markup=False, timeout=15,
            )

    async def _offer_recovery(self, path: Path, swap: autosave.Autosave) -> str:
        """Ask whether to recover the unsaved work an editor left behind when it closed."""
        return await self.app.push_screen_wait(
            SwapRecoveryDialog(
                "Unsaved work found",
                f"{self.medbench.display_path(path)} has changes that were never saved: {swap.editor.describe()} "
                f"autosaved them at {swap.when()} and then closed without saving. Recover them?",
            )
        )

    def _load(self, path: Path, on_disk: str, buffer: str) -> None:
        if path != self.path:
            self._forget_rehearsal()
            if self.path is not None:
                self._remove_swap()
        self.file.load(path, on_disk, buffer)
        self.report = None
        self._last_case = None
        self.text_area.read_only = False
        self.text_area.placeholder = EMPTY_CASE
        self.text_area.load_text(buffer)
        self.modified = buffer != on_disk
        self._write_swap(path, self.file.swap_text)  # open here: the other editors of the case can tell
        self.query_one(TitleBar).set_where(self.case_name or "")
        self._show_report()
        self._start_validation(debounce=False)
        self.text_area.focus()

    def close_case(self) -> None:
        """Forget the open case (its unsaved changes must be settled first)."""
        self._remove_swap()
        self.file.close()
        self.report = None
        self._last_case = None
        self._generation += 1
        self.text_area.load_text("")
        self.text_area.read_only = True
        self.text_area.placeholder = NO_CASE
        self.modified = False
        self.query_one(TitleBar).set_where("")
        self._forget_rehearsal()
        self._show_report()

    async def settle_unsaved(self) -> bool:
        """Ask what to do with unsaved changes (from a worker); True when it is safe to go on."""
        if self.path is None or not self.modified:
            return True
        answer = await self.app.push_screen_wait(
            UnsavedChangesDialog("Unsaved changes", f"{self.case_name} has changes that are not saved.")
        )
        if answer == "save":
            return await self.save_checked()
        if answer == "discard":
            self._mark_unchanged()
            self.modified = False
            return True
        return False

    def action_close_case(self) -> None:
        if self.path is not None:
            self._close_flow()

    @work(exclusive=True, group="editor-open", exit_on_error=False)
    async def _close_flow(self) -> None:
        if await self.settle_unsaved():
            self.close_case()

    # Typing and checking --------------------------------------------------------------------

    @on(TextArea.Changed, "#case-text")
    def _text_changed(self, event: TextArea.Changed) -> None:
        if self.path is None:
            return
        self.modified = self.file.differs(self.text_area.text)
        self._start_validation(debounce=True)

    def on_bank_changed(self, event: BankChanged) -> None:
        """Another case changed: the checks across cases (ids, parents, near-duplicates) may differ."""
        if self.path is not None and event.changed != self.path:
            self._start_validation(debounce=True)

    def _start_validation(self, *, debounce: bool) -> None:
        """Check the text now, one check at a time: a keystroke while a check runs has its text
        checked as soon as that check is done. Only when checks of this text take longer than
        the debounce (a very large case) does each keystroke first wait for the author to pause."""
        self._generation += 1
        wait = self.medbench.settings.tui.validation_debounce_ms / 1000
        delay = wait if debounce and self._check_seconds > wait else 0.0
        if self.path is not None:
            self._validate(self._generation, self.path, delay)
        self._refresh_status()

    @work(exclusive=True, group="validate", exit_on_error=False)
    async def _validate(self, generation: int, path: Path, delay: float) -> None:
        """Wait ``delay`` (a newer keystroke cancels this worker) and for the check in progress
        (never cancelled: a second one would only compete with it), then validate off the UI thread."""
        from medbench_tui.core.validate import validate_text

        if delay > 0:
            await asyncio.sleep(delay)
        while self._checking is not None and not self._checking.done():
            await asyncio.wait([self._checking])
        text, bank = self.text_area.text, self.medbench.bank_index
        started = time.perf_counter()
        checking = self._checking = asyncio.get_running_loop().run_in_executor(
            None, partial(contextvars.copy_context().run, validate_text, text, path, bank=bank))
        report = await asyncio.shield(checking)
        self._check_seconds = time.perf_counter() - started
        self.post_message(self.Validated(generation, report))
        if report.case is not None and report.case.checks is not None and report.positions is not None:
            from medbench_tui.core.authoring.case_checks import check_diagnostics
            from medbench_tui.core.paths import bank_root_of

            await asyncio.sleep(CHECKS_PAUSE)  # the author is still typing: a keystroke cancels this worker
            failed = await asyncio.to_thread(check_diagnostics, report.case, bank_root_of(path), report.positions)
            self.post_message(self.ChecksRan(generation, failed))

    @on(Validated)
    def _validated(self, event: Validated) -> None:
        if event.generation != self._generation or self.path is None:
            return  # the text changed since: a newer check is on its way
        self.report = event.report
        self._validated_generation = event.generation
        if event.report.case is not None:
            self._last_case = event.report.case
        self._show_report()

    @on(ChecksRan)
    def _checks_ran(self, event: ChecksRan) -> None:
        if event.generation != self._generation or self.report is None or not event.failed:
            return
        self.report.add(event.failed)
        self._show_report()

    def _show_report(self) -> None:
        """Show the latest check; widgets whose content is unchanged are left alone (no redraw)."""
        diagnostics = self.diagnostics
        if diagnostics != self._shown_diagnostics or not self.query_one(DiagnosticsTable).row_count:
            self._shown_diagnostics = diagnostics
            self.query_one(DiagnosticGutter).show(diagnostics)
            self.query_one(DiagnosticsTable).show(diagnostics)
        self._refresh_preview()
        self._refresh_status()
        self._show_code_under_cursor()

    def _refresh_preview(self) -> None:
        """The preview follows the text while it is on screen."""
        if self.query_one(ContentSwitcher).current != "preview":
            return
        current = self.report.case if self.report is not None else None
        shown = (current or self._last_case, current is None and self._last_case is not None)
        if shown != self._previewed:
            self._previewed = shown
            self.query_one(CasePreview).show(shown[0], stale=shown[1])

    # The cursor -----------------------------------------------------------------------------

    @on(TextArea.SelectionChanged, "#case-text")
    def _cursor_moved(self, event: TextArea.SelectionChanged) -> None:
        self._refresh_status()
        self._show_code_under_cursor()
        self.query_one(DiagnosticsTable).highlight_line(self.text_area.cursor_location[0] + 1)

    def _show_code_under_cursor(self) -> None:
        if self.path is None:
            self.query_one(IcdPanel).show_code(None)
            return
        row, column = self.text_area.cursor_location
        value = icd_value_at(self.text_area.document.get_line(row), column)
        self.query_one(IcdPanel).show_code(value.code if value and value.code else None)

    def go_to(self, diagnostic: Diagnostic) -> None:
        """Put the cursor on a problem, ready to type: past the space after a key's colon."""
        if diagnostic.line is None:
            return
        row = min(diagnostic.line - 1, self.text_area.document.line_count - 1)
        column = max((diagnostic.column or 1) - 1, 0)
        line = self.text_area.document.get_line(row)
        if line[column - 1 : column + 1] == ": ":
            column += 1
        self.text_area.move_cursor((row, column), center=True)
        self.text_area.focus()

    @on(DiagnosticsTable.Chosen)
    def _diagnostic_chosen(self, event: DiagnosticsTable.Chosen) -> None:
        self.go_to(event.diagnostic)

    @on(DiagnosticsTable.Highlighted)
    def _diagnostic_highlighted(self, event: DiagnosticsTable.Highlighted) -> None:
        """The whole message of the problem in view (the table cuts long ones)."""
        d = event.diagnostic
        text = Text()
        if d is None:
            text.append("No problems." if self.path else "", style="italic")
        else:
            where = f"line {d.line}, column {d.column or 1}" if d.line else "the whole case"
            text.append(f"{d.severity} {d.code}", style="bold")
            text.append(f" at {where}" + (f" ({d.path})" if d.path else "") + ": ")
            text.append(d.message)
        if text != self._detail:
            self._detail = text
            self.query_one("#problem-detail", Static).update(text)

    def action_next_problem(self, step: int = 1) -> None:
        """Put the cursor on the next problem after it (``step`` -1: the one before), wrapping round."""
        placed = [d for d in self.query_one(DiagnosticsTable).diagnostics if d.line is not None]
        if not placed:
            self.notify("No problems with a place in the text.")
            return
        here = self.text_area.cursor_location
        places = [(d, ((d.line or 1) - 1, (d.column or 1) - 1)) for d in placed]
        if step > 0:
            later = [d for d, place in places if place > here]
            target = later[0] if later else placed[0]
        else:
            earlier = [d for d, place in places if place < here]
            target = earlier[-1] if earlier else placed[-1]
        self.query_one(DiagnosticsTable).highlight(target)
        self.go_to(target)

    def action_focus_text(self) -> None:
        self.text_area.focus()

    # ICD codes --------------------------------------------------------------------------------

    def action_icd_search(self) -> None:
        self.query_one(ContentSwitcher).current = "icd-panel"
        self.query_one(IcdPanel).focus_search()

    @on(IcdPanel.CodeChosen)
    def _code_chosen(self, event: IcdPanel.CodeChosen) -> None:
        self.insert_code(event.code)

    def insert_code(self, code: str) -> None:
        """Replace the icd10: value under the cursor with ``code``, or insert it at the cursor."""
        if self.path is None:
            self.notify(f"{code}: open a case to put the code in it.", markup=False)
            return
        area = self.text_area
        row, column = area.cursor_location
        insertion = icd_insertion(area.document.get_line(row), column, code)
        if insertion is None:
            self.notify(f"{code}: this line has several icd10: values; put the cursor on the one to replace.",
                        markup=False)
            return
        area.replace(insertion.text, (row, insertion.start), (row, insertion.end))
        area.move_cursor((row, insertion.start + len(insertion.text.rstrip())))
        area.focus()

    # Preview ----------------------------------------------------------------------------------

    def action_toggle_preview(self) -> None:
        switcher = self.query_one(ContentSwitcher)
        switcher.current = "preview" if switcher.current == "icd-panel" else "icd-panel"
        self._refresh_preview()

    # Rehearsal --------------------------------------------------------------------------------

    def action_rehearse(self) -> None:
        """Put the standard history battery to the patient of the case as it stands now."""
        self.query_one(ContentSwitcher).current = "rehearsal"
        panel = self.query_one(RehearsalPanel)
        case = self.report.case if self.report is not None else None
        if case is None:
            panel.show(None, note="Rehearsal needs a case without errors: fix the problems listed below first.")
            return
        panel.show(None, note=f"Rehearsing {case.id} ...")
        self._rehearse(case)

    def _forget_rehearsal(self) -> None:
        """The rehearsal shown was of the case just closed (or left): it goes with it."""
        self.workers.cancel_group(self, "rehearse")
        self.query_one(RehearsalPanel).show(None)
        if self.query_one(ContentSwitcher).current == "rehearsal":
            self.query_one(ContentSwitcher).current = "icd-panel"

    @work(thread=True, exclusive=True, group="rehearse", exit_on_error=False)
    def _rehearse(self, case: Case) -> None:
        from medbench_tui.core.consultation.rehearsal import rehearse

        rehearsal = rehearse(case)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.query_one(RehearsalPanel).show, rehearsal)

    # Saving -----------------------------------------------------------------------------------

    def action_save(self) -> None:
        if self.path is None:
            self.notify("No case open to save.")
            return
        self._save_flow()

    @work(exclusive=True, group="editor-open", exit_on_error=False)
    async def _save_flow(self) -> None:
        await self.save_checked()

    async def save_checked(self) -> bool:
        """Save, unless that would lose someone's work: a read-only file is not replaced (save
        as instead), and a file changed on disk since it was read asks first."""
        if self.file.read_only:
            return await self.save_as(f"{self.case_name} is read-only, so it is not replaced.")
        if await asyncio.to_thread(self.file.changed_on_disk):
            answer = await self._ask_about_disk()
            if answer == "reload":
                self.reload_from_disk()
                return False
            if answer != "overwrite":
                return False
        return self.save()

    async def _ask_about_disk(self) -> str:
        while True:
            answer = await self.app.push_screen_wait(ExternalChangeDialog(
                "Changed on disk",
                f"{self.case_name} was changed by another program since you opened it. Reload it "
                "(your changes here are dropped), overwrite it with your text (its changes are dropped), "
                "or compare the two first?",
            ))
            if answer != "compare":
                return answer
            try:
                on_disk = self.file.read()
            except (OSError, UnicodeDecodeError) as exc:
                on_disk = f"(the file cannot be read: {why_unreadable(exc)})\n"
            await self.app.push_screen_wait(
                DiffView(f"{self.case_name}: on disk and in the editor",
                         case_diff(on_disk, self.text_area.text, self.case_name or ""))
            )

    def reload_from_disk(self) -> None:
        """Replace the editor's text with the file's, keeping the cursor's line."""
        assert self.path is not None
        try:
            text = self.file.read()
        except (OSError, UnicodeDecodeError) as exc:
            self.notify(f"Cannot reload {self.case_name}: {why_unreadable(exc)}.", severity="error", markup=False)
            return
        cursor = self.text_area.cursor_location
        self._mark_unchanged()
        self._load(self.path, text, text)
        self.text_area.move_cursor((min(cursor[0], self.text_area.document.line_count - 1), cursor[1]))

    async def save_as(self, why: str) -> bool:
        """Save the text as a new case beside this one (the author gives its id)."""
        from medbench_tui.core.cases.templates import check_new_case_id

        assert self.path is not None
        folder, before = self.path.parent, self.path
        new_id = await self.app.push_screen_wait(CaseIdDialog(
            "Save as a new case",
            f"{why} Save your text as a new case in the same folder: give its id (the file name); "
            "then set `id:` in the text to match.",
            lambda value: check_new_case_id(value, folder),
            value=f"{self.path.stem}-copy",
        ))
        if new_id is None:
            return False
        self._remove_swap()
        self.file.move_to(folder / f"{new_id}.yaml")
        if not self.save():
            self.file.move_to(before)
            return False
        self.query_one(TitleBar).set_where(self.case_name or "")
        return True

    def save(self) -> bool:
        """Save the text as typed (comments and all). Refuses a final case with errors."""
        from medbench_tui.core.errors import MedbenchError

        try:
            saved = self.file.save(self.text_area.text, self.medbench.bank_index)
        except (OSError, MedbenchError) as exc:
            self.notify(f"Could not save {self.case_name}: {exc}", severity="error", markup=False, timeout=10)
            return False
        errors, report = saved.errors, saved.report
        if not saved.written:
            self.notify(
                f"Not saved: {self.case_name} has {errors} error{'s' if errors != 1 else ''} and a case with "
                "errors cannot be final. Fix them, or set status: draft (or review) to save it as work "
                "in progress.",
                title="Cannot save as final",
                severity="error",
                markup=False,
                timeout=10,
            )
            return False
        self.modified = False
        self._mark_unchanged()
        self._generation += 1
        self.post_message(self.Validated(self._generation, report))
        if errors:
            self.notify(
                f"Saved {self.case_name} with {errors} error{'s' if errors != 1 else ''}.",
                severity="warning",
                markup=False,
            )
        else:
            self.notify(f"Saved {self.case_name}.", markup=False)
        assert self.path is not None
        self.medbench.case_file_changed(self.path)
        return True

    # Autosave ---------------------------------------------------------------------------------

    def autosave(self) -> None:
        """Write the unsaved text to the swap file (from the interval timer)."""
        text = self.text_area.text
        if self.path is not None and self.file.autosave_due(text, modified=self.modified):
            self._write_swap(self.path, text)

    @work(thread=True, exclusive=True, group="autosave", exit_on_error=False)
    def _write_swap(self, path: Path, text: str | None) -> None:
        """Write this editor's swap file: the unsaved text, or None (open here, nothing unsaved)."""
        if get_current_worker().is_cancelled:
            return
        try:
            self.file.write_swap(path, text)
        except OSError as exc:
            self.post_message(self.SwapFailed(path, exc.strerror or str(exc), text))
            return
        self.post_message(self.SwapWritten(path, text))

    @on(SwapFailed)
    def _swap_failed(self, event: SwapFailed) -> None:
        """Said once, not every few seconds (see :meth:`CaseFile.swap_failed`)."""
        if not self.file.swap_failed(event.text):
            return
        self.notify(
            f"Crash protection is off: the autosave {autosave.swap_path(event.path, self.editor_id).name} "
            "cannot be written "
            f"({event.reason}). Your changes are kept while medbench runs; save them with Ctrl+S.",
            title="Autosave failed", severity="warning", markup=False, timeout=15,
        )

    @on(SwapWritten)
    def _swap_written(self, event: SwapWritten) -> None:
        if event.path != self.path:  # closed, or another case opened, while it was written
            self._unlink(autosave.swap_path(event.path, self.editor_id))
            return
        if event.text is not None and not self.modified:
            # saved or discarded while the autosave was being written: it is stale
            self._mark_unchanged()
            return
        inherited = self.file.swap_kept(event.path, event.text)
        if inherited is not None:
            self._unlink(inherited)

    # Changes made by other programs -------------------------------------------------------------

    def watch_disk(self) -> None:
        """Look at the open case file (from the interval timer)."""
        if self.path is not None and self.file.disk is not None:
            self._check_disk(self.path, self.file.disk)

    @work(thread=True, exclusive=True, group="disk-watch", exit_on_error=False)
    def _check_disk(self, path: Path, read: FileStamp) -> None:
        change = CaseFile.look(path, read)
        if change is not None:
            self.post_message(self.DiskChanged(change))

    @on(DiskChanged)
    def _disk_changed(self, event: DiskChanged) -> None:
        """Unchanged here: take the new text. Changed here too: say so once; saving will ask."""
        news = self.file.news(event.change, modified=self.modified)
        if news is DiskNews.NONE:
            return
        if news is DiskNews.RELOAD:
            self.reload_from_disk()
            self.notify(f"{self.case_name} was changed by another program: reloaded.", markup=False)
            return
        gone = "removed" if event.change.stamp is None else "changed"
        self.notify(
            f"{self.case_name} was {gone} by another program while you edit it. Your text is kept; "
            "saving will ask whether to reload, overwrite or compare.",
            title="Changed on disk", severity="warning", markup=False, timeout=15,
        )

    def _mark_unchanged(self) -> None:
        """Nothing unsaved any more: the swap file says only that the case is open here."""
        self.workers.cancel_group(self, "autosave")
        self.file.swap_text = None
        if self.path is not None:
            self._write_swap(self.path, None)

    def _remove_swap(self) -> None:
        """The case is no longer open here: its swap file goes."""
        self.workers.cancel_group(self, "autosave")
        if (swap := self.file.own_swap) is not None:
            self._unlink(swap)
        self.file.swap_text = None

    def _unlink(self, swap: Path) -> None:
        try:
            swap.unlink(missing_ok=True)
        except OSError as exc:
            self.notify(f"Could not remove the autosave file {swap.name}: {exc}", severity="warning", markup=False)

