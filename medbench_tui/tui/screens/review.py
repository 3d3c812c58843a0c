"""Review mode: a physician checks the evaluator, one blinded run at a time.

Pick a run group and a sample (all runs, or N drawn in turn from each system, seeded).
Each run shows its final response on the left, with the evidence of the decision under
the cursor highlighted, and every item decision of the scorer on the right with its
reason. One key confirms or corrects a decision; every verdict is saved as it is made,
and the same rater coming back to the group resumes where they stopped. No system name
or model id is shown, and the runs come in a random order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, Label, Select, Static

from medbench_tui.core.review.adjudication import (
    AdjudicationBook,
    Decision,
    Record,
    decisions_of,
    stratified_sample,
    uncertain_first,
)
from medbench_tui.core.runs.store import RunGroup, RunRecord, RunStore, existing_store
from medbench_tui.tui.bank_state import BankChanged
from medbench_tui.tui.typed_app import MedbenchScreen
from medbench_tui.tui.widgets.key_footer import KeyFooter
from medbench_tui.tui.widgets.title_bar import TitleBar
from medbench_tui.tui.worker_failures import ReportsWorkerFailures

HINT = ("y/enter: agree · f found · n not found (not met) · g negated · d different · o OK · x FAIL · m met · "
        "e: note · ]/[: next/previous run")
COLUMNS = (("section", "section"), ("evaluator", "evaluator"), ("physician", "yours"), ("reference", "reference"),
           ("note", "note"))
"""The decisions table: the verdicts before the reference, whose long names would push them out of sight."""
ORDERS = [("doubts first", "uncertain"), ("as drawn", "drawn")]
"""How the sample is shown: the grader's uncertain decisions first, or in the drawn order."""
NO_RUNS = "No stored runs to review: compare systems (F5) or run 'medbench run' first."
KEY_LABELS = {"f": ("found",), "n": ("not_found", "not_met"), "g": ("negated",), "d": ("different",), "o": ("OK",),
              "x": ("FAIL",), "m": ("met",)}
"""Each verdict key and the labels it gives: the one the decision's section takes ("n" is "not found"
for an item, "not met" for a rubric criterion)."""
KEY_NAMES = {"f": "found", "n": "not found / not met", "g": "negated", "d": "different", "o": "OK", "x": "FAIL",
             "m": "met"}
SHOWN = {"found": "found", "not_found": "not found", "negated": "negated", "different": "different",
         "OK": "OK", "FAIL": "FAIL", "met": "met", "not_met": "not met", "ungraded": "ungraded"}
SHOWN_ACTION = {"met": "included", "not_met": "left out"}
"""A panel action is met when the answer includes it."""


def shown(section: str, label: str) -> str:
    """A label as the physician reads it, in the words of its section."""
    return SHOWN_ACTION.get(label, label) if section == "action" else SHOWN.get(label, label)


@dataclass
class ReviewRun:
    """One run of the sample, as the physician sees it: no system, no model."""

    run_id: int
    case_id: str
    final_text: str
    decisions: list[Decision]
    verdicts: dict[tuple[str, str], Record] = field(default_factory=dict)

    @property
    def left(self) -> int:
        return sum(1 for d in self.decisions if (d.section, d.reference) not in self.verdicts)


def final_text(run: RunRecord) -> str:
    """The final response as the scorer read it: its free text, else its fields."""
    final = (run.transcript or {}).get("final") or {}
    if final.get("text"):
        return str(final["text"])
    parts = []
    for key, title in (("diagnoses", "Diagnoses"), ("differential", "Differential"), ("workup", "Workup"),
                       ("treatment", "Treatment")):
        entries = final.get(key) or []
        names = [e.get("name", "") if isinstance(e, dict) else str(e) for e in entries]
        if names:
            parts.append(f"{title}: " + "; ".join(names))
    if final.get("advice"):
        parts.append(f"Advice: {final['advice']}")
    return "\n".join(parts) or "(no final response)"


