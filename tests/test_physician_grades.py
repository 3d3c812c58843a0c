"""Rubric criteria in the Review mode: decisions a physician checks or grades, the records they
leave, the grade read back with the physicians' verdicts, and the agreement on criteria."""

from __future__ import annotations

import pytest

from medbench_tui.core.review.adjudication import AdjudicationError, Record, decisions_of
from medbench_tui.core.review.agreement import agreement_report, render
from medbench_tui.core.review.physician_grades import graded_by_physicians, physician_records
from medbench_tui.core.rubric.decisions import ActionDecision, CriterionDecision, RubricGrade, points_score
from medbench_tui.core.runs.store import RunStore


def criterion(cid: str, points: int, verdict: str, grader: str = "phrases") -> CriterionDecision:
    return CriterionDecision(criterion=cid, text=f"criterion {cid}", points=points, grader=grader,
                             verdict=verdict,
                             decided_by=grader if verdict != "ungraded" else "ungraded", reason="why")


GRADE = RubricGrade(case_id="rb-1", method="points", criteria=[
    criterion("a", 5, "met"), criterion("b", 5, "not_met"), criterion("c", 2, "ungraded", "physician")],
    score=0.5)


def record(reference: str, evaluator: str, physician: str, rater: str = "Dr A", section: str = "criterion",
           note: str = "") -> Record:
    return Record(7, "rb-1", section, reference, evaluator, physician, rater, note)


def test_a_rubric_run_gives_one_decision_per_criterion_with_its_text_and_who_decided():
    decisions = decisions_of({"case_id": "rb-1", "rubric": GRADE.model_dump(mode="json")})
    assert [(d.section, d.reference, d.evaluator, d.ungraded) for d in decisions] == [
        ("criterion", "a", "met", False), ("criterion", "b", "not_met", False), ("criterion", "c", "ungraded", True)]
    assert decisions[0].text == "criterion a (+5 points)" and decisions[0].reason == "phrases: why"
    assert decisions[0].labels == ("met", "not_met")


def test_a_panel_run_gives_one_decision_per_action():
    panel = RubricGrade(case_id="rb-2", method="panel", score=1.0, actions=[
        ActionDecision(action="Stop methotrexate", severity=3, included=True, reason="said"),
        ActionDecision(action="Double the dose", severity=-3, included=False, reason="not said")])
    decisions = decisions_of({"rubric": panel.model_dump(mode="json")})
    assert [(d.section, d.reference, d.evaluator, d.text) for d in decisions] == [
        ("action", "Stop methotrexate", "met", "severity +3"),
        ("action", "Double the dose", "not_met", "severity -3")]


@pytest.mark.parametrize(("evaluator", "physician", "message"), [
    ("met", "found", "is not a criterion label"),
    ("ungraded", "ungraded", "physician 'ungraded' is not a criterion label"),
    ("found", "met", "evaluator 'found' is not a criterion label"),
])
def test_criterion_records_take_rubric_labels_only(evaluator, physician, message):
    data = record("c", evaluator, physician).to_json()
    with pytest.raises(AdjudicationError, match=message):
        Record.from_json(data, "line 1")
    assert Record.from_json(record("c", "ungraded", "met").to_json()).physician == "met"


def test_the_physicians_grade_decides_an_ungraded_criterion_and_the_score_counts_it():
    graded = graded_by_physicians(GRADE, [record("c", "ungraded", "met", note="clear")])
    decided = graded.criteria[2]
    assert (decided.verdict, decided.decided_by) == ("met", "physician:Dr A")
    assert decided.reason == "graded by Dr A in the Review mode: clear"
    assert graded.score == pytest.approx(7 / 12) == points_score(graded.criteria)
    assert GRADE.criteria[2].verdict == "ungraded"  # the stored grade is not rewritten


def test_a_physician_checks_a_graders_decision_but_never_overrules_it():
    graded = graded_by_physicians(GRADE, [record("b", "not_met", "met")])
    assert graded == GRADE


