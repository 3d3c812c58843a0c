"""Every bundled case played to the end with `medbench play`, as a scripted doctor runs it.

    python benchmarks/play_every_case.py [--cases DIR] [--quick]

Each case is played through the command (in this process: a Python start per case would
be most of the time) with the same five messages, an `/attachments`, and a final
response. A case plays when the command succeeds, the patient speaks first and answers
each message once, and the transcript is complete after four steps with the final
response as given. Prints how many cases played and the time of one consultation
(median and slowest). Target: every case plays.

The tests play one case of each category (tests/test_play.py); this is the sweep.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

from medbench_tui.cli import main as medbench
from medbench_tui.core.cases.bank import consultation_files
from medbench_tui.core.paths import bundled_cases_dir
from medbench_tui.core.transcript import load_transcript

SCRIPT = (
    "Hello doctor\nWhen did this start?\nDo you take any medicines?\n/attachments\nAny allergies?\n"
    "/final\nDiagnosis: to be confirmed\nAdvice: come back if worse\n/end\n"
)


def play(case: Path, transcript: Path) -> str | None:
    """Play ``case`` with the script; what went wrong, or None when it played to the end."""
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO(SCRIPT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = medbench(["play", str(case), "--transcript", str(transcript)])
    finally:
        sys.stdin = stdin
    if code != 0:
        return f"exit status {code}: {err.getvalue().strip()}"
    said = out.getvalue()
    if not said.startswith("Patient: "):
        return "the patient does not speak first"
    if said.count("Patient: ") != 5:
        return f"{said.count('Patient: ')} replies to 5 messages"
    done = load_transcript(transcript)
    if done.status != "complete" or done.steps != 4:
        return f"transcript {done.status} after {done.steps} steps"
    if done.final is None or not (done.final.text or "").startswith("Diagnosis: to be confirmed"):
        return "the final response is not the one given"
    if done.case_id != case.stem:
        return f"transcript of {done.case_id}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cases", type=Path, default=bundled_cases_dir(), help="folder of cases")
    parser.add_argument("--quick", action="store_true", help="the first 3 cases only (that nothing rotted)")
    args = parser.parse_args(argv)
    cases = consultation_files(args.cases)
    if args.quick:
        cases = cases[:3]
    timings: list[float] = []
    failed: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            started = time.perf_counter()
            problem = play(case, Path(folder) / f"{case.stem}.json")
            timings.append((time.perf_counter() - started) * 1000)
            if problem is not None:
                failed.append(f"  {case.name}: {problem}")
    for problem in failed:
        print(problem)
    print(f"{len(cases) - len(failed)} of {len(cases)} cases played to the end   target all   "
          f"{'OK' if not failed else 'MISSED'}")
    if timings:
        print(f"  one consultation: median {statistics.median(timings):.0f} ms   slowest {max(timings):.0f} ms")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
