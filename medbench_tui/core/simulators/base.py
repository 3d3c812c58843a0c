"""What every patient simulator gives back, and the interface it implements."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.transcript import Event

if TYPE_CHECKING:
    from medbench_tui.core.cases.attachment_view import AttachmentView
    from medbench_tui.core.endpoints.seeds import RunSeeds
    from medbench_tui.core.simulators.guard import LeakGuard

SURE = 0.8
"""A reply at least this confident states its facts as certain; below it, the patient says its
doubt aloud (it asks what the doctor means, or says it is not sure that is what was asked)."""

ReplyKind = Literal[
    "answer", "default", "small_talk", "clarification", "deflection", "repeat", "hand_over", "cooperation"
]


@dataclass
class PatientReply:
    """One patient turn: the text, the case facts it disclosed, and what happened.

    ``events`` carry turn 0 until the consultation stamps them with their turn;
    ``attachments`` (those released with this reply) are filled in by the consultation.
    """

    text: str
    facts: list[str] = field(default_factory=list)
    kind: ReplyKind = "answer"
    events: list[Event] = field(default_factory=list)
    attachments: list[AttachmentView] = field(default_factory=list)
    seconds: float | None = None
    confidence: float = 1.0
    """How sure the patient is that the reply answers what was asked (0-1; see :data:`SURE`)."""


TextSink = Callable[[str], None]
"""Receives reply text as it becomes safe to show (the llm patient: checked sentences)."""


class PatientSimulator(Protocol):
    name: str

    def public_config(self) -> JSONObject: ...

    def again(self) -> PatientSimulator:
        """The same patient for another consultation: what was worked out from the record
        is kept (a batch plays each case once per system), the dialogue is not."""
        ...

    async def reply(
        self, message: str, *, guard: LeakGuard, seeds: RunSeeds | None = None, on_text: TextSink | None = None
    ) -> PatientReply:
        """The patient's answer to one doctor message. ``guard`` (built from the whole
        case by the consultation) is for checking a reply, never for producing one; ``seeds``
        (the batch run's, from the consultation) set the seed a sampling patient sends."""
        ...
