"""The validator's warnings, measured: false alarms on correct cases, defects caught on broken ones.

    python benchmarks/validator_precision.py [--quick] [--show] [--correct DIR ...] [--broken DIR]

- **Correct cases** (default: the new cases of sets B and C and the reviewed drafts in
  ``tests/data/validator/correct``, all written by physicians outside the bundled bank):
  every warning or error ``medbench validate`` gives there is a false alarm (an info,
  which only explains how something allowed is read, is not). Target: at most 1 per 5
  cases, and none absurd. Absurd is judged mechanically where it can be: a code-title
  suggestion from another WHO chapter that shares no word of substance with the name.
  ``--show`` lists each one, with its message, for a person to judge the rest.
- **Broken cases** (default: ``tests/data/validator/broken``, with ``LABELS.yaml``
  written by their author before any run): a labelled defect is caught when a warning or
  error of a fitting kind (``KIND_CODES``) is reported on its line or within 2 lines.
  Target: every one.

The full run also runs the correct cases' own answer and question checks (the grader and
the patient against what the author expects) and prints their failures apart: they are
disagreements with the grader, not lint. ``--quick`` leaves them out.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from medbench_tui.core.diagnostics import Diagnostic
from medbench_tui.core.validate import CaseReport, validate_paths

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
CORRECT = [DATA / "newcases" / "cases", DATA / "newcases-c" / "cases", DATA / "validator" / "correct"]
BROKEN = DATA / "validator" / "broken"
NEAR = 2                  # lines either side of a labelled line that still count as its place
FALSE_PER_5_TARGET = 1.0  # warnings on correct cases, per 5 cases

# A label's kind (the broken set's author's words) -> the diagnostic codes that report it
# (a code matches when it starts with one of these). A kind not listed here takes any
# warning or error at its place, and is named in the output so the table can be extended.
KIND_CODES: dict[str, tuple[str, ...]] = {
    "yaml": ("yaml.", "schema.", "value."),
    "syntax": ("yaml.", "schema."),
    "schema": ("schema.", "value.", "yaml."),
    "type": ("schema.", "value."),
    "number": ("schema.type", "schema.enum"),
    "boolean": ("schema.type", "schema.enum"),
    "missing": ("schema.missing", "value.empty"),
    "field": ("schema.",),
    "value": ("value.", "schema."),
    "icd": ("icd10.",),
    "icd10": ("icd10.",),
    "code": ("icd10.",),
    "title": ("icd10.title_mismatch",),
    "alias": ("alias.", "ref.duplicate_item"),
    "leak": ("leak.",),
    "names": ("leak.",),
    "reference": ("ref.", "condition.", "check.", "case."),
    "ref": ("ref.", "condition.", "check."),
    "cc": ("condition.", "ref.unknown_item"),
    "condition": ("condition.", "check.unknown_condition", "ref.unknown_item"),
    "item": ("item.", "alias.", "ref.", "condition.", "check.unknown_item"),
    "duplicate": ("ref.duplicate", "bank.duplicate"),
    "attachment": ("attachment.", "record."),
    "contradicts": ("record.",),
    "contraindicated": ("condition.", "item.", "alias."),
    "setting": ("setting.",),
    "within": ("item.unknown_timing", "item.timing"),
    "timing": ("item.", "alias.bare_team", "condition."),
    "check": ("check.",),
}

@dataclass(frozen=True)
class Label:
    file: str
    line: int
    kind: str
    what: str


def _counted(diagnostic: Diagnostic) -> bool:
    return diagnostic.severity in ("error", "warning")


def correct_reports(folders: list[Path]) -> list[CaseReport]:
    return [report for folder in folders for report in validate_paths([folder])]


_SUGGESTED = re.compile(r"\b([A-Z][0-9]{2}(?:\.[0-9])?) '([^']*)'")


def absurd(diagnostic: Diagnostic) -> str | None:
    """Why a code-title warning's suggestion is absurd (another WHO chapter, no shared word of
    substance with the name), or None."""
    if diagnostic.code != "icd10.title_mismatch":
        return None
    from medbench_tui.core.icd10.data import tables
    from medbench_tui.core.icd10.text import content

    t = tables()
    found = re.match(r"([A-Z][0-9]{2}(?:\.[0-9])?) is '.*?' in WHO ICD-10 2019, "
                     r"which (?:does not look like|shares little with) '(.*?)'", diagnostic.message)
    if found is None:
        return None
    code, name = found.groups()
    rest = diagnostic.message[found.end():]
    name_words = set(content(t.folder.words(name)))
    for suggested, title in _SUGGESTED.findall(rest):
        if suggested == code or suggested[:3] == code[:3]:
            continue
        other_chapter = t.chapter_of(suggested) != t.chapter_of(code)
        if other_chapter and not name_words & set(content(t.folder.words(title))):
            return f"suggests {suggested} '{title}' from another chapter, sharing no word with '{name}'"
    return None


def read_labels(folder: Path) -> list[Label]:
    """LABELS.yaml as a list of {file, line, kind, what}, or a mapping file -> such entries."""
    data = yaml.safe_load((folder / "LABELS.yaml").read_text(encoding="utf-8"))
    if isinstance(data, dict) and isinstance(data.get("labels"), list):
        data = data["labels"]
    if isinstance(data, dict) and isinstance(data.get("defects"), list):
        data = data["defects"]
    entries: list[tuple[str | None, dict]] = []
    if isinstance(data, list):
        entries = [(None, e) for e in data if isinstance(e, dict)]
    elif isinstance(data, dict):
        for file, value in data.items():
            value = value.get("defects", value.get("labels", [value])) if isinstance(value, dict) else value
            entries += [(str(file), e) for e in (value or []) if isinstance(e, dict)]
    labels = []
    for file, entry in entries:
        name = str(entry.get("file") or entry.get("case") or file or "")
        name = name if name.endswith((".yaml", ".yml")) else f"{name}.yaml"
        labels.append(Label(name, int(entry["line"]), str(entry.get("kind", "")), str(entry.get("what", ""))))
    return labels


def fitting(kind: str, code: str) -> bool:
    """Whether a diagnostic code reports a defect of the label's kind."""
    words = [w for w in re.split(r"[^a-z0-9]+", kind.casefold()) if w]
    prefixes = [p for w in words for p in KIND_CODES.get(w, ())]
    if not prefixes:  # a kind the table does not know: any diagnostic at the place
        return True
    return code.startswith(tuple(prefixes)) or any(w and w in code for w in words)


