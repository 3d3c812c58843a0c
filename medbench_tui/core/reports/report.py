"""Aggregates and paired comparisons of the runs of one run group.

Per system: every metric's mean over its complete runs, with a 95% interval: Wilson
for the binary metrics (0 or 100 per run), a BCa bootstrap for the rest (seeded; the
seed is part of the report). Runs that ended incomplete are counted, never scored.

Paired, across systems on the same cases: complete-case analysis (a case counts only
when every compared system completed it; the others are listed with the reason),
per-metric differences B - A with paired intervals (Newcombe's score interval for a
binary metric, a paired bootstrap for the rest), McNemar's exact test on diagnosis
accuracy (a binomial test on the discordant pairs) and the direction-of-change table.
The statistics are those of ``scipy.stats``, computed in ``reports/statistics.py``.

The case is the unit: with ``run --repeats`` a case's repeats are averaged first, and
the spread between repeats is reported on its own. The headline table compares the
systems on the cases every one of them completed. Cases of category ``error_testing``
test the harness and are left out unless asked for (the report says how many). Small
numbers are flagged: an interval from fewer than :data:`SMALL_N` cases carries a warning,
and an interval that cannot be estimated (no spread) is shown as such, never as a
zero-width interval.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING

from medbench_tui.core.cases.casemix import ERROR_TESTING, SUBGROUP_FIELDS, THIN, CaseMix, case_mix, subgroups
from medbench_tui.core.cases.rubric import RUBRIC
from medbench_tui.core.errors import UsageError
from medbench_tui.core.intervals import NO_INTERVAL, interval, with_interval
from medbench_tui.core.jsondata import JSONObject, JSONValue
from medbench_tui.core.paths import run_case_file
from medbench_tui.core.reports.digest import RunDigest, digests
from medbench_tui.core.reports.figures import (
    BAR_CAPTION,
    COST_CAPTION,
    FOREST_CAPTION,
    SUBGROUP_CAPTION,
    Bar,
    BarChart,
    CostChart,
    CostDot,
    Figure,
    ForestChart,
    ForestRow,
)
from medbench_tui.core.reports.reproducibility import seed_notes
from medbench_tui.core.reports.rubric_report import RubricReport, rubric_report
from medbench_tui.core.reports.statistics import (
    BINARY_METRICS,
    CONFIDENCE,
    RESAMPLES,
    SMALL_N,
    Difference,
    Estimate,
    bootstrap_mean,
    direction_of_change,
    mcnemar_exact,
    paired_difference,
    wilson,
)
from medbench_tui.core.reports.taxonomy import SystemTaxonomy, system_taxonomy
from medbench_tui.core.runs.store import RunGroup, RunRecord, RunStore
from medbench_tui.core.scoring.ranges import RANGED

if TYPE_CHECKING:
    from medbench_tui.core.cases.model import Case
    from medbench_tui.core.costs.prices import PriceTable
    from medbench_tui.core.reports.costs import CostReport

FORMATS = ("text", "md", "json", "csv", "html")

LEGACY_METRICS: dict[str, str] = {
    "diagnosis_accuracy": "Diagnosis Accuracy",
    "differential_accuracy": "Differential Accuracy",
    "treatment_accuracy": "Treatment Accuracy",
    "critical_conditions_passed": "Critical Conditions Passed",
}
OTHER_METRICS: dict[str, str] = {
    "workup_score": "Workup Score",
    "question_coverage": "Question Coverage (history elicited)",
    "action_f1": "Weighted Action F1 (workup and treatment)",
    "primary_icd10_exact": "Primary ICD-10 code exact",
    "primary_icd10_category": "Primary ICD-10 code in the right category",
    "secondary_icd10_recall": "Secondary diagnoses named",
    "differential_precision": "Differential precision (listed alternatives in the reference)",
    "differential_recall_at_3": "Primary diagnosis in top 3",
    "differential_recall_at_5": "Primary diagnosis in top 5",
    "primary_mrr": "Primary diagnosis reciprocal rank (100 = named first)",
    "cost_total": "Cost per case (tests ordered and the visit)",
    "cost_tests": "Cost of the tests ordered (consultation and plan)",
    "harm_omission": "Harm by omission (required items left out, weighted)",
    "harm_commission": "Harm by commission (wrong items given, weighted)",
    "rubric_score": "Rubric score of the final response (cases with criteria)",
}
"""Titles say what is measured: the two recall@k rates are the rank of the *primary*
diagnosis within diagnoses + differential, not a differential metric."""
NOT_POINTS = frozenset({"cost_total", "cost_tests", "harm_omission", "harm_commission"})
"""Metrics in their own units (the price table's, the case's weights), not 0-100 points: never drawn
on a points axis."""
STEPS_ROWS = (
    "Total steps (doctor/patient pairs)",
    "Average steps (doctor/patient pairs)",
    "Cases outside ±25% of steps soft limit (num_steps)",
)


# The per-case table keeps to the key metrics under short headings, so it stays
# readable in a terminal; the JSON and CSV reports carry every metric per case.
PER_CASE_METRICS = {
    "diagnosis_accuracy": "Diagnosis",
    "differential_accuracy": "Differential",
    "workup_score": "Workup",
    "treatment_accuracy": "Treatment",
    "critical_conditions_passed": "Critical",
    "question_coverage": "History",
    "action_f1": "Action F1",
}


def metric_title(name: str) -> str:
    return LEGACY_METRICS.get(name) or OTHER_METRICS.get(name) or name.replace("_", " ").capitalize()


def metric_order(names: set[str]) -> list[str]:
    """Legacy metrics first (published order), then the known others, then the rest by name."""
    known = [*LEGACY_METRICS, *OTHER_METRICS]
    return [n for n in known if n in names] + sorted(names - set(known))


# --- the report's parts --------------------------------------------------------------


@dataclass
class SystemSummary:
    system: str
    config: JSONObject
    cases: int
    complete: int
    """Cases with every repeat complete (the case counts once)."""
    incomplete: int
    not_run: int
    total_steps: float
    """Over the cases counted; with repeats, the steps of a case are its repeats' mean."""
    average_steps: Estimate
    outside_soft_range: float
    """Cases outside the soft range (with repeats: each case counts its share of repeats)."""
    metrics: dict[str, Estimate]
    incomplete_runs: list[JSONObject]
    ranges: dict[str, list[float]] = field(default_factory=dict)
    """metric -> [low, high] of its mean if every uncertain decision of the grader went the other
    way (over the cases whose runs carry ranges; scoring/ranges.py)."""
    uncertain_runs: int = 0
    """Complete runs whose ranges are not a single point (some decision could move a metric)."""


@dataclass
class Comparison:
    """System B against system A on the paired complete cases."""

    system_a: str
    system_b: str
    cases: int
    differences: dict[str, Difference]
    direction: dict[str, int] | None
    """Diagnosis accuracy: both_right, only_a, only_b, both_wrong."""
    mcnemar_p: float | None
    per_case: list[JSONObject]
    """One entry per paired case: ``case_id`` and, per metric, ``[a, b, b - a]``."""
    difference_ranges: dict[str, list[float]] = field(default_factory=dict)
    """metric -> [low, high] of the mean difference (B - A) if every uncertain decision went the
    other way, each the way that moves the difference most."""
    could_reverse: list[str] = field(default_factory=list)
    """Metrics whose difference could change direction (or vanish) that way."""


@dataclass
class Variability:
    """Run-to-run spread of one metric of one system, over the cases with 2+ complete repeats."""

    metric: str
    cases: int
    mean_sd: float | None
    """Mean over cases of the standard deviation across that case's repeats."""
    changed: int | None = None
    """Binary metrics: cases whose outcome differed between repeats."""
    changed_share: float | None = None


@dataclass
class Subgroup:
    value: str
    cases: list[str]
    metrics: dict[str, dict[str, Estimate]]
    """System -> metric -> estimate over the subgroup's cases."""


@dataclass
class SubgroupTable:
    field: str
    basis: str
    """Which cases were grouped (the complete-case set, or one system's complete cases)."""
    missing: int
    """Cases of that set that do not set the field."""
    groups: list[Subgroup]


