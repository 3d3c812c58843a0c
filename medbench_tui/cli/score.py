"""Score a recorded transcript (YAML or JSON) against a case.

Prints the scorecard (plain text, or the JSON document with --format json). The case
must be valid (its errors are listed otherwise). The default extractor reads the final
response deterministically; --extractor llm uses the `evaluator.llm` endpoint of the
case bank's medbench.yaml. Exit status: 0 when scored (an incomplete run is scored
too, and flagged), 1 for an invalid case or transcript, 2 on usage errors.
"""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    from medbench_tui.cli._output import add_format

    parser.add_argument("case", metavar="CASE", help="the case file (YAML)")
    parser.add_argument("transcript", metavar="TRANSCRIPT", help="the transcript file (YAML, or JSON by suffix)")
    add_format(parser)
    parser.add_argument(
        "--extractor",
        choices=("text", "llm"),
        default="text",
        help="how the final response is read: text (deterministic, default) or llm (evaluator.llm in medbench.yaml)",
    )


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from medbench_tui.cli._output import emit_json
    from medbench_tui.core.errors import MedbenchError, UsageError

    case_path, transcript_path = Path(args.case), Path(args.transcript)
    for path, what in ((case_path, "case"), (transcript_path, "transcript")):
        if not path.is_file():
            raise UsageError(f"no such {what} file: {path}")

    from medbench_tui.core.scoring import render_scorecard_text, score
    from medbench_tui.core.scoring.extractor_choice import make_extractor
    from medbench_tui.core.transcript import load_transcript
    from medbench_tui.core.validate import load_valid_case

    case = load_valid_case(case_path)
    transcript = load_transcript(transcript_path)
    if transcript.case_id != case.id:
        raise MedbenchError(
            f"{transcript_path} is a transcript of case {transcript.case_id!r}, not of {case.id!r} "
            f"({case_path}): give the case it was recorded on"
        )
    evaluator = None
    if args.extractor == "llm":
        from medbench_tui.core.cases.bankconfig import load_bank_config
        from medbench_tui.core.paths import bank_root_of

        evaluator = load_bank_config(bank_root_of(case_path)).evaluator
        if evaluator.llm is not None:
            from medbench_tui.cli._keys import require_keys

            require_keys([evaluator.llm])
    from medbench_tui.core.costs.prices import bank_prices
    from medbench_tui.core.paths import bank_root_of as root_of
    from medbench_tui.core.rubric.consultation import grade_final, with_criteria

    card = score(case, transcript, extractor=make_extractor(args.extractor, evaluator),
                 prices=bank_prices(root_of(case_path)))
    graded = grade_final(case, transcript)  # the case's rubric criteria, if any (judge criteria: ungraded)
    if args.format == "json":
        emit_json(with_criteria(card.to_json(), graded))
        return 0
    print(render_scorecard_text(card), end="")
    if graded is not None:
        from medbench_tui.core.rubric.side_by_side import criteria_side_by_side

        shown = "not graded" if graded.score is None else f"{100 * graded.score:.0f}"
        print(f"\nRubric criteria on the final response: score {shown} (points met over positive points)")
        for row in criteria_side_by_side([[graded]]):
            cell = row.cells[0]
            if cell is not None:
                quote = f" \"{cell.evidence}\"" if cell.evidence else ""
                print(f"  {cell.shown():<9} {row.weight:+d}  {row.text}{quote}")
    return 0
