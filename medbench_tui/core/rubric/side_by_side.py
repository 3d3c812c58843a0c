"""Criteria met and missed side by side: one row per criterion (or panel action) of a rubric case,
one cell per system (or run) with its verdict over its runs and the evidence it rests on.

The report, Compare and Results all read these rows, so a criterion reads the same wherever two
systems are put next to each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from medbench_tui.core.rubric.decisions import NOBODY, RubricGrade

MET, NOT_MET, UNGRADED, MIXED = "met", "not_met", "ungraded", "mixed"


def verdict_tone(verdict: str, weight: int) -> str:
    """good when the answer did what a positive criterion asks or avoided a negative one; warn when
    nobody graded it or the repeats differ."""
    if verdict in (UNGRADED, MIXED):
        return "warn"
    return "good" if (verdict == MET) == (weight > 0) else "bad"


@dataclass(frozen=True)
class CriterionCell:
    """One column's decisions on one criterion over its runs (one run, or a system's repeats)."""

    met: int
    graded: int
    runs: int
    evidence: str | None
    """Words quoted from an answer: from a run that met it when one did, else from the first with any."""
    decided_by: tuple[str, ...]
    reason: str
    """Why, from the run the evidence comes from (or the first run)."""

    @property
    def verdict(self) -> str:
        """met, not_met, ungraded, or mixed (the repeats differ)."""
        if not self.graded:
            return UNGRADED
        if self.met == self.graded:
            return MET
        return NOT_MET if self.met == 0 else MIXED

    def shown(self, *, action: bool = False) -> str:
        """The verdict in words: a panel action is included or left out; repeats say how many met."""
        words = {MET: "included", NOT_MET: "left out"} if action else {MET: "met", NOT_MET: "not met"}
        if self.runs == 1 or self.verdict == UNGRADED:
            return words.get(self.verdict, self.verdict)
        counted = f"{self.met} of {self.graded}"
        shown = f"{words[NOT_MET]} ({counted})" if self.verdict == NOT_MET else f"{words[MET]} {counted}"
        return shown + (f", {self.runs - self.graded} ungraded" if self.graded < self.runs else "")


@dataclass(frozen=True)
class CriterionRow:
    """One criterion (or panel action) across the columns; a cell is None where a column's grade
    lacks it (its runs were graded on another version of the case)."""

    key: str
    text: str
    weight: int
    """Points of a criterion, severity of a panel action."""
    cells: list[CriterionCell | None]


def criteria_side_by_side(columns: Sequence[Sequence[RubricGrade]]) -> list[CriterionRow]:
    """Rows in the order the first column's grade lists them (then any only later columns have);
    ``columns``: each column's grades of the same case (one run each, or a system's repeats)."""
    texts: dict[str, tuple[str, int]] = {}
    decided: list[dict[str, list[tuple[bool | None, str | None, str, str]]]] = []
    for grades in columns:
        mine: dict[str, list[tuple[bool | None, str | None, str, str]]] = {}
        for grade in grades:
            for c in grade.criteria:
                texts.setdefault(c.criterion, (c.text, c.points))
                verdict = None if c.verdict == UNGRADED else c.verdict == MET
                quoted = c.evidence.text if c.evidence is not None else None
                mine.setdefault(c.criterion, []).append((verdict, quoted, c.decided_by, c.reason))
            for a in grade.actions:
                texts.setdefault(a.action, (a.action, a.severity))
                quoted = a.evidence.text if a.evidence is not None else None
                mine.setdefault(a.action, []).append((a.included, quoted, a.decided_by, a.reason))
        decided.append(mine)
    return [CriterionRow(key, text, weight, [_cell(mine.get(key)) for mine in decided])
            for key, (text, weight) in texts.items()]


def _cell(found: list[tuple[bool | None, str | None, str, str]] | None) -> CriterionCell | None:
    if not found:
        return None
    shown = next((f for f in found if f[0] and f[1]), None) or next((f for f in found if f[1]), found[0])
    deciders = tuple(dict.fromkeys(f[2] for f in found if f[2] != NOBODY))
    return CriterionCell(met=sum(1 for f in found if f[0]), graded=sum(1 for f in found if f[0] is not None),
                         runs=len(found), evidence=shown[1], decided_by=deciders, reason=shown[3])
