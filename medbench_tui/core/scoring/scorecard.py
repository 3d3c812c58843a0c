"""The scorecard of one run, and :func:`score`, which makes it.

``Scorecard.to_json()`` is the ``score --format json`` document of ``shared/spec/cli.md``:
``case_id, complete, steps, outside_soft_range, metrics, critical_conditions, items``
first, then the extra keys (``num_steps``, ``incomplete_reason``, ``control_questions``,
``dots``, ``breakdown``, ``extraction``). Numbers are rounded to one decimal there (the
model keeps full precision). ``Scorecard.model_validate(card.to_json())`` reads it back,
with or without ``extraction``.

Incomplete runs (the transcript's ``status`` is ``incomplete``, or it has no final
response) are scored all the same, so that the card can be shown, with ``complete``
false and the reason; the run store keeps them out of every aggregate.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from medbench_tui.core.cases.model import Case
from medbench_tui.core.costs.assess import ConditionOutcome, HarmSplit, ItemOutcome, RunCost, harm_split, run_cost
from medbench_tui.core.costs.prices import PriceTable
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.scoring import metrics as m
from medbench_tui.core.scoring.certainty import (
    AnswerWords,
    Certainty,
    ItemFacts,
    answer_words,
    certainty_of,
    condition_doubts,
    item_doubts,
)
from medbench_tui.core.scoring.concepts import FOLLOW_UP, SAFETY_NET
from medbench_tui.core.scoring.conditions import ConditionOutcome as ConditionVerdict
from medbench_tui.core.scoring.conditions import evaluate
from medbench_tui.core.scoring.constants import DECIMALS, RECALL_AT
from medbench_tui.core.scoring.extraction_model import Entity, Evidence, Extraction, Extractor, Span
from medbench_tui.core.scoring.match import Matching, Pairing, Status, match
from medbench_tui.core.scoring.ranges import RANGED, Row, metric_ranges
from medbench_tui.core.scoring.reasons import Omission, not_recommended, omissions
from medbench_tui.core.scoring.reasons import reason as reason_for
from medbench_tui.core.scoring.reference import Ref, ReferenceTable, reference_table
from medbench_tui.core.transcript import FinalResponse, Transcript

ItemStatus = Status
Agreement = Literal["exact", "category", "chapter", "wrong", "missing"]


class ItemEntry(BaseModel):
    reference: str | None = Field(description="The reference item's name; null for an answer that matches nothing.")
    answer: str | None = Field(description="The answer item as written; null for a missing reference item.")
    status: ItemStatus
    evidence: Evidence | None = Field(description="Span {start, end, text}, a structured field, NO_EVIDENCE, or null.")
    icd10: str | None = None
    note: str | None = None
    reason: str | None = Field(
        default=None, description="The rule that decided the row and what its status means here (reasons.py)."
    )
    certainty: Certainty = Field(default="certain", description="uncertain when a doubt rule applies (certainty.py).")
    doubts: list[str] = Field(default_factory=list, description="The doubt rules that made the decision uncertain.")


class Absence(BaseModel):
    """A reference item with no row (not required, not given) whose absence the grader doubts."""

    reference: str
    section: Literal["workup", "treatment"]
    doubts: list[str]


class ConsultationOmission(BaseModel):
    """A workup or treatment item asked for or done during the consultation, left out of the final."""

    reference: str
    kind: str
    turn: int = Field(description="The doctor turn (1-based) that did it.")
    quote: str


class Items(BaseModel):
    diagnoses: list[ItemEntry] = Field(default_factory=list)
    differential: list[ItemEntry] = Field(default_factory=list)
    workup: list[ItemEntry] = Field(default_factory=list)
    treatment: list[ItemEntry] = Field(default_factory=list)


class ConditionResult(BaseModel):
    id: str
    status: Literal["OK", "NOT_APPLICABLE", "FAIL"]
    evidence: str
    kind: str
    description: str
    span: Span | None = None
    implicit: bool = False
    certainty: Certainty = "certain"
    doubts: list[str] = Field(default_factory=list)


class Metrics(BaseModel):
    """The contract's metrics in its order, then the extra ones (0-100; null = not defined)."""

    diagnosis_accuracy: int
    primary_icd10: Agreement
    differential_accuracy: float | None
    workup_score: float | None
    treatment_accuracy: float | None
    critical_conditions_passed: int
    question_coverage: float | None
    action_f1: float | None
    primary_icd10_exact: int
    primary_icd10_category: int
    secondary_icd10_recall: float | None
    differential_precision: float | None
    differential_recall_at_3: int
    differential_recall_at_5: int
    primary_mrr: float
    harm_omission: float = Field(default=0, description="Weights of the required work-up and treatment left out.")
    harm_commission: float = Field(
        default=0,
        description="Penalties of unexpected tests and weights of contraindicated and not-indicated treatments given.")
    cost_total: float | None = Field(default=None, description="Tests ordered (consultation and plan) and the visit.")
    cost_tests: float | None = Field(default=None, description="Tests ordered during the consultation and in the plan.")


