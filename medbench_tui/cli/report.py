"""Aggregate and compare the stored runs of a run group (default: the latest).

Per system: each metric's mean with a 95% interval (Wilson for binary metrics,
seeded bootstrap for the rest), counts and steps. Across systems: complete-case paired
differences, McNemar's exact test on diagnosis accuracy and the direction-of-change
table. --export writes every run of the group as JSONL or CSV (by the file's suffix).
"""

from __future__ import annotations

import argparse

from medbench_tui.cli._output import add_format

FORMATS = ("text", "md", "json", "csv")
EXPORTS = (".jsonl", ".csv")


def configure(parser) -> None:
    parser.add_argument("--bank", default=argparse.SUPPRESS,
                        help="case bank whose run store to read (default: the current folder, else the bundled cases)")
    parser.add_argument("group", nargs="?", metavar="RUN_GROUP", help="run group id (default: the latest)")
    parser.add_argument("--store", metavar="PATH", help="run store file (default: the run_store setting, else "
                        "<bank>/.medbench/runs.sqlite, else the user state folder for a read-only bank)")
    parser.add_argument("--systems", metavar="A,B", help="systems to report and compare, in this order")
    parser.add_argument("--seed", type=int, metavar="N", help="bootstrap seed (default: the group's seed)")
    parser.add_argument("--export", metavar="FILE", help="also write every run of the group to FILE (.jsonl or .csv)")
    add_format(parser, FORMATS)


def run(args) -> int:
    import sys
    from pathlib import Path

    from medbench_tui.cli._output import say
    from medbench_tui.cli.agreement import group_agreement
    from medbench_tui.core.bankconfig import remember_bank_secrets
    from medbench_tui.core.errors import MedbenchError, UsageError
    from medbench_tui.core.files import writable_destination, write_atomic
    from medbench_tui.core.paths import bank_root, default_bank
    from medbench_tui.core.report import build_report, render
    from medbench_tui.core.runs.store import RunStore, store_path

    export = Path(args.export).expanduser() if args.export else None
    if export is not None and export.suffix.lower() not in EXPORTS:
        raise UsageError(f"--export {args.export}: the file must end in .jsonl or .csv")
    if export is not None:
        writable_destination(export, "--export")
    systems = [s.strip() for s in args.systems.split(",") if s.strip()] if args.systems else None
    if args.systems is not None and not systems:
        raise UsageError("--systems: give names separated by commas, e.g. --systems baseline,agent")
    given = getattr(args, "bank", None)
    bank = bank_root(Path(given)) if given else default_bank()
    remember_bank_secrets(bank)
    with RunStore(store_path(bank, Path(args.store).expanduser() if args.store else None), create=False) as store:
        report = build_report(store, args.group, systems=systems, seed=args.seed)
        if export is not None:
            try:
                text = store.export_text(report.group_id, export.suffix.lower().lstrip("."))
                write_atomic(export, text, backup=False)
            except OSError as exc:
                raise MedbenchError(f"--export {export}: cannot write it: {exc.strerror or exc}") from None
            say(f"wrote every run of group {report.group_id} to {export}")
        adjudication = group_agreement(store, bank, report.group_id)
    sys.stdout.write(with_adjudication(render(report, args.format), adjudication, args.format))
    return 0


def with_adjudication(rendered: str, adjudication: dict | None, fmt: str) -> str:
    """The report, with the evaluator's agreement with physicians beside the results
    when the group has adjudications (a key ``adjudication`` in JSON; CSV unchanged)."""
    import json

    from medbench_tui.core.agreement import report_section

    if adjudication is None or fmt == "csv":
        return rendered
    if fmt == "json":
        return json.dumps({**json.loads(rendered), "adjudication": adjudication}, indent=2, ensure_ascii=False) + "\n"
    return rendered + report_section(adjudication, fmt)
