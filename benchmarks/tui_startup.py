"""App start to the library drawn, on a generated bank of 250 cases.

    python benchmarks/tui_startup.py [--count 250] [--runs 3] [--quick]

Runs the real app headless (Textual's Pilot) and prints, in seconds, the time from
creating the app to the first paint of the library (its loading state) and to the
table holding every case, each checked (validation runs in a worker, so the first
paint does not wait for it).
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


async def start_once(bank: Path, count: int) -> tuple[float, float]:
    painted: list[float] = []
    start = time.perf_counter()
    app = MedbenchApp(bank, settings=Settings(), cursor_blink=False, freeze_gc=True)  # as run_app
    async with app.run_test(size=(160, 48)) as pilot:
        painted.append(time.perf_counter())
        library = app.library_screen()
        assert library is not None  # the app opens on the library
        while app.bank_loading or library.query_one(CaseTable).row_count < count:
            await asyncio.sleep(0.005)
        drawn = time.perf_counter()
        await pilot.pause()
    return painted[0] - start, drawn - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=250)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="10 cases, one run (that nothing rotted)")
    args = parser.parse_args(argv)
    if args.quick:
        args.count, args.runs = 10, 1
    bank = make_bank(Path(tempfile.mkdtemp(prefix="medbench-startup-")), args.count)
    first, full = [], []
    for _ in range(args.runs):
        painted, drawn = asyncio.run(start_once(bank, args.count))
        first.append(painted)
        full.append(drawn)
    print(f"bank: {args.count} generated cases; {args.runs} runs (the first also imports and builds the ICD-10 index)")
    print(f"start -> first paint (library loading): median {statistics.median(first):.2f} s, max {max(first):.2f} s")
    print(
        f"start -> library drawn with every case checked: median {statistics.median(full):.2f} s, max {max(full):.2f} s"
    )


if __name__ == "__main__":
    main()