class ControlQuestionResult(BaseModel):
    id: str
    concept: str
    weight: float
    facts: list[str] = Field(description="Its answered_by facts disclosed during the run (empty when missed).")


class ControlQuestions(BaseModel):
    elicited: list[ControlQuestionResult] = Field(default_factory=list)
    missed: list[ControlQuestionResult] = Field(default_factory=list)


class Dots(BaseModel):
    """D.O.T.S.: shown side by side, never averaged."""

    D: int
    O: float | None  # noqa: E741 -- the DOTS letters of scoring.md
    T: float | None
    S: int
    within_soft_range: bool | None


class Breakdown(BaseModel):
    """The figures behind the metrics, for the "why" on the card."""

    workup: dict[str, float]
    treatment: dict[str, int]
    action_f1: dict[str, float]
    primary_rank: int | None


class Scorecard(BaseModel):
    case_id: str
    complete: bool
    steps: int
    outside_soft_range: bool | None
    metrics: Metrics
    critical_conditions: list[ConditionResult]
    items: Items
    num_steps: int | None = None
    incomplete_reason: str | None = None
    control_questions: ControlQuestions = Field(default_factory=ControlQuestions)
    consultation_omissions: list[ConsultationOmission] = Field(
        default_factory=list, description="Done during the consultation but not in the final answer."
    )
    dots: Dots
    breakdown: Breakdown
    extraction: Extraction | None = Field(
        default=None, description="What was read from the final, with evidence (the run store keeps it apart)."
    )
    harm: HarmSplit = Field(default_factory=lambda: HarmSplit(), description="Harm by omission and by commission.")
    cost: RunCost | None = Field(default=None, description="What the work-up cost (when scored with a price table).")
    notes: list[str] = Field(default_factory=list,
                             description="What a reader must know about how the answer was scored (a long answer cut).")
    ranges: dict[str, list[float]] = Field(
        default_factory=dict,
        description="metric -> [low, high]: where it would be if every uncertain decision went the other way "
                    "(ranges.py).")
    uncertain_absences: list[Absence] = Field(
        default_factory=list,
        description="Work-up and treatment items with no row (not required, not given) that the answer may give "
                    "in words the grader did not read (certainty.py).")

    def uncertain_decisions(self) -> list[tuple[str, list[str]]]:
        """Every uncertain decision as (what was decided, its doubts): item rows, doubted absences
        and critical-condition verdicts, in the card's order."""
        out: list[tuple[str, list[str]]] = []
        for name, entries in (("diagnosis", self.items.diagnoses), ("differential", self.items.differential),
                              ("workup", self.items.workup), ("treatment", self.items.treatment)):
            out += [(f"{name} {e.reference or e.answer} ({e.status})", e.doubts) for e in entries if e.doubts]
        out += [(f"{a.section} {a.reference} (not given)", a.doubts) for a in self.uncertain_absences]
        out += [(f"condition {c.id} ({c.status})", c.doubts) for c in self.critical_conditions if c.doubts]
        return out

    def to_json(self) -> JSONObject:
        data = self.model_dump(mode="json")
        data["metrics"] = {k: _rounded(v) for k, v in data["metrics"].items()}
        data["dots"] = {k: _rounded(v) for k, v in data["dots"].items()}
        data["breakdown"] = _rounded(data["breakdown"])
        for entries in data["items"].values():
            for entry in entries:
                for key in ("icd10", "note"):
                    if entry[key] is None:
                        del entry[key]
                if not entry["doubts"]:
                    del entry["doubts"]
        for cond in data["critical_conditions"]:
            if cond["span"] is None:
                del cond["span"]
            if not cond["doubts"]:
                del cond["doubts"]
        return data


