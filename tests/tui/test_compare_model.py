"""What the compare views show, worked out from runs: turns aligned, deltas, the item diff, the matrix filters."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.comparison.view import (
    Side,
    exchanges,
    final_sections,
    group_kind,
    item_diff,
    keep_rows,
    matrix_rows,
    metric_rows,
)
from medbench_tui.core.consultation.loop import Consultation, make_simulator
from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalDiagnosis, FinalResponse
from medbench_tui.core.validate import load_valid_case

from .conftest import CLINIC


def played(label: str, questions: list[str], final: FinalResponse | None) -> Side:
    case = load_valid_case(CLINIC / "fx-chest-001.yaml")
    consultation = Consultation(case, make_simulator("grounded", patient_record(case)), system=label, bank_root=CLINIC)

    async def go() -> None:
        for question in questions:
            await consultation.ask(question)

    asyncio.run(go())
    if final is None:
        transcript = consultation.abandon("turn_limit")
        return Side(label, "incomplete", "turn_limit", transcript, None)
    transcript = consultation.finish(final)
    return Side(label, "complete", None, transcript, score(case, transcript))


@pytest.fixture(scope="module")
def two() -> list[Side]:
    a = played("a", ["When did it start?", "Can I see the x-ray?"], FinalResponse(
        diagnoses=[FinalDiagnosis(name="Lobar pneumonia", icd10="J18.1")],
        workup=["Chest X-ray", "D-dimer"], treatment=["Levofloxacin"],
    ))
    b = played("b", ["Do you smoke?"], FinalResponse(
        diagnoses=[FinalDiagnosis(name="Acute bronchitis")], workup=["Chest X-ray", "CRP"],
        treatment=["Amoxicillin", "Vitamin C"],
    ))
    return [a, b]


def test_turns_pair_questions_with_replies_and_releases(two):
    turns = exchanges(two[0].transcript, {"cxr": "Chest radiograph"})
    assert [t.question for t in turns] == ["When did it start?", "Can I see the x-ray?"]
    assert turns[1].released == ["Chest radiograph"] and "four days ago" in turns[0].reply


def test_final_sections_leave_out_empty_fields():
    final = FinalResponse(diagnoses=[FinalDiagnosis(name="X", icd10="J18.1")], differential=["Y", "Z"])
    assert final_sections(final) == [("Diagnosis", ["X (J18.1)"]), ("Differential", ["1. Y", "2. Z"])]


def test_metric_deltas_are_against_the_first_side(two):
    rows = {row.name: row for row in metric_rows(two)}
    assert rows["diagnosis_accuracy"].values == [100, 0] and rows["diagnosis_accuracy"].deltas == [None, -100.0]
    assert rows["steps"].values == [2, 1]


def test_the_item_diff_says_who_found_and_who_gave_what(two):
    rows = {(r.section, r.item): r for r in item_diff(two)}
    assert rows[("diagnoses", "Lobar pneumonia")].verdict == "a only"
    assert rows[("workup", "Chest X-ray")].verdict == "both"
    assert rows[("workup", "C-reactive protein")].verdict == "b only"
    assert rows[("differential", "Pulmonary embolism")].verdict == "neither"
    assert rows[("workup", "D-dimer")].kind == "unexpected"
    assert rows[("workup", "D-dimer")].verdict == "given by a"
    quinolone = rows[("treatment", "Levofloxacin")]
    assert quinolone.kind == "contraindicated" and quinolone.verdict == "given by a"
    assert rows[("treatment", "Vitamin C")].kind == "extra"


def test_an_incomplete_side_finds_nothing(two):
    incomplete = played("c", ["When did it start?"], None)
    rows = {(r.section, r.item): r for r in item_diff([two[0], incomplete])}
    assert rows[("diagnoses", "Lobar pneumonia")].verdict == "a only"
    assert rows[("diagnoses", "Lobar pneumonia")].statuses == ["matched", None]


class Run:
    def __init__(self, case_id, system, status="complete", **metrics):
        self.case_id, self.system, self.status, self.steps = case_id, system, status, metrics.pop("steps", 3)
        self.metrics, self.reason = metrics, None if status == "complete" else "endpoint error: 500"

    @property
    def complete(self):
        return self.status == "complete"


def test_matrix_filters():
    runs = [
        Run("same", "a", diagnosis_accuracy=100, critical_conditions_passed=100),
        Run("same", "b", diagnosis_accuracy=100, critical_conditions_passed=100),
        Run("differ", "a", diagnosis_accuracy=100, critical_conditions_passed=100),
        Run("differ", "b", diagnosis_accuracy=0, critical_conditions_passed=100),
        Run("broken", "a", "incomplete"),
        Run("broken", "b", diagnosis_accuracy=100, critical_conditions_passed=100),
    ]
    rows = matrix_rows(runs, ["same", "differ", "broken", "missing"])
    systems = ["a", "b"]

    def kept(kind: str) -> list[str]:
        return [r.case_id for r in keep_rows(rows, systems, kind)]

    assert kept("all") == ["same", "differ", "broken", "missing"]
    assert kept("differences") == ["differ", "broken"]
    assert kept("failures") == ["differ"]
    assert kept("incomplete") == ["broken", "missing"]


def test_the_matrix_averages_repeats_and_an_incomplete_repeat_leaves_the_case_open():
    runs = [
        Run("c1", "a", diagnosis_accuracy=100, steps=4), Run("c1", "a", diagnosis_accuracy=0, steps=6),
        Run("c2", "a", diagnosis_accuracy=100), Run("c2", "a", "incomplete"),
    ]
    one, two = matrix_rows(runs, ["c1", "c2"])
    assert one.value("a", "diagnosis_accuracy") == 50 and one.value("a", "steps") == 5
    assert len(one.repeats["a"]) == 2
    assert two.value("a", "diagnosis_accuracy") is None and not two.runs["a"].complete
    assert two.incomplete(["a"])


def test_group_kinds():
    assert group_kind({"play": {}}) == "play" and group_kind({"compare": {}}) == "compare"
    assert group_kind({"systems": []}) == "run"


def test_paths_are_bank_relative(tmp_path):
    from medbench_tui.core.comparison.view import case_file, load_case

    assert case_file(tmp_path, "x.yaml") == tmp_path / "x.yaml"
    assert case_file(tmp_path, "/abs/x.yaml") == Path("/abs/x.yaml")
    assert load_case(tmp_path, "missing.yaml") is None


def test_a_chosen_set_of_cases_is_planned_as_one_group(clinic):
    from medbench_tui.core.cases.bank import load_bank
    from medbench_tui.core.cases.manifest import NOT_FROZEN
    from medbench_tui.core.comparison.plan import plan_cases

    files = [clinic / "fx-chest-001.yaml", clinic / "fx-throat-002.yaml"]
    plan = plan_cases(load_bank(clinic), ["checklist"], files, "grounded")
    assert [c.stored_path for c in plan.cases] == ["fx-chest-001.yaml", "fx-throat-002.yaml"]
    assert plan.cases_path == "fx-chest-001.yaml; fx-throat-002.yaml"
    assert plan.bank_manifest == NOT_FROZEN  # the clinic bank was never frozen


def test_a_rubric_question_in_the_matrix_shows_its_score_and_differs_by_it():
    from rich.style import Style

    from medbench_tui.tui.widgets.matrix import cell_pieces

    runs = [Run("rb", "a", rubric_score=50.0, rubric_ungraded=1.0, steps=0),
            Run("rb", "b", rubric_score=0.0, rubric_ungraded=1.0, steps=0),
            Run("rb-none", "a", rubric_ungraded=2.0, steps=0), Run("rb-none", "b", rubric_ungraded=2.0, steps=0)]
    scored, ungraded = matrix_rows(runs, ["rb", "rb-none"])
    styles = {"good": Style(), "bad": Style(), "warn": Style()}
    assert "".join(text for text, _ in cell_pieces(scored, "a", styles)) == "rubric score 50"
    assert "".join(text for text, _ in cell_pieces(ungraded, "b", styles)) == "rubric score ungraded"
    assert scored.differs(["a", "b"]) and not ungraded.differs(["a", "b"])
