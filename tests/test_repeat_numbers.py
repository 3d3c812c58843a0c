"""Repeats are numbered the same way everywhere people read them (from 1): the text and
JSON reports, the case-level matrix, the failure taxonomy and the run exports."""

from __future__ import annotations

import csv
import io
import json

from medbench_tui.core.reports.case_matrix import render_matrix
from medbench_tui.core.reports.report import build_report, render_json, render_text
from medbench_tui.core.runs.store import RunStore
from tests.test_report_honest import make_group


def test_every_output_numbers_the_repeats_from_one(tmp_path):
    outcomes = {}
    for i in range(3):
        for k in range(2):
            outcomes[(f"c{i}", "base", k)] = 100
            outcomes[(f"c{i}", "agent", k)] = None if (i, k) == (2, 1) else 0  # the second repeat of c2 broke
    with RunStore(tmp_path / "runs.sqlite") as store:
        group = make_group(store, outcomes, repeats=2)
        report = build_report(store, resamples=99)
        matrix = list(csv.DictReader(io.StringIO(render_matrix(store, report, "csv"))))
        matrix_json = json.loads(render_matrix(store, report, "json"))["rows"]
        exported = list(csv.DictReader(io.StringIO(store.export_text(group.id, "csv"))))
        jsonl = [json.loads(line) for line in store.export_text(group.id, "jsonl").splitlines()]
    assert {row["repeat"] for row in matrix} == {"1", "2"}
    assert {row["repeat"] for row in matrix_json} == {1, 2}
    assert {row["repeat"] for row in exported} == {"1", "2"}
    assert {row["repeat"] for row in jsonl} == {1, 2}
    broken = next(row for row in matrix if row["status"] == "incomplete")
    assert (broken["case_id"], broken["repeat"]) == ("c2", "2")
    document = json.loads(render_json(report))
    assert document["summaries"]["agent"]["incomplete_runs"][0]["repeat"] == 2
    assert {r["repeat"] for r in document["taxonomy"]["base"]["per_run"]} == {1, 2}
    text = render_text(report)
    row = next(line for line in text[text.index("Incomplete runs"):].splitlines() if " c2 " in line)
    assert row.split()[:3] == ["agent", "c2", "2"]
