"""Rehearse a case: put a standard battery of history questions to its patient and list,
per fact, the questions that reached it; facts no question reaches, control questions
nothing elicits and attachments nothing releases are listed as things to fix.
Exit 0 when there is nothing to fix, else 1. With --checks, print instead the questions and
what the patient gave as a starting `checks:` block for the case (exit 0)."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    from medbench_tui.cli._output import add_format

    parser.add_argument("case", metavar="CASE", help="case file (or the id of a case in the bank)")
    parser.add_argument("--bank", help="case bank for a case id (default: the current bank, then the bundled one)")
    parser.add_argument("--checks", action="store_true",
                        help="print the questions with what the patient gave as a `checks:` block to start from")
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    from medbench_tui.cli._output import emit_json
    from medbench_tui.cli.play import _case_path
    from medbench_tui.core.consultation.rehearsal import checks_block, rehearse, render_text
    from medbench_tui.core.validate import load_valid_case

    case = load_valid_case(_case_path(args.case, args.bank))
    rehearsal = rehearse(case)
    if args.checks:
        print(checks_block(rehearsal), end="")
        return 0
    if args.format == "json":
        emit_json(rehearsal.to_json())
    else:
        print(render_text(rehearsal))
    return 0 if rehearsal.clean else 1
