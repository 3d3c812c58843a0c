"""How fast validation is, against its budgets.

    python benchmarks/validate_speed.py [--runs 200] [--count 250] [--quick]

Prints the median time to validate one 400-line case in memory (budget: 15 ms, so
the editor can check on every keystroke), where that time goes, and the wall time of
`medbench validate` over a generated bank of COUNT cases, interpreter start included
(budget: 2 s for 250 cases).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_bank import case_text, make_bank  # noqa: E402


def case_of_lines(lines: int) -> str:
    """A realistic generated case padded with additional answers to about ``lines`` lines."""
    answers = 15
    text = case_text(0, answers=answers)
    while text.count("\n") < lines:
        answers += 1
        text = case_text(0, answers=answers)
    return text


def median_ms(function, runs: int) -> float:
    function()  # warm up: first-call imports and the ICD-10 table
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--count", type=int, default=250)
    parser.add_argument("--quick", action="store_true", help="5 runs, 10 cases (that nothing rotted)")
    args = parser.parse_args(argv)
    if args.quick:
        args.runs, args.count = 5, 10

    from medbench_tui.core.cases.yamlio import CaseDocument, parse_case_text
    from medbench_tui.core.validate import validate_text

    text = case_of_lines(400)
    lines = text.count("\n")
    report = validate_text(text)
    assert not report.errors, [d.message for d in report.errors]
    print(f"one case of {lines} lines:")
    print(f"  validate_text        median {median_ms(lambda: validate_text(text), args.runs):6.2f} ms  (budget 15 ms)")
    print(f"  parse_case_text      median {median_ms(lambda: parse_case_text(text), args.runs):6.2f} ms")
    runs = max(args.runs // 10, 5)
    print(
        f"  ruamel round trip    median {median_ms(lambda: CaseDocument.from_text(text), runs):6.2f} ms"
        "  (load only; the writer)"
    )

    with tempfile.TemporaryDirectory(prefix="medbench-bank-") as folder:
        make_bank(Path(folder), args.count)
        command = [sys.executable, "-m", "medbench_tui", "validate", str(folder)]
        walls = []
        for _ in range(1 if args.quick else 3):
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True)
            walls.append(time.perf_counter() - start)
        summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()
        print(
            f"medbench validate on {args.count} cases: best of {len(walls)} {min(walls):.2f} s wall, "
            f"median {statistics.median(walls):.2f} s  (budget 2 s)  [{summary}]"
        )


if __name__ == "__main__":
    main()
