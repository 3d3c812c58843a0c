"""What the report's pictures show, worked out from a report (drawing-neutral): the HTML
report draws these as SVG, the TUI as terminal plots, so both show the same figures."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from medbench_tui.core.reports.report import NOT_POINTS, metric_title

BAR_METRICS = (
    "diagnosis_accuracy", "differential_accuracy", "workup_score", "treatment_accuracy",
    "critical_conditions_passed", "question_coverage", "differential_recall_at_3",
)


@dataclass(frozen=True)
class Bar:
    """One bar: a system's mean with its interval (None: not estimable)."""

    series: str
    mean: float | None
    low: float | None
    high: float | None
    warning: bool = False


@dataclass(frozen=True)
class ForestRow:
    label: str
    difference: float
    low: float | None
    high: float | None
    n: int
    warning: bool = False


def _bar(series: str, estimate: Any) -> Bar:
    if estimate is None or not estimate.n:
        return Bar(series, None, None, None)
    return Bar(series, estimate.mean, estimate.low, estimate.high, bool(estimate.warning))


def forest_rows(comparison: Any) -> list[ForestRow]:
    """The paired differences of a comparison in points (0-100 metrics), in metric order; cost
    and harm, in units of their own, are in the cost table and chart instead."""
    return [
        ForestRow(metric_title(d.metric), d.difference, d.low, d.high, d.n, bool(d.warning))
        for d in comparison.differences.values() if d.metric not in NOT_POINTS
    ]


def metric_bars(report: Any) -> list[tuple[str, list[Bar]]]:
    """Per key metric, one bar per system (the headline figures)."""
    summaries = report.headline or report.summaries
    names = [n for n in BAR_METRICS if any(n in s.metrics for s in summaries.values())]
    return [(metric_title(n), [_bar(s, summaries[s].metrics.get(n)) for s in report.systems]) for n in names]


def subgroup_bars(report: Any, metric: str) -> list[tuple[str, list[Bar]]]:
    """Per subgroup of ``report --by``, one bar per system for ``metric``."""
    table = report.subgroups
    if table is None:
        return []
    return [
        (f"{group.value} (n={len(group.cases)})", [_bar(s, group.metrics[s].get(metric)) for s in report.systems])
        for group in table.groups
    ]


@dataclass(frozen=True)
class CostDot:
    """A system (``repeat`` None) or one of its repeats: diagnosis accuracy against mean cost."""

    system: str
    repeat: int | None
    accuracy: float
    cost: float
    cases: int


def cost_dots(report: Any) -> list[CostDot]:
    """The accuracy-against-cost points of the report (none when it has no costs)."""
    costs = report.costs
    if costs is None:
        return []
    return [CostDot(p.system, p.repeat, p.accuracy, p.cost, p.cases) for p in costs.points]
