"""The final response form: diagnoses and a ranked differential (with WHO ICD-10 search
as you type), workup and treatment items, and free-text advice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Input, OptionList, Static, TextArea
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from medbench_tui.core.transcript import FinalDiagnosis, FinalResponse
from medbench_tui.tui.typed_app import medbench_app
from medbench_tui.tui.widgets.entry_input import EntryInput
from medbench_tui.tui.worker_failures import ReportsWorkerFailures

if TYPE_CHECKING:
    from medbench_tui.core.icd10.model import SearchHit

SUGGESTIONS = 6
ICD_MIN_QUERY = 3
EXPLANATION = (
    "Your final response is all that is scored. Type an item and press Enter to add it; in the "
    "diagnosis lists, ↓ picks a WHO ICD-10 match. On a list: Delete removes, Ctrl+↑/↓ moves."
)


class EntryList(ReportsWorkerFailures, Vertical):
    """A list the player builds: type and press Enter to add; Delete removes; Ctrl+Up and
    Ctrl+Down move. With ``icd``, matching WHO ICD-10 codes are suggested while typing."""

    DEFAULT_CSS = """
    EntryList { height: 1fr; border: round $foreground 25%; border-title-color: $text-muted; }
    EntryList:focus-within { border: round $primary; border-title-color: $primary; }
    EntryList > Input { margin: 0; }
    EntryList > .entry-suggestions { height: auto; max-height: 8; display: none; overlay: screen;
                                     constrain: none inside; border: tall $border-blurred; background: $panel; }
    EntryList > .entry-suggestions:focus { border: tall $border; }
    EntryList > .entry-suggestions.-shown { display: block; }
    EntryList > .entry-items { height: 1fr; border: none; }
    EntryList > .entry-items > .option-list--option-highlighted { background: transparent; color: $foreground;
                                                                  text-style: none; }
    EntryList > .entry-items:focus > .option-list--option-highlighted { background: $block-cursor-background;
                                                                        color: $block-cursor-foreground; }
    """
    # Tab leaves the list as a whole (its suggestions and items are reached with ↓), and
    # what was typed but not yet added goes in first: typing is never left behind unseen.

    BINDINGS = [
        Binding("down", "suggestions", "ICD-10 matches", id="entry.suggestions", show=False),
        Binding("delete", "remove", "Remove", id="entry.remove"),
        Binding("ctrl+up", "move(-1)", "Move up", id="entry.move_up"),
        Binding("ctrl+down", "move(1)", "Move down", id="entry.move_down"),
        Binding("tab", "leave(1)", "Next field", id="entry.next", show=False),
        Binding("shift+tab", "leave(-1)", "Previous field", id="entry.previous", show=False),
    ]

    @dataclass
    class Changed(Message):
        entries: EntryList

    @dataclass
    class SuggestionsFound(Message):
        query: str
        hits: list[SearchHit]

    def __init__(self, title: str, placeholder: str, *, icd: bool = False, ranked: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.heading = title
        self.placeholder = placeholder
        self.icd = icd
        self.ranked = ranked
        self.items: list[FinalDiagnosis | str] = []
        self._hits: list[SearchHit] = []

    def compose(self) -> ComposeResult:
        yield EntryInput(placeholder=self.placeholder, compact=True, classes="entry-input")
        yield OptionList(classes="entry-suggestions")
        yield OptionList(classes="entry-items")

    def on_mount(self) -> None:
        self.border_title = self.heading
        self.input.cursor_blink = medbench_app(self).cursor_blink

    @property
    def input(self) -> Input:
        return self.query_one(".entry-input", Input)

    @property
    def suggestions(self) -> OptionList:
        return self.query_one(".entry-suggestions", OptionList)

    @property
    def listed(self) -> OptionList:
        return self.query_one(".entry-items", OptionList)

    # The items -------------------------------------------------------------------------

    def set_items(self, items: list[FinalDiagnosis] | list[str]) -> None:
        self.items = list(items)
        self._show_items()

    def _show_items(self, highlight: int | None = None) -> None:
        listed = self.listed
        listed.set_options(Option(self._label(n, item)) for n, item in enumerate(self.items, 1))
        if self.items:
            listed.highlighted = min(highlight if highlight is not None else len(self.items) - 1, len(self.items) - 1)
        self.border_title = f"{self.heading} ({len(self.items)})" if self.items else self.heading

    def _label(self, number: int, item: FinalDiagnosis | str) -> Content:
        prefix = f"{number}. " if self.ranked else "• "
        if isinstance(item, FinalDiagnosis):
            return Content.assemble(prefix, item.name, (f"  {item.icd10}" if item.icd10 else "", "bold"))
        return Content.assemble(prefix, str(item))

    def diagnoses(self) -> list[FinalDiagnosis]:
        """The items of a list of diagnoses (``icd``: every item is one)."""
        return [item for item in self.items if isinstance(item, FinalDiagnosis)]

    def texts(self) -> list[str]:
        """The items of a list of lines (not ``icd``: every item is one)."""
        return [item for item in self.items if isinstance(item, str)]

    def add(self, item: FinalDiagnosis | str) -> None:
        self.items.append(item)
        self._show_items()
        self.post_message(self.Changed(self))

    def action_remove(self) -> None:
        index = self.listed.highlighted
        if index is None or not self.items or not self.listed.has_focus:
            return
        del self.items[index]
        self._show_items(highlight=index)
        if not self.items:
            self.input.focus()
        self.post_message(self.Changed(self))

    def action_move(self, step: int) -> None:
        index = self.listed.highlighted
        if index is None or not self.items:
            return
        target = index + step
        if not 0 <= target < len(self.items):
            return
        self.items[index], self.items[target] = self.items[target], self.items[index]
        self._show_items(highlight=target)
        self.post_message(self.Changed(self))

    def action_leave(self, step: int) -> None:
        """Add what was typed, then focus the next (``step`` -1: previous) field outside this list."""
        self.commit_typed()
        chain = self.screen.focus_chain
        here = next((i for i, widget in enumerate(chain) if widget.has_focus), 0)
        for offset in range(1, len(chain) + 1):
            widget = chain[(here + step * offset) % len(chain)]
            if self not in widget.ancestors_with_self:
                other = next((w for w in widget.ancestors_with_self if isinstance(w, EntryList)), None)
                (other.input if other is not None else widget).focus()  # another list: its box
                return

    # Typing ---------------------------------------------------------------------------------

    def commit_typed(self) -> None:
        """Add the text in the box as an item, as Enter would (nothing typed: nothing added)."""
        typed, self.input.value = self.input.value, ""
        self._add_typed(typed)

    @on(Input.Submitted, ".entry-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._add_typed(event.value)  # the box emptied itself at the Enter key

    def _add_typed(self, typed: str) -> None:
        text = typed.strip()
        if not text:
            return
        if self.icd:
            from medbench_tui.core.practice.session import parse_diagnosis

            item: FinalDiagnosis | str | None = parse_diagnosis(text)
        else:
            item = " ".join(text.split())
        if item:
            self.add(item)

    @on(Input.Changed, ".entry-input")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        query = event.value.strip()
        if self.icd and len(query) >= ICD_MIN_QUERY:
            self._search(query)
        else:
            self._show_suggestions([])

    @work(thread=True, exclusive=True, exit_on_error=False)
    def _search(self, query: str) -> None:
        from medbench_tui.core import icd10

        hits = icd10.search(query, limit=SUGGESTIONS)
        if not get_current_worker().is_cancelled:
            self.post_message(self.SuggestionsFound(query, hits))

    @on(SuggestionsFound)
    def _found(self, event: SuggestionsFound) -> None:
        event.stop()
        if event.query == self.input.value.strip():
            self._show_suggestions(event.hits)

    def _show_suggestions(self, hits: list[SearchHit]) -> None:
        self._hits = list(hits)
        suggestions = self.suggestions
        suggestions.set_options(Option(Content.assemble((f"{h.code:<6} ", "bold"), h.title)) for h in self._hits)
        suggestions.set_class(bool(self._hits), "-shown")

    def action_suggestions(self) -> None:
        if self.input.has_focus and self._hits:
            self.suggestions.focus()
            self.suggestions.highlighted = 0
        elif self.input.has_focus and self.items:
            self.listed.focus()

    @on(OptionList.OptionSelected, ".entry-suggestions")
    def _suggestion_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        hit = self._hits[event.option_index]
        self.add(FinalDiagnosis(name=hit.title, icd10=hit.code))
        self.input.value = ""
        self._show_suggestions([])
        self.input.focus()

    @on(OptionList.OptionSelected, ".entry-items")
    def _item_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("remove", "move"):
            return self.listed.has_focus and bool(self.items)
        return True


class FinalResponseForm(Vertical):
    """The whole final response; Submit (or Ctrl+S on the screen) sends it."""

    DEFAULT_CSS = """
    FinalResponseForm { height: 1fr; padding: 0 1; }
    FinalResponseForm > #final-explanation { color: $text-muted; height: auto; margin-bottom: 1; }
    FinalResponseForm > #final-lists { grid-size: 2 2; grid-gutter: 0 1; height: 1fr; }
    FinalResponseForm > #final-advice { height: 7; border: round $foreground 25%; border-title-color: $text-muted; }
    FinalResponseForm > #final-advice:focus { border: round $primary; border-title-color: $primary; }
    FinalResponseForm > #final-buttons { height: auto; align-horizontal: right; }
    FinalResponseForm > #final-buttons Button { margin-left: 1; }
    """

    @dataclass
    class Submitted(Message):
        final: FinalResponse

    @dataclass
    class BackRequested(Message):
        """The player wants to go on with the consultation."""

    @dataclass
    class Edited(Message):
        """Something in the form changed (the session autosave keeps the draft)."""

    def compose(self) -> ComposeResult:
        yield Static(EXPLANATION, id="final-explanation")
        with Grid(id="final-lists"):
            yield EntryList("Diagnoses", "A diagnosis or a WHO ICD-10 code", icd=True, id="final-diagnoses")
            yield EntryList(
                "Differential, most likely first", "Another diagnosis to consider", icd=True, ranked=True,
                id="final-differential",
            )
            yield EntryList("Workup", "A test or investigation you would order", id="final-workup")
            yield EntryList("Treatment and management", "A treatment, referral or plan", id="final-treatment")
        yield TextArea(
            id="final-advice", soft_wrap=True, placeholder="What you tell the patient, and when to seek help"
        )
        with Horizontal(id="final-buttons"):
            yield Button("Back to the consultation", id="final-back")
            yield Button("Submit final response", id="final-submit", variant="primary")

    def on_mount(self) -> None:
        advice = self.query_one("#final-advice", TextArea)
        advice.border_title = "Advice and safety-netting"
        advice.cursor_blink = medbench_app(self).cursor_blink

    def focus_first(self) -> None:
        self.query_one("#final-diagnoses", EntryList).input.focus()

    def value(self) -> FinalResponse:
        advice = self.query_one("#final-advice", TextArea).text.strip()
        return FinalResponse(
            diagnoses=self.query_one("#final-diagnoses", EntryList).diagnoses(),
            differential=self.query_one("#final-differential", EntryList).diagnoses(),
            workup=self.query_one("#final-workup", EntryList).texts(),
            treatment=self.query_one("#final-treatment", EntryList).texts(),
            advice=advice or None,
        )

    def load(self, final: FinalResponse | None) -> None:
        """Fill the form (a draft from the autosave), or empty it."""
        final = final or FinalResponse()
        self.query_one("#final-diagnoses", EntryList).set_items(final.diagnoses)
        self.query_one("#final-differential", EntryList).set_items(final.differential)
        self.query_one("#final-workup", EntryList).set_items(final.workup)
        self.query_one("#final-treatment", EntryList).set_items(final.treatment)
        self.query_one("#final-advice", TextArea).load_text(final.advice or "")

    def submit(self) -> None:
        for entries in self.query(EntryList):  # typed but not yet added: it is part of the answer
            entries.commit_typed()
        self.post_message(self.Submitted(self.value()))

    @on(Button.Pressed, "#final-submit")
    def _submit_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.submit()

    @on(Button.Pressed, "#final-back")
    def _back_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.BackRequested())

    @on(EntryList.Changed)
    @on(TextArea.Changed, "#final-advice")
    def _edited(self, event: Message) -> None:
        event.stop()
        self.post_message(self.Edited())
