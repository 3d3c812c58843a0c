"""Aggregates and paired comparisons of the runs of one run group.

Per system: every metric's mean over its complete runs, with a 95% interval: Wilson
for the binary metrics (0 or 100 per run), a BCa bootstrap for the rest (seeded; the
seed is part of the report). Runs that ended incomplete are counted, never scored.

Paired, across systems on the same cases: complete-case analysis (a case counts only
when every compared system completed it; the others are listed with the reason),
per-metric differences B - A with paired bootstrap intervals, McNemar's exact test on
diagnosis accuracy (a binomial test on the discordant pairs) and the
direction-of-change table. All statistics come from ``scipy.stats``.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import warnings
import zlib
from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import Any

from medbench_tui.core.errors import UsageError
from medbench_tui.core.redact import redact
from medbench_tui.core.reproducibility import seed_notes
from medbench_tui.core.runs.store import RunRecord, RunStore

CONFIDENCE = 0.95
RESAMPLES = 9999
FORMATS = ("text", "md", "json", "csv")

LEGACY_METRICS: dict[str, str] = {
    "diagnosis_accuracy": "Diagnosis Accuracy",
    "differential_accuracy": "Differential Accuracy",
    "treatment_accuracy": "Treatment Accuracy",
    "critical_conditions_passed": "Critical Conditions Passed",
}
OTHER_METRICS: dict[str, str] = {
    "workup_score": "Workup Score",
    "question_coverage": "Question Coverage",
    "action_f1": "Weighted Action F1",
    "primary_icd10_exact": "Primary ICD-10 exact match",
    "primary_icd10_category": "Primary ICD-10 category match",
    "secondary_icd10_recall": "Secondary ICD-10 recall",
    "differential_precision": "Differential precision",
    "differential_recall_at_3": "Differential recall@3",
    "differential_recall_at_5": "Differential recall@5",
    "primary_mrr": "Primary diagnosis MRR",
}
BINARY_METRICS = frozenset(
    {"diagnosis_accuracy", "critical_conditions_passed", "primary_icd10_exact", "primary_icd10_category"}
)
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
class Estimate:
    """A mean with its interval; ``low``/``high`` are None when there is too little data."""

    metric: str
    mean: float | None
    low: float | None
    high: float | None
    n: int
    method: str


@dataclass
class SystemSummary:
    system: str
    config: dict[str, Any]
    cases: int
    complete: int
    incomplete: int
    not_run: int
    total_steps: int
    average_steps: Estimate
    outside_soft_range: int
    metrics: dict[str, Estimate]
    incomplete_runs: list[dict[str, str | None]]


@dataclass
class Difference:
    metric: str
    mean_a: float
    mean_b: float
    difference: float
    low: float | None
    high: float | None
    n: int
    method: str


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
    per_case: list[dict[str, Any]]
    """One entry per paired case: ``case_id`` and, per metric, ``[a, b, b - a]``."""


@dataclass
class Report:
    group_id: str
    created_at: str
    systems: list[str]
    seed: int
    confidence: float
    resamples: int
    summaries: dict[str, SystemSummary]
    paired_cases: list[str]
    excluded: list[dict[str, Any]]
    comparisons: list[Comparison] = field(default_factory=list)
    seed_notes: list[str] = field(default_factory=list)
    """Seeded systems whose runs were not reproducible (see core.reproducibility)."""

    def to_json(self) -> dict[str, Any]:
        return _finite(asdict(self))


def _finite(value: Any) -> Any:
    """JSON has no NaN: undefined numbers become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


# --- statistics ----------------------------------------------------------------------


def wilson(values: list[float], name: str, confidence: float = CONFIDENCE) -> Estimate:
    """Mean (0-100) of a binary metric with the Wilson score interval."""
    from scipy.stats import binomtest

    n = len(values)
    if n == 0:
        return Estimate(name, None, None, None, 0, "wilson")
    k = sum(1 for v in values if v >= 50)
    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return Estimate(name, 100 * k / n, 100 * ci.low, 100 * ci.high, n, "wilson")


def _rng(seed: int, *keys: str):
    """One generator per interval, so each is reproducible on its own."""
    import numpy as np

    return np.random.default_rng([seed, *(zlib.crc32(k.encode()) for k in keys)])


def _bootstrap_interval(samples: tuple, statistic, *, paired: bool, rng, confidence: float, resamples: int):
    import numpy as np
    from scipy.stats import bootstrap

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degenerate resamples: handled below
        for method in ("BCa", "percentile"):
            result = bootstrap(
                samples, statistic, paired=paired, vectorized=True, n_resamples=resamples,
                confidence_level=confidence, method=method, rng=rng,
            )
            low, high = result.confidence_interval
            if np.isfinite(low) and np.isfinite(high):
                return float(low), float(high), method
    return None, None, "bootstrap"