class NoteDialog(ModalScreen[str | None]):
    """A note on one decision (why the physician disagrees, what is ambiguous)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="review_note.cancel")]

    def __init__(self, decision: Decision, note: str) -> None:
        super().__init__()
        self._decision = decision
        self._note = note

    def compose(self) -> ComposeResult:
        with Vertical(id="review-note"):
            yield Label(f"Note on {self._decision.section}: {self._decision.reference}", markup=False)
            yield Input(self._note, placeholder="why you disagree, or what is ambiguous", id="review-note-input")
            yield Label("enter: keep · esc: cancel", classes="review-muted")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReviewScreen(ReportsWorkerFailures, MedbenchScreen):
    BINDINGS = [
        Binding("y", "agree", "Agree", id="review.agree", tooltip="The evaluator's decision is right (or enter)"),
        *(Binding(key, f"verdict('{key}')", name, id=f"review.{labels[0].lower()}", show=False)
          for (key, labels), name in zip(KEY_LABELS.items(), KEY_NAMES.values(), strict=True)),
        Binding("e", "note", "Note", id="review.note"),
        Binding("right_square_bracket", "next_run", "Next run", id="review.next"),
        Binding("left_square_bracket", "previous_run", "Previous run", id="review.previous"),
    ]

    @dataclass
    class GroupsLoaded(Message):
        groups: list[RunGroup]

    @dataclass
    class SampleLoaded(Message):
        """A sample of runs is ready to review (``resumed``: this rater's earlier sample)."""

        group_id: str
        runs: list[ReviewRun]
        resumed: bool

    def __init__(self) -> None:
        super().__init__()
        self.runs: list[ReviewRun] = []
        self.index = 0
        self.group_id: str | None = None
        self._store: RunStore | None = None

    @property
    def rater(self) -> str:
        return self.medbench.settings.player_name

    def compose(self) -> ComposeResult:
        yield TitleBar("review")
        with Horizontal(id="review-setup"):
            yield Label("Run group", classes="review-label")
            yield Select[str]([], prompt="choose a run group", id="review-group", allow_blank=True)
            yield Label("Sample", classes="review-label")
            yield Input(placeholder="all", id="review-size", type="integer")
            yield Label("Seed", classes="review-label")
            yield Input("1", id="review-seed", type="integer")
            yield Select[str](ORDERS, value="uncertain", allow_blank=False, id="review-order",
                              tooltip="Uncertain first: the grader's doubted decisions, and the runs with most "
                                      "of them, come first; the certain ones follow")
            yield Button("Start", id="review-start", variant="primary")
            yield Button("New sample", id="review-new")
        with Horizontal(id="review-main"):
            with VerticalScroll(id="review-answer-box"):
                yield Static("", id="review-answer")
            with Vertical(id="review-side"):
                yield Label("", id="review-progress")
                yield DataTable(id="review-decisions", cursor_type="row", zebra_stripes=True)
                yield Static("", id="review-reason")
        yield Static(HINT, id="review-hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one("#review-decisions", DataTable)
        verdict_width = max(len(w) for w in (*SHOWN.values(), *SHOWN_ACTION.values()))
        for key, label in COLUMNS:  # the physician's column is empty at first: sized for the longest verdict
            table.add_column(label, key=key, width=verdict_width if key == "physician" else None)
        self._load_groups()

    def on_screen_resume(self) -> None:
        if not self.runs:
            self._load_groups()

    def on_bank_changed(self, event: BankChanged) -> None:
        """The bank was read again: its run groups may be new (a review under way stays)."""
        if event.changed is None and self.is_mounted and not self.runs:
            self._load_groups()

    # The run store ---------------------------------------------------------------------------

    def store(self) -> RunStore | None:
        """The bank's run store (never created here), opened once; worker threads only."""
        if self._store is None:
            self._store = existing_store(self.medbench.bank.run_store)
        return self._store

    @work(thread=True, exclusive=True, group="review-groups", exit_on_error=False)
    def _load_groups(self) -> None:
        store = self.store()
        self.post_message(self.GroupsLoaded([] if store is None else store.groups()))

    @on(GroupsLoaded)
    def _groups_loaded(self, event: GroupsLoaded) -> None:
        select = self.query_one("#review-group", Select)
        options = [(f"{g.id} · {g.complete} runs", g.id) for g in event.groups if g.complete]
        select.set_options(options)
        if options:
            select.value = options[0][1]
            self._show_progress(f"Reviewing as {self.rater}. Choose a group and a sample, then Start.")
        else:
            self._show_progress(NO_RUNS)

    @on(Button.Pressed, "#review-start")
    def _start(self) -> None:
        self._begin(new=False)

    @on(Button.Pressed, "#review-new")
    def _new(self) -> None:
        self._begin(new=True)

    def _begin(self, *, new: bool) -> None:
        group = self.query_one("#review-group", Select).value
        if not isinstance(group, str):
            self.notify("Choose a run group first.", severity="warning")
            return
        size_text = self.query_one("#review-size", Input).value.strip()
        seed_text = self.query_one("#review-seed", Input).value.strip() or "1"
        size = int(size_text) if size_text else None
        if size is not None and size < 1:
            self.notify("The sample size must be at least 1 (or empty for all runs).", severity="warning")
            return
        self._show_progress("Loading the sample…")
        order = self.query_one("#review-order", Select).value
        self._load_sample(group, size, int(seed_text), new, doubted_first=order == "uncertain")

    @work(thread=True, exclusive=True, group="review-sample", exit_on_error=False)
    def _load_sample(self, group_id: str, size: int | None, seed: int, new: bool, *, doubted_first: bool) -> None:
        store = self.store()
        if store is None:
            return
        book = AdjudicationBook(store)
        ids = None if new else book.sample(group_id, self.rater)
        resumed = ids is not None
        if ids is None:
            ids = stratified_sample(store.runs(group_id), size, seed)
            book.keep_sample(group_id, self.rater, ids, size=size, seed=seed)
        verdicts: dict[int, dict[tuple[str, str], Record]] = {}
        for record in book.records(rater=self.rater, run_ids=ids):
            verdicts.setdefault(record.run_id, {})[(record.section, record.reference)] = record
        records = {run_id: store.run(run_id) for run_id in ids}
        decisions = {run_id: decisions_of(run.scorecard or {}) for run_id, run in records.items()}
        if doubted_first:
            movement = {run_id: sum(pair[1] - pair[0] for pair in run.ranges.values() if len(pair) == 2)
                        for run_id, run in records.items()}
            ids, decisions = uncertain_first(decisions, movement)
        runs = [ReviewRun(run_id, records[run_id].case_id, final_text(records[run_id]), decisions[run_id],
                          verdicts.get(run_id, {})) for run_id in ids]
        self.post_message(self.SampleLoaded(group_id, runs, resumed))

    @on(SampleLoaded)
    def _sample_loaded(self, event: SampleLoaded) -> None:
        self.group_id = event.group_id
        self.runs = event.runs
        if not self.runs:
            self._show_progress("This group has no complete run to review.")
            return
        self.index = next((i for i, r in enumerate(self.runs) if r.left), 0)
        if event.resumed:
            left = sum(r.left for r in self.runs)
            self.notify(f"Resuming your review of {len(self.runs)} runs: {left} decisions left.")
        self._show_run()
        self.query_one("#review-decisions", DataTable).focus()

    # Showing a run -----------------------------------------------------------------------------

    @property
    def current(self) -> ReviewRun | None:
        return self.runs[self.index] if self.runs else None

    def _show_progress(self, text: str) -> None:
        self.query_one("#review-progress", Label).update(text)

    def _progress_text(self) -> str:
        done = sum(len(r.decisions) - r.left for r in self.runs)
        total = sum(len(r.decisions) for r in self.runs)
        run = self.current
        where = f"Run {self.index + 1} of {len(self.runs)}" + (f" · case {run.case_id}" if run else "")
        return f"{where} · {done}/{total} decisions reviewed · rater {self.rater}"

    def _show_run(self, row: int = 0) -> None:
        run = self.current
        if run is None:
            return
        table = self.query_one("#review-decisions", DataTable)
        table.clear()
        for d in run.decisions:
            verdict = run.verdicts.get((d.section, d.reference))
            table.add_row(*self._cells(d, verdict), key=f"{d.section}\0{d.reference}")
        if run.decisions:
            table.move_cursor(row=min(row, len(run.decisions) - 1))
        self._show_progress(self._progress_text())
        self._show_decision()

    def _cells(self, d: Decision, verdict: Record | None) -> tuple[Text, Text, Text, Text, Text]:
        mine = Text("")
        if verdict is not None:
            style = "bold" if verdict.physician == d.evaluator or d.ungraded else "bold reverse"
            mine = Text(shown(d.section, verdict.physician), style=style)
        evaluator = Text(shown(d.section, d.evaluator) + (" ?" if d.uncertain else ""),
                         style="italic" if d.uncertain or d.ungraded else "")
        about = d.reference if d.text is None else f"{d.reference}: {d.text}"
        return (Text(d.section), evaluator, mine, Text(about[:90] + ("…" if len(about) > 90 else "")),
                Text(verdict.note if verdict else "", style="dim"))

    def selected(self) -> Decision | None:
        run = self.current
        if run is None or not run.decisions:
            return None
        row = self.query_one("#review-decisions", DataTable).cursor_row
        return run.decisions[row] if 0 <= row < len(run.decisions) else None

    @on(DataTable.RowSelected, "#review-decisions")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_agree()

    @on(DataTable.RowHighlighted, "#review-decisions")
    def _highlighted(self) -> None:
        self._show_decision()

    def _show_decision(self) -> None:
        run, decision = self.current, self.selected()
        if run is None:
            return
        answer = Text(run.final_text)
        for d in run.decisions:
            if d.start is not None and d.end is not None and 0 <= d.start < d.end <= len(run.final_text):
                answer.stylize("underline", d.start, d.end)
        reason = ""
        if decision is not None:
            if decision.start is not None and decision.end is not None:
                answer.stylize("reverse bold", decision.start, decision.end)
            elif decision.evidence and (at := run.final_text.find(decision.evidence)) >= 0:
                answer.stylize("reverse bold", at, at + len(decision.evidence))
            reason = f"{decision.section} · {decision.reference}"
            if decision.text:
                reason += f"\n{decision.text}"
            reason += f"\nevaluator: {shown(decision.section, decision.evaluator)}"
            if decision.ungraded:
                reason += " - no grader decided it: your verdict (m met, n not met) grades it"
            if decision.answer:
                reason += f"\nanswer item: {decision.answer}"
            if decision.evidence:
                reason += f"\nevidence: “{decision.evidence}”"
            if decision.reason:
                reason += f"\nwhy: {decision.reason}"
            if decision.uncertain:
                reason += f"\nthe grader is unsure: {', '.join(decision.doubts)}"
        self.query_one("#review-answer", Static).update(answer)
        self.query_one("#review-reason", Static).update(Text(reason))

    # Verdicts ----------------------------------------------------------------------------------

    def action_agree(self) -> None:
        decision = self.selected()
        if decision is None:
            return
        if decision.ungraded:
            self.notify("No grader decided this criterion, so there is nothing to agree with: grade it with m (met) "
                        "or n (not met).", severity="warning")
            return
        self._judge(decision, decision.evaluator)

    def action_verdict(self, key: str) -> None:
        decision = self.selected()
        if decision is None:
            return
        label = next((x for x in KEY_LABELS.get(key, ()) if x in decision.labels), None)
        if label is None:
            allowed = ", ".join(shown(decision.section, x) for x in decision.labels)
            self.notify(f"A {decision.section} decision is one of: {allowed}.", severity="warning")
            return
        self._judge(decision, label)

    def _judge(self, decision: Decision, label: str, note: str | None = None) -> None:
        run = self.current
        if run is None:
            return
        earlier = run.verdicts.get((decision.section, decision.reference))
        record = Record(run.run_id, run.case_id, decision.section, decision.reference, decision.evaluator, label,
                        self.rater, note if note is not None else (earlier.note if earlier else ""))
        run.verdicts[(decision.section, decision.reference)] = record
        self._save(record)
        table = self.query_one("#review-decisions", DataTable)
        row = table.cursor_row
        for (column, _), cell in zip(COLUMNS, self._cells(decision, record), strict=True):
            table.update_cell(f"{decision.section}\0{decision.reference}", column, cell)
        self._show_progress(self._progress_text())
        if note is not None:
            return
        if row + 1 < len(run.decisions):
            table.move_cursor(row=row + 1)
        elif not run.left and self.index + 1 < len(self.runs):
            self.action_next_run()
        elif not any(r.left for r in self.runs):
            self.notify("Every decision of the sample is reviewed: 'medbench agreement' prints the figures.")

    @work(thread=True, group="review-save", exit_on_error=False)
    def _save(self, record: Record) -> None:
        store = self.store()
        if store is not None:
            AdjudicationBook(store).save([record])

    def action_note(self) -> None:
        run, decision = self.current, self.selected()
        if run is None or decision is None:
            return
        earlier = run.verdicts.get((decision.section, decision.reference))

        def keep(note: str | None) -> None:
            if note is not None and (earlier is not None or not decision.ungraded):
                self._judge(decision, earlier.physician if earlier else decision.evaluator, note)
            elif note is not None:
                self.notify("Grade the criterion first (m met, n not met), then add the note.", severity="warning")

        self.app.push_screen(NoteDialog(decision, earlier.note if earlier else ""), keep)

    def action_next_run(self) -> None:
        if self.index + 1 < len(self.runs):
            self.index += 1
            self._show_run()

    def action_previous_run(self) -> None:
        if self.index > 0:
            self.index -= 1
            self._show_run()
