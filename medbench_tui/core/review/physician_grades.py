"""Rubric criteria graded by physicians in the Review mode.

A criterion no grader decided (``grader: physician``, or a judge criterion run without a judge)
is graded by the physicians who review the run: their verdicts, kept as adjudication records,
become its decision (``decided_by: physician:<name>``) wherever a grade is read back - the
report, the Results screen - and the score is counted again. The stored run is never rewritten,
so the machine's grade stays on record beside the physicians'. A criterion a grader did decide
is only checked by a physician's verdict (the agreement command counts it), never overruled.
"""

from __future__ import annotations

from collections.abc import Iterable

from medbench_tui.core.review.adjudication import RECORD_KEYS, UNGRADED, Record
from medbench_tui.core.rubric.decisions import PHYSICIAN_PREFIX, CriterionDecision, RubricGrade, points_score
from medbench_tui.core.runs.store import RunStore

SHOWN = {"met": "met", "not_met": "not met"}


def graded_by_physicians(grade: RubricGrade, records: Iterable[Record]) -> RubricGrade:
    """``grade`` with its ungraded criteria decided by the physicians' verdicts in ``records`` (the
    records of its run). Raters who disagree leave the criterion ungraded, and the reason says so."""
    verdicts: dict[str, list[Record]] = {}
    for record in records:
        if record.section == "criterion" and record.evaluator == UNGRADED:
            verdicts.setdefault(record.reference, []).append(record)
    if not verdicts:
        return grade
    decisions = [_decided(d, verdicts.get(d.criterion, [])) if d.verdict == UNGRADED else d for d in grade.criteria]
    return grade.model_copy(update={"criteria": decisions, "score": points_score(decisions)})


def _decided(decision: CriterionDecision, records: list[Record]) -> CriterionDecision:
    if not records:
        return decision
    raters = ", ".join(sorted(r.rater for r in records))
    labels = {r.physician for r in records}
    if len(labels) > 1:
        said = "; ".join(f"{r.rater}: {SHOWN[r.physician]}" for r in sorted(records, key=lambda r: r.rater))
        return decision.model_copy(update={"reason": f"the physicians disagree ({said}): a third may decide"})
    notes = "; ".join(r.note for r in records if r.note)
    reason = f"graded by {raters} in the Review mode" + (f": {notes}" if notes else "")
    return decision.model_copy(update={"verdict": labels.pop(), "decided_by": PHYSICIAN_PREFIX + raters,
                                       "reason": reason})


def physician_records(store: RunStore, run_ids: Iterable[int]) -> dict[int, list[Record]]:
    """The Review mode's verdicts on ungraded rubric criteria of ``run_ids``, by run. Reads only: a
    store nobody has reviewed in has no records table, and none is made for it. (These verdicts are
    few - one per physician-graded criterion - so they are read whole and picked in Python, which
    keeps a report of 20,000 runs clear of SQLite's limit on bound parameters.)"""
    wanted = set(run_ids)
    with store.connection() as db:
        if not wanted or db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'adjudications'").fetchone() is None:
            return {}
        rows = db.execute(f"SELECT {', '.join(RECORD_KEYS)} FROM adjudications WHERE section = 'criterion' AND "
                          "evaluator = ? ORDER BY run_id, reference, rater", (UNGRADED,)).fetchall()
    out: dict[int, list[Record]] = {}
    for row in rows:
        if row[0] in wanted:
            out.setdefault(row[0], []).append(Record(*row))
    return out
