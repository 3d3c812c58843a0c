"""What the grader decides for one item added to a bundled case: the tests of the grader's classes add an item of
their own to a case and read its row, so one reader serves them all."""

from __future__ import annotations

from pathlib import Path

from medbench_tui.core.scoring.extractor_choice import make_extractor
from medbench_tui.core.scoring.match import match
from medbench_tui.core.scoring.reasons import GIVEN
from medbench_tui.core.scoring.reference import reference_table
from medbench_tui.core.transcript import FinalResponse
from tests.support.case_yaml import case_with


def item_decision(tmp_path: Path, source: Path, section: str, item: dict, text: str) -> str:
    """found / different / not_found: what the grader decides for the one item added to the case."""
    case = case_with(tmp_path, source, section, item)  # made once a process
    extraction = make_extractor("text").extract(case, FinalResponse(text=text))
    matching = match(extraction, reference_table(case))
    for row in getattr(matching, section).rows:
        if row.ref is not None and row.entity is not None and row.ref.name == item["item"]:
            return "different" if row.status == "different" else "found" if row.status in GIVEN else "not_found"
    return "not_found"
