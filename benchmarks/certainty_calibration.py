"""How well the grader's own doubt finds its mistakes, pooled over every labelled answer set.

    python benchmarks/certainty_calibration.py [--quick]

Scores every answer of the labelled sets (the development set and each set of answers on new
cases, written and labelled by separate authors) with the text extractor, as
``scoring_agreement.py`` does for one set, and pools the certainty counts: of the grader's
disagreements with the physicians' labels, the share it marked uncertain (target >= 60%), the
share of all decisions it marked uncertain (target <= 15%), and how often its certain decisions
agree (target >= 98%). Item decisions and critical-condition verdicts are counted apart and
together, per set and pooled, and each doubt rule's count is shown so a rule that flags without
finding errors stands out. Returns 1 when a pooled target is missed.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from scoring_agreement import Report, Tally, compare, load_answers  # noqa: E402

from medbench_tui.core.scoring.extractor_choice import make_extractor  # noqa: E402

SETS = ("answers", "newcases/answers", "newcases-c/answers", "answers-d/answers", "heldout/answers",
        "newcases-e/answers", "newcases-f/answers", "newcases-g/answers", "newcases-h/answers",
        "newcases-i/answers", "newcases-j/answers", "newcases-k/answers",
        "newcases-l/answers", "newcases-m/answers",
        "newcases-n/answers", "newcases-o/answers", "newcases-p/answers",
        "newcases-q/answers", "newcases-r/answers",
        "newcases-s/answers", "newcases-t/answers", "newcases-u/answers",
        "newcases-v/answers", "newcases-w/answers", "newcases-x/answers", "newcases-y/answers",
        "newcases-z/answers", "newcases-aa/answers", "newcases-ab/answers", "newcases-ac/answers")
"""The labelled answer sets under tests/data: the development set first, then the new-case sets."""
FLAGGED_AT_MOST = 15.0
FOUND_AT_LEAST = 60.0
CERTAIN_AGREE_AT_LEAST = 98.0


@dataclass
class Calibration:
    """The certain and uncertain decisions of one kind, with how many of each agree with the labels."""

    certain: Tally = field(default_factory=Tally)
    uncertain: Tally = field(default_factory=Tally)

    def add(self, certain: Tally, uncertain: Tally) -> None:
        self.certain.agree += certain.agree
        self.certain.total += certain.total
        self.uncertain.agree += uncertain.agree
        self.uncertain.total += uncertain.total

    def figures(self) -> tuple[float, float, float]:
        """(% of decisions flagged, % of disagreements flagged, % of certain decisions agreeing)."""
        total = self.certain.total + self.uncertain.total
        flagged_wrong = self.uncertain.total - self.uncertain.agree
        wrong = flagged_wrong + self.certain.total - self.certain.agree
        return (100.0 * self.uncertain.total / total if total else 0.0,
                100.0 * flagged_wrong / wrong if wrong else 100.0,
                100.0 * self.certain.agree / self.certain.total if self.certain.total else 100.0)

    def line(self) -> str:
        flagged, found, agree = self.figures()
        wrong = (self.uncertain.total - self.uncertain.agree) + (self.certain.total - self.certain.agree)
        return (f"flagged {flagged:5.1f}% of {self.certain.total + self.uncertain.total:5}; disagreements flagged "
                f"{found:5.1f}% of {wrong:3}; certain agree {agree:6.2f}%")

    def met(self) -> bool:
        flagged, found, agree = self.figures()
        return flagged <= FLAGGED_AT_MOST and found >= FOUND_AT_LEAST and agree >= CERTAIN_AGREE_AT_LEAST


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the first 8 answers of two sets (that nothing rotted)")
    args = parser.parse_args(argv)
    extractor = make_extractor("text")
    pooled = {"items": Calibration(), "verdicts": Calibration(), "both": Calibration()}
    rules: dict[str, Tally] = {}
    for name in SETS[::4] if args.quick else SETS:
        report = Report()
        for case, answer in load_answers(ROOT / "tests" / "data" / name)[: 8 if args.quick else None]:
            compare(case, answer, extractor, report)
        kinds = {"items": (report.certain, report.uncertain),
                 "verdicts": (report.certain_verdicts, report.uncertain_verdicts)}
        for kind, (certain, uncertain) in kinds.items():
            one = Calibration()
            one.add(certain, uncertain)
            print(f"{name.split('/')[0]:<12} {kind:<9} {one.line()}")
            pooled[kind].add(certain, uncertain)
            pooled["both"].add(certain, uncertain)
        for rule, tally in report.doubts.items():
            into = rules.setdefault(rule, Tally())
            into.agree += tally.agree
            into.total += tally.total
    print(f"targets: flagged <= {FLAGGED_AT_MOST:.0f}%, disagreements flagged >= {FOUND_AT_LEAST:.0f}%, "
          f"certain agree >= {CERTAIN_AGREE_AT_LEAST:.0f}%")
    for kind, calibration in pooled.items():
        print(f"POOLED {kind:<9} {calibration.line()}  ({'met' if calibration.met() else 'MISSED'})")
    print("doubt rules (item decisions, pooled):")
    for rule, tally in sorted(rules.items(), key=lambda kv: -kv[1].total):
        wrong = tally.total - tally.agree
        print(f"  {rule:<30} flagged {tally.total:4}, of them disagreeing {wrong:3} "
              f"({100.0 * wrong / tally.total if tally.total else 0:.0f}%)")
    return 0 if all(c.met() for c in pooled.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
