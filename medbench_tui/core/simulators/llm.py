"""The llm patient: any OpenAI-compatible chat model plays the patient.

The model is given only the patient record (patient, intro, facts, behaviour); its
reply is checked sentence by sentence (:func:`guard.check_reply`) before it is shown,
and a reply that leaks or says something the record does not support is replaced by
the grounded answer, with an ``Event(kind="simulator_replaced")``.

When streaming, the text sink receives each sentence once it has passed the check,
so a leaking sentence is never shown; if a later sentence fails, the whole reply is
replaced and the sink's earlier text is superseded by ``PatientReply.text``.

A reply cut at the token limit (``finish_reason: length``) is replaced too (reason
``truncated``): its last sentence is unfinished, and unfinished sentences are never
shown.
"""

from __future__ import annotations

from collections.abc import Callable

from medbench_tui.core.cases.bankconfig import LlmSimulatorConfig
from medbench_tui.core.cases.model import PatientRecord
from medbench_tui.core.endpoints.client import ChatClient, ChatReply, EndpointError
from medbench_tui.core.endpoints.seeds import RunSeeds
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.simulators import voice
from medbench_tui.core.simulators.base import PatientReply, TextSink
from medbench_tui.core.simulators.grounded import GroundedSimulator
from medbench_tui.core.simulators.guard import LeakGuard, SupportCheck, Verdict, check_reply
from medbench_tui.core.simulators.lexicon import sentences
from medbench_tui.core.simulators.markup import without_markup
from medbench_tui.core.transcript import Event

STYLE = {
    "standard": "Answer plainly and briefly.",
    "concise": "Use as few words as possible.",
    "verbose": "You tend to chat, but add no new facts.",
    "self_diagnosis": "You have read things online and worry, but never name an illness.",
    "denial": "You play your symptoms down ('it's probably nothing').",
    "clarification_seeking": "If the doctor uses a medical word a lay person would not know, ask what it means.",
    "delayed_disclosure": "Facts marked (sensitive) you only reveal the second time you are asked about them.",
}


CONVERSATION_RULES = (
    "Conversation: doctors abbreviate (N/V nausea or vomiting, SOB short of breath, CP chest pain, palps "
    "palpitations, PMH past medical history, FHx family history, LMP last period, OCP the pill, meds medicines, "
    "hx history). A short follow-up (\"which side?\", \"how long did that last?\") is about "
    "what you talked about last. Answer each part of a compound question: the fact for parts the facts cover, "
    "the default for the others. Asked about a fact again, say it again in full (\"As I said, ...\"). When the "
    "doctor wants to examine you or measure something, agree (\"Yes, go ahead.\")."
)


def dialogue_note(grounded: GroundedSimulator) -> str:
    """The dialogue state for the prompt: what was last talked about and what was already said."""
    by_id = {a.id: a for a in grounded.record.additional_answers}
    last = [by_id[f].topic for f in grounded.state.topic if f in by_id]
    told = [by_id[f].topic for f in grounded.state.disclosed if f in by_id]
    pending = [by_id[f].topic for f in grounded.state.pending if f in by_id]
    lines = []
    if last:
        lines.append(f"You last talked about: {'; '.join(last)}.")
    if pending:
        lines.append(f"You asked the doctor which they meant: {' or '.join(pending)}. Their answer chooses.")
    if told:
        lines.append(f"Already told the doctor (repeat in full if asked again): {'; '.join(told)}.")
    return "\n".join(lines)


def patient_prompt(record: PatientRecord) -> str:
    """The system prompt: the patient-visible record and the rules, nothing else."""
    patient = record.patient
    who = f"{patient.age}-year-old" if isinstance(patient.age, int) else (patient.age or "adult")
    speaker = (
        "You are the patient."
        if patient.informant == "self"
        else f"You are the patient's {patient.informant}, speaking for the patient (a {who} {patient.sex})."
    )
    default = voice.DEFAULT_ANSWERS[patient.default_answer][0]
    facts = "\n".join(
        f"- {a.topic}{' (sensitive)' if a.delayed else ''}: {a.answer}" for a in record.additional_answers
    )
    style = " ".join(STYLE[b] for b in patient.behavior)
    return (
        f"You are role-playing in a medical consultation. {speaker} Patient: {who}, {patient.sex}.\n"
        "Rules: answer only the question asked, in plain lay words, in the first person, in one to three "
        "short sentences. Say only what the facts below say; never invent symptoms, history, results, names "
        f"of illnesses or codes. If the doctor asks about anything the facts do not cover, answer exactly "
        f'"{default}" (to an open question such as "what do you do for work?": "I\'m not sure."). Never guess or '
        "name a diagnosis: asked whether it is some illness, say you don't know and hope the doctor will tell you. "
        "Do not volunteer facts nobody asked about.\n"
        f"{CONVERSATION_RULES}\n"
        f"Style: {style}\n\n"
        f"What you said when you came in:\n{record.intro.strip()}\n\n"
        f"Facts (reveal each only when asked about it):\n{facts}\n"
    )


GroundedOffer = Callable[[EndpointError], bool]
"""Asked when the model cannot answer: True continues the consultation with the grounded
patient (a person playing wants to go on; a batch run must not mix simulators)."""


