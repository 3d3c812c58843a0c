"""Keystroke to updated problems list in the case editor, on a 400-line case.

    python benchmarks/tui_validation_latency.py [--keys 40] [--lines 400] [--quick]

Drives the real app headless (Textual's Pilot) with the default settings (validation
debounce included), types single characters into a generated 400-line case and prints,
in ms, how long each took from the keystroke to the problems list being updated
(target: 50 ms, issue 41), and how long the editor took to take the keystroke itself (typing
must never wait for a check).
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

from textual.widgets import TextArea  # noqa: E402
from validate_speed import case_of_lines  # noqa: E402

from medbench_tui.core.settings import Settings  # noqa: E402
from medbench_tui.tui.app import MedbenchApp  # noqa: E402

BUDGET_MS = 50.0
"""Issue 41's target for keystroke -> problems updated."""


def report(name: str, values: list[float], budget: float | None = None) -> str:
    values = sorted(values)
    p90 = values[int(0.9 * (len(values) - 1))]
    line = f"{name}: median {statistics.median(values):.1f} ms, p90 {p90:.1f} ms, max {values[-1]:.1f} ms"
    if budget is None:
        return line
    return line + f"  (target: median <= {budget:.0f} ms: {'met' if statistics.median(values) <= budget else 'MISSED'})"


async def measure(keys: int, lines: int) -> tuple[list[float], list[float], int]:
    bank = Path(tempfile.mkdtemp(prefix="medbench-latency-")) / "bank"
    bank.mkdir()
    case = bank / "gen-0000.yaml"
    case.write_text(case_of_lines(lines), encoding="utf-8")
    settings = Settings()
    app = MedbenchApp(bank, settings=settings, cursor_blink=False, freeze_gc=True)  # as run_app
    updated: list[float] = []
    taken: list[float] = []

    def hook(message) -> None:
        if isinstance(message, TextArea.Changed):
            taken.append(time.perf_counter())

    async with app.run_test(size=(160, 48), message_hook=hook) as pilot:
        await app.workers.wait_for_complete()
        await app.open_case(case)
        editor = app.editor_screen()
        assert editor is not None  # open_case shows the editor
        while editor.path != case or not editor.up_to_date:
            await pilot.pause()
        show_report = editor._show_report

        def stamped_report() -> None:
            show_report()
            if editor.up_to_date:
                updated.append(time.perf_counter())

        editor._show_report = stamped_report  # type: ignore[method-assign]  # stamps each update
        row = next(i for i, line in enumerate(editor.text_area.text.splitlines()) if line.startswith("title:"))
        editor.text_area.move_cursor((row, len(editor.text_area.document.get_line(row))))
        latencies, keystroke = [], []
        for index in range(keys):
            before_updates, before_taken = len(updated), len(taken)
            start = time.perf_counter()
            await pilot.press("x" if index % 2 == 0 else "backspace")
            while len(updated) == before_updates:
                await asyncio.sleep(0.001)
            latencies.append((updated[-1] - start) * 1000)
            keystroke.append((taken[before_taken] - start) * 1000)
        lines_in_case = editor.text_area.document.line_count
    return latencies, keystroke, lines_in_case


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=40)
    parser.add_argument("--lines", type=int, default=400)
    parser.add_argument("--quick", action="store_true", help="4 keystrokes (that nothing rotted)")
    args = parser.parse_args(argv)
    if args.quick:
        args.keys = 4
    latencies, keystroke, lines = asyncio.run(measure(args.keys, args.lines))
    debounce = Settings().tui.validation_debounce_ms
    print(f"case: {lines} lines; debounce {debounce} ms (tui.validation_debounce_ms); {args.keys} keystrokes")
    print(report("keystroke -> updated problems", latencies, BUDGET_MS))
    print(report("keystroke -> in the editor", keystroke))


if __name__ == "__main__":
    main()
