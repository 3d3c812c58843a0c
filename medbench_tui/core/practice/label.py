"""How a case is shown to someone practising it: what a clinician knows before the consultation.

Ids and titles are for authors and reports: they usually name the diagnosis
(``em-stemi-001``, "Anaphylaxis after satay sauce"). Wherever a person practises, a case is
an opaque number with category, age and sex, urgency and setting (case-format.md,
"Titles and ids while practising").
"""

from __future__ import annotations

import hashlib

from medbench_tui.core.cases.model import Case

# Five digits: unique enough for a bank of a few hundred cases, and no order to read
# anything from (a case's neighbours in id order are its variants).
_NUMBER_SPAN = 90_000
_NUMBER_BASE = 10_000
_SEX = {"female": "F", "male": "M"}


def practice_number(case_id: str) -> int:
    """A stable opaque number for ``case_id``: the same on every machine, meaningless to read."""
    digest = hashlib.sha256(f"medbench-practice:{case_id}".encode()).digest()
    return _NUMBER_BASE + int.from_bytes(digest[:8], "big") % _NUMBER_SPAN


def _words(value: str | None) -> str | None:
    return value.replace("_", " ") if value else None


def practice_label(
    case_id: str,
    *,
    category: str | None,
    age: int | str | None,
    sex: str | None,
    urgency: str | None,
    setting: str | None,
) -> str:
    """``Case 48213 · emergency medicine · 24 M · emergency · emergency department``."""
    who = " ".join(part for part in (str(age) if age is not None else "", _SEX.get(sex or "", "")) if part)
    parts = [f"Case {practice_number(case_id)}", _words(category), who or None, urgency, _words(setting)]
    return " · ".join(part for part in parts if part)


def case_practice_label(case: Case) -> str:
    """The practice label of a loaded case."""
    return practice_label(
        case.id,
        category=case.metadata.category,
        age=case.patient.age,
        sex=case.patient.sex,
        urgency=case.metadata.urgency,
        setting=case.metadata.setting,
    )
