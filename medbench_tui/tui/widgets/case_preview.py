"""The case as the doctor first sees it and as the simulated patient knows it.

Everything else in the case (diagnosis, differential, workup, treatment, control
questions, safety checks, notes) is hidden from both: the preview lets an author check
that nothing in the visible parts gives the answer away.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from medbench_tui.core.cases.model import Case, patient_record

HIDDEN = "diagnosis, differential, workup, treatment, control questions, critical conditions, notes"


class CasePreview(VerticalScroll):
    DEFAULT_CSS = """
    CasePreview { height: 1fr; padding: 0 1; }
    CasePreview > Static { margin-bottom: 1; }
    CasePreview > .preview-heading { color: $primary; text-style: bold; margin-bottom: 0; }
    """

    def compose(self) -> ComposeResult:
        yield Static("What the doctor sees at the start", classes="preview-heading")
        yield Static(id="preview-doctor", markup=False)
        yield Static("What the patient knows", classes="preview-heading")
        yield Static(id="preview-patient", markup=False)
        yield Static(Text(f"Hidden from both: {HIDDEN}.", style="italic"), id="preview-hidden")

    def on_mount(self) -> None:
        self.border_title = "Preview"
        self.show(None, stale=False)

    def show(self, case: Case | None, *, stale: bool) -> None:
        """Show ``case``; ``stale`` says it is the last version that could be read, not the text now."""
        doctor = self.query_one("#preview-doctor", Static)
        patient = self.query_one("#preview-patient", Static)
        if case is None:
            doctor.update(
                Text("Shown once the case has the structure of a case (see the problems below).", style="italic")
            )
            patient.update("")
            return
        note = Text("(from the last version that could be read)\n", style="italic") if stale else Text()
        doctor.update(note + doctor_view(case))
        patient.update(note + patient_view(case))


def doctor_view(case: Case) -> Text:
    text = Text()
    text.append("The patient says:\n", style="bold")
    text.append(case.intro.strip() + "\n")
    opening = [a for a in case.attachments if a.available == "at_start"]
    text.append("\nAttachments at the start:", style="bold")
    if not opening:
        text.append(" none")
    for attachment in opening:
        text.append(f"\n• {attachment.title} ({attachment.kind})")
        body = attachment.content or attachment.description
        if body:
            text.append(f"\n  {body.strip()}")
    return text


def patient_view(case: Case) -> Text:
    record = patient_record(case)
    p = record.patient
    text = Text()
    text.append("Patient: ", style="bold")
    age = f"{p.age} years" if isinstance(p.age, int) else (p.age or "age not given")
    text.append(f"{age}, {p.sex}; speaking: {p.informant}; behaviour: {', '.join(p.behavior)}\n")
    text.append("Anything the record does not cover: ", style="bold")
    text.append(f"{p.default_answer}\n")
    text.append("\nOpening words:\n", style="bold")
    text.append(record.intro.strip() + "\n")
    text.append("\nAnswers when asked:", style="bold")
    for answer in record.additional_answers:
        text.append(f"\n• {answer.topic}", style="bold")
        if answer.delayed:
            text.append(" (only when asked twice)", style="italic")
        text.append(f"\n  {answer.answer.strip()}")
    return text
