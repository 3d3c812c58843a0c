"""The sections and list items of a free-text final response.

A heading is recognised at the start of a line (after an optional bullet or number)
in any of these forms: ``## Plan``, ``**Diagnosis:** text``, ``**Diagnosis**: text``,
``Diagnosis: text``, ``DIAGNOSIS``, ``Working diagnosis - text``; and inside a line
after a sentence end ("Diagnosis: CAP. Plan: amoxicillin."). The heading's words pick
the section (:data:`HEADINGS`; else, for a short heading, its last words:
:data:`HEADING_TAILS`, "Immediate plan" is a treatment heading). An unknown ``#`` heading starts an "other" section
(reasoning, history); an unknown bold label is a sub-heading and keeps the section it
is in; an unknown plain ``Label:`` is ordinary text.

In the list sections (diagnosis, ICD-10, differential, workup, treatment, advice,
avoid) every line is an item (bullets and numbers stripped), split further at ``;``
and at sentence ends. Text before the first heading (or a text without headings) is
the preamble: prose, no items. A Markdown table's header and rule are no items; a table
whose first column is headed like a differential or avoid section (``| Also considered |``)
holds that section's entries, and the section it stands in goes on after it. A bracketed
part of a heading ("Plan (BSPED 2021)") qualifies it; a marked heading that times the plan
("After surgery", "Once stable") is a plan heading; a sub-heading on a line of its own ends an
Avoid list.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Literal

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.scoring.lines import BULLET_START_RE, WRAPPED_LINE_WIDTH
from medbench_tui.core.vocabulary import read_vocabulary

SectionKind = Literal[
    "preamble", "other", "diagnosis", "icd", "differential", "workup", "treatment", "advice", "avoid"
]
LIST_KINDS: frozenset[str] = frozenset({"diagnosis", "icd", "differential", "workup", "treatment", "advice", "avoid"})

_WORDS = read_vocabulary()
"""The shipped vocabulary: the heading words below are named phrase lists of ``sections.yaml``."""


_NOT_KEY_RE = re.compile(r"[^a-z0-9 ]")
_NOT_KEY_ASCII = bytes(c for c in range(128) if not (chr(c).isdigit() or "a" <= chr(c) <= "z" or c == 32))
"""What a heading key leaves out: the same characters, for a label in ASCII (every line is asked)."""


def heading_key(label: str) -> str:
    label = label.lower().replace("&", " and ").replace("-", " ").replace("/", " ")
    if label.isascii():
        return " ".join(label.encode().translate(None, _NOT_KEY_ASCII).decode().split())
    return " ".join(_NOT_KEY_RE.sub("", label).split())


def _heading_words(name: str) -> tuple[str, ...]:
    return tuple(heading_key(w) for w in _WORDS.phrases(name))


SECTION_HEADINGS: tuple[SectionKind, ...] = (
    "diagnosis", "icd", "differential", "workup", "treatment", "advice", "avoid", "other",
)
"""The sections a listed heading opens (each its list ``heading_<kind>``); a heading listed twice
opens the later one."""
HEADINGS: dict[str, SectionKind] = {
    w: kind for kind in SECTION_HEADINGS for w in _heading_words(f"heading_{kind}")
}
TAIL_HEADINGS: tuple[SectionKind, ...] = ("treatment", "workup", "diagnosis", "advice", "avoid")
HEADING_TAILS: dict[str, SectionKind] = {
    w: kind for kind in TAIL_HEADINGS for w in _heading_words(f"heading_tail_{kind}")
}
"""Headings not listed above, by their last words ("Immediate plan", "Further tests")."""
ASSESSMENT_PLAN = frozenset(_heading_words("heading_assessment_plan"))
"""Headings of an assessment and a plan together ("A/P:"): a plan heading whose own line is the assessment."""
HEADINGS.update({w: "treatment" for w in ASSESSMENT_PLAN})
PLAN_TIMES = frozenset(_heading_words("heading_plan_times"))
"""First words of a marked heading that times the rest of the plan ("After surgery", "Once stable")."""
TAIL_TIMES = frozenset(_heading_words("heading_tail_times"))
"""Last words of a short heading that only time it ("Management today"): its tail is read without them."""
DIFFERENTIAL_LEADS = frozenset(_heading_words("heading_differential_leads"))
"""First words that make any heading a differential one ("DDx (excluded or unlikely)")."""
_DIFFERENTIAL = _heading_words("heading_differential_words")
DIFFERENTIAL_WORDS = frozenset(w for w in _DIFFERENTIAL if " " not in w)
"""Words that make a short heading a differential one, wherever they stand."""
DIFFERENTIAL_PHRASES = tuple(w for w in _DIFFERENTIAL if " " in w)
"""Phrases of several words that do the same anywhere in the heading ("Less likely")."""
AVOID_LEADS = frozenset(_heading_words("heading_avoid_leads"))
AVOID_PREDICATES = frozenset(_heading_words("heading_avoid_predicates"))
"""A short heading "Not" + one of these ("Not advised:", "Not helpful here:", "Not needed at present") is an
avoid heading: what it labels is rejected."""
AVOID_WORDS = frozenset(_heading_words("heading_avoid_words"))
AVOID_NEGATIONS = frozenset(_heading_words("heading_avoid_negations"))
AVOID_VERBS = frozenset(_heading_words("heading_avoid_verbs"))
"""A short heading with a word of :data:`AVOID_WORDS` anywhere ("Drugs avoided and why"), or a negation right before
a verb of giving ("Medicines I would not use", "Not given"), is an avoid heading."""
PLAIN_TAIL_WORDS = 3
MARKED_TAIL_WORDS = 5
"""At most this many words in a heading recognised by its tail: a plain ``Label:``, or a
bold/Markdown one. A line without a colon or mark-up, or a plain label on a bulleted
line ("- Blood tests: FBC" labels an item), must be a listed heading."""


def heading_kind(label: str, *, tail_words: int, general_avoid: bool = True) -> SectionKind | None:
    """The section a heading starts: its words in :data:`HEADINGS`, else (short
    headings) its last words in :data:`HEADING_TAILS`; a word of :data:`DIFFERENTIAL_WORDS`
    anywhere makes a differential heading ("Other differential diagnoses", "Considered and excluded"). A part in
    brackets qualifies the heading ("Plan (BSPED 2021)", "Investigations (sent)"): when the whole label is no
    heading, it is read without it."""
    kind = _heading_kind(label, tail_words, general_avoid)
    if kind is None and ("(" in label or "[" in label):
        bare = _HEADING_BRACKET_RE.sub(" ", label)
        return _heading_kind(bare, tail_words, general_avoid) if bare.strip() else None
    return kind


_HEADING_BRACKET_RE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


def without_brackets(label: str) -> str:
    """The heading without the parts in brackets that qualify it ("History (from his wife)" -> "History ")."""
    return _HEADING_BRACKET_RE.sub(" ", label)


AVOID_HEADING_ENDS = (("and", "why"),)
"""What may follow the verb of a negated avoid heading ("What I would not prescribe and why"), or a listed heading
("Avoid and why", "Drugs to avoid and why": read as "Avoid"; grammar)."""


def _avoid_words(words: list[str]) -> bool:
    """A heading's words say what it lists is not given: a word of :data:`AVOID_WORDS`, or a negation and a verb
    of giving that end the heading ("Medicines I would not use"; "Do not give bicarbonate" is an instruction)."""
    if AVOID_WORDS & set(words):
        return True
    return any(words[k] in AVOID_NEGATIONS and words[k + 1] in AVOID_VERBS
               and (k + 2 == len(words) or tuple(words[k + 2 :]) in AVOID_HEADING_ENDS) for k in range(len(words) - 1))


def _heading_kind(label: str, tail_words: int, general_avoid: bool = True) -> SectionKind | None:
    key = heading_key(label)
    if key in HEADINGS:
        return HEADINGS[key]
    words = key.split()
    for end in AVOID_HEADING_ENDS:  # "Avoid and why", "Drugs to avoid and why": the heading with its reasons
        if len(words) > len(end) and tuple(words[-len(end):]) == end:
            rest = " ".join(words[: -len(end)])
            if rest in HEADINGS:
                return HEADINGS[rest]
    if words and words[0] in DIFFERENTIAL_LEADS:
        return "differential"  # "DDx (excluded or unlikely)", "Differentials considered and unlikely"
    if tail_words and len(words) <= MARKED_TAIL_WORDS and (
            DIFFERENTIAL_WORDS & set(words) or any(p in key for p in DIFFERENTIAL_PHRASES)):
        return "differential"  # "Other diagnoses considered", "Considered and ruled out", "Less likely"
    if 2 <= len(words) <= MARKED_TAIL_WORDS and words[0] in AVOID_LEADS and words[1] in AVOID_PREDICATES:
        return "avoid"
    if tail_words and general_avoid and len(words) <= MARKED_TAIL_WORDS and _avoid_words(words):
        return "avoid"  # "Drugs avoided and why", "Medicines I would not use", "Not given"
    if tail_words == MARKED_TAIL_WORDS and len(words) <= tail_words and words and words[0] in PLAN_TIMES:
        return "treatment"  # "## After the acute phase", "**Once stable**", "**Before discharge**"
    for end in AVOID_HEADING_ENDS:  # "What I would avoid, and why": its tail is read without the reasons
        if len(words) > len(end) + 1 and tuple(words[-len(end):]) == end:
            words = words[: -len(end)]
    if not words or len(words) > tail_words:
        return None
    while len(words) > 1:  # "Management today": the plan of today; "Investigations on arrival" (two words; g72)
        n = next((n for n in (2, 1) if len(words) > n and " ".join(words[-n:]) in TAIL_TIMES), 0)
        if not n:
            break
        words = words[:-n]
    for n in (2, 1):
        kind = HEADING_TAILS.get(" ".join(words[-n:]))
        if kind is not None:
            return kind
    return None


_BULLET_RE = re.compile(r"^[ \t]*(?:[-*+\u2022\u2013]\s+|\(?\d{1,2}[.)]\s+|\(?[a-z][.)]\s+)?")
_MARKDOWN_RE = re.compile(r"^(#{1,6})\s*")
_BOLD_RE = re.compile(r"^(\*\*|__)(.+?)\1\s*:?\s*")
_LABEL_RE = re.compile(r"^([A-Za-z][A-Za-z0-9 /&()'\u2019,-]{0,60}?)\s*(?::|\s[-\u2013\u2014]\s)\s*")
_INLINE_SPLIT_RE = re.compile(
    r"(?<=[A-Za-z)\]%][.!?])\s+(?=(?:\*\*|__)?(?:"
    + "|".join(sorted((re.escape(w).replace(r"\ ", r"[\s-]+") for w in HEADINGS), key=len, reverse=True))
    + r")(?:\*\*|__)?\s*:)",
    re.IGNORECASE,
)
_ITEM_SPLIT_RE = re.compile(r";|(?<=[.!?])\s+(?=[A-Z])")


@dataclass(frozen=True)
class Section:
    kind: SectionKind
    start: int  # of its body (after the heading)
    end: int
    heading: str | None


@dataclass(frozen=True)
class Item:
    """One list item: a line (or part of one) of a list section."""

    kind: SectionKind
    start: int
    end: int


@dataclass
class Layout:
    sections: list[Section]
    items: list[Item]

    def __post_init__(self) -> None:
        self._section_starts = [s.start for s in self.sections]
        self._item_starts = [i.start for i in self.items]

    def section_at(self, offset: int) -> Section:
        """The section that holds ``offset``; a heading's own words ("## Safety-netting" after an Avoid list) are
        the section they open, not the end of the one before."""
        i = max(bisect_right(self._section_starts, offset) - 1, 0)
        if offset >= self.sections[i].end and i + 1 < len(self.sections):
            return self.sections[i + 1]
        return self.sections[i]

    def item_at(self, offset: int) -> Item | None:
        i = bisect_right(self._item_starts, offset) - 1
        if i >= 0 and self.items[i].start <= offset < self.items[i].end:
            return self.items[i]
        return None

    def items_over(self, start: int, end: int) -> list[Item]:
        """The items that overlap ``text[start:end]``."""
        i = max(bisect_right(self._item_starts, start) - 1, 0)
        out = []
        while i < len(self.items) and self.items[i].start < end:
            if self.items[i].end > start:
                out.append(self.items[i])
            i += 1
        return out

    def has(self, kind: SectionKind) -> bool:
        return any(s.kind == kind for s in self.sections)


def _heading(segment: str) -> tuple[SectionKind | None, str | None, int, bool]:
    """(kind, heading, offset of the content after it, is a sub-heading) for one line
    segment; kind None when the segment is not a heading."""
    bullet = _BULLET_RE.match(segment)
    pos = bullet.end() if bullet else 0
    rest = segment[pos:]
    markdown = _MARKDOWN_RE.match(rest)
    if markdown:
        pos += markdown.end()
        rest = segment[pos:]
    bold = _BOLD_RE.match(rest)
    if bold:
        label = bold.group(2).strip().rstrip(":").strip()
        # a bold label on a bulleted line ("- **Metformin withheld**") is an entry, not an avoid heading by its words
        kind = heading_kind(label, tail_words=MARKED_TAIL_WORDS, general_avoid=not bullet)
        if kind is not None:
            return kind, label, pos + bold.end(), False
        after = rest[bold.end() :].strip()
        if markdown:
            return "other", label, pos + bold.end(), False
        if rest[: bold.end()].rstrip().endswith(":") or bold.group(2).strip().endswith(":") or not after:
            return None, label, pos + bold.end(), True
        return None, None, 0, False
    label_match = _LABEL_RE.match(rest)
    if label_match:
        # in a bulleted line "- Blood tests: FBC" labels an item: only a listed heading counts
        tail_words = MARKED_TAIL_WORDS if markdown else 0 if pos else PLAIN_TAIL_WORDS
        kind = heading_kind(label_match.group(1), tail_words=tail_words)
        if kind is not None:
            return kind, label_match.group(1).strip(), pos + label_match.end(), False
    whole = rest.strip().rstrip(":").strip()
    tail_words = MARKED_TAIL_WORDS if markdown else PLAIN_TAIL_WORDS if rest.rstrip().endswith(":") and not pos else 0
    kind = heading_kind(whole, tail_words=tail_words)
    if kind is not None:
        return kind, whole, len(segment), False
    if markdown:
        return "other", whole, len(segment), False
    return None, None, 0, False


@batch_cache(maxsize=64)
def parse(text: str) -> Layout:
    """Split a final response into sections and list items (offsets into ``text``);
    cached, because extraction and the critical-condition check both read it."""
    sections: list[Section] = []
    items: list[Item] = []
    kind: SectionKind = "preamble"
    sections.append(Section("preamble", 0, len(text), None))
    offset = 0
    lines = text.splitlines(keepends=True)
    around: Section | None = None  # the section a table with a section's header stands in
    one_line = False  # the section is a plain label with its text on its line ("DDx: a, b.")
    after_one_line: SectionKind = "other"  # what follows that line: the plan after "A/P: <assessment>"
    aside: Section | None = None  # the section a labelled paragraph of prose ("Background: ...") stands in
    paragraph_ended = False  # a blank line came after a one-line label's text
    carried: Section | None = None  # the section a labelled list item opened ("8. Not indicated: ..."), to its end
    for index, line in enumerate(lines):
        if aside is not None and not line.strip():
            # "Background: AF, hypertension." under Diagnosis is prose to the end of its paragraph; what follows
            # is the diagnosis section's again ("Most likely source: peptic ulcer")
            kind = aside.kind
            sections[-1] = Section(sections[-1].kind, sections[-1].start, offset, sections[-1].heading)
            sections.append(Section(kind, offset, len(text), aside.heading))
            aside = None
        wraps = False  # the label's text may go on past this line: "Impression: X; possible" / "Y too."
        if one_line and not line.strip():
            wraps, paragraph_ended = True, True
        elif one_line and (paragraph_ended or _bulleted(line) or _SENTENCE_END_RE.search(lines[index - 1])
                           or after_one_line != "other"):
            # a list after "DDx: a, b." is not more of it, nor is the line after "Dx: pneumonia." ("Admit to
            # HDU."), nor a line after the blank line that ends its paragraph: the label's text has ended
            # (after the blank line, a heading of its own line starts its own section and a results table
            # stays under the label)
            own_heading = _heading(line)[0] is not None and not _bulleted(line)
            if not (paragraph_ended and (own_heading or _TABLE_ROW_RE.match(line))):
                kind = after_one_line
                sections[-1] = Section(sections[-1].kind, sections[-1].start, offset, sections[-1].heading)
                sections.append(Section(kind, offset, len(text), None))
            paragraph_ended = False
        else:
            wraps = one_line
        one_line = False
        row = _TABLE_ROW_RE.match(line)
        if around is not None and row is None:
            kind = around.kind  # the table ends: back to the section it stands in
            sections[-1] = Section(sections[-1].kind, sections[-1].start, offset, sections[-1].heading)
            sections.append(Section(kind, offset, len(text), around.heading))
            around = None
        if row is not None and (_TABLE_RULE_RE.match(line) or _table_header(lines, index)):
            header = row.group(1).strip().strip("*_").strip()
            table_kind = heading_kind(header, tail_words=MARKED_TAIL_WORDS) if _table_header(lines, index) else None
            if around is None and table_kind is not None and table_kind in TABLE_KINDS:
                around = sections[-1]
                kind = table_kind
                sections[-1] = Section(around.kind, around.start, offset, around.heading)
                sections.append(Section(kind, offset + len(line), len(text), header))
            offset += len(line)
            continue  # a table's header and rule label columns: no item
        label_goes_on = carried is not None and _continues(line)
        if label_goes_on and carried is not None:
            # "8. Not indicated: antibiotics, CT (only if" / "   perforated), and full colonoscopy": the labelled
            # item's wrapped line is the label's still
            sections[-1] = Section(sections[-1].kind, sections[-1].start, offset, sections[-1].heading)
            sections.append(Section(carried.kind, offset, len(text), carried.heading))
        elif carried is not None:
            carried = None
        segments: list[tuple[int, int]] = []
        cut = 0
        for m in _INLINE_SPLIT_RE.finditer(line):
            segments.append((cut, m.start()))
            cut = m.end()
        segments.append((cut, len(line)))
        wrapped = _wraps_sentence(lines, index)
        for seg_start, seg_end in segments:
            segment = line[seg_start:seg_end]
            found, heading, content, sub = _heading(segment)
            if wrapped and seg_start == 0:
                # "exclude leukaemia (NICE: petechiae need immediate" / "assessment)." - the sentence goes on
                found, heading, content, sub = None, None, 0, False
            if sub and (kind == "preamble" or (kind == "avoid" and not segment[content:].strip()
                                               and not _bulleted(segment))):
                # a sub-heading on a line of its own ("**After surgery**") ends what to avoid; a bulleted one
                # ("- **Contrast CT.**") is one more thing to avoid
                found = "other"
            before = sections[-1]
            said_here = segment[content:].strip() if found is not None else ""
            if found is not None and heading is not None and heading_key(heading) in ASSESSMENT_PLAN and said_here:
                found = "diagnosis"  # "A/P: delirium on dementia, likely UTI." - the plan comes on the next lines
                after_one_line = "treatment"
            elif found is not None:
                after_one_line = "other"
            if found is not None:
                wraps = False  # a heading on the line ends the label's text
                aside = before if (found == "other" and before.kind in LIST_KINDS and said_here
                                   and _LABEL_RE.match(segment) is not None) else None
                kind = found
                sections[-1] = Section(before.kind, before.start, offset + seg_start, before.heading)
                sections.append(Section(kind, offset + seg_start + content, len(text), heading))
                said = segment[content:].strip()
                one_line = (found in ONE_LINE_KINDS and bool(said) and not said.endswith(":")
                            and _LABEL_RE.match(segment) is not None and not _bulleted(segment))
            elif not sub:
                content = 0
            if kind in LIST_KINDS:
                _add_items(items, kind, line, offset, seg_start + content, seg_end)
            bullet = _BULLET_RE.match(segment)  # every part optional: it always matches
            if found is not None and bullet is not None and bullet.end() and segment[content:].strip():
                # "- Blood tests: FBC" under Plan labels one item; the list goes on
                kind = before.kind
                sections[-1] = Section(found, sections[-1].start, offset + seg_end, heading)
                sections.append(Section(kind, offset + seg_end, len(text), before.heading))
                carried = Section(found, 0, 0, heading)
                label_goes_on = False
        if label_goes_on and carried is not None:
            back = sections[-2]
            sections[-1] = Section(sections[-1].kind, sections[-1].start, offset + len(line), sections[-1].heading)
            sections.append(Section(back.kind, offset + len(line), len(text), back.heading))
        one_line = one_line or wraps
        offset += len(line)
    if len(sections) > 1 and sections[0].end == 0:
        sections.pop(0)
    return Layout(sections, items)


def _continues(line: str) -> bool:
    """The line wraps the list item before it: indented, neither a new item, a heading nor a table row."""
    return (line[:1] in (" ", "\t") and bool(line.strip()) and not _bulleted(line) and _heading(line)[0] is None
            and _TABLE_ROW_RE.match(line) is None)


_WRAP_ENDS = frozenset(",(")
"""Besides a letter or a digit, how a line may end that the next line goes on with in lower case."""


def _wraps_sentence(lines: list[str], index: int) -> bool:
    """The line goes on with the sentence of the line before, prose wrapped at a width as a clause is
    (document.py): it starts in lower case, with no bullet, after a long line of text (no heading, no table row)
    that ends with no stop or colon ("... WCC 8.4 with a normal" / "differential; film shows large platelets"; a
    label's text too: "Bloods: ... a normal white cell" / "differential; ..."),
    indented under it or after a line that is no list item (a short terse line "- VRIII; hold metformin" /
    "ddx cellulitis" starts a new one)."""
    line = lines[index]
    if index == 0 or not line.strip()[:1].islower() or _bulleted(line):
        return False
    before = lines[index - 1].rstrip()
    if len(before) < WRAPPED_LINE_WIDTH or not (before[-1].isalnum() or before[-1] in _WRAP_ENDS):
        return False
    if line[:1] not in (" ", "\t") and BULLET_START_RE.match(before):
        return False
    found, _label, content, _sub = _heading(before)
    return _TABLE_ROW_RE.match(before) is None and (found is None or bool(before[content:].strip()))


def _bulleted(line: str) -> bool:
    bullet = _BULLET_RE.match(line)
    return bullet is not None and bullet.end() > 0 and bool(line[: bullet.end()].strip())


ONE_LINE_KINDS = frozenset({"diagnosis", "icd", "differential"})
_SENTENCE_END_RE = re.compile(r"[.!?]\s*$")
"""Sections that a plain label with its text on the same line ("DDx: a, b.") holds to that line: a list
after it is not more of it (a terse note's plan often has no heading)."""
_TABLE_ROW_RE = re.compile(r"^[ \t]*\|([^|\n]*)\|")
_TABLE_RULE_RE = re.compile(r"^[ \t]*\|(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*$")
TABLE_KINDS = frozenset({"differential", "avoid"})
"""A table whose first column is headed like one of these sections ("| Also considered | Why less likely |")
holds that section's entries, and the section it stands in goes on after it."""


def _table_header(lines: list[str], index: int) -> bool:
    """Line ``index`` is a table's header row: the next line is its rule (``|---|---|``)."""
    return index + 1 < len(lines) and _TABLE_RULE_RE.match(lines[index + 1]) is not None


def _add_items(items: list[Item], kind: SectionKind, line: str, offset: int, start: int, end: int) -> None:
    bullet = _BULLET_RE.match(line[start:end])
    cut = start + (bullet.end() if bullet else 0)
    bounds = [(m.start(), m.end()) for m in _ITEM_SPLIT_RE.finditer(line, cut, end)]
    for a, b in zip([cut, *(e for _, e in bounds)], [*(s for s, _ in bounds), end], strict=True):
        while a < b and line[a] in " \t*_#|\r\n":
            a += 1
        while b > a and line[b - 1] in " \t*_.,;:|\r\n":
            b -= 1
        if b > a:
            items.append(Item(kind, offset + a, offset + b))
