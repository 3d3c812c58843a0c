"""Reading one line of a case file as the author types it (it may not parse as a whole)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ICD_VALUE = re.compile(r"""\bicd10\s*:[ \t]*(?P<value>"[^"\n]*"|'[^'\n]*'|[^\s#,}\]]*)""")
_BLOCK_KEY = re.compile(r"^\s*(?:-\s+)?icd10\s*:")


@dataclass(frozen=True)
class IcdValue:
    """The value of an ``icd10:`` key on a line: 0-based columns ``[start, end)``."""

    start: int
    end: int
    code: str
    needs_space: bool
    """True when nothing separates the value from the colon (``icd10:``): insert a space."""


@dataclass(frozen=True)
class IcdInsertion:
    """What to write where on the line: replace 0-based columns ``[start, end)`` by ``text``."""

    start: int
    end: int
    text: str


def icd_insertion(line: str, column: int, code: str) -> IcdInsertion | None:
    """How to put ``code`` into the line with the cursor at ``column`` without breaking it.

    The ``icd10:`` value under the cursor is replaced; so is the only one on the line when
    the cursor is elsewhere on it (at the end of ``- {name: X, icd10: N10}``). A space
    keeps the code apart from the colon before it and from a ``# comment`` after it (else
    the comment would become part of the code). None: the line has several ``icd10:``
    values and the cursor is on none of them. A line without one gets the code at the cursor.
    """
    value = icd_value_at(line, column)
    if value is None:
        matches = list(_ICD_VALUE.finditer(line))
        if len(matches) > 1:
            return None
        if not matches:
            return IcdInsertion(column, column, code)
        value = icd_value_at(line, matches[0].start("value"))
        assert value is not None
    text = (" " if value.needs_space else "") + code + (" " if line[value.end: value.end + 1] == "#" else "")
    return IcdInsertion(value.start, value.end, text)


def icd_value_at(line: str, column: int) -> IcdValue | None:
    """The ``icd10:`` value the cursor is on.

    On a line that is an ``icd10:`` entry (``icd10: J18.9``, ``- icd10: J18.9``) the
    whole line counts; in a flow mapping (``{name: X, icd10: J20.9}``) the cursor must be
    on that key or its value.
    """
    matches = list(_ICD_VALUE.finditer(line))
    if not matches:
        return None
    chosen = next((m for m in matches if m.start() <= column <= m.end("value")), None)
    if chosen is None and _BLOCK_KEY.match(line):
        chosen = matches[0]
    if chosen is None:
        return None
    raw = chosen.group("value")
    code = raw[1:-1] if raw[:1] in "\"'" and len(raw) >= 2 else raw
    start, end = chosen.span("value")
    return IcdValue(start, end, code.strip(), not line[:start].endswith((" ", "\t")))
