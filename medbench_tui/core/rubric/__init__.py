"""Grading answers to rubric cases (``kind: rubric``): points rubrics and weighted action panels.

* ``decisions.py`` - the typed records: a decision per criterion or action, the grade and its score;
* ``reading.py`` - phrases and panel actions read as the scorer reads a plan's items;
* ``numbers.py`` - a number with its unit, for calculations;
* ``judge.py`` - the LLM judge of ``grader: judge`` criteria;
* ``grading.py`` - :func:`grade` (offline) and :func:`grade_async` (with a judge).
"""

from medbench_tui.core.rubric.decisions import ActionDecision, CriterionDecision, JudgeRecord, RubricGrade
from medbench_tui.core.rubric.grading import grade, grade_async
from medbench_tui.core.rubric.judge import Judge

__all__ = ["ActionDecision", "CriterionDecision", "Judge", "JudgeRecord", "RubricGrade", "grade", "grade_async"]