def _rounded(value: object) -> object:
    if isinstance(value, float):
        return round(value, DECIMALS)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


def _entry(p: Pairing, unsaid: dict[int, Entity], omitted: dict[int, Omission], matching: Matching,
           words: AnswerWords) -> ItemEntry:
    entity = p.entity
    notes = [n for n in (p.note, _via_note(p)) if n]
    mention = unsaid.get(id(p.ref)) if entity is None and p.ref is not None else None
    as_differential = p.ref is not None and any(d.ref is p.ref and d.entity is not None
                                                for d in matching.differential.rows)
    doubts = item_doubts(ItemFacts(p, matching.candidates_of(entity) if entity is not None else [],
                                   unsaid.get(id(p.ref)) if p.ref is not None else None, words,
                                   read_elsewhere=entity is None and as_differential,
                                   as_final=_named_as_diagnosis(p.ref, matching) if entity is None else None))
    return ItemEntry(
        reference=p.ref.name if p.ref is not None else None,
        answer=entity.text if entity is not None else None,
        status=p.status,
        evidence=entity.evidence if entity is not None else mention.evidence if mention is not None else None,
        icd10=entity.icd10 if entity is not None else None,
        note="; ".join(notes) or None,
        reason=reason_for(p, unsaid, omitted),
        certainty=certainty_of(doubts),
        doubts=doubts,
    )


def _named_as_diagnosis(ref: Ref | None, matching: Matching) -> Entity | None:
    """The answer's diagnosis that names ``ref``, a reference differential, instead of the reference diagnosis (a
    flawed answer's wrong diagnosis): the differential's words in the answer are that reading's."""
    if ref is None or ref.kind != "differential":
        return None
    for d in matching.diagnoses.rows:
        if d.ref is None and d.entity is not None and next(
                (c.ref for c in matching.candidates_of(d.entity) if c.ref.kind == "differential"), None) is ref:
            return d.entity
    return None


def _condition(c: ConditionVerdict, uncertain: dict[str, list[str]], shorthand: bool) -> ConditionResult:
    doubts = condition_doubts(list(c.rests_on), uncertain, c.by_phrase, given=c.given,
                              required=c.kind == "must_include", shorthand=shorthand)
    return ConditionResult(id=c.id, status=c.status, evidence=c.evidence, kind=c.kind,
                           description=c.description, span=c.span, implicit=c.implicit,
                           certainty=certainty_of(doubts), doubts=doubts)


def _via_note(p: Pairing) -> str | None:
    if p.via in ("typo", "similar name", "ICD-10 exact", "ICD-10 category", SAFETY_NET, FOLLOW_UP):
        return f"matched by {p.via}"
    return None


def build_scorecard(case: Case, transcript: Transcript, extraction: Extraction,
                    prices: PriceTable | None = None) -> Scorecard:
    return _scorecard(case, reference_table(case), transcript, extraction, prices)


