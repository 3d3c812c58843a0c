"""Physician-corrected metrics: the headline decision metrics once a physician's review replaces the
grader's decisions (issue 36, item 3), reported beside the grader's.

A decision is corrected when the physician turns it the other way: an item found <-> not found (a
relabel on one side, such as "not found" to "negated", changes nothing) or a critical condition
OK <-> FAIL. Each corrected decision moves its metric exactly as a range's flip does
(``scoring/ranges.py``); decisions the physician agreed with, or did not see, keep the grader's.
When several physicians reviewed one decision, the latest record wins (ties: the first rater by name).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from medbench_tui.core.cases.model import Case
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.review.adjudication import AdjudicationBook, Record, decisions_of
from medbench_tui.core.runs.store import RunRecord, RunStore
from medbench_tui.core.scoring.ranges import RANGED, Row, turned_metrics
from medbench_tui.core.scoring.reference import build_table

if TYPE_CHECKING:
    from medbench_tui.core.reports.report import Table

METRIC_SECTIONS = ("diagnoses", "workup", "treatment", "critical")
"""The sections whose decisions the corrected metrics read (a differential's do not enter them)."""


@dataclass(frozen=True)
class Corrected:
    """One run's corrected metrics and how many of its decisions the physician turned."""

    metrics: dict[str, float]
    corrected: int


def latest_records(records: Iterable[Record]) -> dict[tuple[int, str, str], Record]:
    """(run id, section, reference) -> the record that counts: the latest (ties: the first rater by name)."""
    out: dict[tuple[int, str, str], Record] = {}
    for record in sorted(records, key=lambda r: (r.at, _reverse(r.rater))):
        out[record.key] = record
    return out


def _reverse(text: str) -> tuple[int, ...]:
    """A key that sorts texts in reverse order, so that the first by name comes last and wins."""
    return tuple(-ord(c) for c in text) + (0,)


def _side(section: str, label: str) -> str:
    return label if section == "critical" else str(label == "found")


def physician_corrected(case: Case, scorecard: JSONObject, records: Iterable[Record]) -> Corrected:
    """The run's RANGED metrics with the physician's decisions in place of the grader's (``records``: this
    run's, at most one a decision, e.g. from ``latest_records``)."""
    table = build_table(case)
    said = {(r.section, r.reference): r.physician for r in records}
    turned = {(d.section, d.reference) for d in decisions_of(scorecard)
              if d.section in METRIC_SECTIONS and (d.section, d.reference) in said
              and _side(d.section, said[(d.section, d.reference)]) != _side(d.section, d.evaluator)
              and (d.section != "diagnoses" or d.reference == table.primary.name)}
    items = scorecard.get("items") or {}

    def rows(section: str) -> list[Row]:
        given = [Row(e.get("reference"), str(e.get("status")), (section, e.get("reference")) in turned)
                 for e in items.get(section) or []]
        return given + [Row(a.get("reference"), "absent", (section, a.get("reference")) in turned)
                        for a in scorecard.get("uncertain_absences") or [] if a.get("section") == section]

    primary = [r for r in rows("diagnoses") if r.reference == table.primary.name][:1]
    stored = scorecard.get("metrics") or {}
    metrics = {name: float(stored[name]) if isinstance(stored.get(name), int | float) else None for name in RANGED}
    verdicts = [(str(c.get("status")), ("critical", c.get("id")) in turned)
                for c in scorecard.get("critical_conditions") or []]
    return Corrected(turned_metrics(case, table, metrics, {"primary": primary, "workup": rows("workup"),
                                                           "treatment": rows("treatment")}, verdicts), len(turned))


@dataclass
class SystemCorrected:
    """One system's means over its complete runs, the grader's and the physician-corrected."""

    runs: int
    reviewed: int
    """Runs with at least one physician record."""
    corrected: int
    """Decisions turned, over all runs."""
    grader: dict[str, float]
    physician: dict[str, float]

    def to_json(self) -> JSONObject:
        return {"runs": self.runs, "reviewed_runs": self.reviewed, "decisions_corrected": self.corrected,
                "grader": {k: round(v, 2) for k, v in self.grader.items()},
                "physician_corrected": {k: round(v, 2) for k, v in self.physician.items()}}


def group_corrected(store: RunStore, bank: Path, group_id: str, systems: list[str],
                    left_out: Iterable[str] = ()) -> dict[str, SystemCorrected] | None:
    """Per system, the grader's and the physician-corrected mean of each RANGED metric over the complete runs
    the report counts (``counted_runs``) of the group's cases (less ``left_out``), a case's repeats averaged
    first; None without records. A reviewed run whose case file no longer reads keeps the grader's values."""
    from medbench_tui.core.reports.report import counted_runs

    chosen = latest_records(AdjudicationBook(store).records(group_id=group_id))
    if not chosen:
        return None
    by_run: dict[int, list[Record]] = {}
    for record in chosen.values():
        by_run.setdefault(record.run_id, []).append(record)
    group = store.group(group_id)
    skip = set(left_out)
    out: dict[str, SystemCorrected] = {}
    for system in systems:
        stored = store.runs(group_id, system=system, configs=False)
        runs = [r for r in counted_runs(group, stored) if r.complete and r.id is not None and r.case_id not in skip]
        grader: dict[str, dict[str, list[float]]] = {}
        physician: dict[str, dict[str, list[float]]] = {}
        reviewed = corrected = 0
        for run in runs:
            values = {n: float(run.metrics[n]) for n in RANGED if run.metrics.get(n) is not None}
            fixed = dict(values)
            if run.id in by_run:
                reviewed += 1
                found = _corrected_run(store, bank, run, by_run[run.id])
                if found is not None:
                    fixed.update({n: v for n, v in found.metrics.items() if n in values})
                    corrected += found.corrected
            for name in values:
                grader.setdefault(name, {}).setdefault(run.case_id, []).append(values[name])
                physician.setdefault(name, {}).setdefault(run.case_id, []).append(fixed[name])
        out[system] = SystemCorrected(len(runs), reviewed, corrected, _means(grader), _means(physician))
    return out


def _corrected_run(store: RunStore, bank: Path, run: RunRecord, records: list[Record]) -> Corrected | None:
    from medbench_tui.core.errors import MedbenchError
    from medbench_tui.core.paths import run_case_file
    from medbench_tui.core.validate.files import load_valid_case

    try:
        full = store.run(run.id) if run.id is not None else None
        case = load_valid_case(run_case_file(bank, run.case_path))
    except (MedbenchError, OSError, ValueError):
        return None
    if full is None or full.scorecard is None:
        return None
    return physician_corrected(case, full.scorecard, records)


def _means(values: dict[str, dict[str, list[float]]]) -> dict[str, float]:
    """metric -> the mean over cases of each case's mean over its repeats, in RANGED order."""
    return {name: sum(sum(v) / len(v) for v in values[name].values()) / len(values[name])
            for name in RANGED if values.get(name)}


CORRECTED_NOTE = ("Each reviewed decision the physician turned the other way replaces the grader's; runs not "
                  "reviewed keep the grader's values (the latest record wins when several physicians reviewed a "
                  "decision).")


def corrected_tables(corrected: dict[str, SystemCorrected]) -> list[Table]:
    """The report's "Physician-corrected" block, a table per system: per metric the grader's mean, the
    corrected one and their difference, with how many runs were reviewed and decisions corrected."""
    from medbench_tui.core.reports.report import Table, metric_title

    return [Table(f"Physician-corrected metrics: {system}", ["metric", "grader", "physician-corrected", "difference"],
                  [[metric_title(n), f"{v:.2f}", f"{found.physician[n]:.2f}", f"{found.physician[n] - v:+.2f}"]
                   for n, v in found.grader.items()],
                  [f"{found.reviewed} of {found.runs} runs reviewed, {found.corrected} "
                   f"decision{'' if found.corrected == 1 else 's'} corrected.",
                   CORRECTED_NOTE], key="physician_corrected")
            for system, found in corrected.items()]


def corrected_section(corrected: dict[str, SystemCorrected], *, md: bool) -> str:
    """The block as text or Markdown, to follow the report."""
    lines = [""]
    for table in corrected_tables(corrected):
        lines += [f"## {table.title}" if md else table.title, ""]
        rows = [table.columns, *table.rows]
        if md:
            lines += ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
            lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        else:
            widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
            lines += ["  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                                       enumerate(zip(r, widths, strict=True))) for r in rows]
        lines += ["", *(f"{note}\n" for note in table.notes)]
    return "\n".join(lines)
