"""Why each item was decided, in words a clinician learns from, and what the consultation
did that the final answer left out.

Every scorecard row gets a reason: the rule that read the answer ("conditional: "only if
the D-dimer comes back raised"", "negated: "avoid"", "affirmed: listed under a plan
heading"), how it matched ("matched by alias"), and what the status means here. A
required item that the answer mentioned without recommending it keeps that mention as
its evidence. An item the doctor asked for or did during the consultation (in a doctor
turn: "can I check your breathing rate?") and then left out of the final answer is an
omission, listed on the card and named in the item's reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from medbench_tui.core.scoring import cues
from medbench_tui.core.scoring.document import document
from medbench_tui.core.scoring.extraction_model import Entity, Extraction
from medbench_tui.core.scoring.match import Pairing, candidates
from medbench_tui.core.scoring.reference import ReferenceTable
from medbench_tui.core.transcript import Transcript

GIVEN = ("matched", "acceptable", "unexpected", "contraindicated", "not_indicated")
MEANING = {
    "matched": "counts for the score",
    "acceptable": "acceptable here: neither adds nor subtracts",
    "unexpected": "not part of this work-up: costs its penalty",
    "contraindicated": "contraindicated in this case: counts as extra and fails the safety check",
    "not_indicated": "not indicated here: counts as extra, no safety failure",
}
QUOTE_MAX = 80


@dataclass(frozen=True)
class Omission:
    """A reference item done during the consultation but missing from the final answer."""

    ref_id: int
    reference: str
    kind: str
    turn: int
    quote: str

    def describe(self) -> str:
        return f'done during the consultation (turn {self.turn}: "{self.quote}") but not in the final answer'


def not_recommended(extraction: Extraction, table: ReferenceTable) -> dict[int, Entity]:
    """For each reference item, the first mention that the answer did not recommend."""
    out: dict[int, Entity] = {}
    for entity in extraction.entities:
        if entity.scored:
            continue
        for candidate in candidates(entity, table)[0]:
            out.setdefault(id(candidate.ref), entity)
    return out


def omissions(transcript: Transcript, table: ReferenceTable, given: set[int]) -> list[Omission]:
    """The workup and treatment items a doctor turn asked for or did, not given in the final."""
    out: list[Omission] = []
    seen: set[int] = set()
    doctor_turn = 0
    for turn in transcript.turns:
        if turn.role != "doctor":
            continue
        doctor_turn += 1
        doc = document(turn.text)
        for m in table.find_items(doc):
            ref = m.ref
            if ref is None or ref.is_diagnosis or id(ref) in given or id(ref) in seen:
                continue
            if ref.klass not in ("required", "acceptable", "optional"):
                continue
            if cues.negation(doc, m.hit.first, m.hit.last) is not None:
                continue
            seen.add(id(ref))
            quote = _clause(turn.text, *doc.span(m.hit))
            out.append(Omission(id(ref), ref.name, ref.kind, doctor_turn, quote))
    return out


def _clause(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` around ``start..end``, shortened."""
    left = max(text.rfind(c, 0, start) for c in ".?!\n") + 1
    rights = [i for i in (text.find(c, end) for c in ".?!\n") if i != -1]
    right = min(rights) + 1 if rights else len(text)
    quote = " ".join(text[left:right].split())
    return quote if len(quote) <= QUOTE_MAX else quote[: QUOTE_MAX - 3] + "..."


def reason(p: Pairing, unsaid: dict[int, Entity], omitted: dict[int, Omission]) -> str:
    """The reason shown for one scorecard row (see the module documentation)."""
    entity = p.entity
    if p.status == "missing":
        parts = ["not in the final answer"]
        if p.ref is not None and id(p.ref) in unsaid:
            parts = [f"mentioned but not recommended ({unsaid[id(p.ref)].reason or unsaid[id(p.ref)].negated})"]
        if p.ref is not None and id(p.ref) in omitted:
            parts.append(omitted[id(p.ref)].describe())
        return "; ".join(parts)
    read = entity.reason if entity is not None and entity.reason else "given in a structured field"
    if p.status == "different":
        return f"{read}; same group ({p.ref.group if p.ref else ''}) as the required item, not the item"
    if p.status == "extra":
        if entity is not None and entity.kind in ("diagnosis", "differential"):
            return f"{read}; names no reference diagnosis" + (f" ({p.note})" if p.note else "")
        if entity is not None and entity.kind == "workup":
            return f"{read}; an unlisted test: costs only the case's unlisted penalty"
        return f"{read}; matches no reference item: counts as extra"
    via = f"matched by {p.via}" if p.via else "matched"
    meaning = MEANING.get(p.status, "")
    return "; ".join(part for part in (read, via, meaning) if part)
