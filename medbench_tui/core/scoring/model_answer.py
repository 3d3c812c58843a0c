"""The answer a case's reference asks for, as a final response.

Scoring a case's own model answer is a check of the case and of scoring: it must get
100 for diagnosis, workup and treatment, and pass every critical condition. Written
both as a form (structured fields) and as the free text an automated system would
write.
"""

from __future__ import annotations

from typing import Literal

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring.reference import reference_table
from medbench_tui.core.transcript import FinalDiagnosis, FinalResponse


def _answer_lists(case: Case) -> tuple[list[str], list[str], list[str]]:
    """Required workup and treatment, plus what the must-include conditions need:
    the first entry of each (an item goes in its list, a phrase in the advice)."""
    workup = [w.item for w in case.workup if w.klass == "required"]
    treatment = [t.item for t in case.treatment if t.klass == "required"]
    advice: list[str] = []
    table = reference_table(case)
    for cref in table.conditions:
        cond = cref.condition
        if cond.kind != "must_include" or cond.applies_if:
            continue
        if any(r.name in workup + treatment for r in cref.refs):
            continue
        if cref.refs:
            ref = cref.refs[0]
            (workup if ref.kind == "workup" else treatment).append(ref.name)
        elif cref.phrases:
            advice.append(cref.phrases[0].text)
    return workup, treatment, advice


def model_answer(case: Case, form: Literal["structured", "text"] = "structured") -> FinalResponse:
    primary = case.diagnosis.primary
    workup, treatment, advice = _answer_lists(case)
    advice_text = "; ".join(advice) + "." if advice else None
    if form == "structured":
        return FinalResponse(
            diagnoses=[FinalDiagnosis(name=primary.name, icd10=primary.icd10),
                       *(FinalDiagnosis(name=s.name, icd10=s.icd10) for s in case.diagnosis.secondary)],
            differential=[FinalDiagnosis(name=d.name, icd10=d.icd10) for d in case.differential],
            workup=workup,
            treatment=treatment,
            advice=advice_text,
        )
    lines = ["Diagnosis:", f"- {primary.name} ({primary.icd10})"]
    lines += [f"- {s.name} ({s.icd10})" for s in case.diagnosis.secondary]
    if case.differential:
        lines += ["", "Differential diagnosis:"]
        lines += [f"{i}. {d.name}" + (f" ({d.icd10})" if d.icd10 else "") for i, d in enumerate(case.differential, 1)]
    if workup:
        lines += ["", "Investigations:", *(f"- {w}" for w in workup)]
    if treatment:
        lines += ["", "Management:", *(f"- {t}" for t in treatment)]
    if advice_text:
        lines += ["", f"Advice: {advice_text}"]
    return FinalResponse(text="\n".join(lines) + "\n")
