"""Adjudication records in and out, as JSONL (one decision a line).

A record is {"run_id", "case_id", "section", "reference", "evaluator", "physician",
"rater", "note", "at"}. ``import`` reads the whole file first and writes all of it or
nothing; a bad line is named by its number. ``export`` writes the records of the run
store (of one run group, or one rater, when asked); FILE ``-`` is standard output.
"""

from __future__ import annotations

import argparse

from medbench_tui.cli._output import name_text


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bank", default=argparse.SUPPRESS,
                        help="case bank whose run store to use (default: the current folder, else the bundled cases)")
    parser.add_argument("--store", metavar="PATH", help="run store file (default: the bank's run store)")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    imp = actions.add_parser("import", help="read adjudication records from a JSONL file into the run store")
    imp.add_argument("file", metavar="FILE", help="JSONL file, one record a line ('-' for standard input)")
    exp = actions.add_parser("export", help="write the run store's adjudication records to a JSONL file")
    exp.add_argument("file", metavar="FILE", help="JSONL file to write ('-' for standard output)")
    exp.add_argument("--group", metavar="RUN_GROUP", type=name_text, help="only the records of this run group")
    exp.add_argument("--rater", metavar="NAME", type=name_text, help="only this rater's records")


def run(args: argparse.Namespace) -> int:
    import io
    import sys
    from pathlib import Path

    from medbench_tui.cli._output import say
    from medbench_tui.cli.agreement import open_bank_store
    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.files import write_atomic
    from medbench_tui.core.review.adjudication import AdjudicationBook

    if args.action == "import":
        if args.file == "-":
            lines = sys.stdin.read().splitlines()
            source = "<stdin>"
        else:
            path = Path(args.file).expanduser()
            if not path.is_file():
                raise UsageError(f"{args.file}: no such file (give a JSONL file of adjudication records)")
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError) as exc:
                raise UsageError(f"{args.file}: cannot be read as UTF-8 text: {exc}") from None
            source = str(path)
        with open_bank_store(args, create=False) as store:
            count = AdjudicationBook(store).import_jsonl(lines, source=source)
        say(f"imported {count} adjudication record(s) into {store.path}")
        return 0

    with open_bank_store(args, create=False, reading=True) as store:
        book = AdjudicationBook(store)
        buffer = io.StringIO()
        count = book.export_jsonl(buffer, group_id=args.group, rater=args.rater)
    if args.file == "-":
        sys.stdout.write(buffer.getvalue())
    else:
        target = Path(args.file).expanduser()
        if target.is_dir():
            raise UsageError(f"{args.file} is a folder: give a file name such as {target / 'adjudications.jsonl'}")
        try:
            write_atomic(target, buffer.getvalue(), backup=False)
        except OSError as exc:
            raise UsageError(f"cannot write {args.file}: {exc.strerror or exc}") from None
        say(f"wrote {count} adjudication record(s) to {target}")
    return 0