def bootstrap_mean(values: list[float], name: str, *, seed: int, key: str, confidence: float = CONFIDENCE,
                   resamples: int = RESAMPLES) -> Estimate:
    """Mean with a seeded BCa bootstrap interval (percentile when BCa is undefined)."""
    import numpy as np

    n = len(values)
    if n == 0:
        return Estimate(name, None, None, None, 0, "bootstrap")
    mean = float(np.mean(values))
    if n < 2 or min(values) == max(values):
        return Estimate(name, mean, mean if n > 1 else None, mean if n > 1 else None, n, "bootstrap")
    low, high, method = _bootstrap_interval(
        (np.asarray(values, dtype=float),), lambda x, axis=-1: np.mean(x, axis=axis),
        paired=False, rng=_rng(seed, key, name), confidence=confidence, resamples=resamples,
    )
    return Estimate(name, mean, low, high, n, f"bootstrap-{method.lower()}")


def paired_difference(a: list[float], b: list[float], name: str, *, seed: int, key: str,
                      confidence: float = CONFIDENCE, resamples: int = RESAMPLES) -> Difference:
    """Mean of B - A over paired cases, with a paired bootstrap interval."""
    import numpy as np

    xa, xb = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    diffs = xb - xa
    n = len(diffs)
    mean = float(np.mean(diffs)) if n else math.nan
    low = high = None
    method = "paired-bootstrap"
    if n >= 2 and diffs.min() == diffs.max():
        low = high = mean
    elif n >= 2:
        low, high, used = _bootstrap_interval(
            (xa, xb), lambda x, y, axis=-1: np.mean(y, axis=axis) - np.mean(x, axis=axis),
            paired=True, rng=_rng(seed, key, name), confidence=confidence, resamples=resamples,
        )
        method = f"paired-bootstrap-{used.lower()}"
    return Difference(
        name, float(np.mean(xa)) if n else math.nan, float(np.mean(xb)) if n else math.nan, mean, low, high, n, method
    )


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value: a binomial test on the discordant pairs."""
    from scipy.stats import binomtest

    discordant = only_a + only_b
    return 1.0 if discordant == 0 else float(binomtest(only_b, discordant, 0.5).pvalue)


def direction_of_change(a: list[float], b: list[float]) -> dict[str, int]:
    right = [(x >= 50, y >= 50) for x, y in zip(a, b)]
    return {
        "both_right": sum(1 for x, y in right if x and y),
        "only_a": sum(1 for x, y in right if x and not y),
        "only_b": sum(1 for x, y in right if y and not x),
        "both_wrong": sum(1 for x, y in right if not x and not y),
    }


# --- building a report ---------------------------------------------------------------


def build_report(
    store: RunStore,
    group_id: str | None = None,
    *,
    systems: list[str] | None = None,
    seed: int | None = None,
    confidence: float = CONFIDENCE,
    resamples: int = RESAMPLES,
) -> Report:
    """The report of a run group (default: the latest), for ``systems`` (default: all,
    in the group's order). ``seed`` (default: the group's) seeds every bootstrap."""
    group = store.group(group_id) if group_id else store.latest_group()
    if group is None:
        raise UsageError(f"no runs in {store.path} yet: run 'medbench run' first")
    runs = store.runs(group.id)
    known = group.systems or sorted({r.system for r in runs})
    if systems:
        unknown = [s for s in systems if s not in known]
        if unknown:
            raise UsageError(f"no system {', '.join(unknown)} in run group {group.id}; it has: {', '.join(known)}")
    chosen = list(systems or known)
    seed = group.seed if seed is None else seed
    case_ids = [c["id"] for c in group.config.get("cases", [])] or sorted({r.case_id for r in runs})
    configs = {s["name"]: s.get("config", {}) for s in group.config.get("systems", [])}
    by_key = {(r.case_id, r.system): r for r in runs}

    summaries = {
        name: _summary(name, configs.get(name, {}), case_ids, by_key, seed, confidence, resamples)
        for name in chosen
    }
    paired, excluded = _complete_cases(case_ids, chosen, by_key)
    comparisons = [
        _compare(a, b, paired, by_key, seed, confidence, resamples) for a, b in combinations(chosen, 2)
    ]
    return Report(
        group_id=group.id, created_at=group.created_at, systems=chosen, seed=seed, confidence=confidence,
        resamples=resamples, summaries=summaries, paired_cases=paired, excluded=excluded, comparisons=comparisons,
        seed_notes=seed_notes(store, group.id, {name: configs.get(name, {}) for name in chosen}),
    )


def _estimate(values: list[float], name: str, *, seed: int, key: str, confidence: float, resamples: int) -> Estimate:
    if name in BINARY_METRICS and all(v in (0.0, 100.0) for v in values):
        return wilson(values, name, confidence)
    return bootstrap_mean(values, name, seed=seed, key=key, confidence=confidence, resamples=resamples)


def _summary(system, config, case_ids, by_key, seed, confidence, resamples) -> SystemSummary:
    runs = [by_key[(c, system)] for c in case_ids if (c, system) in by_key]
    complete = [r for r in runs if r.complete]
    names = metric_order({name for r in complete for name in r.metrics})
    metrics = {
        name: _estimate(
            [r.metrics[name] for r in complete if name in r.metrics], name,
            seed=seed, key=system, confidence=confidence, resamples=resamples,
        )
        for name in names
    }
    steps = [float(r.steps) for r in complete]
    return SystemSummary(
        system=system,
        config=config,
        cases=len(case_ids),
        complete=len(complete),
        incomplete=len(runs) - len(complete),
        not_run=len(case_ids) - len(runs),
        total_steps=int(sum(steps)),
        average_steps=bootstrap_mean(steps, "steps", seed=seed, key=system, confidence=confidence, resamples=resamples),
        outside_soft_range=sum(1 for r in complete if r.outside_soft_range),
        metrics=metrics,
        incomplete_runs=[{"case_id": r.case_id, "reason": r.reason} for r in runs if not r.complete],
    )


def _complete_cases(case_ids, systems, by_key) -> tuple[list[str], list[dict[str, Any]]]:
    paired, excluded = [], []
    for case_id in case_ids:
        reasons = []
        for system in systems:
            run: RunRecord | None = by_key.get((case_id, system))
            if run is None:
                reasons.append(f"{system}: not run")
            elif not run.complete:
                reasons.append(f"{system}: incomplete ({run.reason or 'no reason recorded'})")
        if reasons:
            excluded.append({"case_id": case_id, "reasons": reasons})
        else:
            paired.append(case_id)
    return paired, excluded


def _compare(a, b, cases, by_key, seed, confidence, resamples) -> Comparison:
    """B against A. A metric a case leaves undefined (no differential listed, say) is
    compared over the cases where both runs define it; its ``n`` says how many."""
    pairs = [(by_key[(c, a)].metrics, by_key[(c, b)].metrics) for c in cases]
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
        for case_id, (ma, mb) in zip(cases, pairs)
    ]
    return Comparison(a, b, len(cases), differences, direction, p, per_case)


# --- rendering -----------------------------------------------------------------------


@dataclass
class Table:
    """A rendering-neutral table: Markdown and the terminal draw the same ones."""

    title: str
    columns: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)


def _number(value: float | None, digits: int = 2) -> str:
    return "–" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def _with_interval(mean: float | None, low: float | None, high: float | None) -> str:
    if mean is None:
        return "–"
    if low is None or high is None:
        return _number(mean)
    return f"{_number(mean)} [{_number(low)}, {_number(high)}]"


def _signed(value: float | None) -> str:
    return "–" if value is None or not math.isfinite(value) else f"{value:+.2f}"


def _method_note(report: Report) -> str:
    level = f"{report.confidence:.0%}"
    return (
        f"Means over complete runs with {level} intervals: Wilson for binary metrics, bootstrap (BCa, "
        f"{report.resamples} resamples, seed {report.seed}) for the rest."
    )


def summary_table(report: Report) -> Table:
    """Metric by system, the legacy rows first in the published order."""
    summaries = [report.summaries[s] for s in report.systems]
    rows: list[list[str]] = []

    def metric_row(name: str) -> list[str]:
        cells = []
        for summary in summaries:
            estimate = summary.metrics.get(name)
            cells.append("–" if estimate is None else _with_interval(estimate.mean, estimate.low, estimate.high))
        return [metric_title(name), *cells]

    every = metric_order({name for s in summaries for name in s.metrics})
    rows += [metric_row(name) for name in LEGACY_METRICS]
    rows.append([STEPS_ROWS[0], *(str(s.total_steps) for s in summaries)])
    rows.append([STEPS_ROWS[1], *(
        _with_interval(s.average_steps.mean, s.average_steps.low, s.average_steps.high) for s in summaries
    )])
    rows.append([STEPS_ROWS[2], *(str(s.outside_soft_range) for s in summaries)])
    rows += [metric_row(name) for name in every if name not in LEGACY_METRICS]
    rows.append(["Runs complete / incomplete / not run", *(
        f"{s.complete} / {s.incomplete} / {s.not_run}" for s in summaries
    )])
    return Table(f"Run group {report.group_id}", ["metric", *report.systems], rows,
                 [_method_note(report), *report.seed_notes])


def comparison_tables(report: Report, comparison: Comparison, *, per_case: bool = True) -> list[Table]:
    a, b = comparison.system_a, comparison.system_b
    heading = f"Paired: {b} − {a} ({comparison.cases} cases completed by every compared system)"
    rows = [
        [metric_title(d.metric), _number(d.mean_a), _number(d.mean_b), _signed(d.difference),
         f"[{_signed(d.low)}, {_signed(d.high)}]" if d.low is not None else "–"]
        for d in comparison.differences.values()
    ]
    notes = ["Differences are B − A per case, with paired bootstrap intervals."]
    tables = [Table(heading, ["metric", a, b, "difference", f"{report.confidence:.0%} interval"], rows, notes)]
    if comparison.direction is not None:
        d = comparison.direction
        tables.append(Table(
            f"Diagnosis accuracy, direction of change ({a} → {b})",
            ["both right", f"only {a}", f"only {b}", "both wrong"],
            [[str(d["both_right"]), str(d["only_a"]), str(d["only_b"]), str(d["both_wrong"])]],
            [f"McNemar exact test on the {d['only_a'] + d['only_b']} discordant cases: "
             f"p = {comparison.mcnemar_p:.4g}"],
        ))
    if per_case and comparison.per_case:
        names = [n for n in PER_CASE_METRICS if n in comparison.differences]
        tables.append(Table(
            f"Per-case differences ({b} − {a})",
            ["case", *(PER_CASE_METRICS[n] for n in names)],
            [[entry["case_id"], *(_signed(entry[n][2]) if n in entry else "–" for n in names)]
             for entry in comparison.per_case],
        ))
    return tables


def _tables(report: Report, *, paired: bool = True) -> list[Table]:
    tables = [summary_table(report)]
    if paired:
        for comparison in report.comparisons:
            tables += comparison_tables(report, comparison)
        if report.excluded and report.comparisons:
            tables.append(Table(
                "Cases left out of the paired comparison",
                ["case", "why"],
                [[e["case_id"], "; ".join(e["reasons"])] for e in report.excluded],
            ))
    incomplete = [
        [s.system, r["case_id"], r["reason"] or ""] for s in report.summaries.values() for r in s.incomplete_runs
    ]
    if incomplete:
        tables.append(Table("Incomplete runs (not scored)", ["system", "case", "reason"], incomplete))
    return tables


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(report: Report) -> str:
    lines: list[str] = []
    for index, table in enumerate(_tables(report)):
        lines += [f"{'#' if index == 0 else '##'} {table.title}", ""]
        lines.append("| " + " | ".join(_md_cell(c) for c in table.columns) + " |")
        lines.append("|" + "|".join("---" for _ in table.columns) + "|")
        lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in table.rows]
        lines.append("")
        for note in table.notes:
            lines += [note, ""]
    return "\n".join(lines)


# Figures, intervals, counts and dashes are right-aligned; words are left-aligned.
_NUMERIC_CELL = re.compile(r"^[\d\s.,:;\[\]()+\-\u2212\u2013/%pn=<>]*$")


def render_text(report: Report, *, width: int = 120, paired: bool = True) -> str:
    """The report as terminal tables (no colour codes, so it pipes cleanly)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table as RichTable

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False, highlight=False)
    for table in _tables(report, paired=paired):
        console.print(table.title)
        drawn = RichTable(box=box.SIMPLE_HEAD)
        for index, column in enumerate(table.columns):
            cells = [row[index] for row in table.rows if index < len(row)]
            numeric = index > 0 and all(_NUMERIC_CELL.match(str(cell)) for cell in cells)
            drawn.add_column(column, justify="right" if numeric else "left", overflow="fold")
        for row in table.rows:
            drawn.add_row(*row)
        console.print(drawn)
        for note in table.notes:
            console.print(note)
        console.print()
    return buffer.getvalue()


def render_json(report: Report) -> str:
    return json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n"


CSV_COLUMNS = ("section", "system", "versus", "case_id", "metric", "value", "low", "high", "n", "method")


def render_csv(report: Report) -> str:
    """Long format, one estimate per row: per-system aggregates, paired differences, per case."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for summary in report.summaries.values():
        for estimate in [*summary.metrics.values(), summary.average_steps]:
            writer.writerow(["aggregate", summary.system, "", "", estimate.metric, estimate.mean, estimate.low,
                             estimate.high, estimate.n, estimate.method])
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
    return buffer.getvalue()


def render(report: Report, fmt: str) -> str:
    renderers = {"text": render_text, "md": render_markdown, "json": render_json, "csv": render_csv}
    return redact(renderers[fmt](report))