@dataclass
class Report:
    group_id: str
    created_at: str
    systems: list[str]
    seed: int
    confidence: float
    resamples: int
    summaries: dict[str, SystemSummary]
    """Each system over all of its complete cases."""
    paired_cases: list[str]
    excluded: list[JSONObject]
    comparisons: list[Comparison] = field(default_factory=list)
    seed_notes: list[str] = field(default_factory=list)
    """Seeded systems whose runs were not reproducible (see core.reproducibility)."""
    headline: dict[str, SystemSummary] = field(default_factory=dict)
    """Each system over the complete-case set (the paired cases); with one system, its complete cases."""
    unequal_cases: bool = False
    """The systems completed different numbers of cases (the headline compares the common ones)."""
    repeats: int = 1
    variability: dict[str, list[Variability]] = field(default_factory=dict)
    bank_manifest: JSONObject = field(default_factory=dict)
    include_error_tests: bool = False
    error_tests_left_out: list[str] = field(default_factory=list)
    case_mix: CaseMix | None = None
    subgroups: SubgroupTable | None = None
    taxonomy: dict[str, SystemTaxonomy] = field(default_factory=dict)
    case_facts: dict[str, JSONObject] = field(default_factory=dict)
    """Case id -> the facts the report groups by (see ``casemix.case_facts``)."""
    costs: CostReport | None = None
    """Cost per correct diagnosis, the accuracy-against-cost points, the price table used."""
    left_out_unplayable: dict[str, dict[str, str]] = field(default_factory=dict)
    """System -> the cases it could not play (case id -> why), left out when the group was planned."""
    practice: str | None = None
    """The player, when the group is a player's practice (each case counted by its latest session)."""
    sessions: list[JSONObject] = field(default_factory=list)
    """A practice group's sessions, oldest first: case_id, session, started_at, status, reason, steps, metrics."""
    consultations: bool = True
    """The group has consultation cases (a group of rubric questions only has just the rubric tables)."""
    rubric: RubricReport | None = None
    """The rubric cases' scores, by theme and axis, paired, and the judge (``rubric_report.py``)."""

    def to_json(self) -> JSONObject:
        return _finite(asdict(self))


