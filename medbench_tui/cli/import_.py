"""Import a published rubric benchmark as rubric cases of a bank.

`medbench import healthbench FILE.jsonl` reads HealthBench examples (`prompt` as chat messages,
`rubrics` as `{criterion, points, tags}`, `example_tags`, `prompt_id`); `medbench import rubric
FILE.json|jsonl` reads the physician rubric benchmark's released fields (`case_id`, `benchmark`,
`grading_method`, `prompt`, `rubric_items`, `split`). Each record becomes `<id>.yaml` in the
bank's cases folder if it validates; the summary names every record that could not be imported
by its line. A case file already in the bank is never overwritten.
"""

from __future__ import annotations

import argparse

from medbench_tui.cli._output import add_format


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="FORMAT", choices=("healthbench", "rubric"),
                        help="healthbench (JSON lines) or rubric (the physician rubric benchmark: JSON or JSON lines)")
    parser.add_argument("file", metavar="FILE", help="the file to import")
    parser.add_argument("--into", metavar="BANK_DIR", default=".",
                        help="the bank to write the cases into (its cases/ folder when it has one; created if need "
                             "be; default: the current folder)")
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from medbench_tui.cli._output import emit_json
    from medbench_tui.core.authoring.rubric_import import FORMATS, import_rubric_file
    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.paths import bank_root, cases_dir

    source = Path(args.file).expanduser()
    if not source.is_file():
        raise UsageError(f"{args.file}: no such file")
    into = Path(args.into).expanduser()
    if into.exists() and not into.is_dir():
        raise UsageError(f"--into {args.into}: not a folder")
    folder = cases_dir(bank_root(into)) if into.exists() else into / "cases"
    try:
        summary = import_rubric_file(source, folder, FORMATS[args.source])
    except UnicodeDecodeError:
        raise UsageError(f"{args.file}: not UTF-8 text") from None
    except OSError as exc:
        raise UsageError(f"{args.file}: cannot be read or written ({exc.strerror or exc})") from None
    if args.format == "json":
        emit_json(summary.to_json())
    else:
        print("\n".join(summary.lines()))
    return 1 if summary.problems else 0
