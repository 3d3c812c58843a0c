"""How far the deterministic rubric grader agrees with a physician's labels.

    python benchmarks/rubric_agreement.py [--cases cases/rubric] [--answers tests/data/rubric-labels/answers]
                                          [--show] [--quick]

Each labelled answer file holds three answers to one rubric case (excellent, partial, unsafe),
written and labelled by the case's author before any grader ran on them, then checked by a
second physician: for a points rubric, each criterion met or not met; for an action panel, the
actions each answer includes. Criteria graded by a judge or a physician are left out (they are
ungraded offline). Prints the share of decisions that agree, against the target.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from medbench_tui.core.review.rubric_agreement import PANEL, collect
from medbench_tui.core.review.rubric_labels import load_label_sets, rubric_cases_in

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "cases" / "rubric"
ANSWERS = ROOT / "tests" / "data" / "rubric-labels" / "answers"
TARGET = 95.0
QUICK_FILES = 5


def agreement(cases: Path, answers: Path, *, quick: bool = False, show: bool = False) -> dict[str, tuple[int, int]]:
    """Agreeing and all decisions, for criteria and for panel actions (``medbench agreement
    --rubric-labels`` gives kappa and F1 per grader kind beside these)."""
    sets = load_label_sets(answers, rubric_cases_in(cases))
    found = asyncio.run(collect(sets[:QUICK_FILES] if quick else sets))
    counts = {"criteria": [0, 0], "panel actions": [0, 0]}
    for pair in found.pairs:
        agree = pair.grader == pair.physician
        tally = counts["panel actions" if pair.kind == PANEL else "criteria"]
        tally[0] += agree
        tally[1] += 1
        if show and not agree:
            print(f"  {pair.case_id}/{pair.answer_id}: {pair.item} ({pair.kind}) label {pair.physician}, "
                  f"grader {pair.grader} ({pair.reason})")
    return {name: (agree, total) for name, (agree, total) in counts.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--answers", type=Path, default=ANSWERS)
    parser.add_argument("--show", action="store_true", help="list every disagreement")
    parser.add_argument("--quick", action="store_true", help=f"the first {QUICK_FILES} answer files only")
    args = parser.parse_args(argv)
    met = True
    for name, (agree, total) in agreement(args.cases, args.answers, quick=args.quick, show=args.show).items():
        share = 100 * agree / total if total else 100.0
        met = met and share >= TARGET
        print(f"{name:14} {agree}/{total} = {share:.1f}% (target >= {TARGET:.0f}%)")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
