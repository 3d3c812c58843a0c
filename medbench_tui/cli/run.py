"""Run systems over cases, store every run, and print the per-system summary.

Every invocation is a run group in the run store (default: <bank>/.medbench/runs.sqlite).
Before anything is played, every model endpoint the runs need is asked whether it answers;
one that cannot be reached (or refuses the key) stops the start at once, saying what to check.
Exit status: 0 when every run completed, 1 when any ended incomplete (endpoint errors,
turn limit), 2 on usage errors, 130 when interrupted (Ctrl-C: runs in flight are
recorded as cancelled; finish them with --resume GROUP).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import TYPE_CHECKING

from medbench_tui.cli._output import add_format, name_text
from medbench_tui.core import batch_caches

if TYPE_CHECKING:
    from collections.abc import Mapping

    from medbench_tui.core.runs.runner import GroupResult, ProgressEvent, Runner
    from medbench_tui.core.runs.store import RunStore


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bank", default=argparse.SUPPRESS,
                        help="case bank (medbench.yaml, run store; default: the current folder, "
                             "else the bundled cases)")
    parser.add_argument("--system", action="append", dest="systems", metavar="NAME", default=[],
                        help="a configured system or a built-in (checklist, replay:PATH); repeat to compare")
    parser.add_argument("--cases", metavar="PATH", nargs="+", action="extend",
                        help="case files, folders, case ids of the bank, or list files (one of those a line, "
                             "# for comments); default: the bank's cases")
    parser.add_argument("--simulator", metavar="NAME",
                        help="patient simulator (default: the default_simulator setting)")
    parser.add_argument("--concurrency", type=int, metavar="N", help="runs played at once (default: 8)")
    parser.add_argument("--endpoint-concurrency", type=int, metavar="N",
                        help="requests in flight per endpoint at most (default: --concurrency; an endpoint's "
                             "max_concurrency in medbench.yaml can lower it)")
    parser.add_argument("--store", metavar="PATH", help="run store file (default: the run_store setting, else "
                        "<bank>/.medbench/runs.sqlite, else the user state folder for a read-only bank)")
    parser.add_argument("--resume", metavar="GROUP", type=name_text,
                        help="play what is incomplete or missing in a run group")
    parser.add_argument("--include-error-tests", action="store_true",
                        help="also run the folder's error_testing cases (left out by default: they test the harness)")
    parser.add_argument("--cache", action="store_true", help="reuse stored answers to identical model requests")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="the group's seed (retry jitter, report bootstrap; default: random)")
    parser.add_argument("--repeats", type=int, metavar="N", default=1,
                        help="play each case x system N times, each with its own recorded seeds (default: 1)")
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    import asyncio
    from pathlib import Path

    from medbench_tui.cli._keys import require_keys
    from medbench_tui.core.cases.bank import load_bank
    from medbench_tui.core.errors import MedbenchError, UsageError
    from medbench_tui.core.paths import bank_root_of, default_bank
    from medbench_tui.core.runs.preflight import check_endpoints
    from medbench_tui.core.runs.retry import RetryPolicy
    from medbench_tui.core.runs.runner import Runner, plan_resume, plan_run
    from medbench_tui.core.runs.store import RunStore
    from medbench_tui.core.settings import SettingsError, load_settings

    try:
        settings = load_settings()
    except SettingsError as exc:
        raise MedbenchError(str(exc)) from None
    concurrency = settings.runner.concurrency if args.concurrency is None else args.concurrency
    endpoint_concurrency = (
        settings.runner.endpoint_concurrency if args.endpoint_concurrency is None else args.endpoint_concurrency
    )
    if concurrency < 1 or (endpoint_concurrency is not None and endpoint_concurrency < 1):
        raise UsageError("--concurrency and --endpoint-concurrency must be at least 1")
    if args.repeats < 1:
        raise UsageError("--repeats must be at least 1")
    if args.resume and args.repeats != 1:
        raise UsageError("--repeats is set when a group starts; --resume plays the repeats the group planned")
    if not args.resume and not args.systems:
        raise UsageError("name at least one system: --system NAME (see 'medbench systems'), or --resume GROUP")
    cases = [Path(c).expanduser() for c in args.cases] if args.cases else None
    given_bank = getattr(args, "bank", None)
    if given_bank:
        root = Path(given_bank)
    elif cases and (cases[0].is_dir() or cases[0].suffix.lower() in (".yaml", ".yml")):
        root = bank_root_of(cases[0] / "case.yaml" if cases[0].is_dir() else cases[0])
    else:
        root = default_bank()
    override = Path(args.store).expanduser() if args.store else settings.run_store
    bank = load_bank(root, run_store=override, strict=not args.resume)
    store = RunStore(bank.run_store)
    retry = RetryPolicy.from_settings(settings.runner)
    with store:
        if args.resume:
            plan, group = plan_resume(store, args.resume, systems=args.systems or None, cases=cases,
                                      simulator=args.simulator)
        else:
            plan = plan_run(bank, args.systems, cases=cases, seed=args.seed, repeats=args.repeats,
                            simulator=args.simulator or settings.default_simulator,
                            include_error_tests=args.include_error_tests)
            group = None
            for note in plan.left_out_notes():
                print(note, file=sys.stderr)
        # before the first request (the endpoints' check is one): a key from the environment goes where allowed
        require_keys([endpoint for _, endpoint in plan.endpoints()])
        check_endpoints(plan)
        runner = Runner(store, plan, group=group, concurrency=concurrency, endpoint_concurrency=endpoint_concurrency,
                        retry=retry, cache=args.cache)
        for note in runner.cap_notes():
            print(note, file=sys.stderr)
        result = asyncio.run(_play(runner))
        del runner, plan  # every planned case, parsed (some 35 MB for a thousand): room the summary reuses
        return _summarise(store, result, args.format)


async def _play(runner: Runner) -> GroupResult:
    """Play with a progress bar on stderr; the first Ctrl-C stops cleanly, a second one
    stops at once (each run row is one transaction, so the store stays whole)."""
    import asyncio
    import signal
    import sys

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from medbench_tui.core.redact import redact
    from medbench_tui.core.runs.runner import GroupStarted, RequestRetried, RunClaimedElsewhere, RunFinished
    from medbench_tui.core.untrusted import visible

    console = Console(file=getattr(sys.stderr, "raw", sys.stderr))  # the bar's own escapes; every text made visible
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("incomplete {task.fields[incomplete]}"), TextColumn("retries {task.fields[retries]}"),
        TimeRemainingColumn(), console=console, disable=not sys.stderr.isatty(),
    )
    task = progress.add_task("runs", total=None, incomplete=0, retries=0)
    counts = {"incomplete": 0, "retries": 0}

    def follow(event: ProgressEvent) -> None:
        if isinstance(event, GroupStarted):
            progress.update(task, total=event.to_play, description=f"group {event.group_id}")
        elif isinstance(event, RunClaimedElsewhere):  # another process is playing it
            progress.update(task, advance=1)
        elif isinstance(event, RequestRetried):
            counts["retries"] += 1
            progress.update(task, retries=counts["retries"])
        elif isinstance(event, RunFinished):
            if event.status != "complete":
                counts["incomplete"] += 1
                console.print(visible(redact(f"incomplete: {event.case_id} × {event.system}: {event.reason}")),
                              markup=False,
                              highlight=False, soft_wrap=True)
            progress.update(task, advance=1, incomplete=counts["incomplete"])

    runner.subscribe(follow)
    loop = asyncio.get_running_loop()

    def interrupt() -> None:
        console.print("stopping: cancelling the runs in flight (Ctrl-C again to quit at once)")
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        runner.cancel()

    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # no signal handlers here (Windows, a thread)
            loop.add_signal_handler(signum, interrupt)
    with progress:
        return await runner.run()


REPEATABLE_KINDS = ("checklist", "replay")
"""Systems that play the same moves every time: a run of theirs that ended incomplete ends so again."""


def _worth_another_try(run: Mapping[str, object], system_config: Mapping[str, object]) -> bool:
    """Whether playing an incomplete run again can end otherwise: a cancelled run, or a model's."""
    return run["reason"] == "cancelled" or system_config.get("kind") not in REPEATABLE_KINDS


