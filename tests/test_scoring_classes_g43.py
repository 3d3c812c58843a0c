"""Grader classes (issue 32): a heading that says its items are not given, a verdict after a label
(a list before a colon or a spaced dash), and a drug under a bracketed history heading. Wording of its own, on other
topics, with the given plans that must stay given."""

from __future__ import annotations

import pytest

from medbench_tui.core.scoring import cues
from medbench_tui.core.scoring.document import Document
from medbench_tui.core.scoring.sections import heading_kind
from medbench_tui.core.scoring.text_extractor import _history_heading


@pytest.mark.parametrize(("label", "avoid"), [
    ("Medicines avoided and why", True),
    ("Withheld", True),
    ("What I would not give (and why)", True),
    ("Drugs I would not start", True),
    ("Not prescribed", True),
    ("Drugs to continue", False),
    ("Avoiding falls: physiotherapy", False),
    ("Diagnoses not to miss", False),
    ("Things I would not miss", False),
])
def test_a_heading_whose_words_say_not_given_is_an_avoid_heading(label: str, avoid: bool):
    assert (heading_kind(label, tail_words=5) == "avoid") is avoid, label


def _negated(line: str, drug: str) -> bool:
    doc = Document(line)
    words = drug.lower().split()
    first = next(k for k in range(len(doc.lows)) if doc.lows[k : k + len(words)] == words)
    return cues.negation(doc, first, first + len(words) - 1) is not None


@pytest.mark.parametrize(("line", "drug", "negated"), [
    ("- **Metformin: not offered.** eGFR 22.", "metformin", True),
    ("- **Gliclazide, glipizide and glibenclamide: avoid** - hypoglycaemia risk in the elderly.", "glipizide", True),
    ("- Warfarin (including DOACs): no - active bleed", "warfarin", True),
    ("- Thrombolysis: not started - onset unknown", "thrombolysis", True),
    ("Ibuprofen - avoid at eGFR 25", "ibuprofen", True),
    ("- Aspirin: not indicated - primary prevention only", "aspirin", True),
    # given: a dose or a start after the label, or a withholding verb with its own object
    ("- Metformin: start 500 mg OD with breakfast", "metformin", False),
    ("- Prednisolone - 40 mg OD for 5 days", "prednisolone", False),
    ("- Amoxicillin: 500 mg TDS", "amoxicillin", False),
    ("- Paracetamol and codeine - avoid ibuprofen", "paracetamol", False),
])
def test_a_verdict_after_a_label_covers_its_list(line: str, drug: str, negated: bool):
    assert _negated(line, drug) is negated, line


@pytest.mark.parametrize(("heading", "history"), [
    ("History (from her daughter)", True),
    ("Background (GP record)", True),
    ("Plan (today)", False),
])
def test_a_bracket_only_qualifies_a_history_heading(heading: str, history: bool):
    """"Took naproxen before the run" under "History (from ...)" is what the patient had, not a plan."""
    assert _history_heading(heading) is history


@pytest.mark.parametrize("line", [
    "7. Do not give sodium bicarbonate",
    "- **Metformin withheld** until the eGFR recovers",
    "- Drugs withheld: metformin",
])
def test_a_plan_entry_that_withholds_is_no_avoid_heading(line: str):
    """An instruction with its object, or a bulleted entry, is one entry: the plan lines after it stay the plan's."""
    from medbench_tui.core.scoring.sections import parse

    text = f"## Plan\n1. IV insulin 0.1 units/kg/h\n{line}\n8. Hourly neurological observations\n"
    at = text.index("Hourly")
    assert next(s.kind for s in parse(text).sections if s.start <= at < s.end) == "treatment"


def test_items_under_a_general_avoid_heading_are_declined():
    text = "## Plan\n- Oral doxycycline 100 mg BD\n\n## Medicines I would not use\n- Ciprofloxacin\n"
    from medbench_tui.core.scoring.sections import parse

    at = text.index("Ciprofloxacin")
    assert next(s.kind for s in parse(text).sections if s.start <= at < s.end) == "avoid"
