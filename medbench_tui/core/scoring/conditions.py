"""Critical conditions: OK, NOT_APPLICABLE or FAIL, each with its evidence.

An ``items`` (or ``applies_if``) entry that names a workup or treatment item (its
name or one of its aliases) stands for that item with all its aliases: it is
*recommended* when the extraction gives that item (matched, acceptable, unexpected or
contraindicated; a different drug of its group is not the item). Any other entry is a
phrase, recommended when it occurs in the final (text, advice or a structured field)
without a negation cue (``cues.py``).

* ``applies_if``: NOT_APPLICABLE unless one of its entries is recommended.
* ``must_include``: OK when one entry is recommended, else FAIL.
* ``must_not_include``: FAIL when one entry is recommended, else OK; a negated
  mention ("do not give NSAIDs") is not a violation.
* Implicit ``cc-implicit-contraindicated`` (only for cases with contraindicated
  treatment): FAIL when a contraindicated treatment is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Literal

from medbench_tui.core.cases.model import IMPLICIT_CONDITION
from medbench_tui.core.scoring import assertion, cues
from medbench_tui.core.scoring.document import Document, document
from medbench_tui.core.scoring.extraction_model import Entity, Span, SpanField
from medbench_tui.core.scoring.groups import group_phrases
from medbench_tui.core.scoring.match import Matching
from medbench_tui.core.scoring.reference import Mention, Phrase, Ref, ReferenceTable
from medbench_tui.core.scoring.sections import parse
from medbench_tui.core.text import compact
from medbench_tui.core.transcript import FinalResponse

IMPLICIT_CONTRAINDICATED = IMPLICIT_CONDITION
ConditionStatus = Literal["OK", "NOT_APPLICABLE", "FAIL"]
GIVEN = ("matched", "acceptable", "unexpected", "contraindicated", "not_indicated")
NAMING_SECTIONS = ("diagnosis", "differential", "icd")
"""Sections that name conditions: "NSAID gastropathy" there recommends no NSAID."""


@dataclass
class ConditionOutcome:
    id: str
    kind: str
    description: str
    status: ConditionStatus
    evidence: str
    span: Span | None = None
    implicit: bool = False
    rests_on: tuple[str, ...] = ()  # the reference items the verdict was read from (for its certainty)
    by_phrase: bool = False  # decided by a phrase that names no item
    given: bool = False  # rests on items given, any one of which settles it (not on items left out)


@dataclass(frozen=True)
class Recommendation:
    """What made an entry recommended: an item given, or a phrase said."""

    quote: str
    span: Span | None
    by_phrase: bool = False


@dataclass
class Occurrence:
    quote: str
    where: str
    span: Span | None
    negated: str | None
    is_phrase: bool  # a condition phrase (not an item's alias)

    def describe(self) -> str:
        return f'"{self.quote}" ({self.where})'


@dataclass(frozen=True)
class Said:
    """A mention of a condition's item or phrase in one scored text, and the cue that keeps it from
    recommending (None: it recommends); read once for every condition."""

    mention: Mention
    start: int
    end: int
    negated: str | None


Read = tuple[str, str, SpanField | None, list[Said]]
"""A scored text, where it is (for evidence), its field (None: a structured entry) and what it says."""


def _reads(final: FinalResponse, table: ReferenceTable) -> list[Read]:
    """What each scored text says of the conditions' items and phrases; a structured entry is read once
    per case and entry text (the same entries come back answer after answer)."""
    reads: list[Read] = []
    if final.text:
        reads.append((final.text, "text", "text", _said(document(final.text), "text", table)))
    if final.advice:
        reads.append((final.advice, "advice", "advice", _said(document(final.advice), "advice", table)))
    for name, values in (("workup", final.workup), ("treatment", final.treatment)):
        reads += [(v, f"structured field {name}[{i}]", None,
                   table.remember(("said", v), partial(_entry_said, v, table))) for i, v in enumerate(values)]
    return reads


def _entry_said(entry: str, table: ReferenceTable) -> list[Said]:
    """What one structured entry says of the conditions' items and phrases."""
    return _said(document(entry), None, table)


