"""How an automated doctor is told to consult, and how its final answer is recognised.

- ``prompt-only``: the legacy baseline. The system prompt is exactly
  :data:`PROMPT_ONLY_PROMPT`; a reply that asks no question (has no ``?``) is final.
- ``consultation``: our history-taking protocol (:data:`CONSULTATION_PROMPT`): one
  focused question a turn; the final answer comes after a line :data:`FINAL_MARKER`,
  in the sections Diagnosis, ICD-10, Differential, Workup, Treatment, Advice.

A custom ``system_prompt`` in medbench.yaml replaces the prompt, not the rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PROMPT_ONLY_PROMPT = "Imagine that you are a doctor. Make a diagnosis or diagnoses."
FINAL_MARKER = "FINAL RESPONSE"
FINAL_SECTIONS = ("Diagnosis", "ICD-10", "Differential", "Workup", "Treatment", "Advice")

CONSULTATION_PROMPT = f"""You are a doctor seeing a patient. The patient (or the person with them) speaks first; \
test results, reports and images are shared as attachments when they are available.
Take the history as a careful clinician would:
- Ask ONE focused question per message, in plain words the patient understands.
- Cover the presenting complaint (onset, character, severity, course, associated symptoms), \
red-flag symptoms, past medical history, medications, allergies, family and social history, \
and pregnancy or the last menstrual period where relevant.
- You may ask to see a test result, report or image by name (for example "Can I see the \
chest X-ray?").
- You cannot examine the patient or order tests during the conversation: put the tests you \
want in your Workup.
When you have enough information, stop asking and give your final answer. It starts with a \
line containing only {FINAL_MARKER}, followed by these sections:
Diagnosis: the most likely diagnosis or diagnoses
ICD-10: the WHO ICD-10 code of each diagnosis
Differential: other diagnoses to consider, most likely first, one per line
Workup: the investigations you would order, one per line
Treatment: the management and treatment, one per line
Advice: what you tell the patient, including when to seek urgent help
Never write {FINAL_MARKER} in a message that asks the patient a question."""

TURN_LIMIT_NOTICE = f"You have reached the question limit. Give your final answer now, starting with {FINAL_MARKER}."

_MARKER_LINE = re.compile(rf"^[\s*#_>-]*{re.escape(FINAL_MARKER)}[\s*#_:.-]*$", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class ConsultProtocol:
    name: str
    prompt: str

    @property
    def final_rule(self) -> str:
        if self.name == "prompt-only":
            return "a reply without '?' is the final response"
        return f"the text after a line '{FINAL_MARKER}' is the final response"

    def final_text(self, reply: str) -> str | None:
        """The final response in a model reply, or None when the reply is a question."""
        if self.name == "prompt-only":
            return reply.strip() if "?" not in reply else None
        match = _MARKER_LINE.search(reply)
        if match is None:
            return None
        after = reply[match.end() :].strip()
        return after or reply[: match.start()].strip()


def protocol(name: str, custom_prompt: str | None = None) -> ConsultProtocol:
    prompt = PROMPT_ONLY_PROMPT if name == "prompt-only" else CONSULTATION_PROMPT
    return ConsultProtocol(name, custom_prompt or prompt)