def _summarise(store: RunStore, result: GroupResult, fmt: str) -> int:
    from medbench_tui.cli._output import emit_json, say
    from medbench_tui.core.redact import redact
    from medbench_tui.core.reports.report import build_report, render_text

    batch_caches.release()  # the play's scored documents and spelling dictionary: room the summary reuses
    group = store.group(result.group_id)
    report = build_report(store, group.id, compare=False, taxonomy=False)
    stored_incomplete = [
        {"case_id": r["case_id"], "system": s.system, "reason": r["reason"]}
        for s in report.summaries.values() for r in s.incomplete_runs
    ]
    if fmt == "json":
        emit_json({
            "group_id": group.id,
            "store": str(store.path.resolve()),
            "cancelled": result.cancelled,
            "counts": {
                "planned": group.planned, "complete": group.complete, "incomplete": group.incomplete,
                "not_run": group.not_run, "played_now": result.complete + result.incomplete,
            },
            "systems": report.to_json()["summaries"],
            "incomplete": stored_incomplete,
        })
    else:
        print(redact(render_text(report, paired=False)), end="")
    say(f"run group {group.id}: {group.complete} complete, {group.incomplete} incomplete, "
        f"{group.not_run} not run (store: {store.path})")
    again = [r for r in stored_incomplete if _worth_another_try(r, report.summaries[r["system"]].config)]
    if group.not_run or again:
        say(f"finish them with: medbench run --resume {group.id}")
    elif group.incomplete:
        say(f"the {group.incomplete} incomplete run(s) would end the same way again (their systems play the same "
            "moves every time): see the reasons above; a resume cannot change them")
    elif len(report.systems) > 1:
        say(f"paired comparison: medbench report {group.id}")
    if result.cancelled:
        return 130
    return 0 if group.complete == group.planned else 1
