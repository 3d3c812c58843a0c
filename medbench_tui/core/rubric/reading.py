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
    readings: dict[str, ItemReading] = {}
    for key, item in merged.items():
        said = labels.get(item.name)
        if said is None:
            readings[key] = ItemReading("not_found", None, "not in the answer")
            continue
        label, row = said
        evidence = row.evidence if isinstance(row.evidence, Span) else None
        readings[key] = ItemReading(label, evidence, row.reason or "not in the answer")
    return readings


def reading_of(readings: dict[str, ItemReading], name: str) -> ItemReading:
    return readings[name.strip().casefold()]
