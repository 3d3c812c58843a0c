"""The grounded patient: offline, deterministic, and it says only what the record says.

It sees only the :class:`PatientRecord`. A doctor message is read once into typed questions
(:mod:`question`: markup and role text taken out, shorthand written out, each question's
act, subject, aspects, who is asked and what it points back to); the planner's named rules
(:mod:`planner`) decide what each question gets, with the facts the matcher (:mod:`matcher`)
finds by meaning, weighted by how specific each word is in this record; then the reply is
said in the patient's voice (:mod:`voice`), with how sure the patient is of it. A question
nothing covers gets the case's default answer, never a new fact.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from medbench_tui.core.cases.model import PatientRecord
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.simulators import voice
from medbench_tui.core.simulators.base import SURE, PatientReply, ReplyKind, TextSink
from medbench_tui.core.simulators.dialogue import DialogueState
from medbench_tui.core.simulators.guard import LeakGuard
from medbench_tui.core.simulators.intent import requested, split_questions
from medbench_tui.core.simulators.lexicon import units
from medbench_tui.core.simulators.matcher import (
    CONCEPT_FACTOR,
    FIELD_WEIGHTS,
    MATCH_THRESHOLD,
    PARTS_OF_THE_BODY,
    SYMPTOM_CONCEPTS,
    Matcher,
    Source,
)
from medbench_tui.core.simulators.planner import Part, Planner
from medbench_tui.core.simulators.question import read_message

if TYPE_CHECKING:
    from medbench_tui.core.endpoints.seeds import RunSeeds

__all__ = ["GroundedSimulator", "PatientState", "requested", "split_questions"]

PatientState = DialogueState
"""The dialogue state under its earlier name."""
NO_FACT_KINDS: tuple[ReplyKind, ...] = (
    "hand_over", "cooperation", "clarification", "deflection", "repeat", "small_talk"
)
"""What a reply that tells no fact is, by the first of its parts' kinds in this order (else a default)."""


