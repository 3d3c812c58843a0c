"""The editor's rehearsal panel: what a standard battery of history questions drew out of
the case's patient, and what nothing reaches (the report comes from the core)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from medbench_tui.core.consultation.rehearsal import Rehearsal, render_text

WAITING = "Press ctrl+r to rehearse the case: a standard battery of history questions is put to its patient."


class RehearsalPanel(VerticalScroll):
    DEFAULT_CSS = """
    RehearsalPanel { height: 1fr; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static(WAITING, id="rehearsal-text", markup=False)

    def show(self, rehearsal: Rehearsal | None, *, note: str = "") -> None:
        """Show a rehearsal report, or a note (why there is none, or that it is running)."""
        text = render_text(rehearsal) if rehearsal is not None else note or WAITING
        self.query_one("#rehearsal-text", Static).update(text)
        self.border_subtitle = "nothing to fix" if rehearsal is not None and rehearsal.clean else ""
