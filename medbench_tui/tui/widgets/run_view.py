"""One run: its scorecard (with the case's reference) and its consultation, in tabs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static, TabbedContent, TabPane

from medbench_tui.core.comparison.view import Side
from medbench_tui.tui.widgets.rubric_columns import RubricColumns
from medbench_tui.tui.widgets.scorecard_view import ScorecardView
from medbench_tui.tui.widgets.side_by_side import TranscriptColumns

if TYPE_CHECKING:
    from medbench_tui.core.cases.model import Case


class RunView(Vertical):
    DEFAULT_CSS = """
    RunView { height: 1fr; }
    RunView > TabbedContent { height: 1fr; }
    RunView TabPane { padding: 0; height: 1fr; }
    RunView #run-incomplete { height: auto; padding: 1 2; color: $warning; }
    """

    def compose(self) -> ComposeResult:
        with TabbedContent(id="run-tabs"):
            with TabPane("Scorecard", id="tab-scorecard"):
                yield Static("", id="run-incomplete")
                yield ScorecardView()
            with TabPane("Consultation", id="tab-consultation"):
                yield TranscriptColumns()
            with TabPane("Criteria", id="tab-criteria"):
                yield RubricColumns()

    def show(self, side: Side, case: Case | None = None, *, heading: str = "") -> None:
        """The run's scorecard (an incomplete run has none: its reason is shown) and transcript."""
        card = self.query_one(ScorecardView)
        incomplete = self.query_one("#run-incomplete", Static)
        card.display = side.card is not None
        incomplete.display = side.card is None
        if side.card is not None:
            card.show(side.card, case, heading=heading)
        else:
            incomplete.update(Text(
                f"{heading}\nThis run is incomplete ({side.reason or 'no reason recorded'}): incomplete runs are "
                "never scored. Its consultation is in the next tab."
            ))
        self.query_one(TranscriptColumns).show([side], case)
        tabs = self.query_one("#run-tabs", TabbedContent)
        (tabs.show_tab if side.criteria is not None else tabs.hide_tab)("tab-criteria")
        if side.criteria is not None:  # the case's rubric points on the final response
            self.query_one(RubricColumns).show([side])
        tabs.active = "tab-scorecard"
