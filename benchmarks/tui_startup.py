"""App start to the library drawn, on a generated bank of 250 cases.

    python benchmarks/tui_startup.py [--count 250] [--runs 3] [--quick]

Runs the real app headless (Textual's Pilot) and prints, in seconds, the time from
creating the app to the first paint of the library (its loading state) and to the
table holding every case, each checked (validation runs in a worker, so the first
paint does not wait for it); then the process's CPU from its start (imports included)
to the first run's first paint and to its table drawn.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_bank import make_bank  # noqa: E402

from medbench_tui.core.settings import Settings  # noqa: E402
from medbench_tui.tui.app import MedbenchApp  # noqa: E402
from medbench_tui.tui.widgets.case_table import CaseTable  # noqa: E402

cpu: list[float] = []
"""The process's CPU seconds at each run's table drawn."""
cpu_painted: list[float] = []
"""The process's CPU seconds at each run's first paint."""


async def start_once(bank: Path, count: int) -> tuple[float, float]:
    painted: list[float] = []
    start = time.perf_counter()
    app = MedbenchApp(bank, settings=Settings(), cursor_blink=False, freeze_gc=True)  # as run_app
    async with app.run_test(size=(160, 48)) as pilot:
        painted.append(time.perf_counter())
        cpu_painted.append(time.process_time())
        library = app.library_screen()
        assert library is not None  # the app opens on the library
        while app.bank_loading or library.query_one(CaseTable).row_count < count:
            await asyncio.sleep(0.005)
        drawn = time.perf_counter()
        cpu.append(time.process_time())  # CPU of the whole process so far: its imports too (the first run's)
        await pilot.pause()
    return painted[0] - start, drawn - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=250)
    parser.add_argument("--bank", type=Path, help="a bank folder to open instead of a generated one (its cases "
                        "folder's cases are counted)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="10 cases, one run (that nothing rotted)")
    args = parser.parse_args(argv)
    if args.quick:
        args.count, args.runs = 10, 1
    if args.bank is not None:
        from medbench_tui.core.cases.bank import iter_case_files
        from medbench_tui.core.paths import cases_dir

        bank, args.count = args.bank, len(iter_case_files(cases_dir(args.bank)))
    else:
        bank = make_bank(Path(tempfile.mkdtemp(prefix="medbench-startup-")), args.count)
    first, full = [], []
    for _ in range(args.runs):
        painted, drawn = asyncio.run(start_once(bank, args.count))
        first.append(painted)
        full.append(drawn)
    what = f"cases of {bank}" if args.bank else "generated cases"
    print(f"bank: {args.count} {what}; {args.runs} runs (the first also imports and builds the ICD-10 index)")
    print(f"start -> first paint (library loading): median {statistics.median(first):.2f} s, max {max(first):.2f} s")
    print(
        f"start -> library drawn with every case checked: median {statistics.median(full):.2f} s, max {max(full):.2f} s"
    )
    print(f"CPU from process start to the first run's first paint (imports included): {cpu_painted[0]:.2f} s "
          f"(issue 41: <= 1 s)")
    print(f"CPU from process start to the first run's table drawn (imports included): {cpu[0]:.2f} s "
          f"(issue 41: 33 cases <= 1.5 s, 1,000 cases <= 10 s)")


if __name__ == "__main__":
    main()
