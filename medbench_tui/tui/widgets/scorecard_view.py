"""The scorecard of one run, for learning from it: every metric with the figures behind
it, each item judged with its evidence, the history taken and missed, the safety checks,
the steps against the target, and then the case's reference answer."""

from __future__ import annotations

from typing import TypedDict

from rich import box
from rich.console import Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.theme import Theme
from textual.widgets import Static

from medbench_tui.core.cases.model import Case
from medbench_tui.core.comparison.view import evidence_text
from medbench_tui.core.scoring.scorecard import Scorecard

STATUS_TONE = {
    "matched": "good",
    "acceptable": "muted",
    "missing": "bad",
    "extra": "warn",
    "different": "warn",
    "unexpected": "bad",
    "contraindicated": "bad",
    "not_indicated": "warn",
    "OK": "good",
    "NOT_APPLICABLE": "muted",
    "FAIL": "bad",
    "complete": "good",
    "incomplete": "warn",
}
SECTION_TITLES = {
    "diagnoses": "Diagnoses",
    "differential": "Differential",
    "workup": "Workup",
    "treatment": "Treatment",
}


def tone_styles(theme: Theme) -> dict[str, str]:
    """Rich styles for the tones, in the theme's colours."""
    return {
        "good": theme.success or "green",
        "bad": f"bold {theme.error or 'red'}",
        "warn": theme.warning or "yellow",
        "muted": "dim",
        "accent": theme.accent or "cyan",
        "doctor": f"bold {theme.primary}",
        "patient": f"bold {theme.secondary or theme.accent or theme.primary}",
    }


def status_text(status: str | None, theme: Theme, label: str | None = None) -> Text:
    if status is None:
        return Text("–", style="dim")
    tone = STATUS_TONE.get(status)
    return Text(label or status.replace("_", " ").lower(), style=tone_styles(theme)[tone] if tone else "")


def number(value: object) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.1f}"
    if isinstance(value, (int, float)):
        return f"{int(value)}"
    return str(value)


class ColumnOptions(TypedDict, total=False):
    """The keyword arguments of ``rich.table.Table.add_column`` the scorecard's tables use."""

    ratio: int
    width: int
    justify: JustifyMethod


def table(title: str | None = None, *columns: tuple[str, ColumnOptions]) -> Table:
    """A table with ``columns`` as (name, options)."""
    drawn = Table(
        title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, expand=True,
        show_edge=False, pad_edge=False, header_style="bold",
    )
    for name, options in columns:
        drawn.add_column(name, **options)
    return drawn


def metric_explanations(card: Scorecard) -> dict[str, str]:
    """What each metric came from on this card."""
    mt, bd = card.metrics, card.breakdown
    wk, tx, f1 = bd.workup, bd.treatment, bd.action_f1
    rank = f"primary diagnosis ranked {bd.primary_rank}" if bd.primary_rank else "primary diagnosis not named"
    failed = sum(1 for c in card.critical_conditions if c.status == "FAIL")
    asked = len(card.control_questions.elicited)
    total = asked + len(card.control_questions.missed)
    reference_rows = [
        e for e in card.items.differential if e.reference is not None and e.status in ("matched", "missing")
    ]
    named = sum(1 for e in reference_rows if e.status == "matched")
    # recall@k and MRR are about the primary diagnosis, not the differentials: name it, so a
    # differential accuracy of 0 beside "recall@3 100" does not read as a contradiction.
    placed = f"primary ranked {bd.primary_rank}" if bd.primary_rank else "primary not named"
    return {
        "diagnosis_accuracy": rank,
        "primary_icd10": f"your code against the reference: {mt.primary_icd10}",
        "differential_accuracy": (
            f"{named} of {len(reference_rows)} reference differentials named "
            f"(precision {number(mt.differential_precision)}); {placed}"
        ),
        "secondary_icd10_recall": "share of the secondary diagnoses named",
        "workup_score": (
            f"found {number(wk.get('found_weight'))} of {number(wk.get('required_weight'))} required weight; "
            f"penalties: {number(wk.get('unexpected_penalty'))} unexpected, "
            f"{number(wk.get('unlisted_penalty'))} for {number(wk.get('unlisted_items'))} unlisted"
        ),
        "treatment_accuracy": (
            f"{tx.get('matching', 0)} matching, {tx.get('different', 0)} different, "
            f"{tx.get('extra', 0)} extra, {tx.get('missing', 0)} missing"
        ),
        "critical_conditions_passed": f"{failed} of {len(card.critical_conditions)} failed",
        "question_coverage": f"{asked} of {total} control questions elicited (weighted)",
        "action_f1": f"weighted tp {number(f1.get('tp'))}, fp {number(f1.get('fp'))}, fn {number(f1.get('fn'))}",
    }


