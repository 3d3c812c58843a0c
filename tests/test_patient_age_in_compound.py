"""The age asked in a compound question is answered beside the other part's fact ("how old is he and was he born on
time?" had given the birth fact only: the age part, said from the record's demographics, was dropped beside the
fact as if it were the intro said again). Found playing the bundled bronchiolitis case in the TUI; held here on the
bundled pneumonia case, whose record has no fact of the age."""

from __future__ import annotations

from pathlib import Path

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator
from medbench_tui.core.validate import load_valid_case


def _patient() -> GroundedSimulator:
    return GroundedSimulator(patient_record(load_valid_case(Path("cases/im-cap-001.yaml"))))


def test_the_age_asked_beside_another_question_is_said_with_its_fact():
    reply = _patient().answer("how old are you and what do you do for work?")
    assert reply.facts == ["occupation"]
    assert "54" in reply.text and "bus driver" in reply.text, reply.text


def test_the_other_part_alone_gets_no_age():
    reply = _patient().answer("what do you do for work?")
    assert reply.facts == ["occupation"] and "54" not in reply.text, reply.text