def _finite(value: JSONValue) -> JSONValue:
    """JSON has no NaN: undefined numbers become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


# --- statistics ----------------------------------------------------------------------


# --- building a report ---------------------------------------------------------------


@dataclass
class CaseOutcome:
    """One system on one case, its repeats folded into one value per metric (their mean)."""

    runs: list[RunDigest]
    complete: bool
    """Every planned repeat ran and completed."""
    metrics: dict[str, float]
    steps: float
    outside_soft_range: float
    ranges: dict[str, list[float]] = field(default_factory=dict)
    """metric -> [low, high], the repeats' mean, when every repeat carries the metric's range."""

    @property
    def reason(self) -> str:
        broken = [r for r in self.runs if not r.complete]
        if not broken:
            return f"{len(self.runs)} run(s) of the planned repeats"
        first = broken[0].reason or "no reason recorded"
        return first if len(self.runs) == 1 else f"{len(broken)} of {len(self.runs)} repeats incomplete ({first})"


@dataclass
class RepeatSpread:
    """One system on one case played 2+ times: how its complete repeats differed (the variability)."""

    sd: dict[str, float]
    """metric -> its SD across the repeats that carry it, when 2+ do."""
    flipped: set[str]
    """Binary metrics whose outcome differed between those repeats."""


OUTCOMES_CHUNK = 500
"""Case x system outcomes whose means are worked out in one NumPy pass (:func:`case_outcomes`)."""


def row_means(rows: list[list[float]], *, sd: bool = False) -> list[float]:
    """``np.mean`` of each row (``sd``: ``np.std`` with ddof 1), the very number it gives for that row
    alone: the rows of one length are reduced together, each along its own axis, in one NumPy call
    instead of one a row (thousands, in a report of thousands of runs)."""
    import numpy as np

    found = [math.nan] * len(rows)
    lengths: dict[int, list[int]] = {}
    for index, row in enumerate(rows):
        lengths.setdefault(len(row), []).append(index)
    for at in lengths.values():
        block = np.array([rows[i] for i in at], dtype=float)
        values = np.std(block, axis=1, ddof=1) if sd else np.mean(block, axis=1)
        for index, value in zip(at, values.tolist(), strict=True):
            found[index] = value
    return found


def case_outcomes(
    grouped: dict[tuple[str, str], list[RunRecord]], repeats: int, digest_of: Mapping[int, RunDigest]
) -> tuple[dict[tuple[str, str], CaseOutcome], dict[tuple[str, str], RepeatSpread]]:
    """Each case x system's runs folded into one outcome: a metric's value is the mean of its
    complete repeats; and, of those with 2+, the spread (the means and SDs of OUTCOMES_CHUNK
    outcomes computed in one pass, see ``row_means``: a chunk at a time, so that a group of
    thousands of runs never lays out every value at once). An outcome keeps each run's digest,
    not its record."""
    outcomes: dict[tuple[str, str], CaseOutcome] = {}
    spreads: dict[tuple[str, str], RepeatSpread] = {}
    items = list(grouped.items())
    for start in range(0, len(items), OUTCOMES_CHUNK):
        rows: list[list[float]] = []
        spread_rows: list[list[float]] = []
        layouts = []
        for key, runs in items[start : start + OUTCOMES_CHUNK]:
            done = [r for r in runs if r.complete]
            names = list({n for r in done for n in r.metrics})
            ranged = list({n for r in done for n in r.ranges if all(n in x.ranges for x in done)})
            values = [[r.metrics[n] for r in done if n in r.metrics] for n in names]
            spread = [(n, row) for n, row in zip(names, values, strict=True) if len(done) > 1 and len(row) > 1]
            rows += values
            rows += [[r.ranges[n][i] for r in done] for n in ranged for i in (0, 1)]
            if done:
                rows += [[r.steps for r in done], [bool(r.outside_soft_range) for r in done]]
            spread_rows += [row for _, row in spread]
            layouts.append((key, runs, done, names, ranged, spread))
        found = iter(row_means(rows))  # taken in the order the rows were laid out
        sds = iter(row_means(spread_rows, sd=True))
        for key, runs, done, names, ranged, spread in layouts:
            metrics = {n: next(found) for n in names}
            ranges = {n: [next(found), next(found)] for n in ranged}
            steps, outside = (next(found), next(found)) if done else (0.0, 0.0)
            complete = len(done) >= repeats and len(done) == len(runs)
            outcomes[key] = CaseOutcome(
                [digest_of[r.id] for r in runs if r.id is not None], complete, metrics, steps, outside, ranges,
            )
            if len(done) > 1:
                spreads[key] = RepeatSpread(
                    {n: next(sds) for n, _ in spread},
                    {n for n, row in spread if n in BINARY_METRICS and len({x >= 50 for x in row}) > 1},
                )
    return outcomes, spreads


def build_report(
    store: RunStore,
    group_id: str | None = None,
    *,
    systems: list[str] | None = None,
    seed: int | None = None,
    confidence: float = CONFIDENCE,
    resamples: int = RESAMPLES,
    by: str | None = None,
    include_error_tests: bool = False,
    bank: Path | None = None,
    compare: bool = True,
    taxonomy: bool = True,
) -> Report:
    """The report of a run group (default: the latest), for ``systems`` (default: all,
    in the group's order). ``seed`` (default: the group's) seeds every bootstrap; ``by``
    adds a subgroup table; ``bank`` is where the group's manifest is checked (default:
    the bank the group recorded). ``compare=False`` leaves the paired comparisons out (the
    summary ``medbench run`` prints shows none, and ten systems make 45 pairs to bootstrap);
    ``taxonomy=False`` leaves the failure taxonomy out (that summary shows none either), so no
    transcript is read and no run's failures are kept."""
    if by is not None and by not in SUBGROUP_FIELDS:
        raise UsageError(f"--by {by}: choose one of {', '.join(SUBGROUP_FIELDS)}")
    group = store.group(group_id) if group_id else store.latest_group()
    if group is None:
        raise UsageError(f"no runs in {store.path} yet: run 'medbench run' first")
    rubric_cases = {c["id"]: c.get("metadata") or {} for c in group.config.get("cases", []) if c.get("kind") == RUBRIC}
    played = store.run_index(group.id)
    index = [(case_id, system, path) for case_id, system, path in played if case_id not in rubric_cases]
    bank = Path(bank) if bank is not None else Path(group.config.get("bank", "."))
    prices, repriced = _prices_for(bank, group.config.get("prices"))
    known = group.systems or sorted({system for _, system, _ in index})
    if systems:
        unknown = [s for s in systems if s not in known]
        if unknown:
            raise UsageError(f"no system {', '.join(unknown)} in run group {group.id}; it has: {', '.join(known)}")
    chosen = list(systems or known)
    seed = group.seed if seed is None else seed
    every_case = [c["id"] for c in group.config.get("cases", []) if c["id"] not in rubric_cases] or sorted(
        {case_id for case_id, _, _ in index})
    facts = _case_facts(group.config, {case_id: path for case_id, _, path in index}, bank)
    left_out = [] if include_error_tests else [
        c for c in every_case if facts.get(c, {}).get("category") == ERROR_TESTING
    ]
    case_ids = [c for c in every_case if c not in left_out]
    configs = {s["name"]: s.get("config", {}) for s in group.config.get("systems", [])}
    reprice_with = prices if repriced or _unpriced(group.config) else None
    outcomes: dict[tuple[str, str], CaseOutcome] = {}
    chosen_runs: list[RunDigest] = []
    rubric_runs: list[RunRecord] = []
    sessions: list[RunRecord] = []
    variability: dict[str, list[Variability]] = {}
    for system in sorted({system for _, system, _ in played}):
        # A system at a time: its records are let go once folded into outcomes and digests.
        stored = store.runs(group.id, system=system, configs=False)
        rubric_runs += [r for r in stored if r.case_id in rubric_cases]
        every_run = [r for r in stored if r.case_id not in rubric_cases]
        # before the outcomes: it may reprice
        digest_of = digests(store, every_run, facts, bank, reprice_with, failures=taxonomy)
        sessions += every_run if group.practice else []
        counted = counted_runs(group, every_run)
        grouped: dict[tuple[str, str], list[RunRecord]] = {}
        for run in counted:
            grouped.setdefault((run.case_id, run.system), []).append(run)
        found, spreads = case_outcomes(grouped, group.repeats, digest_of)
        outcomes.update(found)
        if system in chosen and group.repeats > 1:
            variability[system] = _variability(system, case_ids, spreads)
        if system in chosen:
            chosen_runs += [digest_of[r.id] for r in counted if r.id is not None and r.case_id in case_ids]
        del stored, every_run, counted, grouped  # not held while the next system's runs are read
    stats: JSONObject = {"seed": seed, "confidence": confidence, "resamples": resamples}

    summaries = {
        name: _summary(name, configs.get(name, {}), case_ids, outcomes, **stats) for name in chosen
    }
    paired, excluded = _complete_cases(case_ids, chosen, outcomes)
    headline = summaries  # the same figures when every system completed every case: not drawn again
    if len(chosen) > 1 and paired != case_ids:
        headline = {name: _summary(name, configs.get(name, {}), paired, outcomes, **stats) for name in chosen}
    comparisons = [_compare(a, b, paired, outcomes, **stats) for a, b in combinations(chosen, 2)] if compare else []
    basis = paired if len(chosen) > 1 else [c for c in case_ids if (c, chosen[0]) in outcomes
                                            and outcomes[(c, chosen[0])].complete]
    failures = {run.id: run.failures for run in chosen_runs}
    costs = None
    if prices is not None:
        from medbench_tui.core.reports.costs import cost_report

        headline_cases = {s: paired if len(chosen) > 1 else basis for s in chosen}
        costs = cost_report(prices, group.config.get("prices"), repriced, chosen, headline_cases, outcomes,
                            chosen_runs, **stats)
    return Report(
        group_id=group.id, created_at=group.created_at, systems=chosen, seed=seed, confidence=confidence,
        resamples=resamples, summaries=summaries, paired_cases=paired, excluded=excluded, comparisons=comparisons,
        seed_notes=seed_notes(store, group.id, {name: configs.get(name, {}) for name in chosen}),
        headline=headline,
        unequal_cases=len({s.complete for s in summaries.values()}) > 1,
        repeats=group.repeats,
        variability={s: variability.get(s, []) for s in chosen} if group.repeats > 1 else {},
        bank_manifest=manifest_status(group.config.get("bank_manifest"), bank),
        include_error_tests=include_error_tests,
        error_tests_left_out=left_out,
        case_mix=case_mix({c: facts.get(c, {}) for c in case_ids}),
        subgroups=_subgroup_table(by, basis, chosen, outcomes, facts, paired=len(chosen) > 1, **stats) if by else None,
        taxonomy={s: system_taxonomy(s, [r for r in chosen_runs if r.system == s], failures) for s in chosen}
        if taxonomy else {},
        case_facts={c: facts.get(c, {}) for c in every_case},
        costs=costs,
        left_out_unplayable=dict((group.config.get("left_out") or {}).get("unplayable") or {}),
        practice=group.config["play"].get("player") if group.practice else None,
        sessions=[_session(r) for r in sorted(sessions, key=lambda r: (r.started_at, r.repeat, r.case_id, r.system))],
        consultations=bool(every_case),
        rubric=rubric_report(store, sorted(rubric_runs, key=lambda r: (r.case_id, r.system, r.repeat)), rubric_cases,
                             chosen, group.config.get("judge"), stats) if rubric_cases else None,
    )


def _prices_for(bank: Path, recorded: JSONValue) -> tuple[PriceTable | None, bool]:
    """The bank's price table and whether the runs must be priced again with it (its digest is
    not the one the group recorded). None when the bank's table cannot be read: the stored
    figures stand, and the report says nothing of cost."""
    from medbench_tui.core.costs.prices import PriceTableError, bank_prices

    try:
        table = bank_prices(bank)
    except PriceTableError:
        return None, False
    return table, isinstance(recorded, dict) and recorded.get("digest") != table.digest


def _unpriced(config: JSONObject) -> bool:
    """A group stored before runs were costed: price its runs now."""
    return not isinstance(config.get("prices"), dict)


def counted_runs(group: RunGroup, runs: list[RunRecord]) -> list[RunRecord]:
    """The runs a report counts: all of them; in a practice group, each case's latest
    complete session (else its latest session), so that a case counts once, as the
    player does it now."""
    if not group.practice:
        return runs
    latest: dict[tuple[str, str], RunRecord] = {}
    for run in sorted(runs, key=lambda r: (r.complete, r.repeat)):
        latest[(run.case_id, run.system)] = run
    return list(latest.values())


def _session(run: RunRecord) -> JSONObject:
    return {"case_id": run.case_id, "session": run.repeat_number, "started_at": run.started_at,
            "status": run.status, "reason": run.reason, "steps": run.steps,
            "metrics": {n: run.metrics[n] for n in PER_CASE_METRICS if n in run.metrics}}  # every per-case metric


def _case_facts(config: JSONObject, run_paths: Mapping[str, str], bank: Path) -> dict[str, JSONObject]:
    """The facts recorded with the group; for an older group, read from the case file (``run_paths``:
    case id -> the path its runs were played from)."""
    from medbench_tui.core.cases.casemix import case_facts
    from medbench_tui.core.errors import MedbenchError

    facts = {c["id"]: c["metadata"] for c in config.get("cases", []) if isinstance(c.get("metadata"), dict)}
    paths = {c["id"]: c["path"] for c in config.get("cases", []) if c.get("path")}
    paths.update({case_id: path for case_id, path in run_paths.items() if case_id not in paths})
    for case_id, stored in paths.items():
        if case_id in facts:
            continue
        try:
            facts[case_id] = case_facts(_load_valid_case(run_case_file(bank, stored)))
        except (OSError, MedbenchError):
            continue
    return facts


