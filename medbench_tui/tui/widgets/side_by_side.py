"""Runs of one case side by side: the transcripts in columns aligned by turn, the
scorecards with each metric's difference to the first run, and the per-item diff."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.theme import Theme
from textual.widgets import Static, TabbedContent, TabPane

from medbench_tui.core.comparison.view import (
    Exchange,
    Side,
    exchanges,
    final_sections,
    metric_rows,
    opening_titles,
    prose,
)
from medbench_tui.tui.widgets.item_diff import ItemDiff
from medbench_tui.tui.widgets.rubric_columns import RubricColumns
from medbench_tui.tui.widgets.scorecard_view import number, status_text, tone_styles

if TYPE_CHECKING:
    from medbench_tui.core.cases.model import Case
    from medbench_tui.core.transcript import FinalResponse


def side_header(side: Side, theme: Theme) -> Text:
    header = Text(side.label, style="bold")
    header.append("\n")
    header.append_text(status_text(side.status, theme))
    if side.reason:
        header.append(f": {side.reason}", style="dim")
    return header


def _titles(case: Case | None) -> dict[str, str]:
    return {a.id: a.title for a in case.attachments} if case is not None else {}


def _grid(sides: list[Side], theme: Theme, first: str, first_width: int) -> Table:
    drawn = Table(box=box.SQUARE, expand=True, show_lines=True, header_style="", pad_edge=True)
    drawn.add_column(first, width=first_width, style="bold")
    for side in sides:
        drawn.add_column(side_header(side, theme), ratio=1, vertical="top")
    return drawn


class TranscriptColumns(VerticalScroll):
    """One column per run, one row per turn: the question, the reply, what it released."""

    DEFAULT_CSS = """
    TranscriptColumns { height: 1fr; }
    TranscriptColumns > Static { height: auto; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="transcript-columns")

    def show(self, sides: list[Side], case: Case | None = None) -> None:
        theme = self.app.current_theme
        styles = tone_styles(theme)
        titles = _titles(case)
        drawn = _grid(sides, theme, "turn", 6)
        turns = [exchanges(s.transcript, titles) if s.transcript is not None else [] for s in sides]
        opening = []
        for side in sides:
            cell = Text()
            if case is not None:
                cell.append("Patient: ", style=styles["patient"])
                cell.append(prose(case.intro))
            held = opening_titles(side.transcript, titles) if side.transcript is not None else []
            if held:
                cell.append(f"\nHanded over: {', '.join(held)}", style=styles["accent"])
            opening.append(cell)
        if any(cell.plain for cell in opening):
            drawn.add_row("0", *opening)
        for index in range(max((len(t) for t in turns), default=0)):
            cells = []
            for exchanged in turns:
                if index >= len(exchanged):
                    cells.append(Text(""))
                    continue
                cells.append(exchange_text(exchanged[index], theme))
            drawn.add_row(str(index + 1), *cells)
        finals = []
        for side in sides:
            final = side.transcript.final if side.transcript is not None else None
            finals.append(final_text(final) if final is not None else Text("no final response", style="dim"))
        drawn.add_row("final", *finals)
        self.query_one("#transcript-columns", Static).update(drawn)
        self.scroll_home(animate=False)


def exchange_text(exchange: Exchange, theme: Theme) -> Text:
    styles = tone_styles(theme)
    text = Text()
    text.append("Doctor: ", style=styles["doctor"])
    text.append(exchange.question.strip())
    text.append("\n")
    if exchange.reply is None:
        text.append("(no reply)", style="dim")
    else:
        text.append("Patient: ", style=styles["patient"])
        text.append(exchange.reply.strip())
    for title in exchange.released:
        text.append(f"\nHanded over: {title}", style=styles["accent"])
    for note in exchange.notes:
        text.append(f"\n{note}", style=styles["warn"])
    return text


def final_text(final: FinalResponse) -> Text:
    text = Text()
    for heading, lines in final_sections(final):
        if text.plain:
            text.append("\n")
        text.append(f"{heading}: ", style="bold")
        text.append("; ".join(lines))
    return text if text.plain else Text("(empty)", style="dim")


