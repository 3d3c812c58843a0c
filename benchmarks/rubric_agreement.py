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
from pathlib import Path

from ruamel.yaml import YAML

from medbench_tui.core.cases.rubric import RubricCase
from medbench_tui.core.rubric.grading import grade

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "cases" / "rubric"
ANSWERS = ROOT / "tests" / "data" / "rubric-labels" / "answers"
TARGET = 95.0
QUICK_FILES = 5


def agreement(cases: Path, answers: Path, *, quick: bool = False, show: bool = False) -> dict[str, tuple[int, int]]:
    """Agreeing and all decisions, for criteria and for panel actions."""
    yaml = YAML(typ="safe", pure=True)
    counts = {"criteria": [0, 0], "panel actions": [0, 0]}
    files = sorted(answers.glob("*.yaml"))
    for path in files[:QUICK_FILES] if quick else files:
        labelled = yaml.load(path.read_text(encoding="utf-8"))
        case = RubricCase.model_validate(yaml.load((cases / f"{labelled['case']}.yaml").read_text(encoding="utf-8")))
        for answer in labelled["answers"]:
            result = grade(case, answer["text"])
            where = f"{labelled['case']}/{answer['id']}"
            included = set(answer.get("included") or [])
            for action in result.actions:
                ok = action.included == (action.action in included)
                counts["panel actions"][0] += ok
                counts["panel actions"][1] += 1
                if show and not ok:
                    print(f"  {where}: {action.action!r} label {'in' if action.action in included else 'out'}, "
                          f"grader {'in' if action.included else 'out'} ({action.reason})")
            labels = answer.get("labels") or {}
            for decision in result.criteria:
                if decision.verdict == "ungraded" or decision.criterion not in labels:
                    continue
                ok = (decision.verdict == "met") == (labels[decision.criterion] == "met")
                counts["criteria"][0] += ok
                counts["criteria"][1] += 1
                if show and not ok:
                    print(f"  {where}: {decision.criterion} ({decision.grader}) label {labels[decision.criterion]}, "
                          f"grader {decision.verdict} ({decision.reason})")
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