METRIC_ROWS = (
    ("diagnosis_accuracy", "Diagnosis accuracy"),
    ("primary_icd10", "Primary ICD-10"),
    ("differential_accuracy", "Differential accuracy"),
    ("secondary_icd10_recall", "Secondary ICD-10 recall"),
    ("workup_score", "Workup score"),
    ("treatment_accuracy", "Treatment accuracy"),
    ("critical_conditions_passed", "Critical conditions passed"),
    ("question_coverage", "Question coverage (history)"),
    ("action_f1", "Weighted action F1"),
)


class ScorecardView(VerticalScroll):
    DEFAULT_CSS = """
    ScorecardView { height: 1fr; padding: 0 1; }
    ScorecardView > Static { height: auto; margin-bottom: 1; }
    ScorecardView > #card-summary { padding: 0 1; border: round $primary 60%; }
    ScorecardView > #card-lessons { padding: 0 1; border: round $warning 50%; border-title-color: $warning; }
    ScorecardView > #card-reference { padding: 0 1; border: round $accent 60%; border-title-color: $accent; }
    """

    def compose(self) -> ComposeResult:
        for part in ("summary", "lessons", "metrics", "items", "history", "safety", "cost", "unscored", "reference"):
            yield Static("", id=f"card-{part}")

    def on_mount(self) -> None:
        self.query_one("#card-lessons").border_title = "What to take away"

    def show(self, card: Scorecard, case: Case | None = None, *, heading: str = "") -> None:
        """``card``: a scorecard; ``case``: the case, whose reference is then shown at the end."""
        theme = self.app.current_theme
        self.query_one("#card-summary", Static).update(self._summary(card, case, heading, theme))
        self.query_one("#card-lessons", Static).update(lessons(card, theme))
        self.query_one("#card-metrics", Static).update(self._metrics(card))
        self.query_one("#card-items", Static).update(self._items(card, theme))
        self.query_one("#card-history", Static).update(self._history(card, theme))
        self.query_one("#card-safety", Static).update(self._safety(card, theme))
        self.query_one("#card-cost", Static).update(self._cost(card))
        unscored = self._unscored(card)
        self.query_one("#card-unscored", Static).update(unscored or "")
        self.query_one("#card-unscored").display = unscored is not None
        reference = self.query_one("#card-reference", Static)
        reference.display = case is not None
        if case is not None:
            reference.border_title = "The reference answer"
            reference.update(reference_renderable(case))
        self.scroll_home(animate=False)

    # Parts -----------------------------------------------------------------------------

    def _summary(self, card: Scorecard, case: Case | None, heading: str, theme: Theme) -> Text:
        styles = tone_styles(theme)
        text = Text()
        text.append(heading or f"Scorecard of {card.case_id}", style="bold")
        if case is not None:
            text.append(f"  {case.title}")
        text.append("\n")
        if not card.complete:
            text.append(f"Incomplete ({card.incomplete_reason}): shown for review, left out of every aggregate.\n",
                        style=styles["warn"])
        d = card.dots
        text.append("D.O.T.S.  ", style="bold")
        text.append(f"D {number(d.D)}   O {number(d.O)}   T {number(d.T)}   S {d.S}")
        text.append("\nSteps     ", style="bold")
        text.append(steps_text(card.steps, card.num_steps, case.max_turns if case is not None else None))
        if card.outside_soft_range:
            text.append("  outside the target range", style=styles["warn"])
        return text

    def _metrics(self, card: Scorecard) -> Table:
        drawn = table("Metrics", ("metric", {"ratio": 2}), ("value", {"justify": "right", "width": 9}),
                      ("why", {"ratio": 5}))
        why = metric_explanations(card)
        for name, title in METRIC_ROWS:
            drawn.add_row(title, number(getattr(card.metrics, name)), Text(why.get(name, ""), style="dim"))
        return drawn

    def _items(self, card: Scorecard, theme: Theme) -> Group:
        tables: list[RenderableType] = []
        for section, title in SECTION_TITLES.items():
            entries = getattr(card.items, section)
            drawn = table(title, ("status", {"width": 15}), ("reference item", {"ratio": 3}),
                          ("answer", {"ratio": 3}), ("evidence", {"ratio": 3}))
            for entry in entries:
                note = Text(evidence_text(entry.evidence) or "", style="dim")
                if entry.note:
                    note.append(f"{'; ' if note.plain else ''}{entry.note}", style="italic dim")
                if entry.reason:
                    note.append(f"{chr(10) if note.plain else ''}why: {entry.reason}", style="italic")
                if entry.doubts:
                    note.append(f"{chr(10) if note.plain else ''}unsure: {', '.join(entry.doubts)}", style="bold")
                answer = Text(entry.answer or "–")
                if entry.icd10:
                    answer.append(f" {entry.icd10}", style="bold")
                drawn.add_row(status_text(entry.status, theme), Text(entry.reference or "–"), answer, note)
            if not entries:
                drawn.add_row(Text("–", style="dim"), Text("nothing to judge", style="dim"), "", "")
            tables += [drawn, Text("")]
        return Group(*tables)

    def _history(self, card: Scorecard, theme: Theme) -> Table:
        drawn = table("History taking: control questions", ("", {"width": 10}), ("concept", {"ratio": 4}),
                      ("weight", {"justify": "right", "width": 6}), ("disclosed by", {"ratio": 2}))
        styles = tone_styles(theme)
        for question in card.control_questions.elicited:
            drawn.add_row(Text("elicited", style=styles["good"]), question.concept, number(question.weight),
                          ", ".join(question.facts))
        for question in card.control_questions.missed:
            drawn.add_row(Text("missed", style=styles["bad"]), question.concept, number(question.weight), "")
        if not card.control_questions.elicited and not card.control_questions.missed:
            drawn.add_row(Text("–", style="dim"), Text("the case lists no control questions", style="dim"), "", "")
        return drawn

    def _safety(self, card: Scorecard, theme: Theme) -> Table:
        drawn = table("Critical conditions", ("status", {"width": 15}), ("condition", {"ratio": 4}),
                      ("evidence", {"ratio": 4}))
        for condition in card.critical_conditions:
            label = Text(condition.id, style="bold")
            label.append(f"\n{condition.description}")
            evidence = Text(condition.evidence, style="dim")
            if condition.doubts:
                evidence.append(f"\nunsure: {', '.join(condition.doubts)}", style="bold")
            drawn.add_row(status_text(condition.status, theme), label, evidence)
        if not card.critical_conditions:
            drawn.add_row(Text("–", style="dim"), Text("the case has no critical conditions", style="dim"), "")
        return drawn

    def _cost(self, card: Scorecard) -> Table:
        """What the work-up cost (when the card was scored with a price table) and the harm split."""
        drawn = table("Cost and harm", ("", {"ratio": 2}), ("", {"ratio": 5}))
        harm = card.harm
        drawn.add_row("Harm by omission", f"{number(harm.omission)} (required items left out, weighted)"
                      + (f"; {harm.conditions_omission} critical condition(s) failed" if harm.conditions_omission
                         else ""))
        drawn.add_row("Harm by commission", f"{number(harm.commission)} (items given that should not be)"
                      + (f"; {harm.conditions_commission} critical condition(s) failed"
                         if harm.conditions_commission else ""))
        if card.cost is not None:
            drawn.add_row("Cost", card.cost.summary())
            for line in card.cost.lines:
                if line.source != "reference":
                    price = "unpriced" if line.cost is None else number(line.cost)
                    when = f"turn {line.turn}" if line.turn is not None else "plan"
                    drawn.add_row(Text(f"  {price}", style="dim"), Text(f"{line.what} ({when})", style="dim"))
        return drawn

    def _unscored(self, card: Scorecard) -> Table | None:
        from medbench_tui.core.scoring import NO_EVIDENCE

        if card.extraction is None:
            return None
        entities = [e for e in card.extraction.entities if e.negated or e.evidence == NO_EVIDENCE]
        if not entities:
            return None
        drawn = table("Mentioned but not scored", ("kind", {"width": 12}), ("text", {"ratio": 3}),
                      ("why", {"ratio": 3}))
        for entity in entities:
            why = (entity.reason or f"negated ({entity.negated})") if entity.negated else "no evidence in the text"
            drawn.add_row(entity.kind, entity.text, Text(why, style="dim"))
        return drawn


