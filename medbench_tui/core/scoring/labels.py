"""What the grader made of each reference item of a scorecard, as a label a person would give it.

Case self-checks compare these labels with what the author expects; rubric grading reads its
phrases and panel actions through them (``core/rubric``).
"""

from __future__ import annotations

from typing import Literal

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring.scorecard import ItemEntry, Scorecard

ItemLabel = Literal["found", "different", "negated", "not_found"]
NOT_GIVEN = ("not_found", "negated")
NOT_A_PLAN = ("negated", "conditional", "historical")


def item_labels(card: Scorecard, case: Case | None = None) -> dict[str, tuple[ItemLabel, ItemEntry]]:
    """Reference item name -> (found | different | negated | not_found, its row), as the grader decided.
    With ``case``, an item the answer advised against that has no row of its own (a harmful item not
    given: "no antibiotics") is ``negated``, with the mention as its evidence."""
    labels: dict[str, tuple[ItemLabel, ItemEntry]] = {}
    for rows in (card.items.diagnoses, card.items.differential, card.items.workup, card.items.treatment):
        for row in rows:
            if row.reference is None:
                continue
            label: ItemLabel
            if row.answer is not None:
                label = "different" if row.status == "different" else "found"
            else:
                label = "negated" if row.evidence is not None else "not_found"
            known = labels.get(row.reference)
            if known is None or known[0] in NOT_GIVEN:
                labels[row.reference] = (label, row)
    if case is not None and card.extraction is not None:
        from medbench_tui.core.scoring.reasons import not_recommended
        from medbench_tui.core.scoring.reference import reference_table

        table = reference_table(case)
        unsaid = not_recommended(card.extraction, table)
        for ref in (*table.workup, *table.treatment):
            entity = unsaid.get(id(ref))
            # every way of mentioning it without recommending it: negated, conditional on what the record does not
            # establish, or history ("trimethoprim allergy - avoid"), as the labelling rules count them
            if entity is not None and entity.status in NOT_A_PLAN and ref.name not in labels:
                labels[ref.name] = ("negated", ItemEntry(reference=ref.name, answer=None, status="missing",
                                                         evidence=entity.evidence, reason=entity.reason))
    return labels
