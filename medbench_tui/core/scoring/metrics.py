"""Every metric of the contract (``shared/spec/scoring.md``), from a matching.

All metrics are on 0-100. A metric whose denominator is empty is None (JSON null),
never 0 or 100 by accident: differential accuracy without reference differentials,
the workup score without required workup, treatment accuracy when nothing is required
and nothing was given, question coverage without control questions, action F1 with
nothing to count, the soft range without ``num_steps``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from medbench_tui.core.cases.model import Case, ControlQuestion
from medbench_tui.core.scoring.constants import (
    DEFAULT_UNEXPECTED_PENALTY,
    DEFAULT_UNLISTED_PENALTY,
    SOFT_RANGE_HIGH,
    SOFT_RANGE_LOW,
)
from medbench_tui.core.scoring.extraction_model import Entity, Extraction, agreement
from medbench_tui.core.scoring.match import Matching
from medbench_tui.core.scoring.reference import Ref, ReferenceTable

if TYPE_CHECKING:
    from medbench_tui.core.icd10.model import Agreement

AGREEMENT_ORDER: tuple[Agreement, ...] = ("exact", "category", "chapter", "wrong")


def percent(part: float, whole: float) -> float | None:
    return None if whole <= 0 else 100.0 * part / whole


def clip(value: float) -> float:
    return max(0.0, min(100.0, value))


def unexpected_penalty(ref: Ref, case: Case) -> float:
    """The item's penalty, else the case's scoring.unexpected_penalty, else the default."""
    if ref.penalty is not None:
        return ref.penalty
    if case.scoring.unexpected_penalty is not None:
        return case.scoring.unexpected_penalty
    return DEFAULT_UNEXPECTED_PENALTY


def unlisted_penalty(case: Case) -> float:
    if case.scoring.unlisted_penalty is not None:
        return case.scoring.unlisted_penalty
    return DEFAULT_UNLISTED_PENALTY


# --- diagnosis ------------------------------------------------------------------------


def matches_primary(matching: Matching, entity: Entity) -> bool:
    return any(c.ref.kind == "primary" for c in matching.candidates_of(entity))


def diagnosis_accuracy(extraction: Extraction, matching: Matching) -> int:
    """100 when at least one final diagnosis matches the primary diagnosis (name or
    alias, or the primary's WHO code or one of its ``accept_codes``); a shared
    3-character category alone does not, nor does a right answer only in the differential."""
    return 100 if any(matches_primary(matching, e) for e in extraction.scored("diagnosis")) else 0


def primary_icd10(extraction: Extraction, matching: Matching, table: ReferenceTable) -> Agreement:
    """The agreement with the primary code of the code attached to the final diagnosis
    that matched the primary by name (the best, when several did; when none did, the best
    of the final diagnoses' codes); a code in ``accept_codes`` is exact. ``missing`` when
    there is no such code."""
    finals = extraction.scored("diagnosis")
    by_name = [
        e for e in finals
        if any(c.ref.kind == "primary" and not c.via.startswith("ICD") for c in matching.candidates_of(e))
    ]
    chosen = by_name or finals  # none by name: the best of the final diagnoses (order does not matter)
    levels = {_agreement(e.icd10, table) for e in chosen if e.icd10}
    return next((level for level in AGREEMENT_ORDER if level in levels), "missing")


def _agreement(code: str, table: ReferenceTable) -> Agreement:
    if any(agreement(code, accepted) == "exact" for accepted in table.primary.accept_codes):
        return "exact"
    return agreement(code, table.primary.icd10 or "")


def secondary_recall(matching: Matching, table: ReferenceTable) -> float | None:
    found = sum(1 for p in matching.diagnoses.rows if p.ref is not None and p.ref.kind == "secondary" and p.entity)
    return percent(found, len(table.secondary))


def differential_accuracy(matching: Matching, table: ReferenceTable) -> float | None:
    """Share of reference differentials in the final differential list."""
    found = sum(1 for p in matching.differential.rows if p.status == "matched")
    return percent(found, len(table.differential))


def differential_precision(matching: Matching) -> float | None:
    """Share of the differential entries that name a reference diagnosis (a reference
    differential, or the primary or a secondary diagnosis listed again)."""
    given = matching.differential.given()
    right = sum(1 for p in given if p.status in ("matched", "acceptable"))
    return percent(right, len(given))


def primary_rank(extraction: Extraction, matching: Matching) -> int | None:
    """1-based rank of the primary diagnosis in the final diagnoses followed by the
    differential (an entry that repeats an earlier one's reference item does not
    take a rank); None when it is not there."""
    seen: set[int] = set()
    rank = 0
    for entity in (*extraction.scored("diagnosis"), *extraction.scored("differential")):
        cands = matching.candidates_of(entity)
        key = {id(c.ref) for c in cands}
        if key and key <= seen:
            continue
        seen |= key
        rank += 1
        if any(c.ref.kind == "primary" for c in cands):
            return rank
    return None


def recall_at(rank: int | None, k: int) -> int:
    return 100 if rank is not None and rank <= k else 0


def reciprocal_rank(rank: int | None) -> float:
    """100 / rank (0-100 like every metric; its mean over runs is the MRR x 100)."""
    return 0.0 if rank is None else 100.0 / rank


# --- workup and treatment -------------------------------------------------------------


@dataclass
class WorkupFigures:
    required_weight: float
    found_weight: float
    unexpected_penalty: float
    unlisted_items: int
    unlisted_penalty: float

    @property
    def score(self) -> float | None:
        """(found - unexpected penalties - unlisted penalty x unlisted items) / required,
        x 100, clipped to [0, 100]; None when the case has no required workup."""
        if self.required_weight <= 0:
            return None
        net = self.found_weight - self.unexpected_penalty - self.unlisted_penalty * self.unlisted_items
        return clip(100.0 * net / self.required_weight)


def workup_figures(matching: Matching, table: ReferenceTable, case: Case) -> WorkupFigures:
    rows = matching.workup.rows
    return WorkupFigures(
        required_weight=sum(r.weight for r in table.workup if r.klass == "required"),
        found_weight=sum(p.ref.weight for p in rows if p.status == "matched" and p.ref is not None),
        unexpected_penalty=sum(unexpected_penalty(p.ref, case) for p in rows if p.status == "unexpected" and p.ref),
        unlisted_items=sum(1 for p in rows if p.status == "extra"),
        unlisted_penalty=unlisted_penalty(case),
    )


@dataclass
class TreatmentFigures:
    matching: int
    different: int
    extra: int  # matching nothing, contraindicated or not indicated
    missing: int

    @property
    def accuracy(self) -> float | None:
        """matching / (matching + extra + missing + different) x 100."""
        return percent(self.matching, self.matching + self.extra + self.missing + self.different)


def treatment_figures(matching: Matching) -> TreatmentFigures:
    rows = matching.treatment.rows
    return TreatmentFigures(
        matching=sum(1 for p in rows if p.status in ("matched", "acceptable")),
        different=sum(1 for p in rows if p.status == "different"),
        extra=sum(1 for p in rows if p.status in ("extra", "contraindicated", "not_indicated")),
        missing=sum(1 for p in rows if p.status == "missing"),
    )


@dataclass
class ActionF1:
    """Weighted F1 over workup and treatment (as in points-weighted rubrics).

    TP = weights of the required items given; FN = weights of the required items not
    given (a treatment of the same group, ``different``, does not give the item);
    FP = penalties of the unexpected workup given (as in the workup score), weights
    of the contraindicated and not_indicated treatment given, and the unlisted penalty (default 0) for
    each item matching nothing. Acceptable and optional items are neutral.
    F1 = 2TP / (2TP + FP + FN) x 100; None when that denominator is 0.
    """

    tp: float
    fp: float
    fn: float

    @property
    def value(self) -> float | None:
        return percent(2 * self.tp, 2 * self.tp + self.fp + self.fn)


def action_f1(matching: Matching, case: Case) -> ActionF1:
    tp = fp = fn = 0.0
    unlisted = unlisted_penalty(case)
    for rows in (matching.workup.rows, matching.treatment.rows):
        for p in rows:
            if p.status == "matched" and p.ref is not None:
                tp += p.ref.weight
            elif p.status in ("missing", "different") and p.ref is not None:
                fn += p.ref.weight
            elif p.status == "unexpected" and p.ref is not None:
                fp += unexpected_penalty(p.ref, case)
            elif p.status in ("contraindicated", "not_indicated") and p.ref is not None:
                fp += p.ref.weight
            elif p.status == "extra":
                fp += unlisted
    return ActionF1(tp, fp, fn)


# --- history and steps ----------------------------------------------------------------


def question_coverage(
    case: Case, disclosed: set[str]
) -> tuple[float | None, list[ControlQuestion], list[ControlQuestion]]:
    """Weighted share of control questions with at least one ``answered_by`` fact
    disclosed on a patient turn; also the elicited and the missed questions."""
    elicited = [q for q in case.control_questions if disclosed.intersection(q.answered_by)]
    missed = [q for q in case.control_questions if not disclosed.intersection(q.answered_by)]
    total = sum(q.weight for q in case.control_questions)
    return percent(sum(q.weight for q in elicited), total), elicited, missed


def outside_soft_range(steps: int, num_steps: int | None) -> bool | None:
    if num_steps is None:
        return None
    return steps < SOFT_RANGE_LOW * num_steps or steps > SOFT_RANGE_HIGH * num_steps

