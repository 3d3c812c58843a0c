"""The LLM patient's leak guard reads through spacing, look-alikes, dots, lay and other-language
names, spoken codes and attachments the patient never saw, and still lets the patient say
everything the record says."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.simulators import LeakGuard
from medbench_tui.core.simulators.lexicon import sentences
from medbench_tui.core.validate import load_valid_case, validate_paths

CASES = Path(__file__).resolve().parent.parent / "cases"


@pytest.fixture(scope="module")
def cap() -> LeakGuard:
    """The pneumonia case's guard, read when a test asks (at import, every worker read it, ICD-10 checks and all)."""
    return LeakGuard.from_case(load_valid_case(CASES / "im-cap-001.yaml"))


@pytest.mark.parametrize("sentence", [
    "I think it's pneu monia.", "Could it be p n e u m o n i a?", "Is it pn3umonia?", "Is it C.A.P.?",
    "My friend said it's a lung infection.", "Probably just a chest infection.", "The letter said J 18 point 1.",
    "My temperature was 38.6 this morning.", "They could hear crackles, the nurse said.",
    "My mother thinks it's a Lungenentzündung.", "Could it be a blood clot in my lung?",
])
def test_the_guard_stops_the_ways_attacks_gave_the_diagnosis_away(cap, sentence):
    assert cap.check(sentence) is not None


@pytest.mark.parametrize("sentence", [
    "I've had a cough and a temperature for about four days now.", "I escaped the rain on the way in.",
    "It hurts on the right side when I breathe in.", "I smoke about twenty a day.", "Yes, go ahead.",
])
def test_the_guard_lets_ordinary_replies_through(cap, sentence):
    assert cap.check(sentence) is None


def test_nothing_a_record_says_is_replaced():
    """The guard's false replacements: every sentence of every bundled record passes its own guard."""
    stopped = []
    for report in validate_paths([CASES]):  # one index of the bank for all its cases
        case = report.case
        if case is None:
            continue
        guard = LeakGuard.from_case(case)
        told = [case.intro, *(a.answer for a in case.additional_answers)]
        said = [sentence for text in told for sentence in sentences(text)]
        stopped += [(case.id, sentence, why) for sentence in said if (why := guard.check(sentence))]
    assert stopped == []


def test_the_guard_is_worked_out_only_when_a_reply_is_checked(monkeypatch):
    """A consultation holds its case's guard whatever its patient; the grounded patient never
    reads it, so nothing is worked out until a reply is checked."""
    from medbench_tui.core.simulators import guard as guards

    built = []
    real = guards._lists_of
    monkeypatch.setattr(guards, "_lists_of", lambda case: built.append(case.id) or real(case))
    guard = LeakGuard.from_case(load_valid_case(CASES / "im-cap-001.yaml"))
    assert built == []
    assert guard.check("Is it pn3umonia?") == "names_diagnosis"
    assert guard.check("It started on Tuesday.") is None
    assert built == ["im-cap-001"]
