"""Issue 41, the patient's work per turn: what the matcher keeps per case (the facts of the medicine list) is what
working it out again for each question gives. No timed assertions."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators.lexicon import units
from medbench_tui.core.simulators.matcher import Matcher, _of_medicines
from medbench_tui.core.validate import load_valid_case

CASES = sorted(p for p in (Path(__file__).resolve().parent.parent / "cases").glob("*.yaml")
               if p.name != "medbench.yaml")[:8]
QUESTIONS = [
    "What medications do you take?",
    "any meds?",
    "Are you on any tablets or inhalers?",
    "What dose is that?",
    "Do you take anything from the chemist?",
    "Any herbal remedies or supplements?",
    "How is your sleep?",
]


def _fresh_medicine_facts(matcher: Matcher) -> list[str | None]:
    return [s.id for s in matcher.facts if (head := units(s.topic)[:1]) and _of_medicines(head[0])]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_the_kept_medicine_facts_are_those_read_per_question(path: Path) -> None:
    matcher = Matcher(patient_record(load_valid_case(path)))
    assert [s.id for s in matcher._medicine_facts] == _fresh_medicine_facts(matcher)
    assert matcher._medicine_facts is matcher._medicine_facts  # read once per case


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_the_whole_medicine_list_is_what_a_matcher_that_never_asked_gives(path: Path) -> None:
    record = patient_record(load_valid_case(path))
    kept = Matcher(record)
    for _ in range(2):  # the second round reads the list the first kept
        for question in QUESTIONS:
            sources = kept.facts_for(question)
            fresh = Matcher(record)
            assert [s.id for s in kept.of_the_whole_medicine_list(question, sources)] == [
                s.id for s in fresh.of_the_whole_medicine_list(question, fresh.facts_for(question))]
