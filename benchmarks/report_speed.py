"""How long a report of a repeated run group takes to build and render.

    python benchmarks/report_speed.py [--cases 33] [--repeats 3] [--resamples 9999] [--quick]

Stores a synthetic run group (two systems, CASES cases, REPEATS repeats, the metrics a
scorecard has) in a temporary run store, then times build_report (every bootstrap
interval, the taxonomy, the case mix, subgroups by urgency) and each rendering. The TUI
builds the same report in a worker thread when a group opens.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from medbench_tui.core.reports.case_matrix import render_matrix
from medbench_tui.core.reports.render import render
from medbench_tui.core.reports.report import build_report
from medbench_tui.core.runs.store import RunRecord, RunStore, flatten_metrics

URGENCY = ("routine", "urgent", "emergency")


def fill(store: RunStore, cases: int, repeats: int, rng: random.Random) -> str:
    facts = {f"case-{i:03d}": {"category": "internal_medicine", "urgency": URGENCY[i % 3], "num_steps": 8,
                              "has_attachments": "yes", "on_request_attachments": ["cxr"]} for i in range(cases)}
    config = {"systems": [{"name": "base"}, {"name": "agent"}], "repeats": repeats,
              "cases": [{"id": c, "path": f"{c}.yaml", "metadata": f} for c, f in facts.items()]}
    group = store.create_group(config, 7)
    for case_id in facts:
        for system, skill in (("base", 0.6), ("agent", 0.75)):
            for repeat in range(repeats):
                metrics = {
                    "diagnosis_accuracy": 100 if rng.random() < skill else 0, "primary_icd10": "exact",
                    "differential_accuracy": rng.uniform(0, 100), "workup_score": rng.uniform(0, 100),
                    "treatment_accuracy": rng.uniform(0, 100), "critical_conditions_passed": 100,
                    "question_coverage": rng.uniform(20, 90), "action_f1": rng.uniform(0, 100),
                    "differential_recall_at_3": 100, "differential_recall_at_5": 100, "primary_mrr": 100.0,
                }
                values, labels = flatten_metrics(metrics)
                store.record(RunRecord(
                    group_id=group.id, case_id=case_id, case_path=f"{case_id}.yaml", case_sha256="0" * 64,
                    system=system, status="complete", transcript={"events": []},
                    scorecard={"metrics": metrics, "critical_conditions": [], "items": {}},
                    metrics=values, labels=labels, steps=rng.randint(4, 12), num_steps=8, outside_soft_range=False,
                    repeat=repeat,
                ))
    return group.id


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=33)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--resamples", type=int, default=9999)
    parser.add_argument("--quick", action="store_true", help="6 cases, 2 repeats, 199 resamples (that nothing rotted)")
    args = parser.parse_args(argv)
    if args.quick:
        args.cases, args.repeats, args.resamples = 6, 2, 199
    with tempfile.TemporaryDirectory() as folder, RunStore(Path(folder) / "runs.sqlite") as store:
        group = fill(store, args.cases, args.repeats, random.Random(1))
        started = time.perf_counter()
        report = build_report(store, group, resamples=args.resamples, by="urgency")
        built = time.perf_counter() - started
        print(f"{args.cases} cases x 2 systems x {args.repeats} repeats, {args.resamples} resamples")
        print(f"build_report (with --by urgency): {built:.2f} s")
        for fmt in ("text", "md", "json", "csv", "html"):
            started = time.perf_counter()
            size = len(render(report, fmt))
            print(f"render {fmt:5}: {1000 * (time.perf_counter() - started):7.1f} ms ({size / 1024:.0f} KiB)")
        started = time.perf_counter()
        size = len(render_matrix(store, report, "csv"))
        print(f"matrix csv  : {1000 * (time.perf_counter() - started):7.1f} ms ({size / 1024:.0f} KiB)")


if __name__ == "__main__":
    main()
