"""Grader classes from new-case set I's first run, each tested on wording of its own."""

from __future__ import annotations

import pytest

from medbench_tui.core.scoring.sections import parse
from tests.test_scoring_regressions import card, rows


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



@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- She was given amoxicillin at the walk-in centre, which has not helped", False),
    ("Plan:\n- He had amoxicillin from the out-of-hours doctor two days ago; admit now", False),
    ("Plan:\n- amoxicillin 500 mg tds for 5 days", True),
])
def test_what_the_patient_already_had_is_history_not_the_plan(plan: str, given: bool):
    treatment = rows(card("im-cap-001", plan), "treatment")
    assert ("Amoxicillin 500 mg three times daily for 5 days" in treatment) is given


@pytest.mark.parametrize(("plan", "admitted"), [
    ("Plan:\n- 999 now, paramedics to take him in", True),
    ("Plan:\n- 999 blue light to ED", True),
    ("Plan:\n- GP review in a week", False),
])
def test_the_emergency_number_as_an_order_is_an_emergency_ambulance(plan: str, admitted: bool):
    treatment = rows(card("im-copd-exacerbation-001", plan), "treatment")
    assert ("Emergency same-day hospital admission by ambulance" in treatment) is admitted


@pytest.mark.parametrize(("text", "one_clause"), [
    ("Send stool for C. difficile toxin and stop the PPI", True),
    ("Treat the E. coli bacteraemia with IV ceftriaxone", True),
    ("Vitamin D. Start alendronate", False),
])
def test_a_genus_initial_ends_no_clause(text: str, one_clause: bool):
    from medbench_tui.core.scoring.document import Document

    doc = Document(text)
    assert (len(set(doc.clause)) == 1) is one_clause
