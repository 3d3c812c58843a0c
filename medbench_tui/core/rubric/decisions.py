"""What grading a rubric case decided, as typed records: one per criterion or panel action, each
with its evidence in the answer and who or what decided it, and the score they add up to.

The records are what a run stores (``RubricGrade.model_dump``) and what reports, the agreement
command and the screens read back (``RubricGrade.model_validate``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from medbench_tui.core.cases.model import Criterion
from medbench_tui.core.scoring.extraction_model import Span

Verdict = Literal["met", "not_met", "ungraded"]
Method = Literal["points", "panel"]

PHRASES = "phrases"
NUMBER = "number"
JUDGE_PREFIX = "judge:"
PHYSICIAN_PREFIX = "physician:"
NOBODY = "ungraded"
"""``decided_by`` of a criterion nobody has graded yet (a judge criterion offline, a physician's)."""


class JudgeRecord(BaseModel):
    """How an LLM judge was asked: enough to say which judge and prompt stand behind a decision."""

    model: str = Field(description="The model asked for.")
    served_model: str | None = Field(default=None, description="The model the server says it served.")
    prompt_sha256: str = Field(description="sha256 of the judge's prompt template (not of the filled prompt).")
    parameters: dict[str, float | int | str | None] = Field(
        default_factory=dict, description="temperature, seed, max_tokens as sent.")


class CriterionDecision(BaseModel):
    """One criterion of a points rubric, decided (or not yet)."""

    criterion: str = Field(description="The criterion's id.")
    text: str = Field(description="The criterion, as written.")
    points: int
    tags: list[str] = Field(default_factory=list)
    grader: str = Field(description="The grader the case asks for (phrases, number, judge, physician).")
    verdict: Verdict
    evidence: Span | None = Field(default=None, description="Where in the answer the decision rests, if anywhere.")
    decided_by: str = Field(description="phrases, number, judge:<model>, physician:<name>, or ungraded.")
    reason: str = Field(description="Why, in words: the rule, the number found, the judge's quote.")
    judge: JudgeRecord | None = None

    @classmethod
    def of(cls, criterion: Criterion, verdict: Verdict, decided_by: str, reason: str, *,
           evidence: Span | None = None, judge: JudgeRecord | None = None) -> CriterionDecision:
        return cls(criterion=criterion.id, text=criterion.text, points=criterion.points, tags=list(criterion.tags),
                   grader=criterion.grader, verdict=verdict, evidence=evidence, decided_by=decided_by,
                   reason=reason, judge=judge)

    @property
    def axes(self) -> list[str]:
        return [t.split(":", 1)[1] for t in self.tags if t.startswith("axis:") and t[5:]]


class ActionDecision(BaseModel):
    """One action of a weighted panel: whether the answer includes it."""

    action: str
    severity: int
    included: bool
    evidence: Span | None = None
    decided_by: str = PHRASES
    reason: str


class RubricGrade(BaseModel):
    """Every decision of one answer to one rubric case, and its score (0..1)."""

    case_id: str
    method: Method
    criteria: list[CriterionDecision] = Field(default_factory=list)
    actions: list[ActionDecision] = Field(default_factory=list)
    score: float | None = Field(
        description="Points: points met over positive points of the graded criteria, clipped to 0..1; panel: the "
                    "weighted F1. None when nothing that gives points is graded.")
    precision: float | None = Field(default=None, description="Panel only: weighted precision.")
    recall: float | None = Field(default=None, description="Panel only: weighted recall.")

    @property
    def ungraded(self) -> list[CriterionDecision]:
        return [d for d in self.criteria if d.verdict == "ungraded"]

    @property
    def judges(self) -> list[JudgeRecord]:
        """The judges behind the decisions, each once."""
        found: dict[str, JudgeRecord] = {}
        for decision in self.criteria:
            if decision.judge is not None:
                found.setdefault(decision.decided_by + decision.judge.prompt_sha256, decision.judge)
        return list(found.values())

    def axis_scores(self) -> dict[str, float]:
        """axis -> the points score of the criteria tagged ``axis:<axis>`` (graded ones, with positive points)."""
        axes = sorted({a for d in self.criteria for a in d.axes})
        found = {axis: points_score([d for d in self.criteria if axis in d.axes]) for axis in axes}
        return {axis: value for axis, value in found.items() if value is not None}


def points_score(decisions: list[CriterionDecision]) -> float | None:
    """Points of the met criteria over the positive points, clipped to 0..1, over the graded criteria
    (a criterion not yet graded counts neither way); None when no graded criterion gives points."""
    graded = [d for d in decisions if d.verdict != "ungraded"]
    possible = sum(d.points for d in graded if d.points > 0)
    if possible <= 0:
        return None
    met = sum(d.points for d in graded if d.verdict == "met")
    return min(1.0, max(0.0, met / possible))


def weighted_f1(actions: list[ActionDecision]) -> tuple[float, float | None, float | None]:
    """(F1, precision, recall) of a panel: TP the severities of the good actions included, FP the
    |severity| of the harmful ones included, FN the severities of the good ones left out; F1 is 0
    when TP is 0 (precision is then None when nothing was included at all)."""
    tp = sum(a.severity for a in actions if a.severity > 0 and a.included)
    fp = sum(-a.severity for a in actions if a.severity < 0 and a.included)
    fn = sum(a.severity for a in actions if a.severity > 0 and not a.included)
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    if tp == 0 or precision is None or recall is None:
        return 0.0, precision, recall
    return 2 * precision * recall / (precision + recall), precision, recall
