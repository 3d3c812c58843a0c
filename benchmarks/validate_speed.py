"""How fast validation is, against its budgets.

    python benchmarks/validate_speed.py [--runs 200] [--count 1000] [--quick]

Prints the median time to validate one 400-line case in memory (budget: 15 ms, so
the editor can check on every keystroke), where that time goes, and `medbench validate`
over a generated bank of COUNT cases, interpreter start included: wall time, CPU time
(targets for 1,000 cases: <= 5 s CPU) and peak memory (<= 150 MB), with the load average.
"""

from __future__ import annotations

import argparse
import os
import resource
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
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--quick", action="store_true",
                        help="2 runs, 10 cases, no warming run of the command (that nothing rotted)")
    args = parser.parse_args(argv)
    if args.quick:
        args.runs, args.count = 2, 10

    from medbench_tui.core.cases.yamlio import CaseDocument, parse_case_text
    from medbench_tui.core.validate import validate_text

    text = case_of_lines(400)
    lines = text.count("\n")
    report = validate_text(text)
    assert not report.errors, [d.message for d in report.errors]
    print(f"one case of {lines} lines:")
    print(f"  validate_text        median {median_ms(lambda: validate_text(text), args.runs):6.2f} ms  (budget 15 ms)")
    print(f"  parse_case_text      median {median_ms(lambda: parse_case_text(text), args.runs):6.2f} ms")
    runs = max(args.runs // 10, 2 if args.quick else 5)
    print(
        f"  ruamel round trip    median {median_ms(lambda: CaseDocument.from_text(text), runs):6.2f} ms"
        "  (load only; the writer)"
    )

    with tempfile.TemporaryDirectory(prefix="medbench-bank-") as folder:
        make_bank(Path(folder), args.count)
        command = [sys.executable, "-m", "medbench_tui", "validate", str(folder)]
        if not args.quick:  # warm: the ICD-10 index cache file, the OS's file cache
            subprocess.run(command, capture_output=True)
        walls, cpus, peaks = [], [], []
        for _ in range(1 if args.quick else 3):
            start = time.perf_counter()
            summary, usage = run_measured(command, Path(folder) / "out.txt")
            walls.append(time.perf_counter() - start)
            cpus.append(usage.ru_utime + usage.ru_stime)
            peaks.append(usage.ru_maxrss / 1024)
        per = args.count / 1000
        print(f"medbench validate on {args.count} cases (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} "
              f"CPUs), best of {len(walls)}: {min(walls):.2f} s wall, {min(cpus):.2f} s CPU (target "
              f"{5 * per:.2f} s), peak {min(peaks):.0f} MB (target 150 MB)  [{summary}]")


def run_measured(command: list[str], out: Path) -> tuple[str, resource.struct_rusage]:
    """Run ``command``: the last line it printed, and its own CPU time and peak memory."""
    with out.open("w") as stream:
        process = subprocess.Popen(command, stdout=stream, stderr=subprocess.STDOUT)
        _, _, usage = os.wait4(process.pid, 0)
        process.returncode = 0  # reaped above
    lines = out.read_text().strip().splitlines() or [""]
    return lines[-1], usage


if __name__ == "__main__":
    main()
