"""One graded answer to a rubric question: the question, the answer with its evidence marked, the
score, and every criterion (or panel action) with its verdict, weight, who decided and the evidence."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Label, Static

from medbench_tui.core.comparison.view import prose
from medbench_tui.core.rubric.side_by_side import verdict_tone
from medbench_tui.tui.widgets.scorecard_view import tone_styles

if TYPE_CHECKING:
    from medbench_tui.core.comparison.view import RubricAnswer
    from medbench_tui.core.rubric.decisions import ActionDecision, CriterionDecision, RubricGrade
    from medbench_tui.core.scoring.extraction_model import Span

VERDICTS = {"met": "met", "not_met": "not met", "ungraded": "ungraded"}
NO_PROMPT = "The case file is gone or no longer validates: its question cannot be shown."


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"


def score_line(grade: RubricGrade) -> str:
    """The score as the method defines it, with what it rests on."""
    if grade.method == "panel":
        included = sum(a.included for a in grade.actions)
        return (f"Weighted F1 {percent(grade.score)} · precision {percent(grade.precision)} · recall "
                f"{percent(grade.recall)} · {included} of {len(grade.actions)} panel actions included")
    graded = [d for d in grade.criteria if d.verdict != "ungraded"]
    possible = sum(d.points for d in graded if d.points > 0)
    met = sum(d.points for d in graded if d.verdict == "met")
    line = f"Score {percent(grade.score)} of points · {met} of {possible} positive points (negative ones deduct)"
    if grade.ungraded:
        line += f" · {len(grade.ungraded)} of {len(grade.criteria)} criteria ungraded (not counted)"
    return line


def judges_line(grade: RubricGrade) -> str:
    return "; ".join(f"judge {j.served_model or j.model}, prompt sha256 {j.prompt_sha256[:12]}" for j in grade.judges)


def evidence_text(evidence: Span | None, reason: str, muted: str) -> Text:
    """The words quoted from the answer, then why, dimmed."""
    text = Text()
    if evidence is not None:
        text.append(f"“{evidence.text}”\n")
    text.append(reason, style=muted)
    return text


class RubricView(VerticalScroll):
    """The rubric counterpart of the scorecard, for one stored run."""

    def compose(self) -> ComposeResult:
        yield Static("", id="rubric-heading")
        yield Static("", id="rubric-score")
        yield Label("Question", classes="rubric-heading")
        yield Static("", id="rubric-prompt")
        yield Label("Answer", classes="rubric-heading")
        yield Static("", id="rubric-answer")
        yield Label("Criteria", classes="rubric-heading", id="rubric-table-heading")
        yield Static("", id="rubric-criteria")

    def show(self, graded: RubricAnswer, heading: str = "") -> None:
        styles = tone_styles(self.app.current_theme)
        grade = graded.grade
        self.query_one("#rubric-heading", Static).update(Text(heading, style="bold"))
        score = Text(score_line(grade), style="bold")
        if judges := judges_line(grade):
            score.append(f"\n{judges}", style="dim")
        self.query_one("#rubric-score", Static).update(score)
        self.query_one("#rubric-prompt", Static).update(self._conversation(graded))
        self.query_one("#rubric-answer", Static).update(self._answer(graded, styles))
        panel = grade.method == "panel"
        self.query_one("#rubric-table-heading", Label).update("Panel actions" if panel else "Criteria")
        table = self._panel(grade.actions, styles) if panel else self._criteria(grade.criteria, styles)
        self.query_one("#rubric-criteria", Static).update(table)

    @staticmethod
    def _conversation(graded: RubricAnswer) -> Text:
        if graded.conversation is None:
            return Text(NO_PROMPT, style="dim")
        if len(graded.conversation) == 1:
            return Text(prose(graded.conversation[0].content))
        text = Text()
        for message in graded.conversation:
            text.append(f"{message.role}: ", style="bold")
            text.append(prose(message.content) + "\n")
        text.rstrip()
        return text

    @staticmethod
    def _answer(graded: RubricAnswer, styles: dict[str, str]) -> Text:
        """The answer as the system gave it, each quoted evidence underlined in its verdict's tone."""
        text = Text(graded.answer)
        grade = graded.grade
        marks = [(d.evidence, verdict_tone(d.verdict, d.points)) for d in grade.criteria]
        marks += [(a.evidence, verdict_tone("met" if a.included else "not_met", a.severity)) for a in grade.actions]
        for span, tone in marks:
            if span is not None and 0 <= span.start < span.end <= len(graded.answer):
                text.stylize(f"underline {styles[tone]}", span.start, span.end)
        return text

    @staticmethod
    def _table(weight: str) -> Table:
        table = Table(expand=True, show_edge=False, pad_edge=False, header_style="bold", show_lines=True)
        table.add_column("verdict", no_wrap=True)
        table.add_column(weight, justify="right", no_wrap=True)
        table.add_column("criterion" if weight == "points" else "action", ratio=3)
        table.add_column("decided by", ratio=1)
        table.add_column("evidence in the answer, and why", ratio=4)
        return table

    def _criteria(self, decisions: list[CriterionDecision], styles: dict[str, str]) -> Table:
        table = self._table("points")
        for d in decisions:
            table.add_row(Text(VERDICTS[d.verdict], style=styles[verdict_tone(d.verdict, d.points)]),
                          f"{d.points:+d}", d.text, d.decided_by, evidence_text(d.evidence, d.reason, styles["muted"]))
        return table

    def _panel(self, actions: list[ActionDecision], styles: dict[str, str]) -> Table:
        table = self._table("severity")
        for a in actions:
            tone = verdict_tone("met" if a.included else "not_met", a.severity)
            table.add_row(Text("included" if a.included else "left out", style=styles[tone]), f"{a.severity:+d}",
                          a.action, a.decided_by, evidence_text(a.evidence, a.reason, styles["muted"]))
        return table
