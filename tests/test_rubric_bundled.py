"""The bundled rubric set (cases/rubric/, a bank of its own): at least twenty physician-reviewed
rubric cases of the kinds the rubric benchmark asks for, valid, and graded offline."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ruamel.yaml import YAML

from medbench_tui.core.cases.rubric import RubricCase
from medbench_tui.core.rubric.grading import grade
from medbench_tui.core.validate import validate_paths

RUBRICS = Path(__file__).resolve().parent.parent / "cases" / "rubric"


def _cases() -> list[RubricCase]:
    yaml = YAML(typ="safe", pure=True)
    return [RubricCase.model_validate(yaml.load(p.read_text(encoding="utf-8"))) for p in sorted(RUBRICS.glob("*.yaml"))]


def test_the_rubric_set_validates_and_holds_the_kinds_asked_for():
    reports = validate_paths([RUBRICS])
    assert [(r.path, d.code) for r in reports for d in r.diagnostics if d.severity == "error"] == []
    cases = _cases()
    assert len(cases) >= 20 and all(c.status != "draft" and c.reviewers for c in cases)
    themes = Counter(c.metadata.theme for c in cases)
    assert themes["drug_safety"] >= 3 and themes["calculations"] >= 3 and themes["hallucination"] >= 2
    assert all(any(k.grader == "number" for k in c.criteria) for c in cases if c.metadata.theme == "calculations")
    assert sum(1 for c in cases if c.panel) >= 3
    pairs = Counter(c.metadata.pair_id for c in cases if c.metadata.pair_id)
    (pair, size), = pairs.items()
    first, second = [c for c in cases if c.metadata.pair_id == pair]
    assert size == 2 and first.criteria == second.criteria and first.prompt != second.prompt


def test_every_rubric_case_is_graded_offline_with_judge_criteria_left_ungraded():
    for case in _cases():
        result = grade(case, "I would need more information before answering.")
        if case.panel:
            assert len(result.actions) == len(case.panel) and not any(a.included for a in result.actions)
        else:
            judged = {k.id for k in case.criteria if k.grader in ("judge", "physician")}
            assert {d.criterion for d in result.criteria if d.verdict == "ungraded"} == judged, case.id


def test_a_plan_said_with_its_condition_meets_a_criterion_and_a_denial_does_not():
    """"Aspirin 300 mg unless he is allergic" says aspirin; "no aspirin" does not."""
    case = next(c for c in _cases() if any(k.id == "c-aspirin" for k in c.criteria))
    verdicts = {}
    for text in ("Give aspirin 300 mg chewed now, unless he is allergic.", "No aspirin."):
        result = grade(case, text)
        verdicts[text] = next(d.verdict for d in result.criteria if d.criterion == "c-aspirin")
    assert verdicts == {"Give aspirin 300 mg chewed now, unless he is allergic.": "met", "No aspirin.": "not_met"}
