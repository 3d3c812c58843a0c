"""What a batch keeps per case (the reference table, the patient's fact index) is never served for an edited case:
the table's key holds every field it is built from, and a patient's fact index is its own record's."""

from __future__ import annotations

from medbench_tui.core.cases.model import Case, patient_record
from medbench_tui.core.scoring.reference import build_table, reference_table
from medbench_tui.core.simulators import make_simulator
from medbench_tui.core.simulators.grounded import GroundedSimulator
from medbench_tui.core.validate import load_valid_case
from tests.test_scoring_regressions import CASES


def fresh_case() -> Case:
    return load_valid_case(CASES / "em-anaphylaxis-001.yaml")


def test_an_edited_urgency_gets_a_new_table() -> None:
    """An emergency's tests are read as done before the patient leaves (``ReferenceTable._put_off``): the urgency
    is part of the table, so it is part of its key."""
    case = fresh_case()
    assert case.metadata.urgency == "emergency"
    first = reference_table(case)
    assert first.emergency and reference_table(case) is first  # kept for the case's next answer
    case.metadata.urgency = "routine"  # edited in place
    edited = reference_table(case)
    assert edited is not first and not edited.emergency
    case.metadata.urgency = "emergency"
    assert reference_table(case).emergency


def test_a_kept_table_is_the_table_built_anew() -> None:
    """Served from the cache for an equal copy of the case (as each run of a batch has), the table says what one
    built from the case says."""
    case = fresh_case()
    kept = reference_table(case)
    copy = case.model_copy(deep=True)
    assert reference_table(copy) is kept
    built = build_table(copy)
    assert (built.case_id, built.emergency, [r.name for r in built.workup], [r.name for r in built.treatment]) == (
        kept.case_id, kept.emergency, [r.name for r in kept.workup], [r.name for r in kept.treatment])


def test_the_runs_of_a_patient_share_its_fact_index_not_its_dialogue() -> None:
    patient = make_simulator(None, patient_record(fresh_case()))
    assert isinstance(patient, GroundedSimulator)
    again = patient.again()
    assert isinstance(again, GroundedSimulator)
    assert again.matcher is patient.matcher and again.state is not patient.state


def test_an_edited_fact_is_told_by_a_patient_made_from_the_edited_case() -> None:
    case = fresh_case()
    fact = case.additional_answers[0]
    question = f"Tell me about the {fact.topic}?"
    before = make_simulator(None, patient_record(case)).answer(question)
    fact.answer = "Quuxfield twelve, nothing else to say."
    after = make_simulator(None, patient_record(case)).answer(question)
    assert fact.id in after.facts and "Quuxfield" in after.text
    assert "Quuxfield" not in before.text


def test_the_scores_of_every_fact_are_kept_as_a_copy() -> None:
    """The matcher keeps the scores of a question against every fact (several rules ask): a caller that
    changes the list it got does not change what the next caller gets."""
    patient = make_simulator(None, patient_record(fresh_case()))
    assert isinstance(patient, GroundedSimulator)
    matcher = patient.matcher
    first = matcher.score("any allergies?", matcher.facts)
    first.clear()
    assert len(matcher.score("any allergies?", matcher.facts)) == len(matcher.facts)