def caught(label: Label, diagnostics: list[Diagnostic]) -> Diagnostic | None:
    near = [d for d in diagnostics if _counted(d) and d.line is not None and abs(d.line - label.line) <= NEAR]
    return next((d for d in near if fitting(label.kind, d.code)), None)


def _broken_reports(folder: Path) -> dict[str, list[Diagnostic]]:
    """Each case's diagnostics by its path relative to the set; every folder of the set is a bank."""
    folders = sorted({p.parent for p in folder.rglob("*.yaml") if p.name != "LABELS.yaml"})
    return {report.path.relative_to(folder).as_posix(): report.diagnostics
            for sub in folders for report in validate_paths([sub]) if report.path is not None}


def _name(report: CaseReport, folder: bool = False) -> str:
    if report.path is None:
        return "<text>"
    return f"{report.path.parent.name}/{report.path.name}" if folder else report.path.name


def run(correct: list[Path], broken: Path | None, *, quick: bool, show: bool) -> dict[str, float]:
    reports = correct_reports(correct)
    cases = len(reports)
    false = [(r, d) for r in reports for d in r.diagnostics if _counted(d)]
    absurd_ones = [(r, d, why) for r, d in false if (why := absurd(d))]
    per5 = 5 * len(false) / cases if cases else 0.0
    by_code: dict[str, int] = {}
    for _, d in false:
        by_code[d.code] = by_code.get(d.code, 0) + 1
    print(f"correct cases: {cases} in {len(correct)} folder(s)")
    print(f"  false alarms: {len(false)} ({per5:.2f} per 5 cases; target <= {FALSE_PER_5_TARGET:g})"
          f"  {'OK' if per5 <= FALSE_PER_5_TARGET else 'MISSED'}")
    print(f"  absurd:       {len(absurd_ones)} (target 0)  {'OK' if not absurd_ones else 'MISSED'}")
    for code, n in sorted(by_code.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"    {n:3d} {code}")
    if show:
        for report, d in false:
            print(f"  - {_name(report, folder=True)}:{d.line}: {d.severity} {d.code}: {d.message}")
        for report, d, why in absurd_ones:
            print(f"  ! absurd {_name(report)}:{d.line}: {why}")
    figures = {"cases": cases, "false": len(false), "per5": per5, "absurd": len(absurd_ones)}
    if not quick:
        figures["self_check_failures"] = _self_checks(reports, show)
    if broken is not None and (broken / "LABELS.yaml").is_file():
        labels = read_labels(broken)
        found = _broken_reports(broken)
        missed = [lab for lab in labels if caught(lab, found.get(lab.file, [])) is None]
        unknown = sorted({lab.kind for lab in labels
                          if not any(w in KIND_CODES for w in re.split(r"[^a-z0-9]+", lab.kind.casefold()))})
        print(f"broken set: {len(labels)} labelled defects in {len({lab.file for lab in labels})} file(s)")
        print(f"  caught: {len(labels) - len(missed)} of {len(labels)} (target: every one)"
              f"  {'OK' if not missed else 'MISSED'}")
        if unknown:
            print(f"  kinds matched by place only (not in KIND_CODES): {', '.join(unknown)}")
        for label in missed:
            near = [f"{d.line}:{d.code}" for d in found.get(label.file, []) if _counted(d)]
            print(f"  missed {label.file}:{label.line} [{label.kind}] {label.what}"
                  + (f"  (reported: {', '.join(near)})" if show else ""))
        figures.update(labelled=len(labels), caught=len(labels) - len(missed))
    elif broken is not None:
        print(f"broken set: none yet ({broken / 'LABELS.yaml'} is missing)")
    return figures