def test_physicians_who_disagree_leave_the_criterion_ungraded_and_say_so():
    graded = graded_by_physicians(GRADE, [record("c", "ungraded", "met"), record("c", "ungraded", "not_met", "Dr B")])
    decided = graded.criteria[2]
    assert decided.verdict == "ungraded"
    assert "the physicians disagree (Dr A: met; Dr B: not met)" in decided.reason
    assert graded.score == 0.5


def test_two_physicians_who_agree_are_both_named():
    both = [record("c", "ungraded", "not_met"), record("c", "ungraded", "not_met", "Dr B")]
    graded = graded_by_physicians(GRADE, both)
    assert graded.criteria[2].decided_by == "physician:Dr A, Dr B"
    assert graded.score == pytest.approx(5 / 12)


def test_reading_the_physicians_grades_makes_no_table_in_a_store_nobody_reviewed(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as store:
        assert physician_records(store, [1, 2]) == {}
        with store.connection() as db:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "adjudications" not in tables


def test_agreement_on_criteria_has_the_rubric_f1s_and_counts_physician_grades_apart():
    records = [record("a", "met", "met"), record("b", "not_met", "met"), record("d", "not_met", "not_met"),
               record("c", "ungraded", "met")]
    doc = agreement_report(records)
    assert doc["decisions"] == 3 and doc["physician_graded"] == 1
    section = doc["by_section"]["criterion"]
    assert section["agreement"] == pytest.approx(66.7)
    assert section["f1_met"] == pytest.approx(0.667) and section["f1_not_met"] == pytest.approx(0.667)
    assert section["macro_f1"] == pytest.approx(0.667)
    text = render(doc, "text")
    assert "criterion: macro F1 0.667" in text
    assert "graded by a physician: 1" in text


def test_criteria_side_by_side_count_repeats_and_quote_a_met_run():
    from medbench_tui.core.rubric.side_by_side import criteria_side_by_side, verdict_tone
    from medbench_tui.core.scoring.extraction_model import Span

    def graded(verdict: str, quote: str | None = None) -> RubricGrade:
        decision = criterion("a", 5, verdict)
        if quote:
            decision = decision.model_copy(update={"evidence": Span(start=0, end=len(quote), text=quote)})
        return RubricGrade(case_id="rb-1", method="points", criteria=[decision], score=None)

    older = RubricGrade(case_id="rb-1", method="points", criteria=[criterion("z", 1, "met")], score=1.0)
    rows = criteria_side_by_side([[graded("not_met", "maybe"), graded("met", "stop it"), graded("met")],
                                  [graded("ungraded")], [older]])
    assert [(r.key, r.weight) for r in rows] == [("a", 5), ("z", 1)]
    repeats, ungraded, missing = rows[0].cells
    assert repeats is not None and (repeats.met, repeats.graded, repeats.runs) == (2, 3, 3)
    assert repeats.verdict == "mixed" and repeats.shown() == "met 2 of 3" and repeats.evidence == "stop it"
    assert verdict_tone(repeats.verdict, 5) == "warn"
    assert ungraded is not None and ungraded.shown() == "ungraded" and ungraded.decided_by == ()
    assert missing is None  # graded on another version of the case
    assert rows[1].cells[2] is not None and rows[1].cells[2].shown(action=True) == "included"


def test_a_cell_of_repeats_says_how_many_met():
    from medbench_tui.core.rubric.side_by_side import CriterionCell

    def cell(met: int, graded: int, runs: int) -> str:
        return CriterionCell(met, graded, runs, None, (), "").shown()

    assert (cell(2, 2, 2), cell(0, 2, 2), cell(1, 2, 3)) == ("met 2 of 2", "not met (0 of 2)", "met 1 of 2, 1 ungraded")
    assert CriterionCell(0, 3, 3, None, (), "").shown(action=True) == "left out (0 of 3)"