def _said(doc: Document, field: SpanField | None, table: ReferenceTable) -> list[Said]:
    """The mentions of any condition's items and phrases in ``doc`` (not in a section that names
    conditions, nor in the background), each with what it asserts."""
    phrases = {p for c in table.conditions for p in (*c.phrases, *c.applies_phrases)}
    refs = {id(r) for c in table.conditions for r in (*c.refs, *c.applies_refs)}
    layout = parse(doc.text) if field == "text" else None
    out = []
    for m in table.find(doc):
        named = m.ref is not None and id(m.ref) in refs
        if not (named or (m.ref is None and m.group is None and m.phrase in phrases)):
            continue
        start, end = doc.span(m.hit)
        section = layout.section_at(start).kind if layout is not None else None
        if section in NAMING_SECTIONS or cues.background(doc, m.hit.first, m.hit.last, "treatment"):
            continue
        said = assertion.action(doc, m.hit.first, m.hit.last, "treatment", table.record,
                                m.via is not None or table.is_safety_net(m.phrase),
                                m.ref.name if m.ref is not None else "")
        negated = None if said.recommended else said.rule
        if section == "avoid" and not cues.avoid_alternative(doc, m.hit.last):
            negated = cues.AVOID_HEADING
        out.append(Said(m, start, end, negated))
    return out


def _occurrences(reads: list[Read], phrases: list[Phrase], refs: list[Ref]) -> list[Occurrence]:
    wanted_phrases = set(phrases)
    wanted_refs = {id(r) for r in refs}
    out = []
    for text, where, field, said in reads:
        for s in said:
            m = s.mention
            is_phrase = m.ref is None and m.group is None and m.phrase in wanted_phrases
            if is_phrase or (m.ref is not None and id(m.ref) in wanted_refs):
                span = Span(start=s.start, end=s.end, text=text[s.start : s.end], field=field) if field else None
                place = f"{field} {s.start}-{s.end}" if field else where
                out.append(Occurrence(text[s.start : s.end], place, span, s.negated, is_phrase))
    return out


def _not_given(occurrence: Occurrence) -> str:
    cue = occurrence.negated or ""
    if cue.startswith("negated") or cue == cues.AVOID_HEADING:
        return "only advised against"
    return "only mentioned, not recommended"


def _given_names(matching: Matching, refs: list[Ref]) -> tuple[str, ...]:
    """The names of ``refs`` the answer gave: a verdict met by them rests on those decisions only."""
    wanted = {id(r) for r in refs}
    return tuple(p.ref.name for rows in (matching.workup.rows, matching.treatment.rows) for p in rows
                 if p.entity is not None and p.ref is not None and id(p.ref) in wanted and p.status in GIVEN)


def _given(matching: Matching, refs: list[Ref]) -> list[Entity]:
    wanted = {id(r) for r in refs}
    return [
        p.entity
        for rows in (matching.workup.rows, matching.treatment.rows)
        for p in rows
        if p.entity is not None and p.ref is not None and id(p.ref) in wanted and p.status in GIVEN
    ]


def _given_in_group(matching: Matching, phrases: list[Phrase]) -> list[Entity]:
    """A condition entry that names a drug class ("antibiotics", ``groups.py``) is met by any
    treatment of that class given (levofloxacin is an antibiotic, even when it is the wrong
    one); by the class's members, not by the case's ``group`` labels."""
    members = {compact(name) for p in phrases for name in group_phrases(p.text)[1:]}
    if not members:
        return []
    return [
        p.entity for p in matching.treatment.rows
        if p.entity is not None and p.status in GIVEN and any(m and m in compact(p.entity.text) for m in members)
    ]


def _entity_evidence(entity: Entity) -> tuple[str, Span | None]:
    if isinstance(entity.evidence, Span):
        where = f"{entity.evidence.field} {entity.evidence.start}-{entity.evidence.end}"
        return f'"{entity.evidence.text}" ({where})', entity.evidence
    return f'"{entity.text}" ({entity.evidence})', None