def _scorecard(case: Case, table: ReferenceTable, transcript: Transcript, extraction: Extraction,
               prices: PriceTable | None) -> Scorecard:
    """The card of ``extraction`` against ``table``, the case's reference already looked up."""
    matching: Matching = match(extraction, table)
    final = transcript.final or FinalResponse()
    complete = transcript.status == "complete" and transcript.final is not None and extraction.error is None
    reason = None if complete else (
        transcript.reason
        or ("no final response" if transcript.final is None else None)
        or (f"extraction error: {extraction.error}" if extraction.error else "incomplete")
    )

    accuracy = m.diagnosis_accuracy(extraction, matching)
    agreement = m.primary_icd10(extraction, matching, table)
    rank = m.primary_rank(extraction, matching)
    workup = m.workup_figures(matching, table, case)
    treatment = m.treatment_figures(matching)
    f1 = m.action_f1(matching, case)
    coverage, elicited, missed = m.question_coverage(case, transcript.disclosed_facts())
    conditions = evaluate(table, matching, final)
    passed = 100 if all(c.status != "FAIL" for c in conditions) else 0
    steps = transcript.steps
    outside = m.outside_soft_range(steps, case.num_steps)
    disclosed = transcript.disclosed_facts()
    unsaid = not_recommended(extraction, table)
    given = {id(p.ref) for rows in (matching.workup.rows, matching.treatment.rows) for p in rows
             if p.ref is not None and p.entity is not None and p.status in ("matched", "acceptable", "different")}
    omitted_list = omissions(transcript, table, given)
    omitted = {o.ref_id: o for o in omitted_list}
    sections: tuple[tuple[Literal["workup", "treatment"], list[Pairing]], ...] = (
        ("workup", matching.workup.rows), ("treatment", matching.treatment.rows))
    outcomes = [ItemOutcome(section, p.ref.name if p.ref is not None else None,
                            p.entity.text if p.entity is not None else None, p.status)
                for section, rows in sections for p in rows]
    harm = harm_split(case, outcomes, [ConditionOutcome(c.status, c.kind, c.implicit, c.id) for c in conditions])
    cost = run_cost(case, transcript, outcomes, prices) if prices is not None else None
    texts = {"text": final.text or "", "advice": final.advice or ""}
    words = answer_words(texts, extraction)
    items = Items(**{name: [_entry(p, unsaid, omitted, matching, words) for p in rows.rows]
                     for name, rows in (("diagnoses", matching.diagnoses), ("differential", matching.differential),
                                        ("workup", matching.workup), ("treatment", matching.treatment))})
    absences = _absences(matching, table, unsaid, words)
    # an item given as another drug of its group is not the item whichever way its doubt goes: no verdict turns on it
    uncertain = {e.reference.casefold(): e.doubts for entries in (items.workup, items.treatment) for e in entries
                 if e.reference is not None and e.certainty == "uncertain" and e.status != "different"}
    uncertain |= {a.reference.casefold(): a.doubts for a in absences}

    card = Scorecard(
        case_id=case.id,
        complete=complete,
        steps=steps,
        outside_soft_range=outside,
        metrics=Metrics(
            diagnosis_accuracy=accuracy,
            primary_icd10=agreement,
            differential_accuracy=m.differential_accuracy(matching, table),
            workup_score=workup.score,
            treatment_accuracy=treatment.accuracy,
            critical_conditions_passed=passed,
            question_coverage=coverage,
            action_f1=f1.value,
            primary_icd10_exact=100 if agreement == "exact" else 0,
            primary_icd10_category=100 if agreement in ("exact", "category") else 0,
            secondary_icd10_recall=m.secondary_recall(matching, table),
            differential_precision=m.differential_precision(matching),
            differential_recall_at_3=m.recall_at(rank, RECALL_AT[0]),
            differential_recall_at_5=m.recall_at(rank, RECALL_AT[1]),
            primary_mrr=m.reciprocal_rank(rank),
            harm_omission=harm.omission,
            harm_commission=harm.commission,
            cost_total=cost.total if cost is not None else None,
            cost_tests=cost.consultation + cost.plan if cost is not None else None,
        ),
        critical_conditions=[_condition(c, uncertain, words.shorthand) for c in conditions],
        items=items,
        consultation_omissions=[
            ConsultationOmission(reference=o.reference, kind=o.kind, turn=o.turn, quote=o.quote) for o in omitted_list
        ],
        num_steps=case.num_steps,
        incomplete_reason=reason,
        control_questions=ControlQuestions(
            elicited=[
                ControlQuestionResult(id=q.id, concept=q.concept, weight=q.weight,
                                      facts=[f for f in q.answered_by if f in disclosed])
                for q in elicited
            ],
            missed=[ControlQuestionResult(id=q.id, concept=q.concept, weight=q.weight, facts=[]) for q in missed],
        ),
        dots=Dots(D=accuracy, O=workup.score, T=treatment.accuracy, S=steps,
                  within_soft_range=None if outside is None else not outside),
        breakdown=Breakdown(
            workup={
                "required_weight": workup.required_weight,
                "found_weight": workup.found_weight,
                "unexpected_penalty": workup.unexpected_penalty,
                "unlisted_items": workup.unlisted_items,
                "unlisted_penalty": workup.unlisted_penalty,
            },
            treatment={
                "matching": treatment.matching,
                "different": treatment.different,
                "extra": treatment.extra,
                "missing": treatment.missing,
            },
            action_f1={"tp": f1.tp, "fp": f1.fp, "fn": f1.fn},
            primary_rank=rank,
        ),
        extraction=extraction,
        harm=harm,
        cost=cost,
        uncertain_absences=absences,
    )
    card.ranges = _ranges(card, case, table)
    return card


