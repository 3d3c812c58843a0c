"""Validate case files or folders.

Every problem is printed as `file:line:column: severity code: message`, like a
compiler, followed by a summary. A folder means its `*.yaml` case files (not
`medbench.yaml`) and those of its `cases/` folder. A valid case's self-checks (its
`checks:` section: example answers and questions with what must follow) are run too, and
each failed check is an error at its line; `--no-checks` skips them. Exit status: 0 when no
errors, 1 on any error (and on warnings with --strict), 2 on usage errors.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from medbench_tui.core.validate.report import CaseReport


def configure(parser: argparse.ArgumentParser) -> None:
    from medbench_tui.cli._output import add_format

    parser.add_argument("paths", nargs="+", metavar="PATH", help="case files or folders")
    parser.add_argument("--strict", action="store_true", help="exit 1 on warnings too")
    parser.add_argument("--no-checks", action="store_true",
                        help="do not run the cases' self-checks (their `checks:` sections)")
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from medbench_tui.cli._output import emit_json
    from medbench_tui.core.errors import UsageError

    given = [Path(p) for p in args.paths]
    missing = [str(p) for p in given if not p.exists()]
    if missing:
        raise UsageError(f"no such file or folder: {', '.join(missing)}")

    from medbench_tui.core.validate import format_diagnostic, iter_reports, summary

    reports = []
    for report in iter_reports(given):
        if not args.no_checks:
            _run_checks(report)
        report.case = report.positions = None  # only the findings are kept: a bank of any size fits
        if args.format == "text":
            for diagnostic in report.diagnostics:
                print(format_diagnostic(diagnostic, report.path))
        reports.append(report)
    if not reports:
        raise UsageError(
            f"no case files (*.yaml) in {', '.join(str(p) for p in given)}: give case files or a bank folder"
        )
    totals = summary(reports)
    if args.format == "json":
        emit_json({"files": [r.to_json() for r in reports], "summary": totals})
    else:
        print(_summary_line(totals))
    failed = totals["errors"] or (args.strict and totals["warnings"])
    return 1 if failed else 0


def _run_checks(report: CaseReport) -> None:
    """A valid case's self-checks, their failures added to its findings."""
    from medbench_tui.core.authoring.case_checks import check_diagnostics
    from medbench_tui.core.paths import bank_root_of

    if report.case is None or report.case.checks is None or report.positions is None or report.path is None:
        return
    report.add(check_diagnostics(report.case, bank_root_of(report.path), report.positions))


def _summary_line(totals: dict[str, int]) -> str:
    def plural(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    return (
        f"{plural(totals['files'], 'file')} checked: {plural(totals['errors'], 'error')}, "
        f"{plural(totals['warnings'], 'warning')}"
    )
