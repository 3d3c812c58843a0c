"""How far a run's headline metrics could move if every decision the grader marked uncertain went
the other way (``certainty.py``): a low and a high value per metric, beside the point estimate.

Each uncertain decision is turned only the way that moves its metric: an uncertain "left out"
may be given, an uncertain "given" may be left out, an uncertain verdict may flip. The low value
turns every one of them against the answer, the high value every one in its favour; the truth
lies between, most likely near the point estimate.
"""

from __future__ import annotations

from dataclasses import dataclass

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring.metrics import percent, unexpected_penalty
from medbench_tui.core.scoring.reference import Ref, ReferenceTable

RANGED = ("diagnosis_accuracy", "workup_score", "treatment_accuracy", "critical_conditions_passed")
"""The metrics given a range: the decision-based headline metrics."""

CREDIT = ("required", "acceptable", "optional")


@dataclass(frozen=True)
class Row:
    """What a range needs of one scorecard row or doubted absence."""

    reference: str | None
    status: str
    uncertain: bool


def metric_ranges(case: Case, table: ReferenceTable, metrics: dict[str, float | None],
                  rows: dict[str, list[Row]], verdicts: list[tuple[str, bool]]) -> dict[str, list[float]]:
    """metric -> [low, high]. ``rows``: "primary", "workup", "treatment" -> the rows (doubted
    absences with status "absent"); ``verdicts``: (status, uncertain) of each critical condition."""
    out: dict[str, list[float]] = {}
    accuracy = metrics.get("diagnosis_accuracy")
    if accuracy is not None:
        out["diagnosis_accuracy"] = [0.0, 100.0] if any(r.uncertain for r in rows["primary"]) else [accuracy] * 2
    workup = _workup(case, table, rows["workup"], metrics.get("workup_score"))
    if workup is not None:
        out["workup_score"] = workup
    treatment = _treatment(table, rows["treatment"], metrics.get("treatment_accuracy"))
    if treatment is not None:
        out["treatment_accuracy"] = treatment
    passed = metrics.get("critical_conditions_passed")
    if passed is not None:
        fails = [u for status, u in verdicts if status == "FAIL"]
        low = 0.0 if any(u for status, u in verdicts if status == "OK") else passed
        high = 100.0 if fails and all(fails) else passed
        out["critical_conditions_passed"] = [low, high]
    return out


def _by_name(refs: list[Ref]) -> dict[str, Ref]:
    return {r.name: r for r in refs}


def _workup(case: Case, table: ReferenceTable, rows: list[Row], score: float | None) -> list[float] | None:
    required = sum(r.weight for r in table.workup if r.klass == "required")
    if score is None or required <= 0:
        return None
    refs = _by_name(table.workup)
    down = up = 0.0  # weight the score could lose, and gain
    for row in rows:
        ref = refs.get(row.reference or "")
        if not row.uncertain or ref is None:
            continue
        given = row.status not in ("missing", "absent")
        if ref.klass == "required":
            down, up = (down + ref.weight, up) if given else (down, up + ref.weight)
        elif ref.klass == "unexpected":
            penalty = unexpected_penalty(ref, case)
            down, up = (down, up + penalty) if given else (down + penalty, up)
    return [max(0.0, score - 100.0 * down / required), min(100.0, score + 100.0 * up / required)]


def _treatment(table: ReferenceTable, rows: list[Row], accuracy: float | None) -> list[float] | None:
    if accuracy is None:
        return None
    refs = _by_name(table.treatment)
    matching = sum(1 for r in rows if r.status in ("matched", "acceptable"))
    extra = sum(1 for r in rows if r.status in ("extra", "contraindicated", "not_indicated"))
    missing = sum(1 for r in rows if r.status == "missing")
    different = sum(1 for r in rows if r.status == "different")
    low = [matching, extra, missing]
    high = [matching, extra, missing]
    for row in rows:
        ref = refs.get(row.reference or "")
        if not row.uncertain:
            continue
        if row.status == "extra":  # close to a credited item: it may be that item
            high = [high[0] + 1, high[1] - 1, high[2]]
        elif ref is None:
            continue
        elif row.status == "missing":  # a required item left out may be given
            high = [high[0] + 1, high[1], high[2] - 1]
        elif row.status in ("matched", "acceptable"):  # a credited item given may not be
            low = [low[0] - 1, low[1], low[2] + (ref.klass == "required")]
        elif row.status in ("contraindicated", "not_indicated"):  # a harmful item given may not be
            high = [high[0], high[1] - 1, high[2]]
        elif row.status == "absent":
            if ref.klass in CREDIT:
                high = [high[0] + 1, high[1], high[2]]
            else:
                low = [low[0], low[1] + 1, low[2]]

    def value(m: int, e: int, s: int) -> float:
        found = percent(m, m + e + s + different)
        return accuracy if found is None else found

    return [min(accuracy, value(*low)), max(accuracy, value(*high))]