def _ranges(card: Scorecard, case: Case, table: ReferenceTable) -> dict[str, list[float]]:
    def rows(entries: list[ItemEntry], section: str) -> list[Row]:
        given = [Row(e.reference, e.status, e.certainty == "uncertain") for e in entries]
        return given + [Row(a.reference, "absent", True) for a in card.uncertain_absences if a.section == section]

    primary = [Row(e.reference, e.status, e.certainty == "uncertain") for e in card.items.diagnoses
               if e.reference == table.primary.name]
    metrics = {name: getattr(card.metrics, name) for name in RANGED}
    return metric_ranges(case, table, metrics, {"primary": primary, "workup": rows(card.items.workup, "workup"),
                                                "treatment": rows(card.items.treatment, "treatment")},
                         [(c.status, c.certainty == "uncertain") for c in card.critical_conditions])


def _absences(matching: Matching, table: ReferenceTable, unsaid: dict[int, Entity],
              words: AnswerWords) -> list[Absence]:
    """The doubted absences of the items a list has no row for (``Absence``)."""
    out: list[Absence] = []
    lists: tuple[tuple[Literal["workup", "treatment"], list[Ref], list[Pairing]], ...] = (
        ("workup", table.workup, matching.workup.rows), ("treatment", table.treatment, matching.treatment.rows))
    for section, refs, rows in lists:
        shown = {id(p.ref) for p in rows if p.ref is not None}
        for ref in refs:
            if id(ref) in shown:
                continue
            doubts = item_doubts(ItemFacts(Pairing(ref, None, "missing"), [], unsaid.get(id(ref)), words))
            if doubts:
                out.append(Absence(reference=ref.name, section=section, doubts=doubts))
    return out


MAX_SCORED_CHARS = 50_000
"""How much of a final response is scored: each text (the free text, the advice) up to this
many characters, the structured lists up to this many in all. Some fifteen pages, far beyond
any plan; a system that writes more has the rest left unread, and the scorecard says so.
Scoring is linear in the length, so this bounds it (about a second)."""
MAX_SCORED_ENTRIES = 300
"""How many entries of a structured list (workup, treatment) are scored, at most."""