def _load_valid_case(path: Path) -> Case:
    from medbench_tui.core.validate import load_valid_case

    return load_valid_case(path)


def manifest_status(recorded: JSONValue, bank: Path) -> JSONObject:
    """The frozen manifest the group ran against, and whether the bank still matches it."""
    from medbench_tui.core.cases.manifest import check_bank, read_manifest
    from medbench_tui.core.errors import MedbenchError

    if not isinstance(recorded, dict):
        return {"frozen": False}
    status: JSONObject = {
        "frozen": True, "label": recorded.get("label"), "manifest_sha256": recorded.get("manifest_sha256"),
        "frozen_at": recorded.get("frozen_at"), "matched_when_run": bool(recorded.get("cases_match")),
        "still_matches": None, "changes": [],
    }
    try:
        current = read_manifest(bank)
    except MedbenchError as exc:
        status["changes"] = [str(exc)]
        return status
    if current is None:
        status["changes"] = [f"the bank at {bank} has no bank-manifest.json any more"]
    elif current.get("manifest_sha256") != recorded.get("manifest_sha256"):
        status["still_matches"] = False
        status["changes"] = [f"the bank was frozen again since (now '{current.get('label')}')"]
    else:
        check = check_bank(bank, current)
        status["still_matches"] = check.matches
        status["changes"] = ([f"added {p}" for p in check.added] + [f"removed {p}" for p in check.removed]
                             + [f"changed {p}" for p in check.changed]
                             + (["the manifest itself was edited"] if check.manifest_edited else []))
    return status


def _estimate(values: list[float], name: str, *, seed: int, key: str, confidence: float, resamples: int) -> Estimate:
    if name in BINARY_METRICS and all(v in (0.0, 100.0) for v in values):
        return wilson(values, name, confidence)
    return bootstrap_mean(values, name, seed=seed, key=key, confidence=confidence, resamples=resamples)


def _summary(system: str, config: JSONObject, case_ids: list[str], outcomes: dict[tuple[str, str], CaseOutcome],
             *, seed: int, confidence: float, resamples: int) -> SystemSummary:
    found = [outcomes[(c, system)] for c in case_ids if (c, system) in outcomes]
    complete = [o for o in found if o.complete]
    names = metric_order({name for o in complete for name in o.metrics})
    metrics = {
        name: _estimate(
            [o.metrics[name] for o in complete if name in o.metrics], name,
            seed=seed, key=system, confidence=confidence, resamples=resamples,
        )
        for name in names
    }
    steps = [o.steps for o in complete]
    return SystemSummary(
        system=system,
        config=config,
        cases=len(case_ids),
        complete=len(complete),
        incomplete=len(found) - len(complete),
        not_run=len(case_ids) - len(found),
        total_steps=float(sum(steps)),
        average_steps=bootstrap_mean(steps, "steps", seed=seed, key=system, confidence=confidence, resamples=resamples),
        outside_soft_range=float(sum(o.outside_soft_range for o in complete)),
        metrics=metrics,
        incomplete_runs=[
            {"case_id": r.case_id, "repeat": r.repeat_number, "reason": r.reason}
            for o in found for r in o.runs if not r.complete
        ],
        ranges=_mean_ranges(complete),
        uncertain_runs=sum(1 for o in complete for r in o.runs if r.uncertain),
    )


def _mean_ranges(outcomes: list[CaseOutcome]) -> dict[str, list[float]]:
    """The mean of the cases' lows and of their highs, for a metric every case gives a range
    (a metric undefined on a case, such as treatment accuracy with no treatment, is skipped there)."""
    out: dict[str, list[float]] = {}
    names = {n for o in outcomes for n in o.ranges}
    for name in sorted(names):
        having = [o for o in outcomes if name in o.metrics]
        if having and all(name in o.ranges for o in having):
            out[name] = [sum(o.ranges[name][i] for o in having) / len(having) for i in (0, 1)]
    return out


def _difference_ranges(a: str, b: str, cases: list[str], outcomes: dict[tuple[str, str], CaseOutcome],
                       differences: dict[str, Difference]) -> tuple[dict[str, list[float]], list[str]]:
    """The mean difference B - A with every uncertain decision turned against B and for A (low) or
    the reverse (high), and the metrics whose difference could change direction that way."""
    ranges: dict[str, list[float]] = {}
    reverse: list[str] = []
    for name, difference in differences.items():
        pairs = [(outcomes[(c, a)], outcomes[(c, b)]) for c in cases
                 if name in outcomes[(c, a)].metrics and name in outcomes[(c, b)].metrics]
        if not pairs or not all(name in oa.ranges and name in ob.ranges for oa, ob in pairs):
            continue
        low = sum(ob.ranges[name][0] - oa.ranges[name][1] for oa, ob in pairs) / len(pairs)
        high = sum(ob.ranges[name][1] - oa.ranges[name][0] for oa, ob in pairs) / len(pairs)
        ranges[name] = [low, high]
        point = difference.difference
        if (point > 0 and low <= 0) or (point < 0 and high >= 0) or (point == 0 and low < high):
            reverse.append(name)
    return ranges, reverse


def _complete_cases(case_ids: list[str], systems: list[str],
                    outcomes: dict[tuple[str, str], CaseOutcome]) -> tuple[list[str], list[JSONObject]]:
    paired, excluded = [], []
    for case_id in case_ids:
        reasons = []
        for system in systems:
            outcome = outcomes.get((case_id, system))
            if outcome is None:
                reasons.append(f"{system}: not run")
            elif not outcome.complete:
                reasons.append(f"{system}: incomplete ({outcome.reason})")
        if reasons:
            excluded.append({"case_id": case_id, "reasons": reasons})
        else:
            paired.append(case_id)
    return paired, excluded


def _compare(a: str, b: str, cases: list[str], outcomes: dict[tuple[str, str], CaseOutcome], *, seed: int,
             confidence: float, resamples: int) -> Comparison:
    """B against A. A metric a case leaves undefined (no differential listed, say) is
    compared over the cases where both runs define it; its ``n`` says how many."""
    pairs = [(outcomes[(c, a)].metrics, outcomes[(c, b)].metrics) for c in cases]
    names = metric_order({n for ma, mb in pairs for n in ma.keys() & mb.keys()})
    differences = {}
    for name in names:
        both = [(ma[name], mb[name]) for ma, mb in pairs if name in ma and name in mb]
        differences[name] = paired_difference(
            [x for x, _ in both], [y for _, y in both], name,
            seed=seed, key=f"{a}|{b}", confidence=confidence, resamples=resamples,
        )
    direction = p = None
    if "diagnosis_accuracy" in names:
        both = [(ma["diagnosis_accuracy"], mb["diagnosis_accuracy"]) for ma, mb in pairs
                if "diagnosis_accuracy" in ma and "diagnosis_accuracy" in mb]
        direction = direction_of_change([x for x, _ in both], [y for _, y in both])
        p = mcnemar_exact(direction["only_a"], direction["only_b"])
    per_case = [
        {"case_id": case_id, **{n: [ma[n], mb[n], mb[n] - ma[n]] for n in names if n in ma and n in mb}}
        for case_id, (ma, mb) in zip(cases, pairs, strict=True)
    ]
    ranges, reverse = _difference_ranges(a, b, cases, outcomes, differences)
    return Comparison(a, b, len(cases), differences, direction, p, per_case, ranges, reverse)


def _variability(system: str, case_ids: list[str], spreads: dict[tuple[str, str], RepeatSpread]) -> list[Variability]:
    """Per metric: the mean within-case SD across repeats, and (binary) the cases that flipped."""
    import numpy as np

    repeated = [spreads[(c, system)] for c in case_ids if (c, system) in spreads]
    found = []
    for name in metric_order({n for o in repeated for n in o.sd}):
        sds = [o.sd[name] for o in repeated if name in o.sd]
        entry = Variability(name, len(sds), float(np.mean(sds)))
        if name in BINARY_METRICS:
            entry.changed = sum(1 for o in repeated if name in o.flipped)
            entry.changed_share = 100 * entry.changed / len(sds)
        found.append(entry)
    return found