def _self_checks(reports: list[CaseReport], show: bool) -> int:
    """The correct cases' own answer and question checks that fail (grader or patient, not lint)."""
    from medbench_tui.core.authoring.case_checks import check_diagnostics
    from medbench_tui.core.paths import bank_root_of

    failed = []
    for report in reports:
        if report.case is not None and report.case.checks is not None and report.path and report.positions:
            failed += [(report, d) for d in check_diagnostics(report.case, bank_root_of(report.path),
                                                                report.positions)]
    print(f"  case self-checks failing (the grader or patient, not the validator; not counted): {len(failed)}")
    if show:
        for report, d in failed:
            print(f"  - {_name(report)}:{d.line}: {d.message[:160]}")
    return len(failed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--correct", type=Path, action="append", help="a folder of correct cases (repeatable)")
    parser.add_argument("--broken", type=Path, default=BROKEN, help="a folder of broken cases with LABELS.yaml")
    parser.add_argument("--quick", action="store_true", help="leave out the cases' own answer and question checks")
    parser.add_argument("--show", action="store_true", help="list every false alarm and every missed defect")
    args = parser.parse_args(argv)
    figures = run(args.correct or CORRECT, args.broken, quick=args.quick, show=args.show)
    met = figures["per5"] <= FALSE_PER_5_TARGET and not figures["absurd"]
    if "labelled" in figures:
        met = met and figures["caught"] == figures["labelled"]
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
