"""The scorecard as plain text: what was missed, what should not have been done, and why."""

from __future__ import annotations

from medbench_tui.core.scoring.extraction_model import NO_EVIDENCE, Span
from medbench_tui.core.scoring.scorecard import ItemEntry, Scorecard

WIDTH = 78


def _num(value: float | int | None, unit: str = "") -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.1f}{unit}"
    return f"{int(value)}{unit}"


def _evidence(entry: ItemEntry) -> str:
    ev = entry.evidence
    if isinstance(ev, Span):
        where = "advice" if ev.field == "advice" else "text"
        return f' [{where} {ev.start}-{ev.end}: "{ev.text}"]'
    if isinstance(ev, str):
        return f" [{ev}]"
    return ""


def _line(entry: ItemEntry) -> str:
    answer = entry.answer or ""
    if entry.reference and entry.answer and entry.reference.lower() != entry.answer.lower():
        text = f"{entry.reference} <- {answer}"
    else:
        text = entry.reference or answer
    code = f" ({entry.icd10})" if entry.icd10 else ""
    note = f" - {entry.note}" if entry.note else ""
    why = f"\n  {'':<15}   why: {entry.reason}" if entry.reason else ""
    unsure = f"\n  {'':<15}   uncertain: {', '.join(entry.doubts)}" if entry.doubts else ""
    return f"  {entry.status:<15} {text}{code}{note}{_evidence(entry)}{why}{unsure}"


def render_scorecard_text(card: Scorecard) -> str:
    mt = card.metrics
    out: list[str] = []
    title = f"Scorecard - case {card.case_id}"
    out += [title, "=" * len(title)]
    if not card.complete:
        out.append(f"INCOMPLETE run ({card.incomplete_reason}): shown for review, left out of every aggregate.")
    out += [f"Note: {note}" for note in card.notes]
    steps = f"{card.steps} turn pairs"
    if card.num_steps is not None:
        where = "outside" if card.outside_soft_range else "within"
        steps += f" (reference {card.num_steps}, {where} the +-25% soft range)"
    d = card.dots
    out.append(f"D.O.T.S.  D {_num(d.D)}   O {_num(d.O)}   T {_num(d.T)}   S {steps}")
    out.append("")
    rows = [
        ("Diagnosis accuracy", _num(mt.diagnosis_accuracy)),
        ("Primary ICD-10", mt.primary_icd10),
        ("Differential accuracy", _num(mt.differential_accuracy)),
        ("  precision / recall@3 / @5 / MRR",
         f"{_num(mt.differential_precision)} / {_num(mt.differential_recall_at_3)} / "
         f"{_num(mt.differential_recall_at_5)} / {_num(mt.primary_mrr)}"),
        ("Secondary ICD-10 recall", _num(mt.secondary_icd10_recall)),
        ("Workup score", _num(mt.workup_score)),
        ("Treatment accuracy", _num(mt.treatment_accuracy)),
        ("Critical conditions passed", _num(mt.critical_conditions_passed)),
        ("Question coverage", _num(mt.question_coverage)),
        ("Weighted action F1", _num(mt.action_f1)),
    ]
    out += [f"{name:<34} {value}" for name, value in rows]

    def section(heading: str, entries: list[ItemEntry]) -> None:
        if entries:
            out.extend(["", heading])
            out.extend(_line(e) for e in entries)

    section("Diagnoses", card.items.diagnoses)
    section("Differential", card.items.differential)
    section("Workup", card.items.workup)
    section("Treatment", card.items.treatment)

    lists = (card.items.diagnoses, card.items.workup, card.items.treatment)
    missed = [e for lst in lists for e in lst if e.status in ("missing", "different")]
    wrong = [
        e for lst in (card.items.workup, card.items.treatment) for e in lst
        if e.status in ("unexpected", "contraindicated", "not_indicated")
    ]
    out += ["", "What you missed"]
    out += [
        f"  - {e.reference}" + (f" (you gave {e.answer}: same group, not the item)" if e.status == "different" else "")
        for e in missed
    ] or ["  - nothing required"]
    if card.consultation_omissions:
        out.append("  Done during the consultation but left out of the final answer:")
        out += [f'  - {o.reference} (turn {o.turn}: "{o.quote}")' for o in card.consultation_omissions]
    if card.control_questions.missed:
        out.append("  History not elicited:")
        out += [f"  - {q.concept}" for q in card.control_questions.missed]
    out += ["", "What you should not have done"]
    why = {"unexpected": "not part of this work-up", "contraindicated": "contraindicated in this case",
           "not_indicated": "not indicated in this case"}
    out += [f"  - {e.answer}: {why[e.status]}{_evidence(e)}" for e in wrong] or ["  - nothing"]
    if card.critical_conditions:
        out += ["", "Critical conditions"]
        for c in card.critical_conditions:
            out.append(f"  {c.status:<15} {c.id}: {c.evidence}")
            if c.status == "FAIL":
                out.append(f"  {'':<15} why: {c.description}")
            if c.doubts:
                out.append(f"  {'':<15} uncertain: {', '.join(c.doubts)}")
    harm = card.harm
    out += ["", "Harm",
            f"  by omission   {_num(harm.omission)} (required items left out, weighted)"
            + (f"; {harm.conditions_omission} critical condition(s) failed" if harm.conditions_omission else ""),
            f"  by commission {_num(harm.commission)} (unexpected, contraindicated or not-indicated items given)"
            + (f"; {harm.conditions_commission} critical condition(s) failed" if harm.conditions_commission else "")]
    if card.cost is not None:
        cost = card.cost
        out += ["", "Cost", f"  {cost.summary()}"]
        for line in cost.lines:
            if line.source == "reference":
                continue
            price = "unpriced" if line.cost is None else _num(line.cost)
            when = f"turn {line.turn}" if line.turn is not None else "in the plan"
            out.append(f"  {price:>9}  {line.what} ({when})")
    unsure = card.uncertain_decisions()
    if unsure:
        out += ["", f"Uncertain decisions ({len(unsure)}): a physician should check these first"]
        out += [f"  - {what}: {', '.join(doubts)}" for what, doubts in unsure]
        moved = [f"{name.replace('_', ' ')} {_num(low)} to {_num(high)}" for name, (low, high) in card.ranges.items()
                 if low != high]
        if moved:
            out.append(f"  If they all went the other way: {'; '.join(moved)}")
    entities = card.extraction.entities if card.extraction is not None else []
    negated = [e for e in entities if e.negated]
    if negated:
        out += ["", "Mentioned but not recommended (not scored)"]
        out += [f'  - "{e.text}" ({e.reason or e.negated})' for e in negated]
    unscored = [e for e in entities if e.evidence == NO_EVIDENCE]
    if unscored:
        out += ["", "Extracted without evidence in the text (not scored)"]
        out += [f"  - {e.kind}: {e.text}" for e in unscored]
    return "\n".join(out) + "\n"