SUBGROUP_METRICS = (
    "diagnosis_accuracy", "differential_accuracy", "workup_score", "treatment_accuracy",
    "critical_conditions_passed", "question_coverage",
)


def _subgroup_table(by: str, basis: list[str], systems: list[str], outcomes: dict[tuple[str, str], CaseOutcome],
                    facts: dict[str, JSONObject], *, paired: bool, seed: int, confidence: float,
                    resamples: int) -> SubgroupTable:
    groups, missing = subgroups(facts, by, basis)
    found = []
    for value, cases in groups.items():
        metrics: dict[str, dict[str, Estimate]] = {}
        for system in systems:
            chosen = [outcomes[(c, system)] for c in cases if (c, system) in outcomes]
            metrics[system] = {
                name: _estimate([o.metrics[name] for o in chosen if name in o.metrics], name, seed=seed,
                                key=f"{system}|{by}={value}", confidence=confidence, resamples=resamples)
                for name in SUBGROUP_METRICS
            }
        found.append(Subgroup(value, cases, metrics))
    what = f"the {len(basis)} cases every system completed" if paired else f"the {len(basis)} complete cases"
    return SubgroupTable(by, what, missing, found)


# --- rendering -----------------------------------------------------------------------


@dataclass
class Table:
    """A rendering-neutral table: Markdown, HTML and the terminal draw the same ones."""

    title: str
    columns: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)
    key: str = ""
    """What the table is (``headline``, ``aggregate``, ``paired``, ``taxonomy``...)."""
    figures: list[Figure] = field(default_factory=list)
    """The charts of this table, made from the same estimates as its rows."""


BAR_METRICS = (
    "diagnosis_accuracy", "differential_accuracy", "workup_score", "treatment_accuracy",
    "critical_conditions_passed", "question_coverage", "differential_recall_at_3",
)
"""The key metrics a summary table's bar chart shows (the ones the systems have)."""


def _bar(series: str, estimate: Estimate | None) -> Bar:
    if estimate is None or not estimate.n:
        return Bar(series, None, None, None, shown="–")
    return Bar(series, estimate.mean, estimate.low, estimate.high, bool(estimate.warning),
               _with_interval(estimate.mean, estimate.low, estimate.high, estimate.warning))


WARNING_MARK = "⚠"


def _number(value: float | None, digits: int = 2) -> str:
    return "–" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def _count(value: float) -> str:
    """A count; with repeats it may be a mean (one decimal)."""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _with_interval(mean: float | None, low: float | None, high: float | None, warning: str | None = None) -> str:
    if mean is None:
        return "–"
    mark = f" {WARNING_MARK}" if warning else ""
    return with_interval(_number(mean), low, high) + mark


def _signed(value: float | None) -> str:
    return "–" if value is None or not math.isfinite(value) else f"{value:+.2f}"


def _method_note(report: Report) -> str:
    level = f"{report.confidence:.0%}"
    note = (
        f"Means over complete runs with {level} intervals: Wilson for binary metrics, bootstrap (BCa, "
        f"{report.resamples} resamples, seed {report.seed}) for the rest."
    )
    if report.repeats > 1:
        note += (f" Each case counts once: its {report.repeats} repeats are averaged first (a binary metric becomes "
                 "the share of repeats that got it right, so its interval is a bootstrap).")
    return note


def _small_note(estimates: list[Estimate] | list[Difference]) -> list[str]:
    if any(e.warning for e in estimates):
        return [f"{WARNING_MARK} fewer than {SMALL_N} cases: the interval is rough; \"no interval\" means there is "
                "too little data or no spread to estimate one (never read it as certainty)."]
    return []


def summary_table(report: Report, summaries: dict[str, SystemSummary] | None = None, title: str | None = None) -> Table:
    """Metric by system, the legacy rows first in the published order (default: the headline),
    with its bar chart of the key metrics drawn from the same estimates."""
    chosen = summaries if summaries is not None else (report.headline or report.summaries)
    headline = summaries is None
    key = "headline" if headline else "aggregate"
    if headline and len(report.systems) > 1:
        scope = f"the {len(report.paired_cases)} cases every system completed"
    else:
        scope = "each system over all of its complete cases" if len(report.systems) > 1 else "its complete cases"
    columns = [chosen[s] for s in report.systems]
    rows: list[list[str]] = []

    def metric_row(name: str) -> list[str]:
        cells = []
        for summary in columns:
            estimate = summary.metrics.get(name)
            cells.append("–" if estimate is None else _with_interval(
                estimate.mean, estimate.low, estimate.high, estimate.warning))
        return [metric_title(name), *cells]

    every = metric_order({name for s in columns for name in s.metrics})
    rows += [metric_row(name) for name in LEGACY_METRICS]
    rows.append([STEPS_ROWS[0], *(_count(s.total_steps) for s in columns)])
    rows.append([STEPS_ROWS[1], *(
        _with_interval(s.average_steps.mean, s.average_steps.low, s.average_steps.high) for s in columns
    )])
    rows.append([STEPS_ROWS[2], *(_count(s.outside_soft_range) for s in columns)])
    rows += [metric_row(name) for name in every if name not in LEGACY_METRICS]
    rows.append(["Runs complete / incomplete / not run", *(
        f"{s.complete} / {s.incomplete} / {s.not_run}" for s in columns
    )])
    notes = [_method_note(report), *report.seed_notes]
    if title is None and len(report.systems) > 1:
        title = f"Run group {report.group_id}: the {len(report.paired_cases)} cases every system completed"
        if report.unequal_cases:
            counts = ", ".join(f"{s.system} {s.complete}" for s in report.summaries.values())
            notes.insert(0, f"{WARNING_MARK} The systems completed different numbers of cases ({counts}): this table "
                         f"compares only the {len(report.paired_cases)} cases every system completed; each system "
                         "over all of its cases is in the next table.")
    notes += _small_note([e for s in columns for e in s.metrics.values()])
    names = [n for n in BAR_METRICS if any(n in s.metrics for s in columns)]
    chart = BarChart(
        f"Key metrics per system ({scope})", BAR_CAPTION, list(report.systems),
        [(metric_title(n), [_bar(s, chosen[s].metrics.get(n)) for s in report.systems]) for n in names],
    )
    return Table(title or f"Run group {report.group_id}", ["metric", *report.systems], rows, notes, key, [chart])


def header_lines(report: Report) -> list[str]:
    """What was compared: the bank's frozen state, repeats, error-testing cases left out."""
    lines = []
    manifest = report.bank_manifest
    if not manifest.get("frozen"):
        lines.append("Bank: not frozen when run ('medbench freeze' pins the cases and attachments).")
    else:
        digest = str(manifest.get("manifest_sha256"))[:12]
        line = f"Bank: frozen as '{manifest.get('label')}' (manifest sha256 {digest}, {manifest.get('frozen_at')})."
        if not manifest.get("matched_when_run"):
            line += " When run, some cases differed from the manifest."
        if manifest.get("still_matches") is True:
            line += " The cases still match it."
        elif manifest.get("still_matches") is False:
            line += " The cases NO LONGER match it: " + "; ".join(manifest.get("changes", [])[:5])
        else:
            line += " Whether they still match is unknown: " + "; ".join(manifest.get("changes", []))
        lines.append(line)
    if report.practice is not None:
        lines.append(f"Practice of {report.practice}: every case played, each counted once by its latest complete "
                     f"session; all {len(report.sessions)} sessions are listed at the end.")
    for system, found in report.left_out_unplayable.items():
        reasons = sorted(set(found.values()))
        lines.append(f"Left out when planned: {len(found)} case(s) {system} could not play ({'; '.join(reasons)}); "
                     "every system was run on the same cases.")
    if report.repeats > 1:
        lines.append(f"Repeats: each case x system was played {report.repeats} times (seeds recorded with each run).")
    if report.error_tests_left_out:
        lines.append(f"Error-testing cases left out of every figure: {len(report.error_tests_left_out)} "
                     f"({', '.join(report.error_tests_left_out)}); --include-error-tests counts them.")
    elif report.include_error_tests:
        lines.append("Error-testing cases are included (--include-error-tests).")
    return lines


