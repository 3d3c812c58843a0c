"""How far the evaluator agrees with physicians, from adjudication records.

Percent agreement with a Wilson 95% interval, Cohen's kappa (statsmodels, with its
interval), the same per section; for critical conditions the evaluator's sensitivity
and specificity for FAIL (a FAIL the physician sees and the evaluator misses is the
error that matters most); and the effect on each metric: every adjudicated run's
metrics recomputed once from the evaluator's decisions and once from the physician's,
by the same rules, so the difference is the evaluator's error alone.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable
from dataclasses import dataclass

from medbench_tui.core.cases.model import Case
from medbench_tui.core.intervals import NO_INTERVAL, bounds, interval
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.review.adjudication import (
    CONDITION_LABELS,
    ITEM_LABELS,
    RUBRIC_LABELS,
    RUBRIC_SECTIONS,
    SECTIONS,
    UNGRADED,
    Record,
)

CONFIDENCE = 0.95
RECOMPUTED = ("diagnosis_accuracy", "differential_accuracy", "workup_score", "treatment_accuracy",
              "critical_conditions_passed")


@dataclass(frozen=True)
class Proportion:
    k: int
    n: int
    value: float | None
    low: float | None
    high: float | None

    def to_json(self) -> JSONObject:
        ci = list(bounds(interval(self.low, self.high), 1))
        return {"k": self.k, "n": self.n, "value": _round(self.value), "ci": ci}


def _round(value: float | None, digits: int = 1) -> float | None:
    return None if value is None or not math.isfinite(value) else round(value, digits)


def proportion(k: int, n: int) -> Proportion:
    """k of n as a percentage with its Wilson interval (statsmodels)."""
    if n == 0:
        return Proportion(k, n, None, None, None)
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(k, n, alpha=1 - CONFIDENCE, method="wilson")
    return Proportion(k, n, 100 * k / n, *bounds(interval(100 * float(low), 100 * float(high))))


@dataclass(frozen=True)
class Kappa:
    value: float | None
    low: float | None
    high: float | None

    def to_json(self) -> JSONObject:
        return {"value": _round(self.value, 3), "ci": list(bounds(interval(self.low, self.high), 3))}


def cohens_kappa(pairs: list[tuple[str, str]], labels: tuple[str, ...]) -> Kappa:
    """Cohen's kappa of paired labels (statsmodels); undefined (None) when chance
    agreement is total, e.g. both sides gave one label to everything."""
    if not pairs:
        return Kappa(None, None, None)
    import numpy as np
    from statsmodels.stats.inter_rater import cohens_kappa as sm_kappa

    index = {label: i for i, label in enumerate(labels)}
    table = np.zeros((len(labels), len(labels)))
    for a, b in pairs:
        table[index[a], index[b]] += 1
    n = table.sum()
    expected = float((table.sum(0) * table.sum(1)).sum() / (n * n))
    if expected >= 1.0:
        return Kappa(None, None, None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        result = sm_kappa(table)  # its interval is the 95% one (asymptotic standard error)
    # Its interval has no width when the standard error is zero (every decision agreed, or
    # none did): then there is no interval, not a certain one.
    found = interval(max(-1.0, float(result.kappa_low)), min(1.0, float(result.kappa_upp)))
    return Kappa(float(result.kappa), *bounds(found))


def _figures(pairs: list[tuple[str, str, str]]) -> JSONObject:
    """pairs: (section, first, second). Agreement and kappa, pooled over sections (each
    section's labels kept apart, so an item 'found' never agrees with a condition 'OK')."""
    agreed = sum(1 for _, a, b in pairs if a == b)
    share = proportion(agreed, len(pairs))
    labels = (*ITEM_LABELS, *CONDITION_LABELS, *RUBRIC_LABELS)
    kappa = cohens_kappa([(a, b) for _, a, b in pairs], labels)
    return {"decisions": len(pairs), "agreement": _round(share.value), "agreement_ci": share.to_json()["ci"],
            "kappa": _round(kappa.value, 3), "kappa_ci": kappa.to_json()["ci"]}


def _by_section(pairs: list[tuple[str, str, str]]) -> JSONObject:
    """Each section's figures; rubric sections add the F1s of the open rubric benchmark's meta-evaluation."""
    out: JSONObject = {}
    for section in SECTIONS:
        subset = [p for p in pairs if p[0] == section]
        if subset:
            out[section] = _figures(subset)
            if section in RUBRIC_SECTIONS:
                out[section].update(met_f1s([(a, b) for _, a, b in subset]))
    return out


def _f1(pairs: list[tuple[str, str]], positive: str) -> float | None:
    """F1 of the grader's ``positive`` decisions against the physician's; None when neither side
    ever said ``positive`` (nothing to find, nothing found)."""
    tp = sum(1 for grader, physician in pairs if grader == positive and physician == positive)
    fp = sum(1 for grader, physician in pairs if grader == positive and physician != positive)
    fn = sum(1 for grader, physician in pairs if grader != positive and physician == positive)
    return None if tp + fp + fn == 0 else 2 * tp / (2 * tp + fp + fn)


def met_f1s(pairs: list[tuple[str, str]]) -> dict[str, float | None]:
    """(grader, physician) rubric decisions -> the F1 of "met", of "not met", and their mean (the
    macro F1 the open rubric benchmark's meta-evaluation reports)."""
    f1_met, f1_not_met = _f1(pairs, "met"), _f1(pairs, "not_met")
    both = [f for f in (f1_met, f1_not_met) if f is not None]
    return {"f1_met": _round(f1_met, 3), "f1_not_met": _round(f1_not_met, 3),
            "macro_f1": _round(sum(both) / len(both), 3) if both else None}


def _critical(records: list[Record]) -> JSONObject:
    rows = [r for r in records if r.section == "critical"]
    fail = [r for r in rows if r.physician == "FAIL"]
    ok = [r for r in rows if r.physician == "OK"]
    sensitivity = proportion(sum(1 for r in fail if r.evaluator == "FAIL"), len(fail))
    specificity = proportion(sum(1 for r in ok if r.evaluator == "OK"), len(ok))
    return {
        "decisions": len(rows),
        "fail_by_physician": len(fail),
        "missed_fail": [{"run_id": r.run_id, "case_id": r.case_id, "condition": r.reference}
                        for r in fail if r.evaluator != "FAIL"],
        "sensitivity": _round(sensitivity.value), "sensitivity_ci": sensitivity.to_json()["ci"],
        "specificity": _round(specificity.value), "specificity_ci": specificity.to_json()["ci"],
    }


# --- metrics recomputed from decisions -------------------------------------------------


def recompute(case: Case, scorecard: JSONObject, labels: dict[tuple[str, str], str]) -> dict[str, float | None]:
    """The decision-based metrics of one run, from ``labels`` ((section, reference) ->
    label). Answer items that match no reference item (extras, unlisted tests) are taken
    from the evaluator's scorecard as they are: a physician judges reference items."""

    def said(section: str, reference: str) -> str:
        return labels.get((section, reference), "not_found")

    primary = case.diagnosis.primary.name
    diagnosis = 100.0 if said("diagnoses", primary) == "found" else 0.0
    differential = (100 * sum(said("differential", d.name) == "found" for d in case.differential)
                    / len(case.differential)) if case.differential else None

    breakdown = (scorecard.get("breakdown") or {}).get("workup") or {}
    unlisted = float(breakdown.get("unlisted_penalty") or 0) * float(breakdown.get("unlisted_items") or 0)
    default_penalty = case.scoring.unexpected_penalty if case.scoring and case.scoring.unexpected_penalty else 1.0
    required = sum(w.weight for w in case.workup if w.klass == "required")
    found = sum(w.weight for w in case.workup if w.klass == "required" and said("workup", w.item) == "found")
    penalty = sum(w.penalty or default_penalty for w in case.workup
                  if w.klass == "unexpected" and said("workup", w.item) == "found")
    workup = max(0.0, min(100.0, 100 * (found - penalty - unlisted) / required)) if required else None

    matching = different = missing = 0
    extra = sum(1 for e in (scorecard.get("items") or {}).get("treatment") or []
                if e.get("reference") is None and e.get("status") == "extra")
    for t in case.treatment:
        verdict = said("treatment", t.item)
        if t.klass in ("contraindicated", "not_indicated"):
            extra += verdict == "found"
        elif verdict == "found":
            matching += 1
        elif verdict == "different" and t.klass == "required":
            different += 1
        elif t.klass == "required":
            missing += 1
    total = matching + different + missing + extra
    treatment = 100 * matching / total if total else None

    conditions = [r for (section, _), r in labels.items() if section == "critical"]
    critical = 0.0 if "FAIL" in conditions else 100.0
    return {"diagnosis_accuracy": diagnosis, "differential_accuracy": differential, "workup_score": workup,
            "treatment_accuracy": treatment, "critical_conditions_passed": critical}


@dataclass(frozen=True)
class AdjudicatedRun:
    """What the metric effect needs of one run: its case and stored scorecard."""

    run_id: int
    case: Case
    scorecard: JSONObject


def metric_effect(records: list[Record], runs: Iterable[AdjudicatedRun]) -> JSONObject:
    """Per metric: the mean over adjudicated runs from the evaluator's decisions, from
    the physician's, and their difference (physician minus evaluator)."""
    by_run: dict[int, list[Record]] = {}
    for record in records:
        by_run.setdefault(record.run_id, []).append(record)
    values: dict[str, list[tuple[float, float]]] = {m: [] for m in RECOMPUTED}
    for run in runs:
        rows = by_run.get(run.run_id)
        if not rows:
            continue
        evaluator = recompute(run.case, run.scorecard, {(r.section, r.reference): r.evaluator for r in rows})
        physician = recompute(run.case, run.scorecard, {(r.section, r.reference): r.physician for r in rows})
        for metric in RECOMPUTED:
            e, p = evaluator[metric], physician[metric]
            if e is not None and p is not None:
                values[metric].append((e, p))
    out: JSONObject = {}
    for metric, pairs in values.items():
        if not pairs:
            continue
        e_mean = sum(e for e, _ in pairs) / len(pairs)
        p_mean = sum(p for _, p in pairs) / len(pairs)
        out[metric] = {"runs": len(pairs), "evaluator": _round(e_mean), "physician": _round(p_mean),
                       "difference": _round(p_mean - e_mean),
                       "runs_changed": sum(1 for e, p in pairs if abs(e - p) > 1e-9)}
    return out


def by_certainty(records: list[Record], runs: Iterable[AdjudicatedRun]) -> JSONObject:
    """Agreement on the decisions the grader marked certain and on those it marked uncertain: whether
    its doubt points where it errs (a record whose run is not at hand counts as certain)."""
    from medbench_tui.core.review.adjudication import decisions_of

    doubted = {(run.run_id, d.section, d.reference) for run in runs
               for d in decisions_of(run.scorecard) if d.uncertain}
    out: JSONObject = {}
    for name, wanted in (("certain", False), ("uncertain", True)):
        subset = [(r.section, r.evaluator, r.physician) for r in records if (r.key in doubted) is wanted]
        if subset:
            out[name] = _figures(subset)
    return out


# --- the whole report ------------------------------------------------------------------


def agreement_report(records: list[Record], runs: Iterable[AdjudicatedRun] = (), *,
                     group_id: str | None = None, rater: str | None = None) -> JSONObject:
    """The ``medbench agreement --format json`` document. A physician's grade of a rubric criterion no
    grader decided checks nothing: it is counted apart (``physician_graded``), not as agreement."""
    graded = [r for r in records if r.evaluator == UNGRADED]
    records = [r for r in records if r.evaluator != UNGRADED]
    pairs = [(r.section, r.evaluator, r.physician) for r in records]
    raters = sorted({r.rater for r in records})
    runs = list(runs)
    doc: JSONObject = {"group_id": group_id, "rater": rater, "raters": raters,
                           "runs": len({r.run_id for r in records}), **_figures(pairs),
                           "by_section": _by_section(pairs), "critical": _critical(records),
                           "by_certainty": by_certainty(records, runs),
                           "metrics": metric_effect(records, runs)}
    if graded:
        doc["physician_graded"] = len(graded)
    if len(raters) > 1:
        doc["by_rater"] = {
            name: _figures([(r.section, r.evaluator, r.physician) for r in records if r.rater == name])
            for name in raters
        }
        doc["inter_rater"] = _inter_rater(records, raters)
    return doc


def _inter_rater(records: list[Record], raters: list[str]) -> JSONObject:
    """The first two raters against each other, on the decisions both judged."""
    first, second = raters[0], raters[1]
    a = {r.key: r for r in records if r.rater == first}
    b = {r.key: r for r in records if r.rater == second}
    shared = sorted(set(a) & set(b))
    pairs = [(key[1], a[key].physician, b[key].physician) for key in shared]
    return {"raters": [first, second], **_figures(pairs), "by_section": _by_section(pairs)}


def render(doc: JSONObject, fmt: str) -> str:
    """Text or Markdown tables of the report."""
    md = fmt == "md"
    lines: list[str] = []
    title = f"Evaluator-physician agreement, run group {doc.get('group_id') or 'all'}"
    who = doc.get("rater") or (", ".join(doc["raters"]) or "no rater")
    counts = f"Raters: {who}; runs: {doc['runs']}; decisions: {doc['decisions']}"
    lines += [f"## {title}" if md else title, "", counts, ""]
    rows = [["all", *_row(doc)]] + [[s, *_row(f)] for s, f in doc["by_section"].items()]
    lines += _table(["section", "decisions", "agreement % [95% CI]", "Cohen's kappa [95% CI]"], rows, md)
    rubric = {s: f for s, f in doc["by_section"].items() if "macro_f1" in f}
    for section, f in rubric.items():
        lines.append(f"  {section}: macro F1 {_num(f['macro_f1'], 3)} (F1 of met {_num(f['f1_met'], 3)}, "
                     f"of not met {_num(f['f1_not_met'], 3)})")
    if doc.get("physician_graded"):
        lines.append(f"  rubric criteria no grader decided, graded by a physician: {doc['physician_graded']} "
                     "(their grade counts in the rubric score; there is no evaluator's to agree with)")
    certainty = doc.get("by_certainty") or {}
    if certainty:
        lines += ["", "By the evaluator's own certainty (does its doubt point where it errs?)"]
        lines += _table(["grader marked", "decisions", "agreement % [95% CI]", "Cohen's kappa [95% CI]"],
                        [[name, *_row(f)] for name, f in certainty.items()], md)
    crit = doc["critical"]
    lines += ["", "Critical conditions: evaluator's FAIL verdicts against the physician's",
              f"  sensitivity for FAIL {_pct(crit['sensitivity'], crit['sensitivity_ci'])} "
              f"({crit['fail_by_physician']} FAIL by physician); "
              f"specificity {_pct(crit['specificity'], crit['specificity_ci'])}"]
    for miss in crit["missed_fail"]:
        lines.append(f"  missed FAIL: run {miss['run_id']} ({miss['case_id']}) {miss['condition']}")
    if doc["metrics"]:
        lines += [""]
        lines += _table(
            ["metric", "runs", "evaluator", "physician", "difference", "runs changed"],
            [[m, str(v["runs"]), _num(v["evaluator"]), _num(v["physician"]), _num(v["difference"]),
              str(v["runs_changed"])] for m, v in doc["metrics"].items()],
            md,
        )
    if "inter_rater" in doc:
        inter = doc["inter_rater"]
        lines += ["", f"Between raters {inter['raters'][0]} and {inter['raters'][1]}: {inter['decisions']} shared "
                      f"decisions, agreement {_pct(inter['agreement'], inter['agreement_ci'])}, "
                      f"kappa {_num(inter['kappa'], 3)}"]
        for name, figures in doc["by_rater"].items():
            lines.append(f"  {name} vs evaluator: agreement {_pct(figures['agreement'], figures['agreement_ci'])}, "
                         f"kappa {_num(figures['kappa'], 3)}")
    return "\n".join(lines) + "\n"


def _row(f: JSONObject) -> list[str]:
    return [str(f["decisions"]), _pct(f["agreement"], f["agreement_ci"]), _interval(f["kappa"], f["kappa_ci"])]


def _num(value: float | None, digits: int = 1) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None, ci: list[float | None]) -> str:
    if value is None:
        return "n/a"
    found = interval(ci[0], ci[1])
    return f"{value:.1f}% " + (found.write(1) if found is not None else f"({NO_INTERVAL})")


