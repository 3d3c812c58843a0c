"""The case-level matrix: one row per case x system x repeat x metric, with the case's
metadata columns, so anyone can recompute every figure of a report.

A headline mean is the mean over the ``paired`` rows of a system and metric of the
per-case mean over repeats; an aggregate of one system uses its ``counted`` cases (every
repeat complete); ``left_out`` marks error-testing cases the report did not count. Steps
and the soft-range flag are rows too (metrics ``steps`` and ``outside_soft_range``).
Incomplete runs have one row with an empty metric and their reason. Repeats are numbered
from 1, as in every report.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator

from medbench_tui.core.cases.casemix import SUBGROUP_FIELDS
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.reports.report import Report, counted_runs
from medbench_tui.core.runs.store import RunRecord, RunStore

META_COLUMNS = (*SUBGROUP_FIELDS, "num_steps")
COLUMNS = ("group_id", "case_id", "system", "repeat", "status", "reason", "metric", "value", "paired", "counted",
           "left_out", *META_COLUMNS)


def matrix_rows(store: RunStore, report: Report) -> Iterator[JSONObject]:
    """The rows of the matrix of ``report`` (a :class:`medbench_tui.core.reports.report.Report`), one
    at a time: the CSV is written as they come, never holding a dictionary per value."""
    paired = set(report.paired_cases)
    left_out = set(report.error_tests_left_out)
    runs = [r for r in store.runs(report.group_id, configs=False) if r.system in report.systems]
    by_pair: dict[tuple[str, str], list[RunRecord]] = {}
    for run in counted_runs(store.group(report.group_id), runs):
        by_pair.setdefault((run.case_id, run.system), []).append(run)
    complete_cases = {
        key for key, found in by_pair.items() if len(found) >= report.repeats and all(r.complete for r in found)
    }
    counted_ids = {run.id for found in by_pair.values() for run in found}
    for run in runs:
        facts = report.case_facts.get(run.case_id, {})
        base = {
            "group_id": report.group_id, "case_id": run.case_id, "system": run.system, "repeat": run.repeat_number,
            "status": run.status, "reason": run.reason or "",
            "paired": run.case_id in paired and run.case_id not in left_out,
            "counted": (run.case_id, run.system) in complete_cases and run.id in counted_ids
                       and run.case_id not in left_out,
            "left_out": run.case_id in left_out,
            **{name: facts.get(name) for name in META_COLUMNS},
        }
        if not run.complete:
            yield {**base, "metric": "", "value": None}
            continue
        values = {**run.metrics, "steps": float(run.steps), "outside_soft_range": float(bool(run.outside_soft_range))}
        yield from ({**base, "metric": name, "value": value} for name, value in sorted(values.items()))


def render_matrix(store: RunStore, report: Report, fmt: str) -> str:
    """The matrix as ``csv`` (one row a line) or ``json`` (the rows, with what they came from)."""
    rows = matrix_rows(store, report)
    if fmt == "json":
        document = {
            "group_id": report.group_id, "systems": report.systems, "repeats": report.repeats, "seed": report.seed,
            "paired_cases": report.paired_cases, "error_tests_left_out": report.error_tests_left_out,
            "columns": list(COLUMNS), "rows": list(rows),
        }
        return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ("" if v is None else v) for k, v in row.items()})
    return buffer.getvalue()