def comparison_tables(report: Report, comparison: Comparison, *, per_case: bool = True) -> list[Table]:
    a, b = comparison.system_a, comparison.system_b
    heading = f"Paired: {b} − {a} ({comparison.cases} cases completed by every compared system)"
    rows = [
        [metric_title(d.metric), _number(d.mean_a), _number(d.mean_b), _signed(d.difference),
         (found.write(signed=True) if (found := interval(d.low, d.high)) is not None else NO_INTERVAL)
         + (f" {WARNING_MARK}" if d.warning else "")]
        for d in comparison.differences.values()
    ]
    notes = ["Differences are B − A per case, with paired intervals: Newcombe's score interval for binary metrics, "
             "a paired bootstrap for the rest."]
    notes += _small_note(list(comparison.differences.values()))
    forest = ForestChart(
        f"Paired differences, {b} − {a}", FOREST_CAPTION,
        [ForestRow(metric_title(d.metric), d.difference, d.low, d.high, d.n, bool(d.warning))
         for d in comparison.differences.values() if d.metric not in NOT_POINTS],
        comparison.cases,
    )
    tables = [Table(heading, ["metric", a, b, "difference", f"{report.confidence:.0%} interval"], rows, notes,
                    "paired", [forest])]
    if comparison.direction is not None:
        d = comparison.direction
        direction_notes = [f"McNemar exact test on the {d['only_a'] + d['only_b']} discordant cases: "
                           f"p = {comparison.mcnemar_p:.4g}"]
        if report.repeats > 1:
            direction_notes.append("With repeats a case is right when at least half of its repeats were.")
        tables.append(Table(
            f"Diagnosis accuracy, direction of change ({a} → {b})",
            ["both right", f"only {a}", f"only {b}", "both wrong"],
            [[str(d["both_right"]), str(d["only_a"]), str(d["only_b"]), str(d["both_wrong"])]],
            direction_notes, "direction",
        ))
    if per_case and comparison.per_case:
        names = [n for n in PER_CASE_METRICS if n in comparison.differences]
        tables.append(Table(
            f"Per-case differences ({b} − {a})",
            ["case", *(PER_CASE_METRICS[n] for n in names)],
            [[entry["case_id"], *(_signed(entry[n][2]) if n in entry else "–" for n in names)]
             for entry in comparison.per_case],
            key="per_case",
        ))
    return tables


def variability_table(report: Report) -> Table | None:
    if not report.variability:
        return None
    names = metric_order({v.metric for found in report.variability.values() for v in found})
    rows = []
    for name in names:
        cells = []
        for system in report.systems:
            entry = next((v for v in report.variability.get(system, []) if v.metric == name), None)
            if entry is None:
                cells.append("–")
                continue
            text = f"SD {_number(entry.mean_sd)}"
            if entry.changed is not None:
                text += f"; changed in {entry.changed}/{entry.cases} ({_number(entry.changed_share, 0)}%)"
            cells.append(text)
        rows.append([metric_title(name), *cells])
    return Table(
        f"Run-to-run variability ({report.repeats} repeats)", ["metric", *report.systems], rows,
        ["SD: the standard deviation across a case's repeats, averaged over the cases with two or more complete "
         "repeats. Changed: cases whose binary outcome was not the same in every repeat."], "variability",
    )


def subgroup_tables(report: Report) -> list[Table]:
    table = report.subgroups
    if table is None:
        return []
    rows = []
    for group in table.groups:
        for name in SUBGROUP_METRICS:
            cells = [_with_interval(e.mean, e.low, e.high, e.warning) if (e := group.metrics[s][name]).n else "–"
                     for s in report.systems]
            rows.append([group.value, str(len(group.cases)), metric_title(name), *cells])
    notes = [f"Over {table.basis}; {table.missing} of them do not set {table.field} (left out of this table)."]
    notes += _small_note([e for g in table.groups for m in g.metrics.values() for e in m.values()])
    charts = [
        BarChart(f"{metric_title(name)} by {table.field}", SUBGROUP_CAPTION, list(report.systems),
                 [(f"{group.value} (n={len(group.cases)})", [_bar(s, group.metrics[s].get(name))
                                                             for s in report.systems])
                  for group in table.groups], metric=name)
        for name in SUBGROUP_METRICS
    ]
    return [Table(f"By {table.field}", [table.field, "n", "metric", *report.systems], rows, notes, "subgroups",
                  [chart for chart in charts if not chart.empty])]


def case_mix_tables(report: Report) -> list[Table]:
    mix = report.case_mix
    if mix is None:
        return []
    rows = []
    thin_notes = []
    for entry in mix.fields:
        for value, count in entry.counts.items():
            rows.append([entry.field, value, str(count), f"{100 * count / mix.cases:.1f}%" if mix.cases else "–",
                         "thin" if value in entry.thin else ""])
        for value in entry.thin:
            if value not in entry.counts:
                rows.append([entry.field, value, "0", "0.0%", "none"])
        if entry.missing:
            rows.append([entry.field, "(not set)", str(entry.missing), f"{100 * entry.missing / mix.cases:.1f}%", ""])
        if entry.thin:
            thin_notes.append(f"{entry.field}: " + ", ".join(
                f"{value} ({entry.counts.get(value, 0)})" for value in entry.thin))
    steps = mix.num_steps
    notes = [f"num_steps: mean {_number(steps['mean'], 1)}, median {_number(steps['median'], 1)}, "
             f"range {steps['min'] if steps['min'] is not None else '–'}–"
             f"{steps['max'] if steps['max'] is not None else '–'}"
             + (f" ({steps['missing']} cases do not set it)" if steps["missing"] else "")]
    if thin_notes:
        notes.append(f"Thin (fewer than {THIN} cases: a figure for them is a case's, not a group's): "
                     + "; ".join(thin_notes))
    return [Table(f"Case mix ({mix.cases} cases)", ["field", "value", "cases", "share", "flag"], rows, notes,
                  "case_mix")]


EXAMPLES = 5


def taxonomy_table(report: Report) -> Table:
    """Failure kinds by system: runs with that failure, and example cases."""
    rows = []
    for system in report.systems:
        found = report.taxonomy.get(system)
        if found is None:
            continue
        for count in found.counts:
            examples = ", ".join(count.case_ids[:EXAMPLES]) + (" …" if len(count.case_ids) > EXAMPLES else "")
            rows.append([system, count.label, f"{count.runs} of {found.runs}", examples or "–"])
    notes = ["Counted per run (each repeat is a run); a run can have several kinds. Examples are case ids."]
    return Table("Failure taxonomy", ["system", "failure", "runs", "example cases"], rows, notes, "taxonomy")


def cost_table(report: Report) -> Table | None:
    """Cost per correct diagnosis, harm split and unpriced items per system."""
    costs = report.costs
    if costs is None or not costs.systems:
        return None
    columns = [costs.systems[s] for s in report.systems if s in costs.systems]
    headline = report.headline or report.summaries

    def mean(system: str, metric: str) -> str:
        estimate = headline[system].metrics.get(metric) if system in headline else None
        if estimate is None or estimate.mean is None:
            return "–"
        return _with_interval(estimate.mean, estimate.low, estimate.high, estimate.warning)

    rows = [
        ["Cost per case (mean)", *(mean(c.system, "cost_total") for c in columns)],
        ["Cost per correct diagnosis", *(
            _with_interval(c.per_correct.mean, c.per_correct.low, c.per_correct.high, c.per_correct.warning)
            if c.per_correct.mean is not None else "– (none right)" for c in columns)],
        ["Cases diagnosed right / priced", *(f"{_count(c.correct)} / {c.cases}" for c in columns)],
        ["Harm by omission (mean, weighted)", *(mean(c.system, "harm_omission") for c in columns)],
        ["Harm by commission (mean, weighted)", *(mean(c.system, "harm_commission") for c in columns)],
        ["Critical conditions failed: omission / commission", *(
            f"{c.conditions_omission} / {c.conditions_commission}" for c in columns)],
        ["Unpriced items left out (runs)", *(f"{c.unpriced_items} ({c.runs_with_unpriced})" for c in columns)],
    ]
    money = "relative units" if costs.currency == "relative" else costs.currency
    dots = [CostDot(p.system, p.repeat, p.accuracy, p.cost, p.cases) for p in costs.points]
    charts: list[Figure] = \
        [CostChart("Diagnosis accuracy against cost", COST_CAPTION, list(report.systems), dots, money)] if dots else []
    return Table("Cost and harm", ["measure", *(c.system for c in columns)], rows, costs.notes(), "costs", charts)


