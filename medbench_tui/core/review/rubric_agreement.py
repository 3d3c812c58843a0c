"""How far the rubric graders agree with physicians on criterion decisions.

Each labelled answer (``rubric_labels.py``) is graded as a run grades it, and every decision a
grader made is paired with the physician's label, per grader kind: ``phrases`` and ``number``
criteria, ``judge`` criteria (when a judge endpoint is given; otherwise they are counted as
ungraded and left out), and the actions of a panel (``panel``: included or not). Criteria graded
by a physician are left out: there is no grader to compare.

Per kind: percent agreement with its Wilson interval, Cohen's kappa with its interval (the same
statistics as the consultation agreement), and the F1 of the open rubric benchmark's
meta-evaluation: the grader's decisions scored against the physician's with F1 for 'met' and F1
for 'not met', and their mean (macro F1). The macro F1 is the headline figure, as in that
meta-evaluation: most criteria of a good answer are met, so the F1 of 'met' alone rewards a
grader that says 'met' to everything; the mean of both classes does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.review.adjudication import RUBRIC_LABELS
from medbench_tui.core.review.agreement import (
    _interval,
    _num,
    _pct,
    _round,
    _table,
    cohens_kappa,
    met_f1s,
    proportion,
)
from medbench_tui.core.rubric.decisions import NUMBER, PHRASES, RubricGrade

if TYPE_CHECKING:
    from medbench_tui.core.review.rubric_labels import LabelSet
    from medbench_tui.core.rubric.judge import Judge

LABELS = RUBRIC_LABELS
MET, NOT_MET = RUBRIC_LABELS
JUDGE = "judge"
PANEL = "panel"
KINDS = (PHRASES, NUMBER, JUDGE, PANEL)


@dataclass(frozen=True)
class Pair:
    """One decision of a grader beside the physician's label of the same criterion or action."""

    kind: str  # phrases, number, judge, panel
    case_id: str
    answer_id: str
    item: str  # criterion id, or panel action
    grader: str  # met / not_met
    physician: str  # met / not_met
    reason: str


@dataclass
class Collected:
    pairs: list[Pair]
    ungraded: dict[str, int]  # kind -> labelled decisions no grader made (a judge criterion without a judge)
    judges: list[JSONObject]
    answers: int
    files: int


async def collect(label_sets: list[LabelSet], judge: Judge | None = None) -> Collected:
    """Grade every labelled answer (judge criteria through ``judge`` when given) and pair each
    decision with its label. An endpoint that fails raises its EndpointError."""
    from medbench_tui.core.rubric.grading import grade_async

    pairs: list[Pair] = []
    ungraded: dict[str, int] = {}
    judges: dict[str, JSONObject] = {}
    answers = 0
    for labels in label_sets:
        for answer in labels.answers:
            answers += 1
            graded = await grade_async(labels.case, answer.text, judge)
            pairs += _pairs(graded, answer.id, answer.labels, set(answer.included), ungraded)
            for record in graded.judges:
                judges.setdefault(record.model + record.prompt_sha256, record.model_dump())
    return Collected(pairs, ungraded, list(judges.values()), answers, len(label_sets))


def _pairs(graded: RubricGrade, answer_id: str, labels: Mapping[str, str], included: set[str],
           ungraded: dict[str, int]) -> list[Pair]:
    out = [Pair(PANEL, graded.case_id, answer_id, a.action, MET if a.included else NOT_MET,
                MET if a.action in included else NOT_MET, a.reason) for a in graded.actions]
    for decision in graded.criteria:
        label = labels.get(decision.criterion)
        if label is None or decision.grader not in (PHRASES, NUMBER, JUDGE):
            continue
        if decision.verdict == "ungraded":
            ungraded[decision.grader] = ungraded.get(decision.grader, 0) + 1
            continue
        out.append(Pair(decision.grader, graded.case_id, answer_id, decision.criterion, decision.verdict, label,
                        decision.reason))
    return out


