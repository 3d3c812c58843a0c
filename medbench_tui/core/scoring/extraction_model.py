"""What was extracted from a final response, with its evidence, and the extractor API.

An extractor turns a :class:`~medbench_tui.core.transcript.FinalResponse` into
entities: diagnoses, differential, workup, treatment. Every entity carries evidence:
the span of the final text it came from (character offsets into ``final.text``, or
into ``final.advice`` when ``field`` says so, and the quoted text), the structured
field it was typed in (``"structured field workup[2]"``), or ``NO_EVIDENCE`` (then it
is kept for the record but never scored). Negated mentions ("avoid NSAIDs") are kept
with their cue, for display, and are never scored as given.

Structured fields are taken as they are, by every extractor (:func:`structured_entities`);
the free text is what extractors differ in. When both exist, both are used: an
answer found in both counts once (the structured entry first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from pydantic import BaseModel, Field

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import cues
from medbench_tui.core.scoring.assertion import states_verdict
from medbench_tui.core.scoring.document import Document, document
from medbench_tui.core.scoring.reference import Mention, ReferenceTable
from medbench_tui.core.transcript import FinalResponse

if TYPE_CHECKING:
    from medbench_tui.core.icd10.model import Agreement

NO_EVIDENCE = "NO_EVIDENCE"
EntityKind = Literal["diagnosis", "differential", "workup", "treatment"]
ENTITY_KINDS: tuple[EntityKind, ...] = ("diagnosis", "differential", "workup", "treatment")
FIELD_OF_KIND = {"diagnosis": "diagnoses", "differential": "differential", "workup": "workup", "treatment": "treatment"}

ICD_CODE_RE = re.compile(r"\b([A-Z][0-9]{2}(?:\.[0-9A-Z]{1,4})?)(?![\w.])")

SpanField = Literal["text", "advice"]
EntitySource = Literal["structured", "text", "llm"]
MentionKind = Literal["diagnosis", "workup", "treatment"]
"""The final's fields an entity can be quoted from."""


class Span(BaseModel):
    """Where an entity was found: ``text[start:end]`` of the final's ``field``."""

    start: int
    end: int
    text: str
    field: SpanField = "text"


Evidence = Span | str


class Entity(BaseModel):
    kind: EntityKind
    text: str
    icd10: str | None = None
    evidence: Evidence
    source: EntitySource
    negated: str | None = Field(default=None, description="The negation cue: a mention that is not a recommendation.")
    section: str | None = None
    status: Literal["affirmed", "negated", "conditional", "historical", "question"] = Field(
        default="affirmed", description="What the mention asserts (assertion.py); only affirmed mentions are scored."
    )
    reason: str | None = Field(default=None, description="The rule that decided the entity, with its trigger words.")

    @property
    def scored(self) -> bool:
        return self.negated is None and self.evidence != NO_EVIDENCE


class Extraction(BaseModel):
    extractor: str
    entities: list[Entity] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    error: str | None = Field(
        default=None,
        description="Why the free text could not be read (junk or truncated model output): the run is not scored.",
    )

    def scored(self, kind: EntityKind) -> list[Entity]:
        return [e for e in self.entities if e.kind == kind and e.scored]


class Extractor(Protocol):
    """Turns a final response into entities with evidence."""

    name: str

    def extract(self, case: Case, final: FinalResponse) -> Extraction: ...


@batch_cache(maxsize=4096)
def normalise_icd(code: str | None) -> str | None:
    if not code or not code.strip():
        return None
    from medbench_tui.core.icd10 import normalise_code

    return normalise_code(code)


@batch_cache(maxsize=4096)
def agreement(given: str | None, reference: str) -> Agreement:
    """``icd10.agreement``, remembered (the same few codes come back run after run)."""
    from medbench_tui.core import icd10

    return icd10.agreement(given, reference)


def mention_kind(mention: Mention) -> MentionKind:
    """The action or diagnosis kind of what a mention names."""
    if mention.group is not None:
        return "treatment"
    assert mention.ref is not None
    kind = mention.ref.kind
    return kind if kind == "workup" or kind == "treatment" else "diagnosis"


