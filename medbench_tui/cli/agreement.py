"""Evaluator-physician agreement from adjudication records.

For the run group given (default: the latest group with adjudications): the number of
decisions, percent agreement with a Wilson 95% interval, Cohen's kappa with its
interval, the same per section, the evaluator's sensitivity and specificity for a
critical-condition FAIL, and each metric recomputed from the physician's decisions
beside the evaluator's. With two raters, their agreement with each other too.

With ``--rubric-labels``: the rubric graders against physicians' labels of criterion decisions
(see docs/rubric.md): each labelled answer graded, and per grader kind the agreement, kappa and
the F1 of the open rubric benchmark's meta-evaluation.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from medbench_tui.cli._output import add_format, name_text
from medbench_tui.core.jsondata import JSONObject

if TYPE_CHECKING:
    from medbench_tui.core.review.agreement import AdjudicatedRun
    from medbench_tui.core.rubric import Judge
    from medbench_tui.core.runs.store import RunStore


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bank", default=argparse.SUPPRESS,
                        help="case bank whose run store to read (default: the current folder, else the bundled cases)")
    parser.add_argument("group", nargs="?", metavar="RUN_GROUP", type=name_text,
                        help="run group id (default: the latest group with adjudications)")
    parser.add_argument("--store", metavar="PATH", help="run store file (default: the bank's run store)")
    parser.add_argument("--rater", metavar="NAME", type=name_text,
                        help="only this rater's decisions (default: every rater)")
    rubric = parser.add_argument_group("rubric criteria (instead of a run group)")
    rubric.add_argument("--rubric-labels", metavar="PATH", type=Path,
                        help="a folder of physicians' labels files (or one file): grade each labelled answer "
                             "and compare criterion decisions")
    rubric.add_argument("--cases", metavar="PATH", type=Path,
                        help="the rubric cases the labels name (default: the bank's cases)")
    rubric.add_argument("--judge-from", metavar="CONFIG", type=Path,
                        help="a medbench.yaml (or a bank folder) whose evaluator.judge grades the judge "
                             "criteria (default: none; they are left out as ungraded)")
    rubric.add_argument("--show", action="store_true", help="list every disagreement")
    add_format(parser, ("text", "md", "json"))


def command_bank(args: argparse.Namespace) -> Path:
    """The command's bank root (top-level or sub-command ``--bank``, else the default)."""
    from medbench_tui.core.paths import bank_root, default_bank

    given = getattr(args, "bank", None)
    return bank_root(Path(given)) if given else default_bank()


def command_store(args: argparse.Namespace, *, reading: bool = False) -> Path:
    """Where the command's runs are: ``--store``, else the ``run_store`` setting, else the
    bank's own (``reading``: see :func:`medbench_tui.core.paths.run_store_for`)."""
    from medbench_tui.core.paths import run_store_for
    from medbench_tui.core.settings import load_settings

    given = getattr(args, "store", None)
    override = Path(given).expanduser() if given else load_settings().run_store
    return run_store_for(command_bank(args), override, reading=reading)


def open_bank_store(args: argparse.Namespace, *, create: bool, reading: bool = False) -> RunStore:
    """The command's run store (see :func:`command_store`), opened."""
    from medbench_tui.core.runs.store import RunStore

    return RunStore(command_store(args, reading=reading), create=create)