WRONG_STATUSES = ("unexpected", "contraindicated", "not_indicated")


def lessons(card: Scorecard, theme: Theme) -> Text:
    """What to take away: what was missed, what should not have been given, what failed."""
    styles = tone_styles(theme)
    items = card.items
    lines: list[tuple[str, list[str], str]] = [
        (f"Missed {SECTION_TITLES[section].lower()}", [e.reference for e in getattr(items, section)
                                                      if e.status == "missing" and e.reference], "bad")
        for section in SECTION_TITLES
    ]
    lines += [
        ("Should not have been given", [f"{e.answer} ({e.status})" for section in (items.workup, items.treatment)
                                        for e in section if e.status in WRONG_STATUSES], "bad"),
        ("Done in the consultation but left out of the final answer",
         [f"{o.reference} (turn {o.turn})" for o in card.consultation_omissions], "warn"),
        ("History not taken", [q.concept for q in card.control_questions.missed], "warn"),
        ("Safety checks failed", [c.description for c in card.critical_conditions if c.status == "FAIL"], "bad"),
    ]
    text = Text()
    for heading, entries, tone in lines:
        if entries:
            if text.plain:
                text.append("\n")
            text.append(f"{heading}: ", style="bold")
            text.append("; ".join(entries), style=styles[tone])
    return text if text.plain else Text("Nothing missed, nothing wrong given, every safety check passed.",
                                        style=styles["good"])


