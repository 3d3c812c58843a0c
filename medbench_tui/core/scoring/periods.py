"""A reference item kept to pregnancy, and a mention the answer places after birth.

A contraindicated item named for pregnancy ("ACE inhibitor in pregnancy") is not given by a
plan for after the birth ("postnatally, enalapril 5 mg once daily"; a "Postnatal" heading over
the line): NICE NG133 recommends enalapril after birth. The period is read in the words around
the mention, the label that opens its line and the heading of its section or list; an item named
for no period is read as before.
"""

from __future__ import annotations

import re

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.scoring.cues import Cues, cue_list
from medbench_tui.core.scoring.document import Document
from medbench_tui.core.scoring.sections import parse
from medbench_tui.core.text import tokenize

BULLET_RE = re.compile(r"[-*+\u2022]\s|\d{1,2}[.)]\s")

PREGNANCY = cue_list("period_pregnancy")
"""Words by which a reference item keeps itself to pregnancy (``timing.yaml``)."""
AFTER_BIRTH = cue_list("period_after_birth")
"""Words that place a plan after the birth."""


def _has(phrases: Cues, text: str) -> bool:
    low = [t.low for t in tokenize(text)]
    return any(phrases.starting_at(low, k) is not None for k in range(len(low)))


def _in_reach(doc: Document, first: int, last: int) -> bool:
    """An after-birth phrase before the mention in its clause, or after it before the next comma."""
    clause = doc.clause[first]
    k = first - 1
    while k >= 0 and doc.clause[k] == clause:
        if AFTER_BIRTH.starting_at(doc.lows, k) is not None:
            return True
        k -= 1
    k = last + 1
    while k < len(doc.lows) and doc.clause[k] == clause and not doc.comma_before[k]:
        if AFTER_BIRTH.starting_at(doc.lows, k) is not None:
            return True
        k += 1
    return False


@batch_cache(maxsize=1024)
def _kept_to_pregnancy(item_name: str) -> bool:
    """Asked for every mention of every item: worked out once per name."""
    return bool(item_name) and _has(PREGNANCY, item_name)


def after_birth_only(doc: Document, first: int, last: int, item_name: str) -> bool:
    """The item is kept to pregnancy and the mention at tokens ``first..last`` is placed after the birth:
    by the words around it, the label that opens its line ("Postnatally: ...") or its section's heading."""
    if not _kept_to_pregnancy(item_name):
        return False
    start = doc.tokens[first].start
    line = doc.text[doc.text.rfind("\n", 0, start) + 1 : start]
    label = line.split(":", 1)[0] if ":" in line else ""
    heading = parse(doc.text).section_at(start).heading or ""
    labels = (label, heading, list_label(doc.text, start))
    return _in_reach(doc, first, last) or any(_has(AFTER_BIRTH, text) for text in labels)


def list_label(text: str, at: int) -> str:
    """The line that opens the list holding offset ``at`` ("**Postnatal care:**" over its bullets, an indented line
    going on with a bullet above it), or ""."""
    lines = text[: text.rfind("\n", 0, at) + 1].splitlines()
    for line in reversed(lines):
        stripped = line.strip()
        if stripped and not BULLET_RE.match(stripped) and not line[:1].isspace():
            return stripped if stripped.rstrip("*_ ").endswith(":") or stripped.startswith("#") else ""
    return ""
