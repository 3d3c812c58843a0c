"""How fast `medbench run` plays a batch against a slow endpoint, against its budgets.

    python benchmarks/runner_throughput.py [--cases 254] [--latency 0.1] [--turns 10] [--concurrency 32] [--quick]

Two openai-chat systems over CASES generated cases (benchmarks/make_bank.py), the
grounded simulator, default scoring, a fresh run store. Both systems talk to one fake
endpoint (tests/support/fake_openai.py) running in a process of its own, so this
process's CPU time is the harness's alone; it answers every request after LATENCY
seconds, as a doctor that asks TURNS questions and then gives its final response.

Printed:
- wall time of the run against the ideal. Every request takes LATENCY and at most
  CONCURRENCY are in flight, so no schedule beats ceil(requests / CONCURRENCY) x LATENCY
  (the bound used for the ratio; budget: within 1.25x). Runs are chains of TURNS + 1
  requests, so a schedule of whole runs needs ceil(runs / CONCURRENCY) waves of
  (TURNS + 1) x LATENCY at best: printed too.
- harness CPU per turn (doctor/patient pair): this process's CPU time during the run
  (requests, simulator, scoring, store writes) over the turns played (target: 1 ms, issue 41).
  Shown on their own: the one-time loads (the model SDK, its transport, the scorer, the spelling dictionary),
  and planning (validating and hashing the case files).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import multiprocessing
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

if TYPE_CHECKING:
    from medbench_tui.core.runs.runner import GroupResult, RunPlan
    from medbench_tui.core.runs.store import RunStore

FINAL = """FINAL RESPONSE
Diagnosis: Pneumonia
ICD-10: J18.9
Differential: Acute bronchitis
Workup: Chest X-ray
Treatment: Amoxicillin
Advice: Come back at once if you get short of breath."""


QUESTIONS = {
    # one model writes whole sentences, the other types as a busy clinician does
    "model-a": [
        "Thank you for coming in. When did this first start, and has it been getting better or worse?",
        "On a scale of 0 to 10, how severe is it at its worst?",
        "Have you had any fevers, night sweats or chills?",
        "Are you taking any regular medications, including over-the-counter ones?",
        "Do you have any allergies to medications?",
        "Do you smoke, or have you ever smoked?",
        "How much alcohol do you drink in a typical week?",
        "Does anything run in the family, such as heart disease or diabetes?",
        "Have you travelled anywhere recently?",
        "Have you noticed any change in your weight?",
        "How have you been sleeping?",
        "What do you do for work?",
    ],
    "model-b": [
        "how long has this been going on?",
        "how bad is it out of 10?",
        "any temps or rigors?",
        "any regular meds?",
        "allergies?",
        "smoker?",
        "alcohol - how many units a week?",
        "any family history of note?",
        "been abroad lately?",
        "weight loss?",
        "sleeping ok?",
        "what's your job?",
    ],
}


class Doctor:
    """The scripted doctor model: ``turns`` questions, then the final response. Each model
    asks history questions in its own words (none twice in a run), as real models do:
    nothing the patient worked out for one run's question serves another run's."""

    def __init__(self, turns: int) -> None:
        self.turns = turns

    def __call__(self, body: dict) -> str:
        messages = body.get("messages", [])
        asked = sum(1 for m in messages if m.get("role") == "assistant")
        last = str(messages[-1].get("content", "")) if messages else ""
        if asked >= self.turns or "question limit" in last:
            return FINAL
        questions = QUESTIONS[str(body.get("model"))]
        return questions[asked % len(questions)]


def serve(latency: float, turns: int, pipe) -> None:
    """The endpoint's process: start, report the URL, wait for stop, report the count (requests
    are counted, not kept: a large batch would fill this process with their bodies)."""
    from tests.support.fake_openai import FakeOpenAI

    server = FakeOpenAI(responder=Doctor(turns), latency=latency, record=False).start()
    pipe.send(server.base_url)
    pipe.recv()
    pipe.send((server.chat_answered, time.process_time()))
    server.close()


@dataclass
class Endpoint:
    """The fake endpoint's process as the benchmark sees it: its URL, then (once stopped) how many
    requests it answered and the CPU it spent."""

    base_url: str
    requests: int = 0
    cpu: float = 0.0


@contextlib.contextmanager
def fake_endpoint(latency: float, turns: int) -> Iterator[Endpoint]:
    """The fake endpoint in a process of its own (its CPU is not the harness's), stopped on leaving."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    process = context.Process(target=serve, args=(latency, turns, theirs), daemon=True)
    process.start()
    endpoint = Endpoint(ours.recv())
    try:
        yield endpoint
        ours.send("stop")
        endpoint.requests, endpoint.cpu = ours.recv()
    finally:
        process.join(timeout=10)
        if process.is_alive():
            process.terminate()


def play(store: RunStore, plan: RunPlan, concurrency: int) -> tuple[GroupResult, float, float]:
    """The plan played as `medbench run` plays it (the endpoint cap printed first): result, CPU, wall."""
    from medbench_tui.core.runs.runner import Runner

    runner = Runner(store, plan, concurrency=concurrency)
    for note in runner.cap_notes():
        print(note)
    cpu, wall = time.process_time(), time.perf_counter()
    result = asyncio.run(runner.run())
    return result, time.process_time() - cpu, time.perf_counter() - wall


CPU_TARGET_MS = 1.0
"""Issue 41's target for the harness CPU per turn of a batch."""

SYSTEMS = (("doctor-a", "model-a"), ("doctor-b", "model-b"))
"""System name and model (one of QUESTIONS) of each system the bank configures."""


def write_bank(folder: Path, cases: int, base_url: str, systems: Sequence[tuple[str, str]] = SYSTEMS) -> Path:
    from make_bank import make_bank

    make_bank(folder, cases)
    entries = "".join(
        f"  {name}:\n    kind: openai-chat\n    base_url: {base_url}\n    model: {model}\n    timeout: 60\n"
        for name, model in systems
    )
    (folder / "medbench.yaml").write_text(f"systems:\n{entries}", encoding="utf-8")
    return folder


def import_once() -> float:
    """Load what a batch loads once per process, whatever its size (the SDK, a batch's
    transport, the scorer, the patient's spelling dictionary), so that the play's figures are
    the play's: the CPU seconds it took. The dictionary is a third of a second of CPU on the
    first question read: inside the play it was most of a quick run's wall (3-5x the ideal
    at 100 ms), a cost no larger at 20,000 runs."""
    cpu = time.process_time()
    import aiohttp  # noqa: F401
    import openai.types.chat  # noqa: F401

    import medbench_tui.core.scoring  # noqa: F401
    from medbench_tui.core.simulators.typos import english_word

    english_word("dictionary")
    return time.process_time() - cpu


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=254)
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--quick", action="store_true", help="4 cases, 3 turns, 10 ms (that nothing rotted)")
    args = parser.parse_args(argv)
    if args.quick:
        args.cases, args.turns, args.latency, args.concurrency = 4, 3, 0.01, 8

    from medbench_tui.core.cases.bank import load_bank
    from medbench_tui.core.runs.runner import plan_run
    from medbench_tui.core.runs.store import RunStore

    with fake_endpoint(args.latency, args.turns) as endpoint:
        import_cpu = import_once()
        with tempfile.TemporaryDirectory(prefix="medbench-throughput-") as tmp:
            bank = write_bank(Path(tmp) / "bank", args.cases, endpoint.base_url)
            cpu, wall = time.process_time(), time.perf_counter()
            plan = plan_run(load_bank(bank), [name for name, _ in SYSTEMS], seed=1)
            plan_cpu, plan_wall = time.process_time() - cpu, time.perf_counter() - wall
            with RunStore(Path(tmp) / "runs.sqlite") as store:
                result, run_cpu, run_wall = play(store, plan, args.concurrency)
                turns = sum(r.steps for r in store.runs(result.group_id))
    requests, endpoint_cpu = endpoint.requests, endpoint.cpu

    runs = result.complete + result.incomplete
    ideal = math.ceil(requests / args.concurrency) * args.latency
    waves = math.ceil(runs / args.concurrency) * (args.turns + 1) * args.latency
    print(f"runs: {runs} ({args.cases} cases x 2 systems), complete {result.complete}, "
          f"incomplete {result.incomplete}; turns {turns}, requests {requests}")
    print(f"one-time loads (SDK, transport, scorer, spelling dictionary): {import_cpu:.2f} s CPU")
    print(f"planning: {plan_wall:.2f} s wall, {plan_cpu:.2f} s CPU ({1000 * plan_cpu / args.cases:.1f} ms per case)")
    print(f"wall: {run_wall:.2f} s; ideal ceil({requests}/{args.concurrency}) x {args.latency * 1000:.0f} ms = "
          f"{ideal:.2f} s -> {run_wall / ideal:.3f}x (budget 1.25x)")
    print(f"      whole-run waves ceil({runs}/{args.concurrency}) x {args.turns + 1} x "
          f"{args.latency * 1000:.0f} ms = {waves:.2f} s -> {run_wall / waves:.3f}x")
    per_turn = 1000 * run_cpu / max(turns, 1)
    print(f"harness CPU: {run_cpu:.2f} s = {per_turn:.2f} ms per turn (target <= {CPU_TARGET_MS:.0f} ms: "
          f"{'met' if per_turn <= CPU_TARGET_MS else 'MISSED'}), "
          f"{1000 * run_cpu / max(requests, 1):.2f} ms per request")
    print(f"endpoint process CPU (not counted): {endpoint_cpu:.2f} s = {1000 * endpoint_cpu / max(requests, 1):.2f} ms "
          "per request")


if __name__ == "__main__":
    main()
