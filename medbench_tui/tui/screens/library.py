"""Library mode: every case of the bank, checked, filtered and sorted."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input, Label, ProgressBar, Select, Static

from medbench_tui.core.authoring.library import (
    COLUMNS,
    STATUSES,
    CaseEntry,
    filter_entries,
    rank_entries,
    sort_entries,
)
from medbench_tui.core.cases.model import CATEGORIES
from medbench_tui.tui.bank_state import BankChanged, BankFailed, BankLoading
from medbench_tui.tui.screens.dialogs import CaseIdDialog, ConfirmDialog
from medbench_tui.tui.typed_app import MedbenchScreen
from medbench_tui.tui.widgets.case_table import CaseTable
from medbench_tui.tui.widgets.key_footer import KeyFooter
from medbench_tui.tui.widgets.title_bar import TitleBar
from medbench_tui.tui.worker_failures import ReportsWorkerFailures


class LibraryScreen(ReportsWorkerFailures, MedbenchScreen):
    BINDINGS = [
        Binding("enter", "open_case", "Open", id="library.open"),
        Binding("p", "app.play_selected", "Play", id="library.play", tooltip="Play the selected case as its doctor"),
        Binding("n", "new_case", "New case", id="library.new_case"),
        Binding("v", "new_variant", "New variant", id="library.new_variant"),
        Binding("delete", "delete_case", "Delete", id="library.delete"),
        Binding("slash", "focus_filter", "Filter", id="library.filter", key_display="/"),
        Binding("s", "sort_next", "Sort", id="library.sort"),
        Binding("S", "sort_reverse", "Reverse sort", id="library.reverse", show=False),
        Binding("r", "reload", "Check bank", id="library.reload"),
        Binding("escape", "clear_filters", "Clear filters", id="library.clear_filters", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.sort_column = "id"
        self.sort_reverse = False
        self._checked: tuple[CaseEntry, ...] = ()
        """While the bank is read: the cases checked so far (shown in place of the earlier rows)."""

    def compose(self) -> ComposeResult:
        yield TitleBar("library")
        with Horizontal(id="library-filters"):
            yield Input(placeholder="Filter: id, title or category (fuzzy)", id="filter")
            yield Select(
                [(c.replace("_", " "), c) for c in CATEGORIES], prompt="All categories", id="category-filter"
            )
            yield Select([(s, s) for s in STATUSES], prompt="All statuses", id="status-filter")
        with Vertical(id="loading"):
            yield Label("Reading the bank…", id="loading-label", markup=False)
            yield ProgressBar(id="loading-bar", show_eta=False)
        yield CaseTable(id="cases")
        yield Static("", id="library-summary")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#filter", Input).cursor_blink = self.medbench.cursor_blink
        self.query_one(CaseTable).focus()
        self.query_one("#loading").display = self.medbench.bank_loading
        self.refresh_table()

    # The bank, as the app reads it ----------------------------------------------------------

    @property
    def entries(self) -> list[CaseEntry]:
        """The app's cases; while the bank is read, those checked so far in their place."""
        if not self._checked:
            return self.medbench.cases
        checked = {entry.path for entry in self._checked}
        return [*self._checked, *(entry for entry in self.medbench.cases if entry.path not in checked)]

    def on_bank_loading(self, event: BankLoading) -> None:
        self.query_one("#loading").display = True
        self.query_one("#loading-bar").display = True
        label, text = self.query_one("#loading-label", Label), f"Checking cases: {event.done} of {event.total}"
        # A new count of the same width needs no new layout: a layout of the screen each update cost
        # the library more CPU than drawing its rows, while the cases are checked beside it.
        label.update(text, layout=len(text) != len(str(label.content)))
        self.query_one("#loading-bar", ProgressBar).update(total=max(event.total, 1), progress=event.done)
        if event.checked:
            self._checked = event.checked
            self.refresh_table()

    def on_bank_changed(self, event: BankChanged) -> None:
        if event.changed is None:
            self.query_one("#loading").display = False
            self._checked = ()
        self.refresh_table()

    def on_bank_failed(self, event: BankFailed) -> None:
        """A bank that cannot be read leaves the library empty, saying why (the app notifies too)."""
        if self._checked:  # the rows of a read that failed part way are not shown
            self._checked = ()
            self.refresh_table()
        self.query_one("#loading-bar").display = False
        self.query_one("#loading-label", Label).update(f"The bank could not be read: {event.reason}")

    # Showing --------------------------------------------------------------------------------

    @property
    def table(self) -> CaseTable:
        return self.query_one(CaseTable)

    @property
    def shown(self) -> list[CaseEntry]:
        """The entries the filters let through, in table order (best matches of the text first)."""
        category = self.query_one("#category-filter", Select).value
        status = self.query_one("#status-filter", Select).value
        query = self.query_one("#filter", Input).value
        kept = filter_entries(
            self.entries,
            query,
            category=None if category is Select.NULL else str(category),
            status=None if status is Select.NULL else str(status),
        )
        return rank_entries(sort_entries(kept, self.sort_column, self.sort_reverse), query)

    def refresh_table(self) -> None:
        shown = self.shown
        self.table.show(shown, self.sort_column, self.sort_reverse)
        with_errors = sum(1 for e in self.entries if e.errors)
        with_warnings = sum(1 for e in self.entries if e.warnings and not e.errors)
        summary = (f"{len(shown)} of {len(self.entries)} cases shown · {with_errors} with errors"
                   f" · {with_warnings} with warnings only")
        self.query_one("#library-summary", Static).update(summary)

    @on(Input.Changed, "#filter")
    @on(Select.Changed)
    def _filters_changed(self) -> None:
        self.refresh_table()

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self) -> None:
        """Enter after typing a filter goes to its best match (the first row), not to the case
        the cursor was on before, which may still be listed further down."""
        if self.query_one("#filter", Input).value.strip() and self.table.row_count:
            self.table.move_cursor(row=0)
        self.table.focus()

    def action_focus_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_clear_filters(self) -> None:
        self.query_one("#filter", Input).value = ""
        self.query_one("#category-filter", Select).clear()
        self.query_one("#status-filter", Select).clear()
        self.table.focus()

    def sort_by(self, column: str, reverse: bool | None = None) -> None:
        if reverse is None:
            reverse = not self.sort_reverse if column == self.sort_column else False
        self.sort_column, self.sort_reverse = column, reverse
        self.refresh_table()

    @on(CaseTable.SortRequested)
    def _sort_requested(self, event: CaseTable.SortRequested) -> None:
        self.sort_by(event.column)

    def action_sort_next(self) -> None:
        keys = [key for key, _ in COLUMNS]
        self.sort_by(keys[(keys.index(self.sort_column) + 1) % len(keys)], reverse=False)

    def action_sort_reverse(self) -> None:
        self.sort_by(self.sort_column, reverse=not self.sort_reverse)

    def action_reload(self) -> None:
        self.medbench.load_bank()

    # Acting on cases --------------------------------------------------------------------------

    def selected_entry(self) -> CaseEntry | None:
        path = self.table.selected_path
        return next((e for e in self.entries if e.path == path), None)

    @on(DataTable.RowSelected, "#cases")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open_case()

    def action_open_case(self) -> None:
        entry = self.selected_entry()
        if entry is not None:
            self.app.run_worker(
                self.medbench.open_case(entry.path), exclusive=True, group="open-case", exit_on_error=False
            )

    def _check_new_id(self, case_id: str) -> str | None:
        from medbench_tui.core.cases.templates import check_new_case_id

        return check_new_case_id(case_id, self.medbench.bank.cases_folder, {e.id for e in self.entries})

    def action_new_case(self) -> None:
        self.app.push_screen(
            CaseIdDialog(
                "New case",
                "The id of the new case: lowercase letters, digits and '-' (it is also the file name). "
                "The case starts from the template; the editor lists each field still to fill in.",
                self._check_new_id,
            ),
            self._create_case,
        )

    def _create_case(self, case_id: str | None) -> None:
        from medbench_tui.core.cases.templates import create_case
        from medbench_tui.core.errors import MedbenchError

        if not case_id:
            return
        try:
            path = create_case(self.medbench.bank.cases_folder, case_id)
        except (OSError, MedbenchError) as exc:
            self.notify(f"Could not create {case_id}: {exc}", severity="error", markup=False)
            return
        self.notify(f"Created {self.medbench.display_path(path)} from the template.", markup=False)
        self.after_change(path, open_it=True)

    def action_new_variant(self) -> None:
        from medbench_tui.core.cases.templates import suggest_variant_id

        entry = self.selected_entry()
        if entry is None:
            self.notify("Select the case to make a variant of.")
            return
        self.app.push_screen(
            CaseIdDialog(
                f"New variant of {entry.id}",
                f"A copy of {entry.id} with a new id, parent_id set and status draft; its comments are kept.",
                self._check_new_id,
                value=suggest_variant_id(entry.id, {e.id for e in self.entries}),
            ),
            lambda case_id: self._create_variant(entry, case_id),
        )

    def _create_variant(self, source: CaseEntry, case_id: str | None) -> None:
        from medbench_tui.core.cases.templates import create_variant
        from medbench_tui.core.errors import MedbenchError

        if not case_id:
            return
        try:
            path = create_variant(source.path, case_id)
        except (OSError, MedbenchError) as exc:
            self.notify(f"Could not create the variant {case_id}: {exc}", severity="error", markup=False)
            return
        self.notify(f"Created {self.medbench.display_path(path)} as a variant of {source.id}.", markup=False)
        self.after_change(path, open_it=True)

    def action_delete_case(self) -> None:
        entry = self.selected_entry()
        if entry is None:
            return
        open_case = self.medbench.open_case_in_editor()
        if open_case is not None and open_case.is_file(entry.path) and open_case.modified:
            self.notify(
                f"{entry.id} is open in the editor with unsaved changes: save or close it first.",
                severity="warning",
                markup=False,
            )
            return
        self.app.push_screen(
            ConfirmDialog(
                "Delete case",
                f"Delete {entry.id} ({self.medbench.display_path(entry.path)})? The file is moved to the "
                "bank's .trash folder, from where you can restore it.",
                yes="Delete",
            ),
            lambda yes: self._delete(entry) if yes else None,
        )

    def _delete(self, entry: CaseEntry) -> None:
        from medbench_tui.core.cases.templates import trash_case

        try:
            kept = trash_case(entry.path)
        except OSError as exc:
            self.notify(f"Could not delete {entry.id}: {exc}", severity="error", markup=False)
            return
        self.medbench.case_removed(entry.path)
        self.notify(f"Deleted {entry.id}; the file is kept as {self.medbench.display_path(kept)}.", markup=False)
        self.after_change(entry.path)

    def after_change(self, path: Path, *, open_it: bool = False) -> None:
        self.medbench.case_file_changed(path)
        if open_it:
            self.app.run_worker(self.medbench.open_case(path), exclusive=True, group="open-case", exit_on_error=False)