def doubt_table(report: Report) -> Table | None:
    """Each decision-based metric with the range it would take if every decision the grader marked
    uncertain went the other way (the headline summaries; None when no run carries ranges)."""
    chosen = report.headline or report.summaries
    columns = [chosen[s] for s in report.systems]
    names = [n for n in RANGED if any(n in s.ranges for s in columns)]
    if not names:
        return None
    rows = [[metric_title(n), *(f"{_number(s.metrics[n].mean)} [{_number(s.ranges[n][0])} to "
                                 f"{_number(s.ranges[n][1])}]" if n in s.ranges and n in s.metrics else "–"
                                 for s in columns)] for n in names]
    rows.append(["Runs with an uncertain decision", *(f"{s.uncertain_runs} of {s.complete}" for s in columns)])
    notes = ["Each figure is the point estimate, then the mean it would take if every decision the grader marked "
             "uncertain went against the answer (low) or for it (high). A physician's review of the uncertain "
             "decisions (Review mode, doubts first) settles where in that range the truth is."]
    return Table("How far the grader's doubt could move the results", ["metric", *report.systems], rows, notes,
                 "doubt")


def reversal_table(comparison: Comparison) -> Table | None:
    """The paired differences with every uncertain decision turned to move each difference most."""
    names = [n for n in RANGED if n in comparison.difference_ranges]
    if not names:
        return None
    a, b = comparison.system_a, comparison.system_b
    rows = [[metric_title(n), _signed(comparison.differences[n].difference),
             f"{_signed(comparison.difference_ranges[n][0])} to {_signed(comparison.difference_ranges[n][1])}",
             "could reverse" if n in comparison.could_reverse else "holds"] for n in names]
    notes = [f"Low: every uncertain decision turned against {b} and for {a}; high: the reverse. 'could reverse': "
             "the direction of the difference depends on decisions the grader is unsure of."]
    return Table(f"Could the grader's doubt reverse {b} − {a}?",
                 ["metric", "difference", "if uncertain decisions flip", "direction"], rows, notes, "reversal")


def rubric_tables(report: Report, *, paired: bool = True) -> list[Table]:
    """The rubric cases' tables: the score per system, by theme and by axis, the paired differences."""
    rubric = report.rubric
    if rubric is None:
        return []
    systems = list(rubric.systems.values())
    judge = rubric.judge
    notes = [f"Judge: {judge.get('model')} at {judge.get('base_url')}, prompt sha256 {judge.get('prompt_sha256')}, "
             + ", ".join(f"{k} {judge[k]}" for k in ("temperature", "seed", "max_tokens") if k in judge)
             if judge else "No judge was configured (evaluator.judge): judge criteria are ungraded, and each score "
                           "is over the criteria graded by rule."]
    if rubric.judged_by:
        notes.append("Decisions made by " + "; ".join(rubric.judged_by) + ".")
    if len(systems) > 1:
        notes.append(f"Over the {len(rubric.paired_cases)} rubric case(s) every system completed.")
    notes += _small_note([s.score for s in systems])
    tables = [Table(
        "Rubric score (0-100: points met over positive points, or the panel's weighted F1)",
        ["system", f"rubric score [{report.confidence:.0%} CI]", "cases", "incomplete", "criteria ungraded"],
        [[s.system, _with_interval(s.score.mean, s.score.low, s.score.high, s.score.warning), str(s.complete),
          str(len(s.incomplete)), str(s.ungraded)] for s in systems],
        notes, key="rubric")]
    for title, key, column, of in (
            ("Rubric score by theme", "rubric_themes", "theme", lambda s: s.themes),
            ("Rubric score by axis (criteria tagged axis:...)", "rubric_axes", "axis", lambda s: s.axes)):
        names = sorted({name for s in systems for name in of(s)})
        if names:
            rows = [[name, *(_with_interval(e.mean, e.low, e.high, e.warning) if (e := of(s).get(name)) else "–"
                             for s in systems)] for name in names]
            tables.append(Table(title, [column, *(s.system for s in systems)], rows, key=key))
    if paired and rubric.comparisons:
        pairs = list(combinations([s.system for s in systems], 2))
        tables.append(Table(
            "Rubric score: paired differences (B - A)",
            ["A", "B", "mean A", "mean B", f"B - A [{report.confidence:.0%} CI]", "n", "method"],
            [[a, b, _number(d.mean_a), _number(d.mean_b), _with_interval(d.difference, d.low, d.high, d.warning),
              str(d.n), d.method] for (a, b), d in zip(pairs, rubric.comparisons, strict=True)],
            key="rubric_paired"))
    incomplete = [[s.system, r["case_id"], str(r["repeat"]), r["reason"] or ""] for s in systems
                  for r in s.incomplete]
    if incomplete:
        tables.append(Table("Incomplete rubric runs (not graded)", ["system", "case", "repeat", "reason"], incomplete,
                            key="rubric_incomplete"))
    return tables


def report_tables(report: Report, *, paired: bool = True) -> list[Table]:
    if not report.consultations:
        return rubric_tables(report, paired=paired)
    tables = [summary_table(report)]
    if (costs := cost_table(report)) is not None:
        tables.append(costs)
    if report.unequal_cases and len(report.systems) > 1:
        tables.append(summary_table(report, report.summaries, "Each system over all of its complete cases"))
    if (variability := variability_table(report)) is not None:
        tables.append(variability)
    if (doubt := doubt_table(report)) is not None:
        tables.append(doubt)
    if paired:
        for comparison in report.comparisons:
            tables += comparison_tables(report, comparison)
            if (reversal := reversal_table(comparison)) is not None:
                tables.append(reversal)
        if report.excluded and report.comparisons:
            tables.append(Table(
                "Cases left out of the paired comparison",
                ["case", "why"],
                [[e["case_id"], "; ".join(e["reasons"])] for e in report.excluded],
                key="excluded",
            ))
    tables += subgroup_tables(report)
    if paired:
        tables += case_mix_tables(report)
        tables.append(taxonomy_table(report))
    incomplete = [
        [s.system, r["case_id"], str(r["repeat"]), r["reason"] or ""]
        for s in report.summaries.values() for r in s.incomplete_runs
    ]
    if incomplete:
        tables.append(Table("Incomplete runs (not scored)", ["system", "case", "repeat", "reason"], incomplete,
                            key="incomplete"))
    if report.sessions:
        tables.append(sessions_table(report))
    return tables + rubric_tables(report, paired=paired)


SESSION_METRICS = ("diagnosis_accuracy", "workup_score", "treatment_accuracy", "critical_conditions_passed",
                   "question_coverage")
"""The scores a practice session is followed by (the scorecard's D.O.T.S. and the history taken)."""


