"""How far the scorer agrees with a physician's hand labels, item by item.

    python benchmarks/scoring_agreement.py [--answers DIR] [--extractor text|llm|all] [--show N] [--quick]

Scores every answer of the labelled set (``tests/data/answers``, rules in its
LABELLING.md) against its bundled case and compares, for every reference item of the
case, the scorer's decision with the label: a diagnosis is final, differential or not
named; a workup or treatment item is given, ``different`` (a drug of a required item's
group) or not given (a label ``negated`` is "not given"). Prints item-level agreement
(all reference items, and the items that the answer or the scorer touched),
agreement per section, per metric (exact for the binary metrics, within 5 points
otherwise; the expected values follow from the labels by the contract's formulas), the
critical-condition verdicts, and every disagreement with the scorer's evidence and
rule. The last line is ``items <a>/<n> = <p>%; safety verdicts <k>/<m>``.

Then the grader's own doubt (``core/scoring/certainty.py``): how many decisions and verdicts it
marks uncertain, how many of its disagreements with the labels are among them, and how often the
certain ones agree, with each doubt rule's count; a disagreement marked uncertain says so.

``--extractor all`` (the default) runs the text extractor and, when the bank's
``medbench.yaml`` configures ``evaluator.llm``, the LLM extractor too, each measured the
same way; the last line is that of the last extractor run. Needs no test extras.
Labels that name no current reference item of their case, or lack a critical-condition
verdict, are listed under a ``WARNING`` line first: they would be measured as ``not_found``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml import YAML

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import build_scorecard
from medbench_tui.core.scoring.extraction_model import Extraction, Extractor
from medbench_tui.core.scoring.match import Matching, match
from medbench_tui.core.scoring.metrics import unexpected_penalty, unlisted_penalty
from medbench_tui.core.scoring.reasons import GIVEN  # the statuses that mean "given" (not_indicated too)
from medbench_tui.core.scoring.reference import Ref, reference_table
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.support.answer_labels
from tests.support.answer_labels import label_problems  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ANSWERS = ROOT / "tests" / "data" / "answers"
CASES = ROOT / "cases"
BINARY = ("diagnosis_accuracy", "critical_conditions_passed")
WITHIN = 5.0
IMPLICIT = "cc-implicit-contraindicated"


@dataclass
class Tally:
    agree: int = 0
    total: int = 0

    def add(self, ok: bool) -> None:
        self.agree += ok
        self.total += 1

    def text(self) -> str:
        share = 100.0 * self.agree / self.total if self.total else 100.0
        return f"{self.agree}/{self.total} = {share:.1f}%"


@dataclass
class Report:
    items: Tally = field(default_factory=Tally)
    touched: Tally = field(default_factory=Tally)
    sections: dict[str, Tally] = field(default_factory=dict)
    metrics: dict[str, Tally] = field(default_factory=dict)
    verdicts: Tally = field(default_factory=Tally)
    disagreements: list[str] = field(default_factory=list)
    treatment_error: dict[str, list[float]] = field(default_factory=dict)
    """Answer style -> |treatment accuracy scored - expected| of each answer of that style."""
    certain: Tally = field(default_factory=Tally)
    uncertain: Tally = field(default_factory=Tally)
    certain_verdicts: Tally = field(default_factory=Tally)
    uncertain_verdicts: Tally = field(default_factory=Tally)
    doubts: dict[str, Tally] = field(default_factory=dict)
    """Doubt rule -> the decisions it flagged, and how many of them agree with the label."""


def _label(value: str | None) -> str:
    """A label as the scorer can state it: every way of not recommending is "not given"."""
    if value in (None, "not_found", "negated"):
        return "not_found"
    return value


def scorer_decisions(matching: Matching, extraction: Extraction) -> dict[tuple[str, str], tuple[str, str]]:
    """(section, reference name) -> (decision, evidence and rule) for every item the scorer gave."""
    out: dict[tuple[str, str], tuple[str, str]] = {}
    for p in matching.diagnoses.rows:
        if p.ref is not None and p.entity is not None:
            section = "primary" if p.ref.kind == "primary" else "secondary"
            out[(section, p.ref.name)] = ("final", _why(p.entity, p.via))
    for p in matching.differential.rows:
        if p.ref is not None and p.entity is not None:
            section = {"primary": "primary", "secondary": "secondary"}.get(p.ref.kind, "differential")
            decision = "found" if section == "differential" else "differential"
            out.setdefault((section, p.ref.name), (decision, _why(p.entity, p.via)))
    for entity in extraction.scored("diagnosis"):
        for c in matching.candidates_of(entity):
            if c.ref.kind == "differential":
                out.setdefault(("differential", c.ref.name), ("final", _why(entity, c.via)))
    for section, rows in (("workup", matching.workup.rows), ("treatment", matching.treatment.rows)):
        for p in rows:
            if p.ref is None or p.entity is None:
                continue
            decision = "different" if p.status == "different" else "found" if p.status in GIVEN else "not_found"
            out[(section, p.ref.name)] = (decision, _why(p.entity, p.via))
    return out


def _why(entity, via: str | None) -> str:
    quote = entity.evidence.text if hasattr(entity.evidence, "text") else str(entity.evidence)
    reason = getattr(entity, "reason", None) or f"matched by {via or 'name'}"
    return f'"{quote}" ({reason})'


def mentions(extraction: Extraction) -> dict[str, str]:
    """Negated or otherwise unscored mentions by their text, for the report."""
    return {e.text.lower(): (e.negated or "") for e in extraction.entities if not e.scored}


def expected_metrics(case: Case, labels: dict) -> dict[str, float | None]:
    table = reference_table(case)
    primary = labels.get("primary", "not_found")
    differential = labels.get("differential") or {}
    workup = labels.get("workup") or {}
    treatment = labels.get("treatment") or {}
    conditions = labels.get("conditions") or {}
    out: dict[str, float | None] = {"diagnosis_accuracy": 100.0 if primary == "final" else 0.0}
    found = sum(1 for r in table.differential if differential.get(r.name) == "found")
    out["differential_accuracy"] = 100.0 * found / len(table.differential) if table.differential else None
    required = sum(r.weight for r in table.workup if r.klass == "required")
    if required > 0:
        gained = sum(r.weight for r in table.workup if r.klass == "required" and workup.get(r.name) == "found")
        lost = sum(
            unexpected_penalty(r, case)
            for r in table.workup
            if r.klass == "unexpected" and workup.get(r.name) == "found"
        )
        lost += unlisted_penalty(case) * len(labels.get("extra_workup") or [])
        out["workup_score"] = max(0.0, min(100.0, 100.0 * (gained - lost) / required))
    else:
        out["workup_score"] = None
    matching = different = extra = missing = 0
    for r in table.treatment:
        label = treatment.get(r.name)
        if r.klass in ("required", "acceptable", "optional") and label == "found":
            matching += 1
        elif r.klass in ("contraindicated", "not_indicated") and label == "found":
            extra += 1
        elif r.klass == "required" and label == "different":
            different += 1
        elif r.klass == "required":
            missing += 1
    extra += len(labels.get("extra") or [])
    whole = matching + extra + missing + different
    out["treatment_accuracy"] = 100.0 * matching / whole if whole else None
    out["critical_conditions_passed"] = 100.0 if all(v != "FAIL" for v in conditions.values()) else 0.0
    return out


def _close(metric: str, expected: float | None, got: float | None) -> bool:
    if expected is None or got is None:
        return expected is None and got is None
    if metric in BINARY:
        return expected == got
    return abs(expected - got) <= WITHIN


def compare(case: Case, answer: dict, extractor: Extractor, report: Report) -> None:
    labels = answer["labels"]
    final = FinalResponse(text=answer["text"])
    extraction = extractor.extract(case, final)
    table = reference_table(case)
    matching = match(extraction, table)
    card = build_scorecard(case, Transcript(case_id=case.id, final=final), extraction)
    decisions = scorer_decisions(matching, extraction)
    doubts_of: dict[str, list[str]] = {}
    for entries in (card.items.diagnoses, card.items.differential, card.items.workup, card.items.treatment):
        for entry in entries:
            if entry.reference is not None:
                doubts_of.setdefault(entry.reference, []).extend(entry.doubts)
    for absence in card.uncertain_absences:
        doubts_of.setdefault(absence.reference, []).extend(absence.doubts)
    refs: list[tuple[str, Ref]] = [("primary", table.primary)]
    refs += [("secondary", r) for r in table.secondary]
    refs += [("differential", r) for r in table.differential]
    refs += [("workup", r) for r in table.workup] + [("treatment", r) for r in table.treatment]
    for section, ref in refs:
        raw = labels.get("primary") if section == "primary" else (labels.get(section) or {}).get(ref.name)
        expected = _label(raw)
        if section == "secondary" and expected == "differential":
            expected = "not_found"
        got, why = decisions.get((section, ref.name), ("not_found", ""))
        if section == "secondary" and got == "differential":
            got = "not_found"
        ok = expected == got
        report.items.add(ok)
        report.sections.setdefault(section, Tally()).add(ok)
        doubts = doubts_of.get(ref.name, [])
        (report.uncertain if doubts else report.certain).add(ok)
        for doubt in dict.fromkeys(doubts):
            report.doubts.setdefault(doubt, Tally()).add(ok)
        if raw not in (None, "not_found") or got != "not_found":
            report.touched.add(ok)
        if not ok:
            report.disagreements.append(
                f"{answer['id']:<26} {section:<12} {ref.name[:60]!r}: label {raw or 'not_found'}, scorer {got}"
                + (f" {why}" if why else "") + (f" [uncertain: {', '.join(doubts)}]" if doubts else "")
            )
    got_metrics = card.metrics.model_dump()
    for metric, wanted in expected_metrics(case, labels).items():
        scored = got_metrics[metric]
        if metric == "treatment_accuracy" and wanted is not None and scored is not None:
            style = str(answer.get("style", "?")).split()[0]
            report.treatment_error.setdefault(style, []).append(abs(float(scored) - wanted))
        ok = _close(metric, wanted, None if scored is None else float(scored))
        report.metrics.setdefault(metric, Tally()).add(ok)
        if not ok:
            report.disagreements.append(f"{answer['id']:<26} metric       {metric}: expected {wanted}, scorer {scored}")
    by_id = {c.id: c for c in card.critical_conditions}
    for cid, verdict in (labels.get("conditions") or {}).items():
        got_cond = by_id.get(cid)
        status = got_cond.status if got_cond is not None else "missing"
        ok = status == verdict
        report.verdicts.add(ok)
        unsure = got_cond is not None and got_cond.certainty == "uncertain"
        (report.uncertain_verdicts if unsure else report.certain_verdicts).add(ok)
        if not ok:
            evidence = got_cond.evidence if got_cond is not None else ""
            report.disagreements.append(
                f"{answer['id']:<26} condition    {cid}: label {verdict}, scorer {status} ({evidence})"
            )


def load_answers(folder: Path) -> list[tuple[Case, dict]]:
    yaml = YAML(typ="safe", pure=True)
    out = []
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.load(path.read_text(encoding="utf-8"))
        beside = folder.parent / "cases" / f"{data['case']}.yaml"  # a set of new cases keeps them beside
        case = load_valid_case(beside if beside.is_file() else CASES / f"{data['case']}.yaml")
        out += [(case, answer) for answer in data["answers"]]
    return out


def extractors(choice: str) -> list[tuple[str, Extractor]]:
    from medbench_tui.core.cases.bankconfig import load_bank_config
    from medbench_tui.core.scoring.extractor_choice import make_extractor

    out: list[tuple[str, Extractor]] = []
    if choice in ("text", "all"):
        out.append(("text", make_extractor("text")))
    evaluator = load_bank_config(ROOT).evaluator
    if choice == "llm" or (choice == "all" and evaluator.llm is not None):
        out.append(("llm", make_extractor("llm", evaluator)))
    return out


def warn_stale(answers: list[tuple[Case, dict]]) -> None:
    """Say loudly when the labels no longer name the cases: such a figure measures a stale reference."""
    stale = [f"{answer['id']}: {p}" for case, answer in answers for p in label_problems(case, answer["labels"])]
    if stale:
        print(f"WARNING: {len(stale)} stale or missing labels (measured as not_found or not at all); re-label them")
        for line in stale:
            print("  " + line)


def run(name: str, extractor: Extractor, answers: list[tuple[Case, dict]], show: int) -> Report:
    report = Report()
    for case, answer in answers:
        compare(case, answer, extractor, report)
    print(f"== {name} extractor: {len(answers)} answers over {len({c.id for c, _ in answers})} cases")
    warn_stale(answers)
    print(f"items (every reference item)   {report.items.text()}")
    print(f"items (mentioned or given)     {report.touched.text()}")
    for section, tally in report.sections.items():
        print(f"  {section:<28} {tally.text()}")
    print("metrics (binary exact, others within 5 points)")
    for metric, tally in report.metrics.items():
        print(f"  {metric:<28} {tally.text()}")
    print(f"critical-condition verdicts    {report.verdicts.text()}")
    if report.treatment_error:
        print("treatment accuracy, mean |scored - expected| by answer style")
        for style, errors in sorted(report.treatment_error.items()):
            print(f"  {style:<28} {sum(errors) / len(errors):5.1f} points over {len(errors)} answers")
    print_certainty(report)
    kinds = Counter(line.split()[1] for line in report.disagreements)
    print(f"disagreements: {len(report.disagreements)} ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))})")
    for line in report.disagreements[:show]:
        print("  " + line)
    if len(report.disagreements) > show:
        print(f"  ... {len(report.disagreements) - show} more (--show)")
    share = 100.0 * report.items.agree / report.items.total if report.items.total else 100.0
    print(
        f"items {report.items.agree}/{report.items.total} = {share:.1f}%; "
        f"safety verdicts {report.verdicts.agree}/{report.verdicts.total}"
    )
    return report


def _calibration(certain: Tally, uncertain: Tally) -> str:
    total = certain.total + uncertain.total
    wrong = (certain.total - certain.agree) + (uncertain.total - uncertain.agree)
    flagged = uncertain.total - uncertain.agree
    return (f"flagged {uncertain.total}/{total} = {100.0 * uncertain.total / total if total else 0:.1f}% "
            f"(target <= 15%); disagreements flagged {flagged}/{wrong} = "
            f"{100.0 * flagged / wrong if wrong else 100.0:.1f}% (target >= 60%); "
            f"certain agree {certain.text()} (target >= 98%)")


def print_certainty(report: Report) -> None:
    """How well the grader's own doubt predicts where it disagrees with the labels."""
    print(f"certainty, items     {_calibration(report.certain, report.uncertain)}")
    print(f"certainty, verdicts  {_calibration(report.certain_verdicts, report.uncertain_verdicts)}")
    for doubt, tally in sorted(report.doubts.items(), key=lambda kv: -kv[1].total):
        print(f"  {doubt:<28} flagged {tally.total:4}, of them disagreeing {tally.total - tally.agree}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=Path, default=ANSWERS)
    parser.add_argument("--extractor", choices=("text", "llm", "all"), default="all")
    parser.add_argument("--show", type=int, default=400, help="disagreements to list")
    parser.add_argument("--quick", action="store_true", help="the first 12 answers only (that nothing rotted)")
    args = parser.parse_args(argv)
    answers = load_answers(args.answers)[: 12 if args.quick else None]
    for name, extractor in extractors(args.extractor):
        run(name, extractor, answers, args.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