def item_negation(doc: Document) -> str | None:
    """A negation cue opening a short item ("No CT", "Avoid NSAIDs")."""
    for word in doc.lows[:3]:
        if (word,) in cues.NEGATION_BEFORE:
            return word
    return None


def entry_entities(
    text: str, icd: str | None, kind: EntityKind, evidence: Evidence, source: EntitySource, table: ReferenceTable
) -> list[Entity]:
    """The entities of one answer entry: one per reference item it names ("amoxicillin
    and clarithromycin" gives two), else the entry itself.

    A treatment item named in a workup entry counts as treatment and the other way
    round (a form's boxes are often filled loosely); diagnoses and differential are
    never swapped, because that difference is what the differential metrics measure.
    """
    parts, negated = table.remember(("entry", kind, text), lambda: _entry_reading(text, kind, table))
    if not parts:
        if not text.strip() and icd is None:
            return []
        return [Entity(kind=kind, text=text.strip() or (icd or ""), icd10=icd, evidence=evidence,
                       source=source, negated=negated)]
    out = []
    for part in parts:
        out.append(Entity(kind=part.kind, text=part.text, icd10=icd, evidence=evidence, source=source,
                          negated=part.negated))
        icd = None
    return out


@dataclass(frozen=True)
class EntryPart:
    """One reference item an entry names: its kind, its words in the entry, and the cue that negates it."""

    kind: EntityKind
    text: str
    negated: str | None


def _entry_reading(text: str, kind: EntityKind, table: ReferenceTable) -> tuple[tuple[EntryPart, ...], str | None]:
    """What an entry of a ``kind`` field names against the case, with the negation opening it when it
    names nothing: read once per case and entry text (the same entries come back answer after answer)."""
    doc = document(text)
    mentions = [m for m in table.find_items(doc) if _fits(kind, mention_kind(m))]
    if not mentions:
        return (), item_negation(doc)
    whole = len({(m.hit.first, m.hit.last) for m in mentions}) == 1
    parts = []
    for m in mentions:
        action = kind in ("workup", "treatment")
        first, last = m.hit.first, m.hit.last
        own = not states_verdict(m.ref.name if m.ref is not None else "")  # a verdict inside the entry's mention
        parts.append(EntryPart(
            kind=mention_kind(m) if action else kind,
            text=text.strip() if whole else doc.quote(m.hit),
            negated=cues.negation(doc, first, last, inside=own) if action else cues.hard_negation(doc, first, last),
        ))
    return tuple(parts), None


def structured_entities(final: FinalResponse, table: ReferenceTable) -> list[Entity]:
    """The structured fields, taken as they are (see :func:`entry_entities`)."""
    fields: list[tuple[EntityKind, list[tuple[str, str | None]]]] = [
        ("diagnosis", [(d.name, d.icd10) for d in final.diagnoses]),
        ("differential", [(d.name, d.icd10) for d in final.differential]),
        ("workup", [(w, None) for w in final.workup]),
        ("treatment", [(t, None) for t in final.treatment]),
    ]
    out: list[Entity] = []
    for kind, entries in fields:
        for i, (text, code) in enumerate(entries):
            evidence = f"structured field {FIELD_OF_KIND[kind]}[{i}]"
            out += entry_entities(text, normalise_icd(code), kind, evidence, "structured", table)
    return out


def _fits(field_kind: EntityKind, named: MentionKind) -> bool:
    if field_kind in ("diagnosis", "differential"):
        return named == "diagnosis"
    return named in ("workup", "treatment")


def merge(first: list[Entity], second: list[Entity]) -> list[Entity]:
    """``first`` then the entities of ``second`` not already in it (same kind and the
    same normalised text)."""
    from medbench_tui.core.text import normalise

    seen = {(e.kind, normalise(e.text), e.negated is None) for e in first}
    return first + [e for e in second if (e.kind, normalise(e.text), e.negated is None) not in seen]