def within_cap(final: FinalResponse) -> tuple[FinalResponse, list[str]]:
    """The part of ``final`` that is scored, and a note for each field that was cut."""
    notes: list[str] = []

    def cut(text: str | None, field: str) -> str | None:
        if text is None or len(text) <= MAX_SCORED_CHARS:
            return text
        end = max(text.rfind("\n", 0, MAX_SCORED_CHARS), text.rfind(" ", 0, MAX_SCORED_CHARS))
        end = end if end > MAX_SCORED_CHARS // 2 else MAX_SCORED_CHARS
        notes.append(f"The {field} is {len(text):,} characters long: only its first {end:,} were scored "
                     f"(at most {MAX_SCORED_CHARS:,} are read); what follows was not read.")
        return text[:end]

    def kept(values: list[str], field: str) -> list[str]:
        total, out = 0, list[str]()
        for value in values:
            total += len(value)
            if total > MAX_SCORED_CHARS or len(out) == MAX_SCORED_ENTRIES:
                notes.append(f"The {field} list has {len(values):,} entries: only the first {len(out):,} were scored "
                             f"(at most {MAX_SCORED_ENTRIES:,} entries or {MAX_SCORED_CHARS:,} characters are read).")
                break
            out.append(value)
        return out

    changed = final.model_copy(update={
        "text": cut(final.text, "final response's text"), "advice": cut(final.advice, "advice"),
        "workup": kept(final.workup, "workup"), "treatment": kept(final.treatment, "treatment"),
    })
    return (changed, notes) if notes else (final, [])


def score(case: Case, transcript: Transcript, *, extractor: Extractor | None = None,
          prices: PriceTable | None = None) -> Scorecard:
    """Score the final response of ``transcript`` against ``case``.

    ``extractor`` reads the final (default: the deterministic :class:`TextExtractor`).
    Deterministic and fast (the case's reference is prepared once and cached); an LLM
    extractor calls its endpoint (use :func:`score_async` inside an event loop). With
    ``prices``, the card also says what the work-up cost.
    """

    final, notes = within_cap(transcript.final or FinalResponse())
    table = reference_table(case)  # looked up once: its key is the case's content, written out
    extraction = extractor.extract(case, final) if extractor is not None else _read_text(table, final)
    return _noted(_scorecard(case, table, _with_final(transcript, final, notes), extraction, prices), notes)


async def score_async(case: Case, transcript: Transcript, *, extractor: Extractor | None = None,
                      prices: PriceTable | None = None) -> Scorecard:
    """:func:`score` for async callers: an extractor with ``aextract`` is awaited."""

    final, notes = within_cap(transcript.final or FinalResponse())
    table = reference_table(case)
    if extractor is None:
        extraction = _read_text(table, final)
    else:
        aextract = getattr(extractor, "aextract", None)
        extraction = await aextract(case, final) if aextract is not None else extractor.extract(case, final)
    return _noted(_scorecard(case, table, _with_final(transcript, final, notes), extraction, prices), notes)


def _read_text(table: ReferenceTable, final: FinalResponse) -> Extraction:
    """The text extractor's reading of ``final``, kept for the case's next final (keyed by every field of the final):
    a deterministic system's repeats answer a case with the same final. The reading is shared, never changed."""
    from medbench_tui.core.scoring.text_extractor import TextExtractor

    return table.read_once(final.model_dump_json(), lambda: TextExtractor().read(table, final))


def _with_final(transcript: Transcript, final: FinalResponse, notes: list[str]) -> Transcript:
    """The transcript as scored: its final cut to what was read (when it was cut)."""
    return transcript.model_copy(update={"final": final}) if notes and transcript.final is not None else transcript


def _noted(card: Scorecard, notes: list[str]) -> Scorecard:
    card.notes.extend(notes)
    return card
