"""A number with its unit, found in an answer: what a calculation criterion is graded on.

The answer's numbers are read from the scorer's document (its tokens and where each one is), a
number's digits joined across a decimal point or a thousands comma ("38.5", "1,250"); the unit
must follow the number, compared without case and spaces ("38 mL/min", "38ml / min"), a unit of
time by any of its names ("65 mL/hour" for mL/h, "mL per hour").
"""

from __future__ import annotations

from dataclasses import dataclass

from medbench_tui.core.cases.model import NumberRule
from medbench_tui.core.scoring.document import document
from medbench_tui.core.scoring.extraction_model import Span
from medbench_tui.core.text import Token
from medbench_tui.core.vocabulary import read_vocabulary

DIGITS = "0123456789"
MINUS = ("-", "\u2212", "\u2013")
CLOSE_ENOUGH = 1e-9
"""Slack added to a tolerance so that 38.0 - 2 = 36 sits inside it whatever the rounding."""


@dataclass(frozen=True)
class FoundNumber:
    value: float
    evidence: Span


def unit_spellings(unit: str) -> tuple[str, ...]:
    """The ways ``unit`` may be written, without spaces and in lower case, longest first: a unit of
    time in it by any of its names in the vocabulary ("mL/h" is also "mL/hour", "ml/hr"), and "/" as
    "per" ("mL per hour")."""
    parts = "".join(unit.split()).casefold().split("/")
    names = [list(dict.fromkeys("".join(said.split()).casefold() for said in u.say))
             for u in read_vocabulary().units]
    spelled = [""]
    for i, part in enumerate(parts):
        time = next((group for group in names if part in group), None)
        joints = ("",) if i == 0 else ("/", "per", "an", "a") if time else ("/", "per")
        spelled = [f"{head}{joint}{name}" for head in spelled for name in (time or [part]) for joint in joints]
    return tuple(sorted(set(spelled), key=len, reverse=True))


def numbers_with_unit(text: str, unit: str) -> list[FoundNumber]:
    """Every number of ``text`` written with ``unit`` (in any of its spellings) after it, in order."""
    doc = document(text)
    spellings = unit_spellings(unit)
    found = []
    k = 0
    tokens = doc.tokens
    while k < len(tokens):
        token = tokens[k]
        lead = len(token.low) - len(token.low.lstrip(DIGITS))
        if not lead:
            k += 1
            continue
        start, end = token.start, token.start + lead
        j = k
        while lead == len(tokens[j].low) and j + 1 < len(tokens) and _continues(text, tokens[j].end, tokens[j + 1]):
            j += 1
            lead = len(tokens[j].low) - len(tokens[j].low.lstrip(DIGITS))
            end = tokens[j].start + lead
        written = text[start:end].replace(",", "")
        if start and text[start - 1] in MINUS and (start < 2 or not text[start - 2].isalnum()):
            start, written = start - 1, "-" + written
        after = "".join(text[end:end + 3 * len(spellings[0]) + 8].split()).casefold()
        for wanted in spellings:
            unit_end = _end_of_unit(text, end, wanted)
            if after.startswith(wanted) and not text[unit_end:unit_end + 1].isalpha():
                found.append(FoundNumber(float(written), Span(start=start, end=unit_end, text=text[start:unit_end])))
                break
        k = j + 1
    return found


def _continues(text: str, end: int, following: Token) -> bool:
    """The next token carries on the number: "38.5" after a point, "1,250" after a thousands comma."""
    low = following.low
    gap = text[end:following.start]
    if not low[:1].isdigit():
        return False
    if gap == ".":
        return True
    return gap == "," and len(low) - len(low.lstrip(DIGITS)) == 3


def _end_of_unit(text: str, at: int, wanted: str) -> int:
    """Where the unit written from ``at`` ends (spaces inside it skipped)."""
    seen = 0
    while at < len(text) and seen < len(wanted):
        if not text[at].isspace():
            seen += 1
        at += 1
    return at


@dataclass(frozen=True)
class NumberReading:
    met: bool
    evidence: Span | None
    reason: str


def read_number(text: str, rule: NumberRule) -> NumberReading:
    """Met when a number written with the rule's unit lies within the tolerance of its value; the
    number that decided it (or the first one with the unit) is the evidence."""
    expected = f"{_shown(rule.value)} {rule.unit}" + (f" ± {_shown(rule.tolerance)}" if rule.tolerance else "")
    found = numbers_with_unit(text, rule.unit)
    for number in found:
        if abs(number.value - rule.value) <= rule.tolerance + CLOSE_ENOUGH:
            return NumberReading(True, number.evidence, f"found {number.evidence.text}, expected {expected}")
    if found:
        return NumberReading(False, found[0].evidence, f"found {found[0].evidence.text}, expected {expected}")
    return NumberReading(False, None, f"no number with the unit {rule.unit} in the answer (expected {expected})")


def _shown(value: float) -> str:
    return f"{value:g}"