def figures(pairs: list[Pair]) -> JSONObject:
    """Agreement, kappa, and the F1s of one set of decisions, with the counts they come from."""
    agreed = sum(1 for p in pairs if p.grader == p.physician)
    share = proportion(agreed, len(pairs))
    kappa = cohens_kappa([(p.grader, p.physician) for p in pairs], LABELS)
    return {
        "decisions": len(pairs), "agreed": agreed,
        "agreement": _round(share.value), "agreement_ci": share.to_json()["ci"],
        "kappa": _round(kappa.value, 3), "kappa_ci": kappa.to_json()["ci"],
        **met_f1s([(p.grader, p.physician) for p in pairs]),
        "counts": {
            "both_met": sum(1 for p in pairs if p.grader == MET and p.physician == MET),
            "grader_only_met": sum(1 for p in pairs if p.grader == MET and p.physician == NOT_MET),
            "physician_only_met": sum(1 for p in pairs if p.grader == NOT_MET and p.physician == MET),
            "both_not_met": sum(1 for p in pairs if p.grader == NOT_MET and p.physician == NOT_MET),
        },
    }


def rubric_agreement_report(found: Collected) -> JSONObject:
    """The ``medbench agreement --rubric-labels ... --format json`` document."""
    criteria = [p for p in found.pairs if p.kind != PANEL]
    kinds = {kind: figures([p for p in found.pairs if p.kind == kind]) for kind in KINDS
             if any(p.kind == kind for p in found.pairs)}
    return {
        "files": found.files, "answers": found.answers,
        "criteria": figures(criteria), "by_kind": kinds, "ungraded": dict(sorted(found.ungraded.items())),
        "judges": found.judges,
        "disagreements": [{"kind": p.kind, "case_id": p.case_id, "answer": p.answer_id, "item": p.item,
                           "grader": p.grader, "physician": p.physician, "reason": p.reason}
                          for p in found.pairs if p.grader != p.physician],
    }


def render_rubric(doc: JSONObject, fmt: str, *, show: bool = False) -> str:
    """Text or Markdown tables of the report; ``show``: every disagreement listed."""
    md = fmt == "md"
    title = "Rubric graders against physicians' labels"
    lines = [f"## {title}" if md else title, "",
             f"Labels files: {doc['files']}; answers: {doc['answers']}; criterion decisions compared: "
             f"{doc['criteria']['decisions']}", ""]
    rows = [[kind, *_row(f)] for kind, f in doc["by_kind"].items() if kind != PANEL]
    if doc["criteria"]["decisions"]:
        rows.append(["all criteria", *_row(doc["criteria"])])
    if PANEL in doc["by_kind"]:
        rows.append(["panel actions", *_row(doc["by_kind"][PANEL])])
    lines += _table(["grader", "decisions", "agreement % [95% CI]", "kappa [95% CI]", "macro F1", "F1 met",
                     "F1 not met", "met both/grader/physician/neither"], rows, md)
    lines += ["", "macro F1: the mean of the F1 of 'met' and of 'not met' (the open rubric benchmark's "
                  "meta-evaluation); panel: an action included counts as 'met'."]
    for kind, n in doc["ungraded"].items():
        lines.append(f"Left out: {n} labelled {kind} decision(s) no grader made"
                     + (" (no judge given: --judge-from)" if kind == JUDGE else ""))
    for judge in doc["judges"]:
        served = f", served as {judge['served_model']}" if judge.get("served_model") not in (None, judge["model"]) \
            else ""
        params = ", ".join(f"{k} {v}" for k, v in sorted(judge.get("parameters", {}).items()))
        lines.append(f"Judge: {judge['model']}{served}; prompt sha256 {judge['prompt_sha256'][:16]}; {params}")
    if show and doc["disagreements"]:
        lines += ["", "Disagreements:"]
        lines += [f"  {d['case_id']}/{d['answer']} {d['kind']} {d['item']}: physician {d['physician']}, "
                  f"grader {d['grader']} ({d['reason']})" for d in doc["disagreements"]]
    return "\n".join(lines) + "\n"


def _row(f: JSONObject) -> list[str]:
    c = f["counts"]
    return [str(f["decisions"]), _pct(f["agreement"], f["agreement_ci"]), _interval(f["kappa"], f["kappa_ci"]),
            _num(f["macro_f1"], 3), _num(f["f1_met"], 3), _num(f["f1_not_met"], 3),
            f"{c['both_met']}/{c['grader_only_met']}/{c['physician_only_met']}/{c['both_not_met']}"]
