"""WHO ICD-10 2019 beside the case: search as you type, and the code under the cursor explained."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.theme import Theme
from textual.widgets import DataTable, Input, Static
from textual.worker import get_current_worker

from medbench_tui.tui.worker_failures import ReportsWorkerFailures

if TYPE_CHECKING:
    from medbench_tui.core.icd10 import CodeInfo, SearchHit

SEARCH_LIMIT = 25
SITE_NOTE = "  tumour type: choose the code of the site"  # what a hit found by tumour type says
NO_CODE_HINT = "Put the cursor on an icd10: value to see its WHO title."


class IcdPanel(ReportsWorkerFailures, Vertical):
    """Enter on a hit asks the editor to put that code into the case."""

    DEFAULT_CSS = """
    IcdPanel { height: 1fr; }
    IcdPanel > Input { margin-bottom: 0; }
    IcdPanel > DataTable { height: 1fr; overflow-x: hidden; }
    IcdPanel > #icd-info { height: auto; min-height: 4; max-height: 12; padding: 0 1; }
    """

    BINDINGS = [
        Binding("down", "focus_hits", "Go to the results", id="icd.results", show=False),
    ]

    @dataclass
    class CodeChosen(Message):
        code: str

    @dataclass
    class SearchDone(Message):
        query: str
        hits: list[SearchHit]

    @dataclass
    class CodeLookedUp(Message):
        code: str
        info: CodeInfo

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._code: str | None = None
        self._hits: list[SearchHit] = []

    def compose(self) -> ComposeResult:
        yield Input(placeholder="Search ICD-10: a diagnosis or a code", id="icd-query")
        yield DataTable(id="icd-hits", cursor_type="row", zebra_stripes=True)
        yield Static(Text(NO_CODE_HINT), id="icd-info")

    def on_mount(self) -> None:
        self.border_title = "ICD-10 (WHO 2019)"
        self._show_hits([])

    @property
    def hits(self) -> list[SearchHit]:
        return list(self._hits)

    @property
    def input(self) -> Input:
        return self.query_one("#icd-query", Input)

    def focus_search(self) -> None:
        self.input.focus()

    def action_focus_hits(self) -> None:
        table = self.query_one("#icd-hits", DataTable)
        if table.row_count:
            table.focus()

    # Search -------------------------------------------------------------------------

    @on(Input.Changed, "#icd-query")
    def _query_changed(self, event: Input.Changed) -> None:
        event.stop()
        query = event.value.strip()
        if query:
            self._search(query)
        else:
            self._show_hits([])

    @work(thread=True, exclusive=True, group="icd-search", exit_on_error=False)
    def _search(self, query: str) -> None:
        from medbench_tui.core import icd10

        hits = icd10.search(query, limit=SEARCH_LIMIT)
        if not get_current_worker().is_cancelled:
            self.post_message(self.SearchDone(query, hits))

    @on(SearchDone)
    def _search_done(self, event: SearchDone) -> None:
        event.stop()
        if event.query == self.input.value.strip():
            self._show_hits(event.hits)

    def _show_hits(self, hits: list[SearchHit]) -> None:
        """List the hits; long titles wrap within the room the panel has."""
        self._hits = list(hits)
        table = self.query_one("#icd-hits", DataTable)
        table.clear(columns=True)
        scrollbar = 2
        room = self.scrollable_content_region.width - scrollbar - 6 * table.cell_padding - 6 - 5
        table.add_column("Code", key="code", width=6)
        table.add_column("Score", key="score", width=5)
        table.add_column("Title", key="title", width=room if room > 10 else None)
        for index, hit in enumerate(self._hits):
            table.add_row(
                Text(hit.code, style="bold"),
                Text(f"{hit.score:.0f}", justify="right"),
                Text.assemble(hit.title, (SITE_NOTE, "italic dim") if hit.note else ""),
                key=str(index),
                height=None if room > 10 else 1,
            )

    def on_resize(self) -> None:
        self._show_hits(self._hits)

    @on(Input.Submitted, "#icd-query")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._hits:
            self.post_message(self.CodeChosen(self._hits[0].code))

    @on(DataTable.RowSelected, "#icd-hits")
    def _hit_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.post_message(self.CodeChosen(self._hits[int(event.row_key.value)].code))

    # The code under the cursor ----------------------------------------------------------

    def show_code(self, code: str | None) -> None:
        """Explain ``code`` (the icd10: value under the editor's cursor), or show the hint."""
        if code == self._code:
            return
        self._code = code
        if not code:
            self.query_one("#icd-info", Static).update(Text(NO_CODE_HINT, style="italic"))
            return
        self._lookup(code)

    @work(thread=True, exclusive=True, group="icd-lookup", exit_on_error=False)
    def _lookup(self, code: str) -> None:
        from medbench_tui.core import icd10

        info = icd10.lookup(code)
        if not get_current_worker().is_cancelled:
            self.post_message(self.CodeLookedUp(code, info))

    @on(CodeLookedUp)
    def _looked_up(self, event: CodeLookedUp) -> None:
        event.stop()
        if event.code == self._code:
            self.query_one("#icd-info", Static).update(describe_code(event.info, self.app.current_theme))


def describe_code(info: CodeInfo, theme: Theme) -> Text:
    """What an author needs to know about a code: its WHO title and kind, or what to use instead."""
    text = Text()
    text.append(info.code or info.query, style="bold")
    if info.valid:
        text.append(f"  WHO {info.kind}\n", style=theme.success or "")
        text.append(info.title or "")
    elif info.kind in ("chapter", "block"):
        text.append(f"  a {info.kind}, not a code\n", style=f"bold {theme.error}")
        text.append(info.title or "")
    elif info.cm_only:
        text.append("  ICD-10-CM only, not WHO ICD-10 2019", style=f"bold {theme.warning}")
    else:
        text.append("  not a WHO ICD-10 2019 code", style=f"bold {theme.error}")
    if info.suggestions:
        text.append("\nUse WHO: " if info.cm_only else "\nNearest: ", style="bold")
        text.append("; ".join(f"{s.code} {s.title}" for s in info.suggestions[:3]))
    for note in info.notes:
        text.append(f"\n{note}", style="italic")
    return text