class GroundedSimulator:
    """The default patient: record-only, deterministic, a reply in well under 5 ms."""

    name = "grounded"

    def __init__(self, record: PatientRecord) -> None:
        self.record = record
        self.matcher = Matcher(record)
        self.behaviors = set(record.patient.behavior)
        self.planner = Planner(record, self.matcher, self.behaviors)
        self._complaint = self._chief_complaint()
        self.reset()

    def reset(self) -> None:
        """Forget the dialogue (a new consultation with the same patient)."""
        self.state = DialogueState(handed_over={a.id for a in self.record.attachments if a.available == "at_start"})

    def again(self) -> GroundedSimulator:
        """A fresh dialogue over the same record and fact index (building the index is
        most of a patient's set-up)."""
        fresh = copy.copy(self)
        fresh.planner = copy.copy(self.planner)
        fresh.reset()
        return fresh

    def public_config(self) -> JSONObject:
        return {"name": self.name, "kind": "grounded", "match_threshold": MATCH_THRESHOLD}

    async def reply(
        self, message: str, *, guard: LeakGuard | None = None, seeds: RunSeeds | None = None,
        on_text: TextSink | None = None,
    ) -> PatientReply:
        """:meth:`answer`, as a consultation asks it (the grounded patient does not sample: no seed)."""
        reply = self.answer(message, guard)
        if on_text is not None:
            on_text(reply.text)
        return reply

    # -- answering ----------------------------------------------------------
    def answer(self, message: str, guard: LeakGuard | None = None) -> PatientReply:
        """The reply to one doctor message (synchronous; the engine of every patient):
        each question read once, then planned by the rules, the facts chosen for the whole
        message (a fact once per reply; what the doctor heard before not said again beside new
        facts unless asked for again; the default for a part no fact given answers), then said.
        With the case's ``guard``, the patient's own wording (a fact's topic when it asks which the
        doctor means, the doctor's words echoed in a "No ...") never names what the guard keeps back."""
        self.state.replies += 1
        key = f"{message}|{self.state.replies}"
        concise = "concise" in self.behaviors
        read = read_message(message, self.record.patient.informant)
        answered = self.planner.plan(read, self.state, key, guard)
        deflected = False  # one deflection a reply: "Can we come back to that?" is not said for each part
        for part in answered:
            if part.sources:
                deflected = self._tell(part, key, deflected) or deflected
        if deflected:  # a hedge never comes with a denial: "Can we come back to that? No, nothing like that." denies
            answered = [p for p in answered if not (p.kind == "default" and voice.is_negative(p.text))] or answered
        facts = [f for p in answered for f in p.facts]
        kinds = [p.kind for p in answered]
        kind: ReplyKind = "answer" if facts else next((k for k in NO_FACT_KINDS if k in kinds), "default")
        parts = [p.text for p in answered if p.text]
        if facts:
            self.state.topic = facts
            self.state.told.extend(facts)
        elif kind in ("default", "hand_over"):  # after a hand-over, "what did they say?" is not of the fact before it
            self.state.topic = []
        if facts and not concise:
            if "self_diagnosis" in self.behaviors and not self.state.believed:
                parts.append(voice.self_diagnosis(self._complaint, self.record.case_id))
                self.state.believed = True
            if "verbose" in self.behaviors:
                parts.append(voice.pick(voice.FILLERS, key))
        confidence = min((p.confidence for p in answered), default=1.0)
        self.state.confidence.append(confidence)
        return PatientReply(" ".join(parts), facts, kind, confidence=confidence)

    def _tell(self, part: Part, key: str, deflected_before: bool = False) -> bool:
        """Say the part's facts (a delayed one only the second time it is asked for); the deflection is said once a
        reply (``deflected_before``: an earlier part said it). Whether this part deflected."""
        concise = "concise" in self.behaviors
        texts: list[str] = []
        told: list[Source] = []
        deflected = False
        for source in part.sources:
            assert source.id is not None
            self.state.asked[source.id] = self.state.asked.get(source.id, 0) + 1
            if source.delayed and "delayed_disclosure" in self.behaviors and self.state.asked[source.id] < 2:
                deflected = True
                continue
            texts.append(self._say(source))
            told.append(source)
            self.state.disclosed[source.id] = self.state.disclosed.get(source.id, 0) + 1
        part.sources = told
        if not told:
            part.text, part.kind = "" if deflected_before else voice.pick(voice.DEFLECTIONS, key), "deflection"
            return True
        if deflected and not concise and not deflected_before:
            texts.append(voice.pick(voice.DEFLECTIONS, key))
        part.text = " ".join(texts)
        if part.preface:  # the doubt said by a sentence of its own ("I'm not sure about that word.")
            part.text = f"{part.preface} {part.text}"
        elif part.confidence < SURE:  # doubt said aloud, never a fact stated as the answer
            part.text = voice.hedged(part.text, key)
        return deflected

    def _say(self, source: Source) -> str:
        """A fact in the patient's voice, styled by the behaviour modifiers."""
        assert source.id is not None
        answer = source.text.strip()
        concise = "concise" in self.behaviors
        if concise:
            answer = voice.strip_filler(answer)
        if self.state.disclosed.get(source.id):
            return voice.REPEAT.format(answer=voice.lower_first(answer))  # again in full
        if "denial" in self.behaviors and not concise and not voice.is_negative(answer) and self._symptom(source):
            return f"{voice.pick(voice.DENIAL_PREFIXES, source.id)} {voice.lower_first(answer)}"
        return answer

    @staticmethod
    def _symptom(source: Source) -> bool:
        """A fact about a symptom (what a patient in denial plays down)."""
        return any(source.profile.get(c, 0) >= FIELD_WEIGHTS["topic"] * CONCEPT_FACTOR for c in SYMPTOM_CONCEPTS)

    def _chief_complaint(self) -> str:
        """The first symptom of the intro in the patient's words, with the part of the body written beside it
        ("sore throat", "chest pain"), never the bare "sore" or "pain"."""
        said = units(self.record.intro)
        for i, unit in enumerate(said):
            if any(c in unit.terms for c in SYMPTOM_CONCEPTS):
                before = said[i - 1] if i and said[i - 1].terms & PARTS_OF_THE_BODY else None
                after = said[i + 1] if i + 1 < len(said) and said[i + 1].terms & PARTS_OF_THE_BODY else None
                return " ".join(u.text for u in (before, unit, after) if u is not None)
        return "symptoms"

    def note_disclosed(self, ids: list[str]) -> None:
        """Count facts another voice (the llm patient) disclosed, for later repeats."""
        for fact_id in ids:
            self.state.disclosed[fact_id] = self.state.disclosed.get(fact_id, 0) + 1
