"""``checklist``: an offline, deterministic floor baseline and a harness self-test.

It asks a fixed generic history (the same questions for every case), asks for every
attachment that is released on request (reading the case's attachment titles: a
self-test of the harness, not a fair doctor), and ends with a final response that
states no diagnosis. Any real system should beat it on every metric but steps.
"""

from __future__ import annotations

from medbench_tui.core.consultation.loop import Consultation
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.systems.base import DrivenSystem
from medbench_tui.core.transcript import FinalResponse

HISTORY = (
    "When did this start, and how has it changed since?",
    "Can you describe what it feels like?",
    "How bad is it?",
    "Have you noticed any other symptoms along with it?",
    "Does anything make it better or worse?",
    "Have you had any medical problems in the past?",
    "Do you take any medicines?",
    "Do you have any allergies?",
    "Does anything run in your family?",
    "Do you smoke?",
    "How much alcohol do you drink?",
    "What do you do for work, and who lives with you?",
)
PREGNANCY = "Could you be pregnant? When was your last period?"
FINAL_TEXT = (
    "No diagnosis is offered: this is the checklist floor baseline, which takes a generic history only. "
    "Please see a doctor who can examine you."
)


def _years(age: int | str | None) -> float | None:
    if isinstance(age, int):
        return float(age)
    if isinstance(age, str):
        number, _, unit = age.strip().partition(" ")
        try:
            value = float(number)
        except ValueError:
            return None
        return value / 12 if unit.startswith("month") else value / 52 if unit.startswith("week") else value
    return None


def questions_for(consultation: Consultation) -> list[str]:
    case = consultation.case
    asked = list(HISTORY)
    years = _years(case.patient.age)
    if case.patient.sex == "female" and years is not None and 12 <= years <= 50:
        asked.append(PREGNANCY)
    asked += [f"Could I see the {a.title}?" for a in case.attachments if a.available == "on_request"]
    return asked


class ChecklistSystem(DrivenSystem):
    name = "checklist"

    def __init__(self, name: str = "checklist") -> None:
        self.name = name

    def public_config(self) -> JSONObject:
        return {
            "name": self.name,
            "kind": "checklist",
            "role": "floor baseline and harness self-test: a fixed generic history, no diagnosis",
            "questions": list(HISTORY),
            "pregnancy_question": PREGNANCY,
        }

    async def drive(self, consultation: Consultation) -> None:
        for question in questions_for(consultation):
            if consultation.turns_left == 0:
                break
            await consultation.ask(question)
            await self.give_way()
        consultation.finish(FinalResponse(text=FINAL_TEXT))