class LlmSimulator:
    name = "llm"

    def __init__(self, record: PatientRecord, config: LlmSimulatorConfig, *, name: str = "llm") -> None:
        self.name = name
        self.config = config
        self.offer_grounded: GroundedOffer | None = None
        self.unavailable: EndpointError | None = None
        """Set once the grounded patient took over (see :attr:`offer_grounded`)."""
        self.left_out = 0
        """Messages of the history left out of the last request to fit context_tokens."""
        self.client = ChatClient.for_endpoint(config, role="patient")
        self.grounded = GroundedSimulator(record)
        self.support = SupportCheck(record)
        self.prompt = patient_prompt(record)
        self.messages: list[JSONObject] = [{"role": "system", "content": self.prompt}]

    def public_config(self) -> JSONObject:
        return {"name": self.name, **self.config.public()}

    def again(self) -> LlmSimulator:
        return LlmSimulator(self.grounded.record, self.config, name=self.name)

    async def reply(
        self, message: str, *, guard: LeakGuard, seeds: RunSeeds | None = None, on_text: TextSink | None = None
    ) -> PatientReply:
        note = dialogue_note(self.grounded)  # the state before this message
        so_far = f"\nThe consultation so far:\n{note}\n" if note else ""
        self.messages[0] = {"role": "system", "content": self.prompt + so_far}
        # markup and role text in the message are not the doctor's question: the model never sees them
        self.messages.append({"role": "user", "content": without_markup(message) or "(no question)"})
        before = dict(self.grounded.state.disclosed)
        fallback = self.grounded.answer(message)  # always: it keeps asked/clarified counts
        if self.unavailable is not None:
            return fallback
        try:
            text, verdict = await self._ask(guard, self.config.sampling("patient", seeds), on_text)
        except EndpointError as exc:
            if self.offer_grounded is None or not self.offer_grounded(exc):
                raise
            self.unavailable = exc
            fallback.events.append(Event(turn=0, kind="simulator_unavailable", reason=str(exc),
                                         detail={"continued_with": "grounded", **exc.to_json()}))
            return fallback
        trimmed = self._trimmed()
        if not verdict.ok:
            self.messages.append({"role": "assistant", "content": fallback.text})
            event = Event(
                turn=0,
                kind="simulator_replaced",
                reason=verdict.reason,
                detail={"sentence": verdict.sentence or "", "replacement": fallback.text, "reply": text,
                        **({"why": verdict.why} if verdict.why else {})},
            )
            fallback.events += [*trimmed, event]
            return fallback
        self.messages.append({"role": "assistant", "content": text})
        self.grounded.state.disclosed = before
        self.grounded.note_disclosed(verdict.facts)
        if verdict.facts:
            self.grounded.state.topic = list(verdict.facts)
        return PatientReply(text.strip(), verdict.facts, "answer" if verdict.facts else "default", events=trimmed)

    def _trimmed(self) -> list[Event]:
        """A ``context_trimmed`` event when more of the history was left out than before."""
        left_out = self.client.last.left_out if self.client.last is not None else 0
        if left_out <= self.left_out:
            return []
        self.left_out = left_out
        detail = {"role": "patient", "left_out": left_out, "context_tokens": self.config.context_tokens}
        return [Event(turn=0, kind="context_trimmed", detail=detail)]

    async def _ask(self, guard: LeakGuard, sampling: JSONObject, on_text: TextSink | None) -> tuple[str, Verdict]:
        if self.config.stream:
            return await self._streamed(guard, sampling, on_text)
        answer = await self.client.complete(self.messages, model=self.config.model, **sampling)
        verdict = self._cut(answer, sampling) or check_reply(answer.text, guard, self.support)
        if verdict.ok and on_text is not None:
            on_text(answer.text)
        return answer.text, verdict

    async def _streamed(
        self, guard: LeakGuard, sampling: JSONObject, on_text: TextSink | None
    ) -> tuple[str, Verdict]:
        """Receive deltas; pass each finished sentence to the sink once it is checked.
        After a failed sentence nothing more is shown (the stream is still read to its
        end, so the connection closes cleanly and usage is counted)."""
        received = ""
        shown = 0
        failed: Verdict | None = None

        def show(ready: list[str]) -> Verdict | None:
            nonlocal shown
            for sentence in ready[shown:]:
                verdict = check_reply(sentence, guard, self.support)
                if not verdict.ok:
                    return verdict
                if on_text is not None:
                    on_text(sentence)
                shown += 1
            return None

        async for delta in self.client.stream(self.messages, model=self.config.model, **sampling):
            received += delta
            if failed is None:
                done = sentences(received)
                finished = received.rstrip().endswith((".", "!", "?"))
                failed = show(done if finished else done[:-1])
        cut = self._cut(self.client.last, sampling)
        if failed is None and cut is None:
            failed = show(sentences(received))
        return received, failed or cut or check_reply(received, guard, self.support)

    def _cut(self, answer: ChatReply | None, sampling: JSONObject) -> Verdict | None:
        """The verdict on a reply cut at the token limit (``sampling``'s), or None when it ended."""
        if answer is None or not answer.truncated:
            return None
        limit = sampling["max_completion_tokens"] or sampling["max_tokens"]
        return Verdict(False, "truncated", [], None, f"the reply was cut at its token limit ({limit})")

    async def aclose(self) -> None:
        await self.client.aclose()
