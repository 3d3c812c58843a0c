"""Rubric criteria on a consultation case: points graded on its final response.

A consultation case may carry ``criteria`` (the rubric case format's): they are graded on the final
response as a rubric case's are - phrases read by the scorer, numbers with their unit, a judge for
judge criteria (when one is configured; it is shown the consultation), physicians in the Review
mode - and their score is the run's ``rubric_score``, stored beside the scorecard's own metrics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medbench_tui.core.cases.rubric import RUBRIC_SCORE
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.rubric.decisions import RubricGrade
from medbench_tui.core.rubric.grading import grade_criteria, judged

if TYPE_CHECKING:
    from medbench_tui.core.cases.model import Case
    from medbench_tui.core.rubric.judge import Judge
    from medbench_tui.core.transcript import FinalDiagnosis, FinalResponse, Transcript

CRITERIA = "criteria"
"""The scorecard document's key for the graded criteria of a consultation case."""
SECTIONS = (("diagnoses", "Diagnosis"), ("differential", "Differential"), ("workup", "Workup"),
            ("treatment", "Treatment"))


def final_answer(final: FinalResponse) -> str:
    """The final response as one text, as a rubric reads an answer: its free text, else its fields."""
    if final.text:
        return final.text
    parts = []
    for key, title in SECTIONS:
        entries: list[FinalDiagnosis] | list[str] = getattr(final, key)
        names = [getattr(e, "name", e) for e in entries]
        if names:
            parts.append(f"{title}: " + "; ".join(str(n) for n in names))
    if final.advice:
        parts.append(f"Advice: {final.advice}")
    return "\n".join(parts)


def consultation_question(case: Case, transcript: Transcript) -> str:
    """What the judge is told was asked: the consultation as it went (the patient's opening, then each turn)."""
    lines = [f"A consultation with a patient. The patient: {case.intro}"]
    lines += [f"{'doctor' if turn.role == 'doctor' else 'patient'}: {turn.text}" for turn in transcript.turns]
    return "\n".join(lines) + "\nThe doctor then gave the final response (the answer)."


def grade_final(case: Case, transcript: Transcript) -> RubricGrade | None:
    """The case's criteria graded on the final response (judge criteria ungraded); None without criteria."""
    if not case.criteria:
        return None
    return grade_criteria(case.id, case.criteria, final_answer(transcript.final) if transcript.final else "")


async def grade_final_async(case: Case, transcript: Transcript, judge: Judge | None) -> RubricGrade | None:
    """:func:`grade_final`, with judge criteria put to ``judge`` when one is given."""
    graded = grade_final(case, transcript)
    if graded is None or transcript.final is None:
        return graded
    return await judged(graded, case.criteria or [], consultation_question(case, transcript),
                        final_answer(transcript.final), judge)


def with_criteria(document: JSONObject, graded: RubricGrade | None) -> JSONObject:
    """A scorecard document with the graded criteria and their score (0-100) among its metrics."""
    if graded is None:
        return document
    document[CRITERIA] = graded.model_dump(mode="json")
    if graded.score is not None:
        document["metrics"][RUBRIC_SCORE] = round(100.0 * graded.score, 2)
    return document


def criteria_of(document: JSONObject | None) -> RubricGrade | None:
    """The graded criteria a stored scorecard document carries, if any."""
    found = (document or {}).get(CRITERIA)
    return RubricGrade.model_validate(found) if isinstance(found, dict) else None
