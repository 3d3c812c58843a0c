"""Aggregate and compare the stored runs of a run group (default: the latest).

Per system: each metric's mean with a 95% interval (Wilson for binary metrics,
seeded bootstrap for the rest), counts and steps; the headline compares the systems on
the cases every one of them completed. Across systems: paired differences, McNemar's
exact test on diagnosis accuracy and the direction-of-change table. Every report also
has the bank's frozen state, the case mix, the failure taxonomy and, with repeats, the
run-to-run variability; --by FIELD adds each metric per subgroup. Error-testing cases
are left out unless --include-error-tests.

--export writes every run of the group as JSONL or CSV (by the file's suffix); --matrix
writes the case-level matrix (case x system x repeat x metric, with the case's metadata),
as CSV or JSON, from which every figure of the report can be recomputed.
--format html writes one self-contained page (tables and SVG charts, nothing fetched).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from medbench_tui.cli._output import add_format, name_text
from medbench_tui.core.jsondata import JSONObject

if TYPE_CHECKING:
    from pathlib import Path

    from medbench_tui.core.review.physician import SystemCorrected

FORMATS = ("text", "md", "json", "csv", "html")
EXPORTS = (".jsonl", ".csv")
MATRICES = (".csv", ".json")
BY_FIELDS = ("category", "age_group", "sex", "complexity", "urgency", "setting", "has_attachments")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bank", default=argparse.SUPPRESS,
                        help="case bank whose run store to read (default: the current folder, else the bundled cases)")
    parser.add_argument("group", nargs="?", metavar="RUN_GROUP", type=name_text,
                        help="run group id (default: the latest)")
    parser.add_argument("--store", metavar="PATH", help="run store file (default: the run_store setting, else "
                        "<bank>/.medbench/runs.sqlite, else the user state folder for a read-only bank)")
    parser.add_argument("--systems", metavar="A,B", help="systems to report and compare, in this order")
    parser.add_argument("--seed", type=int, metavar="N", help="bootstrap seed (default: the group's seed)")
    parser.add_argument("--by", choices=BY_FIELDS, metavar="FIELD",
                        help=f"each metric per subgroup of this case field ({', '.join(BY_FIELDS)})")
    parser.add_argument("--include-error-tests", action="store_true",
                        help="count the error_testing cases too (they test the harness; left out by default)")
    parser.add_argument("--export", metavar="FILE", help="also write every run of the group to FILE (.jsonl or .csv)")
    parser.add_argument("--matrix", metavar="FILE",
                        help="also write the case-level matrix (case x system x repeat x metric) to FILE "
                        "(.csv or .json)")
    add_format(parser, FORMATS)


def _suffix(given: str | None, allowed: tuple[str, ...], option: str) -> Path | None:
    from pathlib import Path

    from medbench_tui.core.errors import UsageError

    if given is None:
        return None
    path = Path(given).expanduser()
    if path.suffix.lower() not in allowed:
        raise UsageError(f"{option} {given}: the file must end in {' or '.join(allowed)}")
    return path


def run(args: argparse.Namespace) -> int:
    import sys

    from medbench_tui.cli._output import say
    from medbench_tui.cli.agreement import command_bank, command_store, group_agreement
    from medbench_tui.core.cases.bankconfig import remember_bank_secrets
    from medbench_tui.core.errors import MedbenchError, UsageError
    from medbench_tui.core.files import writable_destination, write_atomic
    from medbench_tui.core.reports.case_matrix import render_matrix
    from medbench_tui.core.reports.render import render
    from medbench_tui.core.reports.report import build_report
    from medbench_tui.core.review.physician import group_corrected
    from medbench_tui.core.runs.store import RunStore
    from medbench_tui.core.untrusted import json_visible

    export = _suffix(args.export, EXPORTS, "--export")
    matrix = _suffix(args.matrix, MATRICES, "--matrix")
    for destination, option in ((export, "--export"), (matrix, "--matrix")):
        if destination is not None:
            writable_destination(destination, option)
    systems = [s.strip() for s in args.systems.split(",") if s.strip()] if args.systems else None
    if args.systems is not None and not systems:
        raise UsageError("--systems: give names separated by commas, e.g. --systems baseline,agent")
    given = getattr(args, "bank", None)
    bank = command_bank(args)
    remember_bank_secrets(bank)
    with RunStore(command_store(args, reading=True), create=False) as store:
        report = build_report(store, args.group, systems=systems, seed=args.seed, by=args.by,
                              include_error_tests=args.include_error_tests, bank=bank if given else None)
        if export is not None:
            try:
                text = store.export_text(report.group_id, export.suffix.lower().lstrip("."))
                write_atomic(export, text, backup=False)
            except OSError as exc:
                raise MedbenchError(f"--export {export}: cannot write it: {exc.strerror or exc}") from None
            say(f"wrote every run of group {report.group_id} to {export}")
        if matrix is not None:
            try:
                write_atomic(matrix, render_matrix(store, report, matrix.suffix.lower().lstrip(".")), backup=False)
            except OSError as exc:
                raise MedbenchError(f"--matrix {matrix}: cannot write it: {exc.strerror or exc}") from None
            say(f"wrote the case-level matrix of group {report.group_id} to {matrix}")
        adjudication = group_agreement(store, bank, report.group_id)
        corrected = group_corrected(store, bank, report.group_id, report.systems, report.error_tests_left_out)
    rendered = with_adjudication(render(report, args.format), adjudication, args.format)
    rendered = with_corrected(rendered, corrected, args.format)
    sys.stdout.write(json_visible(rendered) if args.format == "json" else rendered)
    return 0


def with_adjudication(rendered: str, adjudication: JSONObject | None, fmt: str) -> str:
    """The report, with the evaluator's agreement with physicians beside the results
    when the group has adjudications (a key ``adjudication`` in JSON; CSV and HTML unchanged)."""
    import json

    from medbench_tui.core.review.agreement import report_section

    if adjudication is None or fmt not in ("text", "md", "json"):
        return rendered
    if fmt == "json":
        return json.dumps({**json.loads(rendered), "adjudication": adjudication}, indent=2, ensure_ascii=False) + "\n"
    return rendered + report_section(adjudication, fmt)


def with_corrected(rendered: str, corrected: dict[str, SystemCorrected] | None, fmt: str) -> str:
    """The report, with each system's physician-corrected metrics beside the grader's when the group has
    adjudications (a key ``physician_corrected`` in JSON; CSV unchanged)."""
    import json

    from medbench_tui.core.reports.html import tables_html
    from medbench_tui.core.review.physician import corrected_section, corrected_tables

    if corrected is None or fmt not in ("text", "md", "json", "html"):
        return rendered
    if fmt == "html":
        end = rendered.rindex("</body>")
        return rendered[:end] + tables_html(corrected_tables(corrected)) + "\n" + rendered[end:]
    if fmt == "json":
        doc = {**json.loads(rendered), "physician_corrected": {s: c.to_json() for s, c in corrected.items()}}
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    return rendered + corrected_section(corrected, md=fmt == "md")
