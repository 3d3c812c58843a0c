"""Modal questions: each returns a typed answer through ``dismiss``."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.validation import ValidationResult, Validator
from textual.widgets import Button, Input, Label, Static
from textual.widgets.button import ButtonVariant


class _ChoiceDialog(ModalScreen[str]):
    """A question with a few answers; each answer has a button and a key."""

    CHOICES: ClassVar[tuple[tuple[str, str, ButtonVariant], ...]] = ()
    """(answer, button label, button variant); the last answer is the one Escape gives."""

    def __init__(self, title: str, question: str) -> None:
        super().__init__()
        self._title = title
        self._question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title", markup=False)
            yield Static(self._question, classes="dialog-question", markup=False)
            with Horizontal(classes="dialog-buttons"):
                for answer, label, variant in self.CHOICES:
                    yield Button(label, id=answer, variant=variant)

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id)

    def action_choose(self, answer: str) -> None:
        self.dismiss(answer)


UnsavedAnswer = Literal["save", "discard", "cancel"]
RecoveryAnswer = Literal["recover", "discard", "cancel"]


class UnsavedChangesDialog(_ChoiceDialog):
    """The open case has changes that are not saved: save, discard or go back."""

    CHOICES = (
        ("save", "Save (s)", "primary"),
        ("discard", "Discard (d)", "error"),
        ("cancel", "Cancel (esc)", "default"),
    )
    BINDINGS = [
        Binding("s", "choose('save')", "Save", id="unsaved.save"),
        Binding("d", "choose('discard')", "Discard changes", id="unsaved.discard"),
        Binding("escape", "choose('cancel')", "Cancel", id="unsaved.cancel"),
    ]


class SwapRecoveryDialog(_ChoiceDialog):
    """An autosave of unsaved work exists for the case being opened."""

    CHOICES = (
        ("recover", "Recover (r)", "primary"),
        ("discard", "Discard it (d)", "error"),
        ("cancel", "Cancel (esc)", "default"),
    )
    BINDINGS = [
        Binding("r", "choose('recover')", "Recover the autosave", id="recovery.recover"),
        Binding("d", "choose('discard')", "Discard the autosave", id="recovery.discard"),
        Binding("escape", "choose('cancel')", "Do not open the case", id="recovery.cancel"),
    ]


ExternalChangeAnswer = Literal["reload", "overwrite", "compare", "cancel"]


class ExternalChangeDialog(_ChoiceDialog):
    """The case file changed on disk since the editor read it (another program, a git pull)."""

    CHOICES = (
        ("reload", "Reload (r)", "primary"),
        ("overwrite", "Overwrite (o)", "error"),
        ("compare", "Compare (c)", "default"),
        ("cancel", "Cancel (esc)", "default"),
    )
    BINDINGS = [
        Binding("r", "choose('reload')", "Reload the file, dropping the editor's changes", id="external.reload"),
        Binding("o", "choose('overwrite')", "Overwrite the file with the editor's text", id="external.overwrite"),
        Binding("c", "choose('compare')", "Compare the two", id="external.compare"),
        Binding("escape", "choose('cancel')", "Do not save", id="external.cancel"),
    ]


class ConfirmDialog(ModalScreen[bool]):
    """A yes/no question; Escape means no."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("escape,n", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, title: str, question: str, *, yes: str = "Yes", no: str = "Cancel") -> None:
        super().__init__()
        self._title, self._question, self._yes, self._no = title, question, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title", markup=False)
            yield Static(self._question, classes="dialog-question", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self._yes} (y)", id="yes", variant="error")
                yield Button(f"{self._no} (esc)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class _CheckedBy(Validator):
    def __init__(self, check: Callable[[str], str | None]) -> None:
        super().__init__()
        self._check = check

    def validate(self, value: str) -> ValidationResult:
        problem = self._check(value.strip())
        return self.failure(problem) if problem else self.success()


class CaseIdDialog(ModalScreen[str | None]):
    """Ask for the id of a new case; ``check`` says what is wrong with one (or None)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="case_id.cancel")]

    def __init__(self, title: str, explanation: str, check: Callable[[str], str | None], *, value: str = "") -> None:
        super().__init__()
        self._title, self._explanation, self._check, self._value = title, explanation, check, value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title", markup=False)
            yield Static(self._explanation, classes="dialog-question", markup=False)
            yield Input(
                self._value,
                placeholder="e.g. im-cap-002",
                validators=[_CheckedBy(self._check)],
                validate_on=["changed", "submitted"],
                id="case-id",
            )
            yield Static("", id="case-id-problem", classes="dialog-problem", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Create", id="create", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        problem = event.validation_result.failure_descriptions if event.validation_result else []
        self.query_one("#case-id-problem", Static).update(problem[0] if problem and event.value else "")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self._submit(event.value)

    @on(Button.Pressed, "#create")
    def _create(self) -> None:
        self._submit(self.query_one(Input).value)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    def _submit(self, value: str) -> None:
        value = value.strip()
        problem = self._check(value)
        if problem:
            self.query_one("#case-id-problem", Static).update(problem)
            return
        self.dismiss(value)


class NameDialog(ModalScreen[str]):
    """Ask a student for their name at the start of a served session (it cannot be skipped:
    the name is who their runs belong to)."""

    def __init__(self, check: Callable[[str], str | None]) -> None:
        super().__init__()
        self._check = check

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Welcome to medbench", classes="dialog-title", markup=False)
            yield Static("Your name: your consultations and scorecards are stored under it for your tutor.",
                         classes="dialog-question", markup=False)
            yield Input(placeholder="e.g. Sam Patel", validators=[_CheckedBy(self._check)],
                        validate_on=["changed", "submitted"], id="player-name")
            yield Static("", id="player-name-problem", classes="dialog-problem", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Start", id="start", variant="primary")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self._submit(event.value)

    @on(Button.Pressed, "#start")
    def _start(self) -> None:
        self._submit(self.query_one(Input).value)

    def _submit(self, value: str) -> None:
        problem = self._check(value)
        if problem:
            self.query_one("#player-name-problem", Static).update(problem)
            return
        self.dismiss(value.strip())