class ScorecardColumns(VerticalScroll):
    """Every metric of each run, and its difference to the first run."""

    DEFAULT_CSS = """
    ScorecardColumns { height: 1fr; }
    ScorecardColumns > Static { height: auto; margin-bottom: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="scorecard-metrics")
        yield Static("", id="scorecard-safety")

    def show(self, sides: list[Side], case: Case | None = None) -> None:
        theme = self.app.current_theme
        styles = tone_styles(theme)
        drawn = Table(box=box.SIMPLE_HEAD, expand=True, show_edge=False, header_style="bold")
        drawn.add_column("metric", ratio=3)
        first = sides[0].label if sides else ""
        for index, side in enumerate(sides):
            header = side_header(side, theme)
            header.justify = "right"
            drawn.add_column(header, justify="right", ratio=2)
            if index:
                drawn.add_column(Text(f"Δ vs {first}", style="bold"), justify="right", ratio=1)
        for row in metric_rows(sides):
            cells: list[RenderableType] = [row.title]
            for index, value in enumerate(row.values):
                cells.append(number(value) if value is not None else Text("–", style="dim"))
                if index:
                    cells.append(delta_text(row.deltas[index], row.name, styles))
            drawn.add_row(*cells)
        self.query_one("#scorecard-metrics", Static).update(drawn)
        self.query_one("#scorecard-safety", Static).update(self._safety(sides, theme))
        self.scroll_home(animate=False)

    def _safety(self, sides: list[Side], theme: Theme) -> Group:
        parts: list[RenderableType] = [Text("Critical conditions", style="bold")]
        drawn = _grid(sides, theme, "", 1)
        cells = []
        for side in sides:
            cell = Text()
            for condition in side.card.critical_conditions if side.card is not None else []:
                if cell.plain:
                    cell.append("\n")
                cell.append_text(status_text(condition.status, theme, condition.status))
                cell.append(f" {condition.id}: ", style="bold")
                cell.append(condition.evidence, style="dim")
            cells.append(cell if cell.plain else Text("–", style="dim"))
        drawn.add_row("", *cells)
        parts.append(drawn)
        return Group(*parts)


LOWER_IS_BETTER = {"steps"}


def delta_text(delta: float | None, metric: str, styles: dict[str, str]) -> Text:
    """A difference, coloured by whether it is better (steps: neither, they are shown only)."""
    if delta is None:
        return Text("–", style="dim")
    if delta == 0:
        return Text("0", style="dim")
    shown = f"{delta:+.1f}".replace(".0", "")
    if metric in LOWER_IS_BETTER:
        return Text(shown)
    return Text(shown, style=styles["good"] if delta > 0 else styles["bad"])


CONSULTATION_TABS = ("tab-transcripts", "tab-scorecards", "tab-items")


class CaseComparison(Vertical):
    """The three views of one case across runs, in tabs (a rubric question's runs: its criteria)."""

    DEFAULT_CSS = """
    CaseComparison { height: 1fr; }
    CaseComparison > TabbedContent { height: 1fr; }
    CaseComparison TabPane { padding: 0; height: 1fr; }
    CaseComparison > #comparison-heading { height: auto; padding: 0 1; color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="comparison-heading")
        with TabbedContent(id="comparison-tabs"):
            with TabPane("Transcripts", id="tab-transcripts"):
                yield TranscriptColumns()
            with TabPane("Scorecards", id="tab-scorecards"):
                yield ScorecardColumns()
            with TabPane("Items", id="tab-items"):
                yield ItemDiff()
            with TabPane("Criteria", id="tab-criteria"):
                yield RubricColumns()

    def on_mount(self) -> None:
        self.query_one("#comparison-tabs", TabbedContent).hide_tab("tab-criteria")

    def show(self, sides: list[Side], case: Case | None = None, *, heading: str = "") -> None:
        """``heading`` (shown above the tabs) when the title bar does not say which case this is."""
        self.query_one("#comparison-heading", Static).update(Text(heading))
        self.query_one("#comparison-heading").display = bool(heading)
        tabs = self.query_one("#comparison-tabs", TabbedContent)
        rubric = any(side.rubric is not None for side in sides)
        criteria = any(side.criteria_grade is not None for side in sides)
        for tab in CONSULTATION_TABS:
            (tabs.hide_tab if rubric else tabs.show_tab)(tab)
        (tabs.show_tab if criteria else tabs.hide_tab)("tab-criteria")
        if criteria:
            self.query_one(RubricColumns).show(sides)
        if rubric:  # a rubric question has no consultation: only its criteria are compared
            tabs.active = "tab-criteria"
            return
        if tabs.active == "tab-criteria":
            tabs.active = "tab-transcripts"
        self.query_one(TranscriptColumns).show(sides, case)
        self.query_one(ScorecardColumns).show(sides, case)
        self.query_one(ItemDiff).show(sides)
