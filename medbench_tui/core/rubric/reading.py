"""Phrases and panel actions read in an answer the way the scorer reads a plan's work-up and
treatment items: aliases, the clinical-actions reading (teams, drugs and classes, routes, timing),
negation and conditions ("do not", "avoid", "if her renal function worsens"), declining.

The phrases of a rubric case become the treatment items of a consultation case that has no
patient record, and the answer its final response; the scorer's item labels (``scoring.labels``)
are then what was said, denied or left out. A phrase that must not be said is a contraindicated
item, so it is read as a harmful action is.
"""

from __future__ import annotations

from dataclasses import dataclass

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring.extraction_model import Span
from medbench_tui.core.scoring.labels import ItemLabel, item_labels
from medbench_tui.core.scoring.scorecard import Scorecard

NO_DIAGNOSIS = "-"
"""The stand-in diagnosis of the reading case: no words, so it matches nothing in an answer."""
NO_CODE = "R69"
"""Its code, never shown: the reading case is never validated or stored."""


@dataclass(frozen=True)
class ActionItem:
    """A phrase (with its other wordings) to look for in an answer."""

    name: str
    aliases: tuple[str, ...] = ()
    harmful: bool = False
    """A thing the answer must not say (negative points, negative severity): read as a harmful action."""


@dataclass(frozen=True)
class ItemReading:
    """What the answer does with one item: says it (found), says another of its group (different),
    denies or declines it (negated), or leaves it out (not_found)."""

    label: ItemLabel
    evidence: Span | None
    reason: str


def read_items(case_id: str, items: list[ActionItem], answer: str) -> dict[str, ItemReading]:
    """Each item's reading in ``answer``, by name (items of one name, any case, are read as one,
    with all their wordings)."""
    from medbench_tui.core.scoring import score
    from medbench_tui.core.transcript import FinalResponse, Transcript

    merged: dict[str, ActionItem] = {}
    for item in items:
        key = item.name.strip().casefold()
        known = merged.get(key)
        merged[key] = item if known is None else ActionItem(
            known.name, tuple(dict.fromkeys(known.aliases + item.aliases)), known.harmful)
    case = Case.model_validate({
        "id": case_id, "title": case_id, "metadata": {"category": "internal_medicine"},
        "intro": NO_DIAGNOSIS, "additional_answers": [{"id": "none", "topic": NO_DIAGNOSIS, "answer": NO_DIAGNOSIS}],
        "diagnosis": {"primary": {"name": NO_DIAGNOSIS, "icd10": NO_CODE}},
        "treatment": [{"item": i.name, "class": "contraindicated" if i.harmful else "required",
                       "aliases": list(i.aliases)} for i in merged.values()],
    })
    card = score(case, Transcript(case_id=case_id, system="rubric", final=FinalResponse(text=answer)))
    labels = item_labels(card, case)
    conditional = _said_on_a_condition(card, case)
    readings: dict[str, ItemReading] = {}
    for key, item in merged.items():
        said = labels.get(item.name)
        if said is None:
            readings[key] = ItemReading("not_found", None, "not in the answer")
            continue
        label, row = said
        evidence = row.evidence if isinstance(row.evidence, Span) else None
        if label == "negated" and item.name in conditional:
            label = "found"  # "aspirin 300 mg unless he is allergic": said, with its condition
        readings[key] = ItemReading(label, evidence, row.reason or "not in the answer")
    return readings


def _said_on_a_condition(card: Scorecard, case: Case) -> set[str]:
    """The items the answer says on a condition ("unless he is allergic", "if it is confirmed"). A
    rubric has no patient record to settle the condition, and a physician grading a written answer
    counts a plan with its condition as said; only a denial or a decline is not."""
    from medbench_tui.core.scoring.reasons import not_recommended
    from medbench_tui.core.scoring.reference import reference_table

    if card.extraction is None:
        return set()
    table = reference_table(case)
    unsaid = not_recommended(card.extraction, table)
    return {ref.name for ref in table.treatment
            if (entity := unsaid.get(id(ref))) is not None and entity.status == "conditional"}


def reading_of(readings: dict[str, ItemReading], name: str) -> ItemReading:
    return readings[name.strip().casefold()]
