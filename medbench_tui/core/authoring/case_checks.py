"""A case's self-checks, run: what its author means, checked against what the grader and the
patient actually do (the case's ``checks:`` section).

An answer check scores its text as the final response of a one-turn consultation and
compares the diagnosis, the critical conditions and the item labels it states. A question
check puts its message to a fresh patient and compares the facts given and the attachments
released. Each failed check is an error at its line that says what the grader or patient did
instead, and why (the grader's reason for the item, the condition's evidence, the reply).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from medbench_tui.core.cases.model import AnswerCheck, Case, QuestionCheck
from medbench_tui.core.diagnostics import Diagnostic, Severity
from medbench_tui.core.scoring.labels import NOT_GIVEN, item_labels
from medbench_tui.core.yamldoc import YamlPath

if TYPE_CHECKING:
    from medbench_tui.core.simulators.grounded import GroundedSimulator
    from medbench_tui.core.simulators.guard import LeakGuard
    from medbench_tui.core.yamldoc import PositionMap

FAILED = "check.failed"
KNOWN_DEFECT = "check.known_defect"
DEFECT_FIXED = "check.defect_fixed"


@dataclass(frozen=True)
class CheckOutcome:
    """One check and what it found: ``problems`` empty when it passed."""

    kind: str  # "answer" or "question"
    label: str
    path: YamlPath
    problems: tuple[str, ...]
    known_defect: str | None = None

    @property
    def passed(self) -> bool:
        return not self.problems


def run_checks(case: Case, bank_root: Path) -> list[CheckOutcome]:
    """Every check of ``case`` (none when it has no ``checks:``)."""
    if case.checks is None:
        return []
    outcomes = [_answer(case, i, check) for i, check in enumerate(case.checks.answers)]
    if case.checks.questions:
        outcomes += asyncio.run(_questions(case, bank_root))
    return outcomes


def check_diagnostics(case: Case, bank_root: Path, positions: PositionMap) -> list[Diagnostic]:
    """The failed checks of ``case`` as errors at their lines; a check that names its failure as a
    known defect warns instead, and warns again once it passes (its ``known_defect`` can go)."""
    diagnostics = []
    for outcome in run_checks(case, bank_root):
        if outcome.passed and outcome.known_defect is None:
            continue
        line, column = positions.locate(outcome.path) or (None, None)
        severity: Severity
        if outcome.passed:
            severity, code, message = "warning", DEFECT_FIXED, (
                f"{outcome.label} passes now: delete its `known_defect` so a new failure is an error again")
        elif outcome.known_defect is not None:
            severity, code, message = "warning", KNOWN_DEFECT, (
                f"{outcome.label} still fails, a known defect ({outcome.known_defect}): " + "; ".join(outcome.problems))
        else:
            severity, code, message = "error", FAILED, f"{outcome.label}: " + "; ".join(outcome.problems)
        diagnostics.append(Diagnostic(severity=severity, code=code, line=line, column=column,
                                      path=".".join(map(str, outcome.path)), message=message))
    return diagnostics


# --- answers -----------------------------------------------------------------------------


def _answer(case: Case, index: int, check: AnswerCheck) -> CheckOutcome:
    from medbench_tui.core.scoring import score
    from medbench_tui.core.transcript import FinalResponse, Transcript

    card = score(case, Transcript(case_id=case.id, system="check", final=FinalResponse(text=check.text)))
    expect = check.expect
    problems: list[str] = []
    if expect.diagnosis is not None:
        got = "correct" if card.metrics.diagnosis_accuracy == 100 else "wrong"
        if got != expect.diagnosis:
            named = [row.answer for row in card.items.diagnoses if row.answer]
            read = f"final diagnoses read: {', '.join(named)}" if named else "no final diagnosis read"
            problems.append(f"the diagnosis should be {expect.diagnosis}, the grader scored it {got} ({read})")
    verdicts = {c.id: c for c in card.critical_conditions}
    for condition_id, verdict in expect.conditions.items():
        found = verdicts.get(condition_id)
        status = found.status if found is not None else "not evaluated"
        if status != verdict:
            evidence = f": {found.evidence}" if found is not None and found.evidence else ""
            problems.append(f"`{condition_id}` should be {verdict}, the grader gave {status}{evidence}")
    labels = item_labels(card, case)
    names = {w.item for w in case.workup} | {t.item for t in case.treatment} | {d.name for d in case.differential}
    names |= {d.name for d in case.diagnosis.secondary}
    for item, wanted in expect.items.items():
        if item not in names:
            continue  # the validator reports the unknown name
        got_label, row = labels.get(item, ("not_found", None))
        if got_label == wanted or (wanted == "not_found" and got_label in NOT_GIVEN):
            continue
        why = f" ({row.reason})" if row is not None and row.reason else ""
        answer = f' from "{row.answer}"' if row is not None and row.answer else ""
        problems.append(f"`{item}` should be {wanted}, the grader has it {got_label}{answer}{why}")
    label = f"answer check `{check.id}`" + (f" ({check.note})" if check.note else "")
    return CheckOutcome("answer", label, ("checks", "answers", index), tuple(problems), check.known_defect)


# --- questions -----------------------------------------------------------------------------


async def _questions(case: Case, bank_root: Path) -> list[CheckOutcome]:
    """Each question check put to a fresh patient of the case: the patient's fact index and the
    case's leak guard are built once for the case (most of its set-up; neither changes in a
    dialogue) and every check starts a new dialogue over them."""
    from medbench_tui.core.cases.model import patient_record
    from medbench_tui.core.simulators.grounded import GroundedSimulator
    from medbench_tui.core.simulators.guard import LeakGuard

    assert case.checks is not None
    patient = GroundedSimulator(patient_record(case))
    guard = LeakGuard.from_case(case)
    outcomes = []
    for index, check in enumerate(case.checks.questions):
        outcomes.append(await _question(case, bank_root, index, check, patient.again(), guard))
    return outcomes


async def _question(case: Case, bank_root: Path, index: int, check: QuestionCheck,
                    patient: GroundedSimulator, guard: LeakGuard) -> CheckOutcome:
    from medbench_tui.core.consultation.loop import Consultation

    consultation = Consultation(case, patient, system="check", bank_root=bank_root, guard=guard)
    for earlier in check.before:
        await consultation.ask(earlier)
    reply = await consultation.ask(check.ask)
    given = set(reply.facts)
    released = {a.id for a in reply.attachments}
    timed = {a.id for a in case.attachments if a.available == "after_turn"}
    problems: list[str] = []
    missing = [f for f in check.facts if f not in given]
    if missing:
        problems.append(f"the patient should give {', '.join(missing)}")
    extra = sorted(given - set(check.facts) - set(check.may))
    if extra:
        problems.append(f"the patient also gave {', '.join(extra)}, which was not asked for")
    not_released = [a for a in check.attachments if a not in released]
    if not_released:
        problems.append(f"the patient should release {', '.join(not_released)}")
    unasked = sorted(released - set(check.attachments) - timed)
    if unasked:
        problems.append(f"the patient released {', '.join(unasked)}, which was not asked for")
    if problems:
        problems.append(f'the reply was: "{" ".join(reply.text.split())[:200]}"')
    label = f'question check "{check.ask}"' + (f" ({check.note})" if check.note else "")
    return CheckOutcome("question", label, ("checks", "questions", index), tuple(problems), check.known_defect)
