"""Grading one answer to a rubric case: every criterion or panel action decided, and the score.

``phrases`` criteria and panel actions are read as the scorer reads a plan (``reading.py``);
``number`` criteria find the number with its unit (``numbers.py``); ``judge`` criteria go to an LLM
judge when one is configured (``judge.py``) and are otherwise left ungraded, as ``physician``
criteria always are until a physician grades them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medbench_tui.core.cases.model import Criterion
from medbench_tui.core.cases.rubric import RubricCase
from medbench_tui.core.rubric.decisions import (
    NOBODY,
    NUMBER,
    PHRASES,
    ActionDecision,
    CriterionDecision,
    RubricGrade,
    points_score,
    weighted_f1,
)
from medbench_tui.core.rubric.numbers import read_number
from medbench_tui.core.rubric.reading import ActionItem, ItemReading, read_items, reading_of

if TYPE_CHECKING:
    from medbench_tui.core.rubric.judge import Judge

UNGRADED_WHY = {
    "judge": "graded by an LLM judge: none was asked (set evaluator.judge in medbench.yaml); a physician may "
             "grade it",
    "physician": "graded by a physician (medbench agreement reads their decisions)",
}


def grade(rubric: RubricCase, answer: str) -> RubricGrade:
    """Every deterministic decision; judge and physician criteria ungraded."""
    if rubric.panel is not None:
        return _panel(rubric, answer)
    return grade_criteria(rubric.id, rubric.criteria or [], answer)


def grade_criteria(case_id: str, criteria: list[Criterion], answer: str) -> RubricGrade:
    """A points rubric's deterministic decisions on ``answer`` (a rubric case's, or a consultation
    case's criteria on its final response); judge and physician criteria ungraded."""
    items = [ActionItem(p, (), c.points < 0) for c in criteria if c.grader == PHRASES and c.phrases
             for p in c.phrases.all]
    items += [ActionItem(c.phrases.any[0], tuple(c.phrases.any[1:]), c.points < 0) for c in criteria
              if c.grader == PHRASES and c.phrases and c.phrases.any]
    readings = read_items(case_id, items, answer) if items else {}
    decisions = [_decide(c, answer, readings) for c in criteria]
    return RubricGrade(case_id=case_id, method="points", criteria=decisions, score=points_score(decisions))


async def grade_async(rubric: RubricCase, answer: str, judge: Judge | None = None) -> RubricGrade:
    """:func:`grade`, with the judge criteria put to ``judge`` (in one request) when it is given.
    An endpoint that fails raises its :class:`EndpointError`: no score stands in for one not computed."""
    question = "\n\n".join(f"{m.role}: {m.content}" for m in rubric.conversation())
    return await judged(grade(rubric, answer), rubric.criteria or [], question, answer, judge)


async def judged(graded: RubricGrade, criteria: list[Criterion], question: str, answer: str,
                 judge: Judge | None) -> RubricGrade:
    """``graded`` with its judge criteria decided by ``judge`` (unchanged without one)."""
    asked = [c for c in criteria if c.grader == "judge"]
    if judge is None or not asked:
        return graded
    decided = await judge.decide(question, answer, asked)
    decisions = [decided.get(d.criterion, d) for d in graded.criteria]
    return graded.model_copy(update={"criteria": decisions, "score": points_score(decisions)})


def _decide(criterion: Criterion, answer: str, readings: dict[str, ItemReading]) -> CriterionDecision:
    if criterion.grader == NUMBER and criterion.number is not None:
        found = read_number(answer, criterion.number)
        return CriterionDecision.of(criterion, "met" if found.met else "not_met", NUMBER, found.reason,
                                    evidence=found.evidence)
    if criterion.grader == PHRASES and criterion.phrases is not None:
        rule = criterion.phrases
        first = reading_of(readings, rule.any[0]) if rule.any else None
        alls = [(p, reading_of(readings, p)) for p in rule.all]
        missing = [p for p, r in alls if r.label != "found"]
        met = (first is None or first.label == "found") and not missing
        shown = next((r for r in [first, *(r for _, r in alls)] if r is not None and r.evidence is not None), None)
        if met:
            reason = "; ".join(r.reason for r in [first, *(r for _, r in alls)] if r is not None)
        elif first is not None and first.label != "found":
            reason = first.reason if first.label != "not_found" else f"none of {', '.join(rule.any)} in the answer"
        else:
            reason = f"not said: {', '.join(missing)}"
        return CriterionDecision.of(criterion, "met" if met else "not_met", PHRASES, reason,
                                    evidence=shown.evidence if shown is not None else None)
    return CriterionDecision.of(criterion, "ungraded", NOBODY, UNGRADED_WHY.get(criterion.grader, "not graded"))


def _panel(rubric: RubricCase, answer: str) -> RubricGrade:
    panel = rubric.panel or []
    readings = read_items(rubric.id, [ActionItem(a.action, tuple(a.aliases), a.severity < 0) for a in panel], answer)
    actions = []
    for action in panel:
        reading = reading_of(readings, action.action)
        actions.append(ActionDecision(action=action.action, severity=action.severity,
                                      included=reading.label == "found", evidence=reading.evidence,
                                      reason=reading.reason))
    f1, precision, recall = weighted_f1(actions)
    return RubricGrade(case_id=rubric.id, method="panel", actions=actions, score=f1, precision=precision,
                       recall=recall)
