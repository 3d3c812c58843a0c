"""How long a report of a repeated run group takes to build and render, and its memory.

    python benchmarks/report_speed.py [--cases 33] [--repeats 3] [--resamples 9999] [--quick]

Stores a synthetic run group (two systems, CASES cases, REPEATS repeats, the metrics a
scorecard has) in a temporary run store, then times build_report (every bootstrap
interval, the taxonomy, the case mix, subgroups by urgency) and each rendering. The TUI
builds the same report in a worker thread when a group opens.

Printed against issue 41's targets (a 1,500-run group: --cases 250 --repeats 3):
- build_report + the text rendering (what `medbench report` prints): at most 1 s of CPU;
- the report step's memory, at most 100 MB: this process's peak RSS after building and
  rendering every format and the matrix (interpreter, imports and the filled store
  included, so an upper bound), and the Python heap's peak during build + text render
  (tracemalloc, NumPy's buffers included; a second pass, as tracing slows it).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from medbench_tui.core.reports.case_matrix import render_matrix
from medbench_tui.core.reports.render import render
from medbench_tui.core.reports.report import build_report
from medbench_tui.core.runs.store import RunRecord, RunStore, flatten_metrics

URGENCY = ("routine", "urgent", "emergency")
TARGET_CPU = 1.0
TARGET_MB = 100


def peak_rss_mb() -> float:
    """This process's peak resident set so far (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


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


def main(argv: list[str] | None = None) -> int:
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
        filled_rss = peak_rss_mb()
        cpu, started = time.process_time(), time.perf_counter()
        report = build_report(store, group, resamples=args.resamples, by="urgency")
        built_cpu, built = time.process_time() - cpu, time.perf_counter() - started
        print(f"{args.cases} cases x 2 systems x {args.repeats} repeats ({2 * args.cases * args.repeats} runs), "
              f"{args.resamples} resamples; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"build_report (with --by urgency): {built:.2f} s wall, {built_cpu:.2f} s CPU")
        text_cpu = 0.0
        for fmt in ("text", "md", "json", "csv", "html"):
            cpu, started = time.process_time(), time.perf_counter()
            size = len(render(report, fmt))
            text_cpu = time.process_time() - cpu if fmt == "text" else text_cpu
            print(f"render {fmt:5}: {1000 * (time.perf_counter() - started):7.1f} ms ({size / 1024:.0f} KiB)")
        started = time.perf_counter()
        size = len(render_matrix(store, report, "csv"))
        print(f"matrix csv  : {1000 * (time.perf_counter() - started):7.1f} ms ({size / 1024:.0f} KiB)")
        step_rss = peak_rss_mb()
        tracemalloc.start()
        render(build_report(store, group, resamples=args.resamples, by="urgency"), "text")
        heap = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    fast = built_cpu + text_cpu <= TARGET_CPU
    small = step_rss <= TARGET_MB
    print(f"build + render text: {built_cpu + text_cpu:.2f} s CPU (target <= {TARGET_CPU:.0f} s: "
          f"{'met' if fast else 'MISSED'})")
    print(f"report step memory: peak RSS of this process {step_rss:.0f} MB after every rendering and the matrix "
          f"({filled_rss:.0f} MB with the store filled, before the report's imports; target <= {TARGET_MB} MB: "
          f"{'met' if small else 'MISSED'}); Python heap peak during build + text render {heap:.1f} MB (tracemalloc)")
    return 0 if (fast and small) or args.quick else 1


if __name__ == "__main__":
    sys.exit(main())