def _interval(value: float | None, ci: list[float | None]) -> str:
    if value is None:
        return "n/a (one label only)"
    found = interval(ci[0], ci[1])
    return f"{value:.3f} " + (found.write(3) if found is not None else f"({NO_INTERVAL}: no spread to estimate one)")


def _table(header: list[str], rows: list[list[str]], md: bool) -> list[str]:
    if md:
        return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
                *("| " + " | ".join(r) + " |" for r in rows)]
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=True)]

    def line(cells: list[str]) -> str:
        pairs = enumerate(zip(cells, widths, strict=True))
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in pairs)

    return [line(header), *(line(r) for r in rows)]


def report_section(doc: JSONObject, fmt: str) -> str:
    """What a results report adds when its run group has adjudications: the agreement
    line, and the metrics recomputed from the physicians' decisions for those runs."""
    md = fmt == "md"
    lines = ["", "## Evaluator agreement with physicians" if md else "Evaluator agreement with physicians", "",
             summary_line(doc)]
    if doc["metrics"]:
        lines += ["", "Adjudicated runs, metrics from the evaluator's decisions and from the physicians':", ""]
        lines += _table(
            ["metric", "runs", "evaluator", "physician", "difference"],
            [[m, str(v["runs"]), _num(v["evaluator"]), _num(v["physician"]), _num(v["difference"])]
             for m, v in doc["metrics"].items()],
            md,
        )
    return "\n".join(lines) + "\n"


def summary_line(doc: JSONObject) -> str:
    """One line for a results report: the evaluator's agreement beside the results."""
    crit = doc["critical"]
    return (f"Evaluator agreement with physicians ({', '.join(doc['raters'])}; {doc['runs']} runs, "
            f"{doc['decisions']} decisions): {_pct(doc['agreement'], doc['agreement_ci'])}, "
            f"kappa {_num(doc['kappa'], 3)}; critical FAIL sensitivity {_num(crit['sensitivity'])}%, "
            f"specificity {_num(crit['specificity'])}%")
