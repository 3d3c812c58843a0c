"""How far a run's headline metrics could move if every decision the grader marked uncertain went
the other way (``certainty.py``): a low and a high value per metric, beside the point estimate.

Each uncertain decision is turned only the way that moves its metric: an uncertain "left out"
may be given, an uncertain "given" may be left out, an uncertain verdict may flip. The low value
turns every one of them against the answer, the high value every one in its favour; the truth
lies between, most likely near the point estimate. ``turned_metrics`` turns the decisions a
physician corrected by the same arithmetic, for the physician-corrected metrics of a report.
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
    down, up = _workup_moves(case, table, rows)
    return [max(0.0, score - 100.0 * down / required), min(100.0, score + 100.0 * up / required)]


def _workup_moves(case: Case, table: ReferenceTable, rows: list[Row]) -> tuple[float, float]:
    """The weight the score loses, and gains, when every flagged row is turned the other way."""
    refs = _by_name(table.workup)
    down = up = 0.0
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
    return down, up


def _treatment(table: ReferenceTable, rows: list[Row], accuracy: float | None) -> list[float] | None:
    if accuracy is None:
        return None
    low, high, _ = _treatment_counts(table, rows)
    return [min(accuracy, _treatment_value(low, accuracy)), max(accuracy, _treatment_value(high, accuracy))]


Counts = tuple[int, int, int, int]
"""Treatment rows: matching, extra (harmful given included), missing, different."""


def _treatment_counts(table: ReferenceTable, rows: list[Row]) -> tuple[Counts, Counts, Counts]:
    """The counts with the flagged rows turned against the answer, in its favour, and every one turned."""
    refs = _by_name(table.treatment)
    base = [sum(1 for r in rows if r.status in ("matched", "acceptable")),
            sum(1 for r in rows if r.status in ("extra", "contraindicated", "not_indicated")),
            sum(1 for r in rows if r.status == "missing"), sum(1 for r in rows if r.status == "different")]
    low, high, turned = list(base), list(base), list(base)
    for row in rows:
        move = _treatment_turn(row, refs.get(row.reference or "")) if row.uncertain else None
        if move is None:
            continue
        favour = move[0] > 0 or move[1] < 0
        for counts in (high if favour else low, turned):
            for index, step in enumerate(move):
                counts[index] += step
    return _four(low), _four(high), _four(turned)


def _four(counts: list[int]) -> Counts:
    return counts[0], counts[1], counts[2], counts[3]


def _treatment_turn(row: Row, ref: Ref | None) -> tuple[int, int, int] | None:
    """How turning one row moves (matching, extra, missing); None when it cannot be turned."""
    if row.status == "extra":  # close to a credited item: it may be that item
        return (1, -1, 0)
    if ref is None:
        return None
    if row.status == "missing":  # a required item left out may be given
        return (1, 0, -1)
    if row.status in ("matched", "acceptable"):  # a credited item given may not be
        return (-1, 0, int(ref.klass == "required"))
    if row.status in ("contraindicated", "not_indicated"):  # a harmful item given may not be
        return (0, -1, 0)
    if row.status == "absent":
        return (1, 0, 0) if ref.klass in CREDIT else (0, 1, 0)
    return None


def _treatment_value(counts: Counts, accuracy: float) -> float:
    matching, extra, missing, different = counts
    found = percent(matching, matching + extra + missing + different)
    return accuracy if found is None else found


def turned_metrics(case: Case, table: ReferenceTable, metrics: dict[str, float | None],
                   rows: dict[str, list[Row]], verdicts: list[tuple[str, bool]]) -> dict[str, float]:
    """metric -> its value once every flagged decision is turned the other way (a physician's
    corrections: ``review/physician.py``), by the arithmetic of the ranges; arguments as ``metric_ranges``."""
    out: dict[str, float] = {}
    accuracy = metrics.get("diagnosis_accuracy")
    if accuracy is not None:
        out["diagnosis_accuracy"] = 100.0 - accuracy if any(r.uncertain for r in rows["primary"]) else accuracy
    score = metrics.get("workup_score")
    required = sum(r.weight for r in table.workup if r.klass == "required")
    if score is not None and required > 0:
        down, up = _workup_moves(case, table, rows["workup"])
        out["workup_score"] = max(0.0, min(100.0, score + 100.0 * (up - down) / required))
    treatment = metrics.get("treatment_accuracy")
    if treatment is not None:
        out["treatment_accuracy"] = _treatment_value(_treatment_counts(table, rows["treatment"])[2], treatment)
    if metrics.get("critical_conditions_passed") is not None:
        failed = any((status == "FAIL") != turned for status, turned in verdicts)
        out["critical_conditions_passed"] = 0.0 if failed else 100.0
    return out