def sessions_table(report: Report) -> Table:
    """A practice group's sessions, oldest first: the scores over time."""
    rows = [
        [session["started_at"][:16].replace("T", " "), session["case_id"], str(session["session"]),
         *((_count(session["metrics"][n]) if n in session["metrics"] else "–") for n in SESSION_METRICS),
         str(session["steps"]) if session["status"] == "complete" else f"incomplete ({session['reason'] or '?'})"]
        for session in report.sessions
    ]
    return Table(f"Sessions over time ({len(rows)})",
                 ["played (UTC)", "case", "session", *(PER_CASE_METRICS[n] for n in SESSION_METRICS), "steps"], rows,
                 ["Session n is the n-th time the case was played; the figures above count each case's latest "
                  "complete session."], key="sessions")


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(report: Report) -> str:
    lines: list[str] = []
    for index, table in enumerate(report_tables(report)):
        lines += [f"{'#' if index == 0 else '##'} {table.title}", ""]
        if index == 0:
            lines += [*(f"{line}  " for line in header_lines(report)), ""]
        lines.append("| " + " | ".join(_md_cell(c) for c in table.columns) + " |")
        lines.append("|" + "|".join("---" for _ in table.columns) + "|")
        lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in table.rows]
        lines.append("")
        for note in table.notes:
            lines += [note, ""]
    return "\n".join(lines)


# Figures, intervals, counts and dashes are right-aligned; words are left-aligned.
NUMERIC_CELL = re.compile(r"^(?:[\d\s.,:;\[\]()+\-\u2212\u2013/%pn=<>\u26a0]|no interval)*$")


def render_text(report: Report, *, width: int = 120, paired: bool = True) -> str:
    """The report as terminal tables (no colour codes, so it pipes cleanly)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table as RichTable

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False, highlight=False)
    for line in header_lines(report):
        console.print(line, markup=False)
    for table in report_tables(report, paired=paired):
        console.print(table.title, markup=False)
        right = [index > 0 and all(NUMERIC_CELL.match(str(row[index])) for row in table.rows if index < len(row))
                 for index in range(len(table.columns))]
        lines = plain_table(table, right, width)
        if lines is not None:
            buffer.write("".join(f"{line}\n" for line in lines))
        else:
            drawn = RichTable(box=box.SIMPLE_HEAD)
            for column, numeric in zip(table.columns, right, strict=True):
                drawn.add_column(column, justify="right" if numeric else "left", overflow="fold")
            for row in table.rows:
                drawn.add_row(*row)
            console.print(drawn)
        for note in table.notes:
            console.print(note, markup=False)
        console.print()
    return buffer.getvalue()


NOT_PLAIN = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029\\:]|\[[a-z#/@]|^\s|\s$")
"""What rich would not show as written on one line: line breaks and control characters, markup
tags and escapes, emoji codes (``:name:``), whitespace it trims."""


def plain_table(table: Table, right: list[bool], width: int) -> list[str] | None:
    """The lines rich draws for ``table`` (box SIMPLE_HEAD, cells padded by one space) when every
    cell is one line of plain text and the table fits ``width``, drawn here directly: rich lays out
    each cell through its whole rendering pipeline, which made the text report 50 times slower than
    the Markdown one. None for any other table (one that wraps, or has markup): rich draws those."""
    from rich.cells import cell_len

    columns = len(table.columns)
    rows = [[*row, *([""] * (columns - len(row)))] for row in table.rows]
    cells = [table.columns, *rows]
    if not columns or any(len(row) > columns for row in rows) or any(
            NOT_PLAIN.search(cell) for row in cells for cell in row):
        return None
    lengths = [[cell_len(cell) for cell in row] for row in cells]
    widths = [max(row[index] for row in lengths) for index in range(columns)]
    total = sum(widths) + 3 * columns + 1
    if total > width:
        return None

    def line(row: list[str], sizes: list[int]) -> str:
        return " " + " ".join(
            f" {' ' * (room - size) + cell if numeric else cell + ' ' * (room - size)} "
            for cell, size, room, numeric in zip(row, sizes, widths, right, strict=True)) + " "

    blank = " " * total
    return [blank, line(cells[0], lengths[0]), f" {'─' * (total - 2)} ",
            *(line(row, sizes) for row, sizes in zip(rows, lengths[1:], strict=True)), blank]


def render_json(report: Report) -> str:
    """The report as JSON, secrets redacted in its texts (its numbers untouched)."""
    from medbench_tui.core.redact import redact_data

    return json.dumps(redact_data(report.to_json()), indent=2, ensure_ascii=False) + "\n"


CSV_COLUMNS = ("section", "system", "versus", "case_id", "metric", "value", "low", "high", "n", "method")


def render_csv(report: Report) -> str:
    """Long format, one estimate per row: headline and per-system aggregates, paired
    differences, per case, variability, subgroups, case mix, failure taxonomy."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for section, summaries in (("headline", report.headline), ("aggregate", report.summaries)):
        for summary in summaries.values():
            for estimate in [*summary.metrics.values(), summary.average_steps]:
                writer.writerow([section, summary.system, "", "", estimate.metric, estimate.mean, estimate.low,
                                 estimate.high, estimate.n, estimate.method])
    for summary in report.summaries.values():
        for name, value in (("total_steps", summary.total_steps), ("outside_soft_range", summary.outside_soft_range),
                            ("complete", summary.complete), ("incomplete", summary.incomplete),
                            ("not_run", summary.not_run)):
            writer.writerow(["count", summary.system, "", "", name, value, "", "", summary.cases, ""])
    for comparison in report.comparisons:
        b, a = comparison.system_b, comparison.system_a
        for d in comparison.differences.values():
            writer.writerow(["paired", b, a, "", d.metric, d.difference, d.low, d.high, d.n, d.method])
        if comparison.direction is not None:
            for name, count in comparison.direction.items():
                writer.writerow(["direction", b, a, "", name, count, "", "", comparison.cases, ""])
            writer.writerow(["mcnemar", b, a, "", "diagnosis_accuracy", comparison.mcnemar_p, "", "",
                             comparison.cases, "exact binomial"])
        for entry in comparison.per_case:
            for name in (n for n in comparison.differences if n in entry):
                writer.writerow(["per_case", b, a, entry["case_id"], name, entry[name][2], "", "", 1, ""])
    for system, found in report.variability.items():
        for v in found:
            writer.writerow(["variability", system, "", "", v.metric, v.mean_sd, "", "", v.cases,
                             "mean within-case SD"])
            if v.changed is not None:
                writer.writerow(["variability", system, "", "", f"{v.metric}.changed", v.changed, "", "", v.cases,
                                 "cases whose outcome changed"])
    if report.subgroups is not None:
        for group in report.subgroups.groups:
            for system, metrics in group.metrics.items():
                for e in metrics.values():
                    writer.writerow([f"by {report.subgroups.field}={group.value}", system, "", "", e.metric, e.mean,
                                     e.low, e.high, e.n, e.method])
    if report.case_mix is not None:
        for mix in report.case_mix.fields:
            for shown, cases in [*mix.counts.items(), ("(not set)", mix.missing)]:
                writer.writerow(["case_mix", "", "", "", f"{mix.field}={shown}", cases, "", "", mix.total, ""])
    if report.costs is not None:
        for c in report.costs.systems.values():
            e = c.per_correct
            writer.writerow(["cost", c.system, "", "", e.metric, e.mean, e.low, e.high, e.n, e.method])
            for name, value in (("cases_diagnosed_right", c.correct), ("total_cost", c.total),
                                ("conditions_failed_omission", c.conditions_omission),
                                ("conditions_failed_commission", c.conditions_commission),
                                ("unpriced_items", c.unpriced_items)):
                writer.writerow(["cost", c.system, "", "", name, value, "", "", c.cases, ""])
        for point in report.costs.points:
            which = "" if point.repeat is None else f"repeat {point.repeat + 1}"
            writer.writerow(["cost_point", point.system, which, "", "diagnosis_accuracy", point.accuracy, "", "",
                             point.cases, ""])
            writer.writerow(["cost_point", point.system, which, "", "cost_total", point.cost, "", "", point.cases,
                             f"{report.costs.currency}"])
    for system, taxonomy in report.taxonomy.items():
        for kind in taxonomy.counts:
            writer.writerow(["taxonomy", system, "", " ".join(kind.case_ids), kind.kind, kind.runs, "", "",
                             taxonomy.runs, ""])
    return buffer.getvalue()
