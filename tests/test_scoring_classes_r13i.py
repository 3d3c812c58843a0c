"""Grader classes from new-case set I's first run, each tested on wording of its own."""

from __future__ import annotations

import pytest

from medbench_tui.core.scoring.sections import parse
from tests.test_scoring_regressions import card


@pytest.mark.parametrize("gap", ["\n\n", "\n"])
def test_a_wrapped_label_paragraph_ends_before_the_list_after_it(gap: str):
    text = (f"Assessment: probable septic bursitis of the left elbow; cellulitis\nover it is possible.{gap}"
            "1. Aspirate the bursa.\n2. Admit.\n")
    layout = parse(text)
    assert layout.section_at(text.index("cellulitis")).kind == "diagnosis"  # the wrapped label's text
    assert layout.section_at(text.index("Aspirate")).kind != "diagnosis"
    assert layout.section_at(text.index("Admit")).kind != "diagnosis"


def test_a_wrapped_label_without_a_full_stop_still_ends_at_its_blank_line():
    text = ("Impression: migraine with aura, tension type\nheadache less likely\n\n"
            "Sumatriptan 50 mg now\nReview in 2 weeks\n")
    layout = parse(text)
    assert layout.section_at(text.index("headache less")).kind == "diagnosis"
    assert layout.section_at(text.index("Sumatriptan")).kind != "diagnosis"



@pytest.mark.parametrize(("text", "working"), [
    ("Impression: pleuritic chest pain - ?PE until proven otherwise.", True),
    ("Impression: pleuritic chest pain - ?PE.", False),
    ("Pleuritic pain and tachycardia; pneumothorax possible, PE unless proven otherwise.", True),
])
def test_a_condition_held_until_proven_otherwise_is_the_working_diagnosis(text: str, working: bool):
    assert (card("em-pe-001", text).metrics.diagnosis_accuracy == 100) is working
