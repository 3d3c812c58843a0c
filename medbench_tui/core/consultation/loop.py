"""One consultation: the turn loop between a doctor (a person or a system under test)
and a simulated patient, recorded as a :class:`Transcript`.

The doctor sees the intro and the turn-zero attachments (:attr:`Consultation.opening`),
then each patient reply with the attachments released with it. Attachments are
released at turn zero (``at_start``), on request (a request or an examination in the
doctor's message names one of its ``request_keywords`` or its title, see
:mod:`simulators.intent`) or once a turn has passed (``after_turn``); every release is an
``attachment_released`` event with its turn. An attachment asked for again is shown again
(an ``attachment_shown`` event). The run ends with
:meth:`finish` (complete), or :meth:`abandon` (incomplete: ``turn_limit``,
``no_final_response``, ``cancelled``, an endpoint error).

Async because simulators may call model endpoints; sync code can drive it with
``asyncio.run(consultation.ask(...))``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from medbench_tui.core.cases.attachment_view import AttachmentView, DoctorView, attachment_view
from medbench_tui.core.cases.model import Attachment, Case
from medbench_tui.core.endpoints.errors import CONTEXT_EXCEEDED, EndpointError
from medbench_tui.core.endpoints.seeds import RunSeeds
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.simulators import LeakGuard, PatientReply, PatientSimulator, TextSink, make_simulator
from medbench_tui.core.simulators.grounded import requested
from medbench_tui.core.simulators.intent import announces_only, attachments_asked
from medbench_tui.core.simulators.voice import HAND_OVER, HAND_OVER_AGAIN
from medbench_tui.core.transcript import Event, FinalResponse, Transcript, Turn, Usage

MAX_HEARD_CHARS = 5_000
"""The most of one doctor message the patient reads (a consultation question is a few hundred
characters; a model that writes a megabyte would otherwise hold the patient for minutes).
The transcript keeps the whole message, with a ``message_cut`` event saying what was heard."""


def heard(message: str) -> str:
    """The part of ``message`` the patient reads: all of it, or up to :data:`MAX_HEARD_CHARS`
    ending at a space or line break when there is one in the second half."""
    if len(message) <= MAX_HEARD_CHARS:
        return message
    end = max(message.rfind("\n", 0, MAX_HEARD_CHARS), message.rfind(" ", 0, MAX_HEARD_CHARS))
    return message[: end if end > MAX_HEARD_CHARS // 2 else MAX_HEARD_CHARS]

__all__ = [
    "AttachmentView",
    "Consultation",
    "ConsultationOver",
    "DoctorView",
    "make_simulator",
    "requested",
]

Listener = Callable[[Turn | Event], None]


class ConsultationOver(MedbenchError):
    """The consultation has ended (final response, abandoned, or the turn limit)."""


class Consultation:
    """Owns the turn loop for one case.

    Extra to the shared interface: ``listeners`` (callables receiving each
    :class:`Turn` and :class:`Event` as it is recorded, for live views), ``error``
    (the :class:`EndpointError` that ended the run, if any), ``done``, ``case``,
    ``show(attachment)`` and ``fail(error)``.
    """

    def __init__(
        self,
        case: Case,
        simulator: PatientSimulator,
        *,
        system: str,
        bank_root: Path,
        listeners: list[Listener] | None = None,
        guard: LeakGuard | None = None,
        seeds: RunSeeds | None = None,
    ) -> None:
        """``guard``: the case's leak guard when the caller has one already (a batch plays
        each case once per system). ``seeds``: the batch run's (the runner's); the system's and
        the patient's requests send the seeds they set, and their configured ones without."""
        self.case = case
        self.simulator = simulator
        self.seeds = seeds
        self.bank_root = Path(bank_root)
        self.guard = guard or LeakGuard.from_case(case)
        self.listeners: list[Listener] = list(listeners or [])
        self.transcript = Transcript(case_id=case.id, system=system, simulator=getattr(simulator, "name", "grounded"))
        self.released: list[Attachment] = []
        self.error: EndpointError | None = None
        self.done = False
        self._started = time.perf_counter()
        self._mark = self._started
        opening = [self._release(a, 0) for a in case.attachments if a.available == "at_start"]
        self.opening = DoctorView(case.intro, opening)

    # -- state --------------------------------------------------------------
    @property
    def steps(self) -> int:
        return self.transcript.steps

    @property
    def turns_left(self) -> int:
        return max(0, self.case.max_turns - self.steps)

    def show(self, attachment: Attachment) -> AttachmentView:
        return attachment_view(attachment, self.bank_root)

    def _notify(self, item: Turn | Event) -> None:
        for listener in self.listeners:
            listener(item)

    def _event(self, event: Event) -> None:
        self.transcript.events.append(event)
        self._notify(event)

    def note(self, event: Event) -> None:
        """Record something a system saw (a reply cut short, history left out)."""
        self._event(event)

    def _release(self, attachment: Attachment, turn: int) -> AttachmentView:
        self.released.append(attachment)
        self._event(Event(turn=turn, kind="attachment_released", attachment=attachment.id))
        return self.show(attachment)

    # -- the turn loop --------------------------------------------------------
    async def ask(self, message: str, *, on_text: TextSink | None = None) -> PatientReply:
        """One turn pair: the doctor's message and exactly one patient reply, with the
        attachments it releases. ``on_text`` receives reply text as it becomes safe to
        show. Past ``max_turns`` the run ends (``turn_limit``) and
        :class:`ConsultationOver` is raised; an :class:`EndpointError` of the
        simulator propagates (the caller ends the run with :meth:`fail`)."""
        if self.done:
            raise ConsultationOver(f"the consultation of {self.case.id} has ended ({self.transcript.status})")
        if self.turns_left == 0:
            self.abandon("turn_limit")
            raise ConsultationOver(f"turn limit reached: {self.case.max_turns} questions (max_turns)")
        turn = self.steps + 1
        now = time.perf_counter()
        doctor = Turn(role="doctor", text=message, seconds=round(now - self._mark, 4))
        self.transcript.turns.append(doctor)
        self._notify(doctor)
        read = heard(message)
        if read != message:
            self._event(Event(turn=turn, kind="message_cut", reason=(
                f"the doctor's message is {len(message):,} characters; the patient read the first {len(read):,} "
                f"(at most {MAX_HEARD_CHARS:,})")))
        reply = await self.simulator.reply(read, guard=self.guard, seeds=self.seeds, on_text=on_text)
        seconds = time.perf_counter() - now
        remote = self.case.metadata.setting == "telehealth"  # on a video call the patient measures what is asked
        earlier = [t.text for t in self.transcript.turns[:-1] if t.role == "doctor"][-1:]
        asked = [a for a in attachments_asked(self.case.attachments, read, remote=remote,
                                              before=heard(earlier[0]) if earlier else "")
                 if a.available != "after_turn"
                 or a in self.released]
        if announces_only(read):  # "I'm going to pass a camera ..., ok?": only what it newly names is handed over
            asked = [a for a in asked if a not in self.released]
        again = [a for a in asked if a in self.released]
        released = [self._release(a, turn) for a in asked if a not in again]
        for attachment in again:
            self._event(Event(turn=turn, kind="attachment_shown", attachment=attachment.id))
        released += [self.show(a) for a in again]
        text = reply.text
        # the patient may have handed some over in its own words already ("Here you are: ..." beside a fact)
        missing = [a for a in asked if self.guard.said_title(a) not in text]
        if released and missing and reply.kind != "hand_over":
            hand_over = " ".join(
                (HAND_OVER_AGAIN if a in again else HAND_OVER).format(title=self.guard.said_title(a)) for a in missing
            )
            text = hand_over if reply.kind == "default" else f"{text} {hand_over}"
        released += [
            self._release(a, turn)
            for a in self.case.attachments
            if a.available == "after_turn" and a not in self.released and (a.after_turn or 0) <= turn
        ]
        patient = Turn(role="patient", text=text, facts=list(reply.facts), seconds=round(seconds, 4),
                       confidence=round(reply.confidence, 2))
        self.transcript.turns.append(patient)
        self._notify(patient)
        events = [e.model_copy(update={"turn": turn}) for e in reply.events]
        for event in events:
            self._event(event)
        self._mark = time.perf_counter()
        return replace(reply, text=text, events=events, attachments=released, seconds=seconds)

    def finish(self, final: FinalResponse) -> Transcript:
        """End the run complete with the doctor's final response."""
        if self.done:
            raise ConsultationOver(f"the consultation of {self.case.id} has already ended")
        self.transcript.final = final
        self.transcript.status = "complete"
        return self._close()

    def abandon(self, reason: str) -> Transcript:
        """End the run incomplete with ``reason`` (never scored)."""
        if self.done:
            raise ConsultationOver(f"the consultation of {self.case.id} has already ended")
        self.transcript.status = "incomplete"
        self.transcript.reason = reason
        return self._close()

    def fail(self, error: EndpointError) -> Transcript:
        """End the run incomplete because an endpoint failed (an ``endpoint_error`` event
        records the status and whether a retry could help). A request longer than the
        context ends it ``context_exceeded: <sizes>``."""
        self.error = error
        self._event(Event(turn=self.steps, kind="endpoint_error", reason=str(error), detail=error.to_json()))
        if error.code == CONTEXT_EXCEEDED:
            reason = str(error)
            return self.abandon(reason if reason.startswith(CONTEXT_EXCEEDED) else f"{CONTEXT_EXCEEDED}: {reason}")
        return self.abandon(f"endpoint error: {error}")

    def _close(self) -> Transcript:
        self.done = True
        doctor = sum(t.seconds or 0 for t in self.transcript.turns if t.role == "doctor")
        patient = sum(t.seconds or 0 for t in self.transcript.turns if t.role == "patient")
        self.transcript.timings = {
            "total": round(time.perf_counter() - self._started, 4),
            "doctor": round(doctor, 4),
            "patient": round(patient, 4),
        }
        usage = getattr(getattr(self.simulator, "client", None), "usage", None)
        if usage is not None and usage.requests:
            self.transcript.simulator_usage = Usage(**usage.as_dict())
        return self.transcript