def steps_text(steps: int, num_steps: int | None, max_turns: int | None) -> str:
    from medbench_tui.core.practice.session import TurnCount

    text = f"{steps} turn pairs"
    if num_steps is not None:
        span = TurnCount(steps, num_steps, max_turns or 0).soft_range
        text += f"; target {num_steps} (range {span[0]}-{span[1]})" if span else ""
    if max_turns:
        text += f"; limit {max_turns}"
    return text


def reference_renderable(case: Case) -> Group:
    """The case's reference answer: diagnosis, differential, workup, treatment, notes."""
    parts: list[RenderableType] = []
    primary = case.diagnosis.primary
    head = Text("Diagnosis  ", style="bold")
    head.append(f"{primary.name} ")
    head.append(primary.icd10, style="bold")
    for secondary in case.diagnosis.secondary:
        head.append("\nSecondary  ", style="bold")
        head.append(f"{secondary.name} ")
        head.append(secondary.icd10, style="bold")
    if primary.aliases:
        head.append(f"\nAlso accepted: {', '.join(primary.aliases)}", style="dim")
    parts.append(head)
    if case.differential:
        differential = table("Differential", ("#", {"width": 3}), ("diagnosis", {"ratio": 4}), ("ICD-10", {"width": 8}))
        for n, alternative in enumerate(case.differential, 1):
            differential.add_row(str(n), alternative.name, alternative.icd10 or "")
        parts.append(differential)
    if case.workup:
        workup = table("Workup", ("item", {"ratio": 4}), ("class", {"width": 12}), ("weight", {"width": 14}))
        for item in case.workup:
            if item.klass == "acceptable":
                weight = ""
            elif item.klass == "unexpected":
                weight = f"penalty {number(item.penalty)}" if item.penalty is not None else "default penalty"
            else:
                weight = f"weight {number(item.weight)}"
            workup.add_row(item.item, item.klass, weight)
        parts.append(workup)
    if case.treatment:
        treatment = table("Treatment", ("item", {"ratio": 4}), ("class", {"width": 16}), ("group", {"width": 18}))
        for therapy in case.treatment:
            treatment.add_row(therapy.item, therapy.klass, therapy.group or "")
        parts.append(treatment)
    if case.notes:
        notes = Text("Notes\n", style="bold")
        notes.append(case.notes.rstrip())
        parts.append(notes)
    spaced: list[RenderableType] = []
    for part in parts:
        spaced += [part, Text("")]
    return Group(*spaced[:-1])
