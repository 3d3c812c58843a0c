"""Cost and harm in a report: what each system's work-ups cost against how often it was right.

The per-run figures (``cost_total``, ``cost_tests``, ``harm_omission``, ``harm_commission``)
are metrics like the others, so the report already gives their means with intervals, the
paired differences and the subgroups of ``--by``. This part adds what is not a mean of a
per-run value:

* **cost per correct diagnosis**: a system's total cost over its cases divided by the number
  of cases it diagnosed right, with a paired bootstrap interval over cases (undefined when it
  diagnosed none);
* the **points of the accuracy-against-cost chart**: one per system (its headline cases) and
  one per repeat;
* the **price table**: the one the runs were costed with, and whether the bank's table has
  changed since; when it has, every run is priced again with the current table (its stored
  transcript and scorecard: ``digest.py``), and the report says so;
* the **unpriced** items (left out of the sums, never counted as free) and the critical
  conditions failed by omission and by commission.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from medbench_tui.core.jsondata import JSONObject

if TYPE_CHECKING:
    from medbench_tui.core.costs.prices import PriceTable
    from medbench_tui.core.reports.digest import RunDigest
    from medbench_tui.core.reports.statistics import Estimate


class CaseFigures(Protocol):
    """One system on one case, its repeats folded into one value per metric (the report's outcome)."""

    metrics: dict[str, float]

COST_METRICS = ("cost_total", "cost_tests", "harm_omission", "harm_commission")


@dataclass
class CostPoint:
    """One point of the accuracy-against-cost chart."""

    system: str
    repeat: int | None
    """None: the system over all its repeats (the mean of its cases)."""
    accuracy: float
    cost: float
    cases: int


@dataclass
class SystemCost:
    system: str
    cases: int
    correct: float
    """Cases diagnosed right (with repeats, each case counts its share of right repeats)."""
    total: float
    per_correct: Estimate
    unpriced_items: int
    runs_with_unpriced: int
    conditions_omission: int
    conditions_commission: int


@dataclass
class CostReport:
    currency: str
    unit: str
    version: str
    digest: str
    recorded: JSONObject | None
    """The table the group ran with (None: an older group, costed now)."""
    repriced: bool
    """The runs were priced again with the current table (it differs from the recorded one)."""
    systems: dict[str, SystemCost] = field(default_factory=dict)
    points: list[CostPoint] = field(default_factory=list)

    def money(self, value: float | None) -> str:
        if value is None:
            return "–"
        number = f"{value:,.1f}"
        return f"{number} units" if self.currency == "relative" else f"{number} {self.currency}"

    def notes(self) -> list[str]:
        unit = f"{self.unit}; " if self.unit else ""
        notes = [f"Costs in {self.currency} ({unit}price table {self.version or 'unversioned'}, {self.digest})."]
        if self.repriced:
            notes.append("The price table has changed since these runs were costed: every run was priced again "
                         "with the current table.")
        elif self.recorded is None:
            notes.append("These runs were stored without costs: they were priced now with the current table.")
        return notes


def cost_report(table: PriceTable, recorded: JSONObject | None, repriced: bool, systems: list[str],
                basis: dict[str, list[str]], outcomes: Mapping[tuple[str, str], CaseFigures], runs: list[RunDigest],
                *, seed: int, confidence: float, resamples: int) -> CostReport:
    """``basis``: per system, the cases its figures are over (the headline cases); ``runs``: the runs counted."""
    report = CostReport(table.currency, table.unit, table.version, table.digest, recorded, repriced)
    for system in systems:
        chosen = [outcomes[(c, system)] for c in basis.get(system, []) if (c, system) in outcomes]
        priced = [o for o in chosen if "cost_total" in o.metrics and "diagnosis_accuracy" in o.metrics]
        costs = [o.metrics["cost_total"] for o in priced]
        right = [o.metrics["diagnosis_accuracy"] / 100 for o in priced]
        mine = [r for r in runs if r.system == system and r.complete and r.case_id in set(basis.get(system, []))]
        unpriced = [d.unpriced for d in mine]
        report.systems[system] = SystemCost(
            system=system, cases=len(priced), correct=sum(right), total=sum(costs),
            per_correct=_per_correct(costs, right, system, seed=seed, confidence=confidence, resamples=resamples),
            unpriced_items=sum(unpriced), runs_with_unpriced=sum(1 for n in unpriced if n),
            conditions_omission=sum(d.conditions_omission for d in mine),
            conditions_commission=sum(d.conditions_commission for d in mine),
        )
        if priced:
            report.points.append(CostPoint(system, None, 100 * sum(right) / len(priced), sum(costs) / len(priced),
                                           len(priced)))
        for repeat in sorted({r.repeat for r in mine}):
            these = [(0 if r.diagnosis is None else r.diagnosis, r.cost)
                     for r in mine if r.repeat == repeat and r.cost is not None]
            if these and len({r.repeat for r in mine}) > 1:
                report.points.append(CostPoint(
                    system, repeat, sum(diagnosis for diagnosis, _ in these) / len(these),
                    sum(cost for _, cost in these) / len(these), len(these)))
    return report


def _per_correct(costs: list[float], right: list[float], system: str, *, seed: int, confidence: float,
                 resamples: int) -> Estimate:
    """Total cost over cases diagnosed right, with a paired bootstrap interval over cases."""
    import numpy as np

    from medbench_tui.core.reports.statistics import NOT_ESTIMABLE, Estimate, bootstrap_interval, seeded_rng, small

    name = "cost_per_correct_diagnosis"
    n = len(costs)
    if n == 0 or sum(right) == 0:
        return Estimate(name, None, None, None, n, f"ratio: {NOT_ESTIMABLE} (no case diagnosed right)", small(n))
    value = sum(costs) / sum(right)
    if n < 2 or (min(costs) == max(costs) and min(right) == max(right)):
        return Estimate(name, value, None, None, n, f"ratio: {NOT_ESTIMABLE} (no spread)", small(n))

    def ratio(c: Any, r: Any, axis: int = -1) -> Any:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.sum(c, axis=axis) / np.sum(r, axis=axis)

    low, high, method = bootstrap_interval(
        (np.asarray(costs, dtype=float), np.asarray(right, dtype=float)), ratio, paired=True,
        rng=seeded_rng(seed, system, name), confidence=confidence, resamples=resamples)
    return Estimate(name, value, low, high, n, f"ratio, paired bootstrap-{method.lower()}", small(n))