def run(args: argparse.Namespace) -> int:
    import sys

    from medbench_tui.cli._output import emit_json
    from medbench_tui.core.errors import MedbenchError
    from medbench_tui.core.review.adjudication import AdjudicationBook
    from medbench_tui.core.review.agreement import agreement_report, render

    if args.rubric_labels is not None:
        return run_rubric(args)
    if args.cases is not None or args.judge_from is not None or args.show:
        from medbench_tui.core.errors import UsageError

        raise UsageError("--cases, --judge-from and --show go with --rubric-labels PATH")
    with open_bank_store(args, create=False, reading=True) as store:
        book = AdjudicationBook(store)
        group = args.group
        if group is None:
            groups = book.groups_with_records()
            if not groups:
                raise MedbenchError(
                    "no adjudication records in this run store: adjudicate runs in the TUI's Review mode (F7) "
                    "or import them with 'medbench adjudication import FILE'"
                )
            group = groups[0]
        else:
            store.group(group)  # a clear error for an unknown group
        records = book.records(group_id=group, rater=args.rater)
        if not records:
            who = f" by {args.rater}" if args.rater else ""
            raise MedbenchError(f"run group {group} has no adjudication records{who}")
        runs = adjudicated_runs(store, command_bank(args), {r.run_id for r in records})
    doc = agreement_report(records, runs, group_id=group, rater=args.rater)
    if args.format == "json":
        emit_json(doc)
    else:
        sys.stdout.write(render(doc, args.format))
    return 0


def run_rubric(args: argparse.Namespace) -> int:
    """The rubric graders against physicians' labels."""
    import asyncio
    import sys

    from medbench_tui.cli._output import emit_json
    from medbench_tui.core.review.rubric_agreement import collect, render_rubric, rubric_agreement_report
    from medbench_tui.core.review.rubric_labels import load_label_sets, rubric_cases_in

    labels = Path(args.rubric_labels).expanduser()
    if not labels.exists():
        from medbench_tui.core.errors import UsageError

        raise UsageError(f"--rubric-labels {labels}: no such file or folder")
    cases = rubric_cases_in(Path(args.cases).expanduser() if args.cases is not None else command_bank(args))
    sets = load_label_sets(labels, cases)
    judge = _judge_from(Path(args.judge_from).expanduser()) if args.judge_from is not None else None
    doc = rubric_agreement_report(asyncio.run(collect(sets, judge)))
    if args.format == "json":
        emit_json(doc)
    else:
        sys.stdout.write(render_rubric(doc, args.format, show=args.show))
    return 0


def _judge_from(where: Path) -> Judge:
    """The judge of ``evaluator.judge`` in a medbench.yaml (or a bank folder's)."""
    from medbench_tui.core.cases.bankconfig import load_bank_config, parse_bank_config
    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.rubric import Judge

    if where.is_dir():
        config = load_bank_config(where)
    else:
        try:
            config = parse_bank_config(where.read_text(encoding="utf-8"), where)
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"--judge-from {where}: cannot read it ({exc})") from exc
    endpoint = config.evaluator.judge
    if endpoint is None:
        raise UsageError(f"--judge-from {where}: it configures no judge: add `evaluator: {{judge: {{base_url: ..., "
                         "model: ...}}}}`")
    return Judge.from_endpoint(endpoint)


def group_agreement(store: RunStore, bank: Path, group_id: str) -> JSONObject | None:
    """The agreement document of a run group, or None when nobody adjudicated it."""
    from medbench_tui.core.review.adjudication import AdjudicationBook
    from medbench_tui.core.review.agreement import agreement_report

    records = AdjudicationBook(store).records(group_id=group_id)
    if not records:
        return None
    runs = adjudicated_runs(store, bank, {r.run_id for r in records})
    return agreement_report(records, runs, group_id=group_id)


def adjudicated_runs(store: RunStore, bank: Path, run_ids: set[int]) -> list[AdjudicatedRun]:
    """The case and scorecard of each adjudicated run whose case file still reads (the
    metric effect leaves out the others)."""
    from medbench_tui.core.errors import MedbenchError
    from medbench_tui.core.paths import run_case_file
    from medbench_tui.core.review.agreement import AdjudicatedRun
    from medbench_tui.core.validate import load_valid_case

    out = []
    for run_id in sorted(run_ids):
        try:
            record = store.run(run_id)
            case = load_valid_case(run_case_file(bank, record.case_path))
        except (MedbenchError, OSError, ValueError):
            continue
        if record.scorecard is not None:
            out.append(AdjudicatedRun(run_id, case, record.scorecard))
    return out
