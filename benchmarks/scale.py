"""`medbench run` at scale: a generated bank, many systems, repeats, a slow local endpoint.

    python benchmarks/scale.py [--cases 1000] [--systems 10] [--repeats 2] [--latency 0.1]
                               [--turns 5] [--concurrency 32] [--quick]

CASES generated cases (benchmarks/make_bank.py) x SYSTEMS openai-chat systems x REPEATS,
played as `medbench run` plays them: planned, run by the runner (CONCURRENCY runs at once,
as many requests in flight) into a fresh run store, then the summary `medbench run` prints
at the end. Every system talks to one fake OpenAI-compatible endpoint on 127.0.0.1
(benchmarks/runner_throughput.py's, in a process of its own) that answers each request
after LATENCY seconds, as a doctor that asks TURNS questions and then gives its final
response.

Printed, each against issue 41's target:
- wall time of the play against the ideal: every request takes LATENCY and at most
  CONCURRENCY are in flight, so no schedule beats ceil(requests / CONCURRENCY) x LATENCY
  (target: within 1.3x);
- harness CPU per turn: this process's CPU time during the play over the turns played
  (issue 41's target: 1 ms);
- peak RSS of this process after the play, and after the summary (target: under 500 MB;
  a rise there is a second peak the summary made);
- the run store's size on disk, per run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from runner_throughput import QUESTIONS, fake_endpoint, import_once, play, write_bank  # noqa: E402

WALL_TARGET = 1.3
RSS_TARGET_MB = 500
CPU_BUDGET_MS = 1.0
FULL: dict[str, float] = {"cases": 1000, "systems": 10, "repeats": 2, "latency": 0.1, "turns": 5, "concurrency": 32}
"""The issue's scale."""
QUICK: dict[str, float] = {"cases": 3, "systems": 2, "repeats": 1, "latency": 0.01, "turns": 2, "concurrency": 8}
"""Quick mode's scale, for what is not given on the command line."""


def peak_rss_mb() -> float:
    """This process's peak resident set so far (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, kind in (("cases", int), ("systems", int), ("repeats", int), ("latency", float), ("turns", int),
                       ("concurrency", int)):
        parser.add_argument(f"--{name}", type=kind, help=f"default {FULL[name]}, quick {QUICK[name]}")
    parser.add_argument("--quick", action="store_true",
                        help="3 cases, 2 systems, 1 repeat, 2 turns, 10 ms, 8 at once, where not given "
                        "(that nothing rotted)")
    args = parser.parse_args(argv)
    for name, value in (QUICK if args.quick else FULL).items():
        if getattr(args, name) is None:  # a value given with --quick is kept (`--quick --latency 0.1`)
            setattr(args, name, value)

    from medbench_tui.cli.run import _summarise
    from medbench_tui.core.cases.bank import load_bank
    from medbench_tui.core.runs.runner import plan_run
    from medbench_tui.core.runs.store import RunStore

    models = list(QUESTIONS)
    systems = [(f"doctor-{i + 1:02d}", models[i % len(models)]) for i in range(args.systems)]
    with fake_endpoint(args.latency, args.turns) as endpoint:
        import_cpu = import_once()
        with tempfile.TemporaryDirectory(prefix="medbench-scale-") as tmp:
            bank = write_bank(Path(tmp) / "bank", args.cases, endpoint.base_url, systems)
            store_file = Path(tmp) / "runs.sqlite"
            cpu, wall = time.process_time(), time.perf_counter()
            plan = plan_run(load_bank(bank), [name for name, _ in systems], seed=1, repeats=args.repeats)
            plan_cpu, plan_wall = time.process_time() - cpu, time.perf_counter() - wall
            with RunStore(store_file) as store:
                result, run_cpu, run_wall = play(store, plan, args.concurrency)
                play_rss = peak_rss_mb()
                del plan  # as `medbench run` lets it (and its runner) go before its summary
                with store.connection() as db:
                    turns = db.execute("SELECT COALESCE(SUM(steps), 0) FROM runs WHERE group_id = ?",
                                       (result.group_id,)).fetchone()[0]
                printed = io.StringIO()
                cpu, wall = time.process_time(), time.perf_counter()
                with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
                    _summarise(store, result, "text")
                summary_cpu, summary_wall = time.process_time() - cpu, time.perf_counter() - wall
                summary_rss = peak_rss_mb()
            stored = sum(f.stat().st_size for f in Path(tmp).glob("runs.sqlite*"))
    requests, endpoint_cpu = endpoint.requests, endpoint.cpu

    runs = result.complete + result.incomplete
    ideal = math.ceil(requests / args.concurrency) * args.latency
    ratio = run_wall / ideal
    cpu_per_turn = 1000 * run_cpu / max(turns, 1)
    met = ratio <= WALL_TARGET and summary_rss < RSS_TARGET_MB
    print(f"runs: {runs} ({args.cases} cases x {args.systems} systems x {args.repeats} repeats), complete "
          f"{result.complete}, incomplete {result.incomplete}; turns {turns}, requests {requests}")
    print(f"one-time loads (SDK, transport, scorer, spelling dictionary): {import_cpu:.2f} s CPU")
    print(f"planning: {plan_wall:.2f} s wall, {plan_cpu:.2f} s CPU ({1000 * plan_cpu / args.cases:.1f} ms per case)")
    print(f"wall: {run_wall:.1f} s; ideal ceil({requests}/{args.concurrency}) x {args.latency * 1000:.0f} ms = "
          f"{ideal:.2f} s -> {ratio:.3f}x (target <= {WALL_TARGET}x: {'met' if ratio <= WALL_TARGET else 'MISSED'})")
    print(f"harness CPU: {run_cpu:.1f} s = {cpu_per_turn:.2f} ms per turn (target <= {CPU_BUDGET_MS:.0f} ms: "
          f"{'met' if cpu_per_turn <= CPU_BUDGET_MS else 'MISSED'}), {1000 * run_cpu / max(runs, 1):.1f} ms per run")
    print(f"endpoint process CPU (not counted): {endpoint_cpu:.1f} s = "
          f"{1000 * endpoint_cpu / max(requests, 1):.2f} ms per request")
    print(f"summary (what `medbench run` prints at the end, {len(printed.getvalue()) / 1024:.0f} KiB): "
          f"{summary_wall:.2f} s wall, {summary_cpu:.2f} s CPU")
    print(f"peak RSS: {play_rss:.0f} MB after the play, {summary_rss:.0f} MB after the summary "
          f"(target < {RSS_TARGET_MB} MB: {'met' if summary_rss < RSS_TARGET_MB else 'MISSED'}; no second peak: "
          f"{'met' if summary_rss <= play_rss else f'MISSED, +{summary_rss - play_rss:.0f} MB'})")
    print(f"run store: {stored / 2**20:.1f} MB on disk, {stored / max(runs, 1) / 1024:.1f} KiB per run")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
