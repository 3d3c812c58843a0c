"""The rubric part of a report: each system's rubric score with its interval, per theme and per
axis, the paired comparison, and the judge behind the decisions.

Criteria physicians graded in the Review mode count with their verdicts (``physician_grades``).
A rubric case's score is the mean of its repeats (the case is the unit, as for consultations);
intervals and paired differences come from the report's statistics module, on the 0-100 scale.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.reports.statistics import Difference, Estimate, bootstrap_mean, paired_difference
from medbench_tui.core.review.physician_grades import graded_by_physicians, physician_records
from medbench_tui.core.rubric.decisions import RubricGrade
from medbench_tui.core.rubric.side_by_side import CriterionRow, criteria_side_by_side
from medbench_tui.core.runs.runner import RUBRIC_SCORE
from medbench_tui.core.runs.store import RunRecord, RunStore

Stats = JSONObject


@dataclass
class RubricSystem:
    """One system over the rubric cases: its score, by theme and by axis."""

    system: str
    score: Estimate
    complete: int
    incomplete: list[JSONObject] = field(default_factory=list)
    ungraded: int = 0
    """Criteria no one graded over its runs (judge criteria without a judge, physician criteria)."""
    themes: dict[str, Estimate] = field(default_factory=dict)
    axes: dict[str, Estimate] = field(default_factory=dict)


@dataclass
class RubricReport:
    cases: list[str]
    systems: dict[str, RubricSystem]
    paired_cases: list[str]
    comparisons: list[Difference] = field(default_factory=list)
    judge: JSONObject | None = None
    """The judge the group was run with (its model, prompt hash and parameters), None without one."""
    judged_by: list[str] = field(default_factory=list)
    """The judges the stored decisions name: ``judge:<served model>`` with the prompt's sha256."""
    criteria: dict[str, list[CriterionRow]] = field(default_factory=dict)
    """case id -> its criteria (or panel actions), one cell per system over its repeats, with evidence."""
    panels: list[str] = field(default_factory=list)
    """The cases graded by an action panel (their rows are actions, their weights severities)."""


@dataclass
class _CaseScores:
    """One (case, system): the mean score of its complete repeats, and its per-axis means."""

    score: float | None
    axes: dict[str, float]
    ungraded: int


def rubric_report(store: RunStore, runs: list[RunRecord], cases: dict[str, JSONObject], systems: list[str],
                  judge: JSONObject | None, stats: Stats) -> RubricReport:
    """``cases``: rubric case id -> its recorded facts (theme); ``runs``: the group's runs of them."""
    complete = [r.id for r in runs if r.complete and r.id is not None]
    documents = dict(store.documents(complete, ("scorecard",)))
    physicians = physician_records(store, complete)
    grades: dict[tuple[str, str], list[RubricGrade]] = {}
    incomplete: dict[str, list[JSONObject]] = {s: [] for s in systems}
    for run in runs:
        if run.system not in systems:
            continue
        document = documents.get(run.id or -1, {}).get("scorecard") if run.complete else None
        if document is None or "rubric" not in document:
            incomplete[run.system].append({"case_id": run.case_id, "repeat": run.repeat_number, "reason": run.reason})
            continue
        grade = graded_by_physicians(RubricGrade.model_validate(document["rubric"]), physicians.get(run.id or -1, []))
        grades.setdefault((run.case_id, run.system), []).append(grade)
    scores = {key: _scores(found) for key, found in grades.items()}
    case_ids = sorted(cases)
    paired = [c for c in case_ids if all(scores.get((c, s)) and scores[(c, s)].score is not None for s in systems)]
    basis = {s: (paired if len(systems) > 1 else [c for c in case_ids if (c, s) in scores]) for s in systems}
    summaries = {s: _system(s, basis[s], scores, cases, incomplete[s], stats) for s in systems}
    comparisons = [
        paired_difference([_score(scores, c, a) for c in paired], [_score(scores, c, b) for c in paired],
                          RUBRIC_SCORE, key=f"rubric {a} vs {b}", **_paired(stats))
        for a, b in combinations(systems, 2)
    ] if paired else []
    judged_by = sorted({f"{d.decided_by} (prompt sha256 {d.judge.prompt_sha256[:12]})"
                        for found in grades.values() for g in found for d in g.criteria if d.judge is not None
                        and d.verdict != "ungraded"})
    criteria = {c: criteria_side_by_side([grades.get((c, s), []) for s in systems]) for c in case_ids
                if any((c, s) in grades for s in systems)}
    panels = sorted({c for (c, _), found in grades.items() if found and found[0].method == "panel"})
    return RubricReport(case_ids, summaries, paired, comparisons, judge, judged_by, criteria, panels)


def _scores(found: list[RubricGrade]) -> _CaseScores:
    values = [g.score for g in found if g.score is not None]
    axes: dict[str, list[float]] = {}
    for graded in found:
        for axis, value in graded.axis_scores().items():
            axes.setdefault(axis, []).append(value)
    return _CaseScores(100.0 * sum(values) / len(values) if values else None,
                       {axis: 100.0 * sum(v) / len(v) for axis, v in axes.items()},
                       sum(len(g.ungraded) for g in found))


def _score(scores: dict[tuple[str, str], _CaseScores], case_id: str, system: str) -> float:
    value = scores[(case_id, system)].score
    assert value is not None  # paired cases have a score for every system
    return value


def _mean(values: list[float], name: str, key: str, stats: Stats) -> Estimate:
    return bootstrap_mean(values, name, seed=stats["seed"], key=key, confidence=stats["confidence"],
                          resamples=stats["resamples"])


def _paired(stats: Stats) -> Stats:
    return {"seed": stats["seed"], "confidence": stats["confidence"], "resamples": stats["resamples"]}


def _system(system: str, case_ids: list[str], scores: dict[tuple[str, str], _CaseScores],
            cases: dict[str, JSONObject], incomplete: list[JSONObject], stats: Stats) -> RubricSystem:
    mine = {c: scores[(c, system)] for c in case_ids if (c, system) in scores}
    scored = {c: s.score for c, s in mine.items() if s.score is not None}
    themes: dict[str, list[float]] = {}
    for case_id, value in scored.items():
        themes.setdefault(str(cases.get(case_id, {}).get("theme") or "unknown"), []).append(value)
    axes: dict[str, list[float]] = {}
    for found in mine.values():
        for axis, value in found.axes.items():
            axes.setdefault(axis, []).append(value)
    key = f"rubric {system}"
    return RubricSystem(
        system=system, score=_mean(list(scored.values()), RUBRIC_SCORE, key, stats), complete=len(mine),
        incomplete=incomplete, ungraded=sum(s.ungraded for s in mine.values()),
        themes={t: _mean(v, f"theme:{t}", key, stats) for t, v in sorted(themes.items())},
        axes={a: _mean(v, f"axis:{a}", key, stats) for a, v in sorted(axes.items())},
    )