def _recommended(
    reads: list[Read], matching: Matching, refs: list[Ref], phrases: list[Phrase]
) -> tuple[Recommendation | None, list[Occurrence]]:
    """The first recommendation of any entry (an item given, or a phrase said without
    a negation), and the negated mentions seen. An item's alias that the extraction
    did not take as given (background, a negated mention) recommends nothing."""
    given = _given(matching, refs) + _given_in_group(matching, phrases)
    occurrences = _occurrences(reads, phrases, refs)
    negated = [o for o in occurrences if o.negated]
    if given:
        return Recommendation(*_entity_evidence(given[0])), negated
    said = [o for o in occurrences if o.is_phrase and o.negated is None]
    if said:
        return Recommendation(said[0].describe(), said[0].span, by_phrase=True), negated
    return None, negated


def evaluate(table: ReferenceTable, matching: Matching, final: FinalResponse) -> list[ConditionOutcome]:
    reads = _reads(final, table)
    out: list[ConditionOutcome] = []
    for cref in table.conditions:
        cond = cref.condition
        entries = ", ".join(cond.items)
        rests_on = tuple(r.name for r in cref.refs)
        if cond.applies_if:
            trigger, _ = _recommended(reads, matching, cref.applies_refs, cref.applies_phrases)
            if trigger is None:
                rests_on = tuple(r.name for r in cref.applies_refs)
                out.append(ConditionOutcome(
                    cond.id, cond.kind, cond.description, "NOT_APPLICABLE",
                    f"applies only when one of {', '.join(cond.applies_if)} is recommended; none was",
                    rests_on=rests_on,
                ))
                continue
        hit, negated = _recommended(reads, matching, cref.refs, cref.phrases)
        by_phrase = hit is not None and hit.by_phrase
        met_by_items = hit is not None and not by_phrase
        if hit is not None:  # a verdict met by what was given rests on those decisions, not on the absences
            rests_on = _given_names(matching, cref.refs)
        if cond.kind == "must_include":
            if hit is not None:
                out.append(ConditionOutcome(cond.id, cond.kind, cond.description, "OK",
                                            f"recommended: {hit.quote}", hit.span, rests_on=rests_on,
                                            by_phrase=by_phrase, given=met_by_items))
            else:
                out.append(ConditionOutcome(cond.id, cond.kind, cond.description, "FAIL",
                                            f"none of these was recommended: {entries}", rests_on=rests_on))
        elif hit is not None:
            out.append(ConditionOutcome(cond.id, cond.kind, cond.description, "FAIL", f"recommended: {hit.quote}",
                                        hit.span, rests_on=rests_on, by_phrase=by_phrase, given=met_by_items))
        elif negated:
            out.append(ConditionOutcome(
                cond.id, cond.kind, cond.description, "OK",
                f"{_not_given(negated[0])}: {negated[0].describe()}, {negated[0].negated}", negated[0].span,
                rests_on=rests_on,
            ))
        else:
            out.append(ConditionOutcome(cond.id, cond.kind, cond.description, "OK",
                                        f"none of these was recommended: {entries}", rests_on=rests_on))
    contraindicated = [r for r in table.treatment if r.klass == "contraindicated"]
    if contraindicated:
        given = [(p, p.entity) for p in matching.treatment.rows
                 if p.status == "contraindicated" and p.entity is not None]
        description = "Must not give a treatment the case marks contraindicated: " + ", ".join(
            r.name for r in contraindicated
        )
        names = tuple(r.name for r in contraindicated)
        if given:
            names = tuple(p.ref.name for p, _ in given if p.ref is not None)
            evidence = "; ".join(f"{p.ref.name if p.ref else ''}: {_entity_evidence(entity)[0]}" for p, entity in given)
            out.append(ConditionOutcome(IMPLICIT_CONTRAINDICATED, "must_not_include", description, "FAIL",
                                        f"contraindicated treatment given: {evidence}",
                                        _entity_evidence(given[0][1])[1], implicit=True,
                                        rests_on=names, given=True))
        else:
            out.append(ConditionOutcome(IMPLICIT_CONTRAINDICATED, "must_not_include", description, "OK",
                                        "no contraindicated treatment given", implicit=True, rests_on=names))
    return out
