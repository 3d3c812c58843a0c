"""A held-out battery of case checks: how often the grader and the patient do what a second
physician expects, on phrasings nobody on the project wrote.

    python benchmarks/check_battery.py [--quick] [--misses] [--battery DIR]

Each file of the battery (default ``tests/data/check-battery``) is a ``checks:`` block for one
bundled case, written by a physician who did not author the case and never saw the grader,
labelled before anything ran (rules: the folder's README). The battery's checks are run as if
they were the case's own (``medbench validate`` runs a case's checks the same way) and counted by
row: each critical-condition verdict, each item label, each diagnosis and each question stated.
Target: the critical-condition verdicts agree on at least 95% of rows. The battery stays out of
the case files, so it stays held out: a fix is judged on it, never tuned into it.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from medbench_tui.core.authoring.case_checks import run_checks
from medbench_tui.core.cases.model import Case
from medbench_tui.core.cases.yamlio import parse_case_text
from medbench_tui.core.paths import bundled_cases_dir

ROOT = Path(__file__).resolve().parent.parent
BATTERY = ROOT / "tests" / "data" / "check-battery"
VERDICT_TARGET = 95.0
QUICK_FILES = 2
_SHOULD = re.compile(r"^`(?P<name>[^`]+)` should be")


@dataclass
class Tally:
    rows: Counter[str] = field(default_factory=Counter)
    failed: Counter[str] = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)

    def share(self, kind: str) -> float:
        rows = self.rows[kind]
        return 100.0 * (rows - self.failed[kind]) / rows if rows else 100.0


def with_battery(case_path: Path, battery: Path) -> Case:
    """The bundled case with the battery's checks in place of its own."""
    data = parse_case_text(case_path.read_text(encoding="utf-8")).data
    data["checks"] = yaml.safe_load(battery.read_text(encoding="utf-8"))["checks"]
    return Case.model_validate(data)


def play(battery: Path, tally: Tally) -> None:
    case_path = bundled_cases_dir() / battery.name
    case = with_battery(case_path, battery)
    assert case.checks is not None
    conditions = {c.id for c in case.critical_conditions}
    if any(t.klass == "contraindicated" for t in case.treatment):
        conditions.add("cc-implicit-contraindicated")
    items = {w.item for w in case.workup} | {t.item for t in case.treatment} | {d.name for d in case.differential}
    items |= {case.diagnosis.primary.name} | {d.name for d in case.diagnosis.secondary}
    stale: set[str] = set()
    for check in case.checks.answers:
        gone = set(check.expect.conditions) - conditions  # a condition a later review removed from the case
        stale |= gone
        tally.rows["condition"] += len(check.expect.conditions) - len(gone)
        tally.rows["stale"] += len(gone)
        tally.rows["item"] += len(check.expect.items)
        tally.rows["diagnosis"] += check.expect.diagnosis is not None
        for name in set(check.expect.items) - items:  # a row that checks nothing agrees with nothing
            tally.failed["item"] += 1
            tally.misses.append(f"  {case.id} `{check.id}`: `{name}` is no item of the case")
    tally.rows["question"] += len(case.checks.questions)
    for outcome in run_checks(case, case_path.parent):
        if outcome.passed:
            continue
        if outcome.kind == "question":
            tally.failed["question"] += 1
        for problem in outcome.problems:
            named = _SHOULD.match(problem)
            if named and named.group("name") not in stale:
                tally.failed["condition" if named.group("name") in conditions else "item"] += 1
            elif problem.startswith("the diagnosis should be"):
                tally.failed["diagnosis"] += 1
        tally.misses.append(f"  {case.id} {outcome.label}: " + "; ".join(outcome.problems)[:400])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--battery", type=Path, default=BATTERY)
    parser.add_argument("--quick", action="store_true", help=f"the first {QUICK_FILES} files only")
    parser.add_argument("--misses", action="store_true", help="list every failed check")
    args = parser.parse_args(argv)
    files = sorted(args.battery.glob("*.yaml"))[: QUICK_FILES if args.quick else None]
    tally = Tally()
    for battery in files:
        play(battery, tally)
    if args.misses:
        print("\n".join(tally.misses))
    print(f"{len(files)} cases")
    for kind in ("condition", "item", "diagnosis", "question"):
        rows = tally.rows[kind]
        print(f"  {kind + ' rows':<16} {rows - tally.failed[kind]}/{rows} agree = {tally.share(kind):.1f}%")
    if tally.rows["stale"]:
        print(f"  WARNING: {tally.rows['stale']} condition rows name a condition the case no longer has "
              "(removed by a later review): not counted")
    verdicts = tally.share("condition")
    ok = verdicts >= VERDICT_TARGET
    print(f"  {'ok  ' if ok else 'MISS'} critical-condition verdicts {verdicts:.1f}% (>= {VERDICT_TARGET:.0f}%)")
    return 0 if ok or args.quick else 1


if __name__ == "__main__":
    sys.exit(main())
