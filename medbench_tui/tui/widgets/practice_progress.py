"""A player's progress: every case they have played (shown by its practice label, which
does not name the diagnosis), how often, and each score from the first session to the
latest; below, every session in the order it was played."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from medbench_tui.core.practice.progress import SCORES, CaseProgress, sessions_over_time, shown_trend, summary

NOTHING_YET = ("Nothing played yet. Pick a case (Ctrl+O) and give your final response: each consultation you "
               "finish is kept here, with its scores, so you can see them change as you practise.")


def _when(started_at: str) -> str:
    return started_at[:16].replace("T", " ")


class PracticeProgress(Vertical):
    DEFAULT_CSS = """
    PracticeProgress { padding: 0 1; }
    PracticeProgress > #progress-heading { height: auto; margin-bottom: 1; }
    PracticeProgress > #progress-cases { height: 2fr; }
    PracticeProgress > #progress-sessions-title { height: auto; margin-top: 1; text-style: bold; }
    PracticeProgress > #progress-sessions { height: 1fr; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cases: list[CaseProgress] = []

    def compose(self) -> ComposeResult:
        yield Static("", id="progress-heading")
        yield DataTable(id="progress-cases", cursor_type="row", zebra_stripes=True)
        yield Static("Every session, oldest first", id="progress-sessions-title")
        yield DataTable(id="progress-sessions", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.border_title = "My progress"
        self.query_one("#progress-cases", DataTable).add_columns(
            "case", "played", "last played (UTC)", *SCORES.values())
        self.query_one("#progress-sessions", DataTable).add_columns(
            "played (UTC)", "case", "session", *SCORES.values(), "steps")

    def show(self, player: str, cases: list[CaseProgress], labels: dict[str, str]) -> None:
        """``labels``: case id -> its practice label (a case no longer in the bank shows its number)."""
        from medbench_tui.core.practice.label import practice_number

        self.cases = cases
        counts = summary(cases)
        heading = self.query_one("#progress-heading", Static)
        if not cases:
            heading.update(Text(NOTHING_YET, style="italic"))
        else:
            heading.update(Text.assemble(
                (f"{player}: ", "bold"),
                f"{counts['cases']} case(s), {counts['sessions']} consultation(s), {counts['complete']} with a "
                "scorecard. Each score is shown from your first session of the case to the latest (0-100; Safety "
                "100: every safety-critical condition met). 'medbench report' lists them too.",
            ))

        def label(case_id: str) -> str:
            return labels.get(case_id) or f"Case {practice_number(case_id)}"

        table = self.query_one("#progress-cases", DataTable)
        table.clear()
        for case in cases:
            table.add_row(label(case.case_id), str(len(case.sessions)), _when(case.last_played),
                          *(shown_trend(case.trend(score)) for score in SCORES), key=case.case_id)
        sessions = self.query_one("#progress-sessions", DataTable)
        sessions.clear()
        for session in sessions_over_time(cases):
            scores = [f"{session.scores[s]:.0f}" if s in session.scores else "–" for s in SCORES]
            steps = str(session.steps) if session.complete else f"incomplete ({session.reason or 'no reason'})"
            sessions.add_row(_when(session.started_at), label(session.case_id), str(session.number), *scores, steps)
