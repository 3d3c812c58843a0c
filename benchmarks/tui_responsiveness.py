"""Whether the TUI stays responsive while Compare plays a batch, against its targets.

    python benchmarks/tui_responsiveness.py [--concurrency 8] [--show-stalls] [--quick]

Drives the real app headless (Textual's Pilot) over a copy of the bundled bank:
Compare, the checklist against a replay of each case's reference answers (every case,
two offline systems: the grounded patient, the text scorer and the run store do all
the work). While the runs play, a probe on the app's event loop asks to wake every
5 ms and records how late it wakes (the longest stall: nothing is drawn and no key is
answered for that long), and the progress bar's value is sampled at each wake-up.

Printed, last line: ``longest stall <N> ms; progress updates <K>; wall <S> s``, from
pressing Run to the results on screen. Targets: longest stall <= 50 ms, at least 20
distinct progress values. Printed first: the longest stall of the idle app over two
seconds (what the machine itself costs), and the longest stall of each phase (planning,
the runs playing, the results drawn). ``--show-stalls`` lists each stall over 50 ms.
The driver polls with ``asyncio.sleep``, not ``pilot.pause()``: a pause queues a call on
every widget and forces a repaint, work the app itself would not do.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PROBE_EVERY = 0.005
SIZE = (160, 48)


def write_bank(folder: Path, limit: int | None = None) -> Path:
    """The bundled cases (the first ``limit``), and beside them a replay of each case's reference answers."""
    from medbench_tui.core.cases.bank import consultation_files, iter_case_files
    from medbench_tui.core.scoring.model_answer import model_answer
    from medbench_tui.core.transcript import Transcript, dump_transcript
    from medbench_tui.core.validate import load_valid_case

    shutil.copytree(ROOT / "cases", folder)
    for extra in iter_case_files(folder)[limit:] if limit is not None else []:
        extra.unlink()
    for path in consultation_files(folder):
        case = load_valid_case(path)
        answer = Transcript(case_id=case.id, system="reference", final=model_answer(case, "text"))
        dump_transcript(answer, folder / "replays" / f"{case.id}.yaml")
    return folder


class Probe:
    """Wakes every PROBE_EVERY on the app's loop; records the lateness and the bar."""

    def __init__(self, bar, *, show: bool = False) -> None:
        self.bar = bar
        self.show = show
        self.longest = 0.0
        self.by_phase: dict[str, float] = {}
        """The longest stall while planning, while the runs play, and while the results are drawn."""
        self.values: set[float] = set()
        self._task: asyncio.Task | None = None

    async def _watch(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(PROBE_EVERY)
            late = time.perf_counter() - asked - PROBE_EVERY
            self.longest = max(self.longest, late)
            phase = self.phase()
            self.by_phase[phase] = max(self.by_phase.get(phase, 0.0), late)
            if late > 0.05 and self.show:
                print(f"stall {late * 1000:.0f} ms at progress {self.bar.progress}", file=sys.stderr)
            if self.bar.total is not None:
                self.values.add(self.bar.progress)

    def phase(self) -> str:
        total, progress = self.bar.total, self.bar.progress
        if not total or not progress:
            return "planning"
        return "results" if progress >= total else "runs"

    def start(self) -> None:
        self._task = asyncio.create_task(self._watch())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


async def drive(bank: Path, concurrency: int, show: bool, idle_seconds: float = 2) -> tuple[float, int, float, int]:
    from textual.widgets import Input, ProgressBar, SelectionList

    from medbench_tui.core.settings import RunnerSettings, Settings, TuiSettings
    from medbench_tui.tui.app import MedbenchApp
    from medbench_tui.tui.screens.compare import CompareScreen
    from medbench_tui.tui.widgets.group_report import GroupReport

    settings = Settings(tui=TuiSettings(autosave_seconds=3600), runner=RunnerSettings(concurrency=concurrency))
    app = MedbenchApp(bank, settings=settings, cursor_blink=False, freeze_gc=True)  # as `medbench` runs it
    async with app.run_test(size=SIZE) as pilot:
        # The app's start-up work (the bank read, the ICD-10 index built) is over.
        while app.bank_loading or any(not w.is_finished for w in app.workers):
            await pilot.pause(0.05)
        idle = Probe(app.screen.query_one("#loading-bar", ProgressBar))
        idle.start()
        await pilot.pause(idle_seconds)
        idle.stop()
        print(f"idle app: longest stall {1000 * idle.longest:.0f} ms", file=sys.stderr)
        await pilot.press("f5")
        while not isinstance(app.screen, CompareScreen):
            await pilot.pause(0.05)
        screen = app.screen
        screen.query_one("#compare-system-list", SelectionList).select("checklist")
        replay = screen.query_one("#compare-replay", Input)
        replay.focus()
        replay.value = "replays"
        await pilot.press("enter")
        await pilot.pause(0.1)
        probe = Probe(screen.query_one("#compare-progress", ProgressBar), show=show)
        probe.start()
        started = time.perf_counter()
        await pilot.press("ctrl+r")
        report = screen.query_one(GroupReport)
        while screen.running or report.report is None:
            # not pilot.pause(): it queues a call on every widget and forces a repaint, work
            # the app would not do
            await asyncio.sleep(0.05)
        wall = time.perf_counter() - started
        probe.stop()
        runs = screen.tally.finished
    phases = ", ".join(f"{name} {1000 * probe.by_phase[name]:.0f} ms" for name in ("planning", "runs", "results")
                       if name in probe.by_phase)
    print(f"longest stall by phase: {phases}", file=sys.stderr)
    return probe.longest, len(probe.values), wall, runs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--show-stalls", action="store_true", help="list each stall over 50 ms (on stderr)")
    parser.add_argument("--quick", action="store_true", help="3 cases, 0.1 s of idle probe (that nothing rotted)")
    args = parser.parse_args(argv)
    from medbench_tui.core import paths

    stored_index = paths.icd10_index_cache_file()
    with tempfile.TemporaryDirectory(prefix="medbench-responsiveness-") as tmp:
        for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
            os.environ[name] = str(Path(tmp) / name.lower())
        if args.quick and stored_index.is_file():
            # quick mode checks that nothing rotted, not a first start: the ICD-10 index this
            # user's commands stored is read instead of being built again (seconds of CPU)
            here = paths.icd10_index_cache_file()
            here.parent.mkdir(parents=True)
            shutil.copyfile(stored_index, here)
        bank = write_bank(Path(tmp) / "bank", 3 if args.quick else None)
        longest, updates, wall, runs = asyncio.run(
            drive(bank, args.concurrency, args.show_stalls, 0.1 if args.quick else 2)
        )
    print(f"runs: {runs} (checklist and replay over the bundled bank), concurrency {args.concurrency}")
    print("targets: longest stall <= 50 ms, progress updates >= 20")
    print(f"longest stall {1000 * longest:.0f} ms; progress updates {updates}; wall {wall:.1f} s")


if __name__ == "__main__":
    main()
